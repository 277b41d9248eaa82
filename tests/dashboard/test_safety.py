"""Page-derived strings are shown as text and never run in the dashboard."""

import unittest

from selenium.webdriver.common.by import By

from harness import DashboardTestCase

HOSTILE_TITLE = '<img src=x onerror="document.title=\'pwned\'">'
HOSTILE_MESSAGE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> & <b>bold</b>'
# <title> is raw text in HTML, so the title is exactly HOSTILE_TITLE. The alert's message is built so that no
# "</script>" ends the page's own script early.
HOSTILE_PAGE = ('<!doctype html><title>' + HOSTILE_TITLE + '</title><body><script>'
                'setTimeout(() => alert("<script>window.__pwned = 1</scr" + "ipt><img src=x onerror=\\"window.__pwned = 2\\"> & <b>bold</b>"), 50);'
                '</script></body>')


class SafetyTests(DashboardTestCase):
    def assert_nothing_ran(self, expected_title):
        d = self.browser
        self.assertEqual(d.title, expected_title, 'the dashboard title is its own')
        self.assertIsNone(d.execute_script('return window.__pwned'), 'no injected script ran')
        self.assertEqual(d.execute_script('return document.querySelectorAll("img:not(.thumb)").length'), 0,
                         'no <img> was injected')
        self.assertEqual(d.execute_script('return document.querySelectorAll("b, script:not([src])").length'), 0,
                         'no markup from the page was parsed')
        self.assertEqual(d.execute_script('return document.scripts.length'), 1, 'only the dashboard module')

    def test_a_hostile_title_and_dialog_message_are_shown_as_literal_text(self):
        self.open_dashboard()
        sid = self.api.create(html=HOSTILE_PAGE, baseURL='http://127.0.0.1/hostile', label='hostile')['id']
        card = f'.session-card[data-session-id="{sid}"]'
        self.wait_text(f'{card} .page-title', HOSTILE_TITLE)
        self.element(f'{card}.has-dialog')
        self.assert_nothing_ran('Pagehost dashboard')

        self.go_to_session(sid)
        main = self.api.session(sid)['pages'][0]['id']
        self.wait_text(f'.page-card[data-page-id="{main}"] .page-title', HOSTILE_TITLE)
        self.wait_text('form.dialog .dialog-message', HOSTILE_MESSAGE)
        self.wait(lambda d: any(HOSTILE_MESSAGE[:40] in li.get_attribute('textContent')
                                for li in d.find_elements(By.CSS_SELECTOR, '.timeline li')),
                  'the timeline shows the message as text')
        self.assert_nothing_ran(f'Pagehost — session {sid}')
        # Answering leaves nothing behind either.
        self.browser.find_element(By.CSS_SELECTOR, 'form.dialog button.dialog-accept').click()
        self.gone('form.dialog')
        self.assert_nothing_ran(f'Pagehost — session {sid}')

    def test_only_http_urls_become_links(self):
        self.open_dashboard()
        web = self.api.create(html='<title>web</title>', baseURL='https://example.test/page')['id']
        data = self.api.create(url='data:text/html,<title>data page</title>')['id']
        self.go_to_session(web)
        link = self.element('.page-card .page-url a.url')
        self.assertEqual(link.get_attribute('href'), 'https://example.test/page')
        self.assertEqual(link.get_attribute('rel'), 'noopener noreferrer')
        self.browser.get(self.pagehost.base + f'/#/sessions/{data}')
        self.wait_text('.page-card .page-title', 'data page')
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, '.page-card .page-url a'), [])
        self.assertTrue(self.text_of('.page-card .page-url span.url').startswith('data:text/html,'))


if __name__ == '__main__':
    unittest.main()
