"""The session view's tools: thumbnails (fetched with the cookie, refreshed after a navigation finishes and on
demand, at most once a second per page), navigating from the URL field, and the create-session form."""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from harness import DashboardTestCase


class SessionToolTests(DashboardTestCase):
    def fetches(self, pid):
        return self.app(f'app.thumbnails.started.filter((s) => s.pid === "{pid}").map((s) => s.at)')

    def test_thumbnails_follow_navigation_and_refresh_at_most_once_a_second(self):
        self.open_dashboard()
        sid, main = self.api.create_loaded(html='<title>Thumb</title><body style="background:#c00">', baseURL='http://127.0.0.1/')
        self.go_to_session(sid)
        card = f'.page-card[data-page-id="{main}"]'
        self.wait(lambda d: (d.find_element(By.CSS_SELECTOR, f'{card} img.thumb').get_attribute('src') or '').startswith('blob:'),
                  'a screenshot in the card')
        self.assertTrue(self.browser.execute_script(
            f'const i = document.querySelector(\'{card} img.thumb\'); return i.complete && i.naturalWidth > 0'))

        # Navigating from the card's URL field: the thumbnail is fetched again when the navigation finishes.
        before = len(self.fetches(main))
        field = self.browser.find_element(By.CSS_SELECTOR, f'{card} input.navigate-url')
        field.clear()
        field.send_keys('data:text/html,<title>Second</title>')
        self.browser.find_element(By.CSS_SELECTOR, f'{card} .navigate-form button[type=submit]').click()
        self.wait_text(f'{card} .page-title', 'Second')
        self.wait_text(f'{card} .navigation', '#2 finished')
        self.wait(lambda d: len(self.fetches(main)) > before, 'a fetch after the navigation finished')

        # Five clicks in a row: fetched now or a second after the previous fetch, never more often, none lost.
        clicked = self.browser.execute_script('return performance.now()')
        button = self.browser.find_element(By.CSS_SELECTOR, f'{card} button.refresh-thumb')
        for _ in range(5):
            button.click()
        settled = ('((e) => e && e.timer === null && !e.inFlight && !e.again)(app.thumbnails.pages.get("' + main + '"))')
        self.wait(lambda d: self.app(settled) and self.fetches(main)[-1] > clicked, 'a fetch after the clicks, then quiet')
        starts = self.fetches(main)
        after = [t for t in starts if t > clicked]
        self.assertIn(len(after), (1, 2), f'five clicks, {len(after)} fetches')
        gaps = [b - a for a, b in zip(starts, starts[1:])]
        self.assertTrue(all(gap >= 990 for gap in gaps), f'fetch intervals in ms: {gaps}')

    def test_the_create_form_makes_a_session_with_the_chosen_options(self):
        self.open_dashboard()
        self.browser.find_element(By.CSS_SELECTOR, 'details.create summary').click()
        form = self.browser.find_element(By.ID, 'create-form')
        form.find_element(By.NAME, 'url').send_keys('data:text/html,<title>Made by the form</title>')
        form.find_element(By.NAME, 'label').send_keys('from the form')
        Select(form.find_element(By.NAME, 'popupMode')).select_by_value('tabbed')
        Select(form.find_element(By.NAME, 'dialogPolicy')).select_by_value('dismiss')
        Select(form.find_element(By.NAME, 'popupPolicy')).select_by_value('block')
        form.find_element(By.NAME, 'userAgentSuffix').send_keys('FORM_TEST')
        form.find_element(By.CSS_SELECTOR, 'button[type=submit]').click()

        self.wait(lambda d: '#/sessions/s' in d.current_url, 'the new session view')
        sid = self.browser.current_url.rsplit('/', 1)[1]
        self.wait_text('#session-view .session-label', 'from the form')
        session = self.api.session(sid)
        self.assertEqual(session['popupMode'], 'tabbed')
        self.assertTrue(session['userAgent'].endswith(' FORM_TEST'), session['userAgent'])
        main = session['pages'][0]['id']
        self.wait_text(f'.page-card[data-page-id="{main}"] .page-title', 'Made by the form')
        self.assertIs(self.api.evaluate(sid, main, 'return window.open("about:blank") === null'), True, 'popups blocked')
        self.assertIs(self.api.evaluate(sid, main, 'return confirm("dismissed at once?")'), False, 'dialogs dismissed')


if __name__ == '__main__':
    unittest.main()
