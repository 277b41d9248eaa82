"""The page toolbox in the session view (issue 6): Back / Forward move the page through its history (checked
with the API), find shows the server's match count, and the new events (navigation.blocked, session.closed
with its reason) are timeline lines of text."""

import unittest

from selenium.webdriver.common.by import By

from harness import DashboardTestCase

FIRST = 'data:text/html,<title>First</title><p>one'
SECOND = 'data:text/html,<title>Second</title><p>two'
# "apple" three times in lower case, twice in other cases, and no word that contains it.
FRUIT = ('<!doctype html><title>Fruit</title><body><p>apple Apple pear apple</p><p>APPLE plum</p>'
         '<p>apple and a fig</p></body>')


class PageToolTests(DashboardTestCase):
    def page(self, sid, pid):
        return next(p for p in self.api.session(sid)['pages'] if p['id'] == pid)

    def button(self, card, css):
        return self.browser.find_element(By.CSS_SELECTOR, f'{card} {css}')

    def test_back_and_forward_move_the_page_through_its_history(self):
        self.open_dashboard()
        sid, main = self.api.create_loaded(url=FIRST)
        self.go_to_session(sid)
        card = f'.page-card[data-page-id="{main}"]'
        self.wait_text(f'{card} .page-title', 'First')
        self.assertFalse(self.button(card, '.history-back').is_enabled(), 'no history yet: Back is disabled')
        self.assertFalse(self.button(card, '.history-forward').is_enabled())

        self.api.call('POST', f'/api/sessions/{sid}/pages/{main}/navigate', {'url': SECOND})
        self.wait_text(f'{card} .page-title', 'Second')
        self.wait(lambda d: self.button(card, '.history-back').is_enabled(), 'Back enabled (canGoBack)')

        self.button(card, '.history-back').click()
        self.wait_api(lambda: (lambda p: p['url'] == FIRST and not p['canGoBack'] and p['canGoForward'])(self.page(sid, main)),
                      'the page back on the first URL, forward history only')
        self.wait_text(f'{card} .page-title', 'First')
        self.wait(lambda d: self.button(card, '.history-forward').is_enabled()
                  and not self.button(card, '.history-back').is_enabled(), 'Forward enabled, Back disabled')

        self.button(card, '.history-forward').click()
        self.wait_api(lambda: (lambda p: p['url'] == SECOND and p['canGoBack'] and not p['canGoForward'])(self.page(sid, main)),
                      'the page forward on the second URL')
        self.wait_text(f'{card} .page-title', 'Second')
        self.wait(lambda d: self.button(card, '.history-back').is_enabled()
                  and not self.button(card, '.history-forward').is_enabled(), 'Back enabled, Forward disabled')

        # Reload is the server's reload (a new navigation of the same URL), not a navigation from the dashboard.
        before = self.page(sid, main)['navigation']['id']
        self.button(card, 'button.reload').click()
        self.wait_api(lambda: (lambda p: p['navigation']['id'] > before and p['navigation']['event'] == 'finished'
                               and p['url'] == SECOND and p['canGoBack'])(self.page(sid, main)),
                      'a reload that keeps the history')
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, f'{card} .page-error').is_displayed())

    def test_find_shows_the_match_count(self):
        self.open_dashboard()
        sid, main = self.api.create_loaded(html=FRUIT, baseURL='http://127.0.0.1/fruit')
        self.go_to_session(sid)
        card = f'.page-card[data-page-id="{main}"]'
        self.wait_text(f'{card} .page-title', 'Fruit')
        field = self.button(card, 'input.find-text')
        field.send_keys('apple')
        case = self.button(card, 'input.find-case')
        self.assertTrue(case.is_selected(), 'case-insensitive by default')
        self.button(card, 'button.find-submit').click()
        self.wait_text(f'{card} .find-count', '5 matches')

        case.click()
        self.button(card, 'button.find-submit').click()
        self.wait_text(f'{card} .find-count', '3 matches')
        self.button(card, 'button.find-next').click()
        self.button(card, 'button.find-previous').click()
        self.wait(lambda d: self.button(card, 'button.find-previous').is_enabled(), 'the steps answered')
        self.wait_text(f'{card} .find-count', '3 matches')

        field.clear()
        field.send_keys('kiwi')
        self.button(card, 'button.find-submit').click()
        self.wait_text(f'{card} .find-count', 'no matches')
        self.assertFalse(self.button(card, 'button.find-next').is_enabled())

        self.button(card, 'button.find-clear').click()
        self.wait_text(f'{card} .find-count', '')
        self.assertEqual(field.get_attribute('value'), '')
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, f'{card} .page-error').is_displayed(),
                         self.text_of(f'{card} .page-error'))

    def test_a_blocked_navigation_and_the_close_reason_are_timeline_text(self):
        self.open_dashboard()
        # The link's URL carries markup: it must reach the timeline as text.
        url = 'http://www.example.test/<b>bold</b>'
        session = self.api.create(html=f'<!doctype html><title>Rules</title><a id="out" href="{url}">out</a>',
                                  baseURL='http://127.0.0.1/rules',
                                  navigationRules={'rules': [{'host': '*.example.test', 'action': 'block'}],
                                                   'default': 'allow'})
        sid, main = session['id'], session['pages'][0]['id']
        self.go_to_session(sid)
        self.wait_text(f'.page-card[data-page-id="{main}"] .page-title', 'Rules')
        self.api.call('POST', f'/api/sessions/{sid}/pages/{main}/click', {'selector': '#out'})

        line = self.wait(lambda d: next((li for li in d.find_elements(By.CSS_SELECTOR, '.timeline li[data-type="navigation.blocked"]')), None),
                         'a navigation.blocked line')
        text = line.find_element(By.CSS_SELECTOR, '.tl-text').get_attribute('textContent')
        self.assertTrue(text.startswith(f'{main}: navigation blocked (rule #0: block host *.example.test): http://www.example.test/'), text)
        self.assertIn('warn', line.get_attribute('class'))
        self.assertEqual(line.find_elements(By.CSS_SELECTOR, 'b, a'), [], 'no markup in the line')
        self.assertEqual(self.page(sid, main)['url'], 'http://127.0.0.1/rules', 'the page did not leave')

        self.api.call('DELETE', f'/api/sessions/{sid}')
        self.wait_text('#session-view .session-notice', f'Session {sid} was closed (reason: command).')
        self.wait(lambda d: any(li.get_attribute('textContent').endswith('session closed (reason: command)')
                                for li in d.find_elements(By.CSS_SELECTOR, '.timeline li[data-type="session.closed"]')),
                  'the closed line with its reason')

    def test_counted_and_new_events_read_as_one_line_each(self):
        """The lines for events a test cannot cheaply provoke in a real page, from the dashboard's own module."""
        self.open_dashboard()
        lines = self.browser.execute_async_script(
            'const events = arguments[0], done = arguments[arguments.length - 1];'
            'import("/js/events.js").then((m) => done(events.map((e) => m.describeEvent(e).text)));',
            [{'type': 'dialog.suppressed', 'seq': 1, 'sessionId': 's1', 'pageId': 'p1', 'kind': 'alert', 'count': 12},
             {'type': 'popup.blocked', 'seq': 2, 'sessionId': 's1', 'pageId': 'p1', 'url': 'about:blank', 'reason': 'limit', 'count': 980},
             {'type': 'popup.blocked', 'seq': 3, 'sessionId': 's1', 'pageId': 'p1', 'url': 'https://ads.test/', 'reason': 'policy', 'count': 1},
             {'type': 'session.closed', 'seq': 4, 'sessionId': 's1', 'reason': 'idleTimeout'},
             {'type': 'page.updated', 'seq': 5, 'sessionId': 's1', 'pageId': 'p1', 'changes': {'responsive': False}},
             {'type': 'navigation.blocked', 'seq': 6, 'sessionId': 's1', 'pageId': 'p1', 'url': 'https://x.test/a.zip',
              'rule': {'kind': 'notDisplayable', 'mimeType': 'application/zip'}},
             {'type': 'navigation.blocked', 'seq': 7, 'sessionId': 's1', 'pageId': 'p1', 'url': 'https://y.test/',
              'rule': {'kind': 'default', 'action': 'block'}}])
        self.assertEqual(lines, [
            'p1: 12 alert dialogs suppressed (too many: answered at once by dismissing)',
            'p1: 980 popups blocked (limit): about:blank',
            'p1: popup blocked (policy): https://ads.test/',
            'session closed (reason: idleTimeout)',
            'p1: NOT RESPONDING (busy script)',
            'p1: navigation blocked (cannot be shown (application/zip)): https://x.test/a.zip',
            'p1: navigation blocked (no rule matched, default block): https://y.test/',
        ])


if __name__ == '__main__':
    unittest.main()
