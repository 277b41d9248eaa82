"""Roles (issue 7): with a viewer's token the dashboard shows every session, page and dialog but none of the
controls that change something (the server would refuse them with 403), and says it is read-only; with the
operator's token the same session shows them all."""

import unittest

from selenium.webdriver.common.by import By

from harness import API, VIEWER_TOKEN, TOKEN, APIError, DashboardTestCase, opener_page

# Controls a viewer cannot use: none may be displayed to a viewer; every one is displayed to an operator.
OPERATOR_CONTROLS = {
    'the create form': 'details.create',
    'close session': 'button.close-session',
    'the popup × ': '.page-card .close-page',
    'the URL field': 'input.navigate-url',
    'Back': 'button.history-back',
    'Forward': 'button.history-forward',
    'Reload': 'button.reload',
    'Stop': 'button.stop',
    'find': 'form.find-form',
    'the dialog buttons': 'form.dialog button',
}


class RoleTests(DashboardTestCase):
    pagehost_options = {'viewer_token': VIEWER_TOKEN}

    def shown(self, css):
        return [e for e in self.browser.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]

    def test_a_viewer_sees_everything_but_no_control_and_an_operator_sees_them(self):
        try:
            self.api.call('GET', '/api/whoami')
        except APIError as error:
            if error.status == 404:
                self.skipTest('GET /api/whoami answers 404: this pagehost has no roles yet')
            raise
        self.assertEqual(API(self.pagehost.base, VIEWER_TOKEN).call('GET', '/api/whoami'), {'role': 'viewer'})

        # A session (stacked) with a popup on top and a confirm waiting in the main page.
        sid, main = self.api.create_loaded(html=opener_page('Watched'), baseURL='http://127.0.0.1/watched',
                                           dialogPolicy='ask')
        self.assertTrue(self.api.evaluate(sid, main, 'return openPopup("Popup seen")'))
        popup = self.wait_api(lambda: next((p['id'] for p in self.api.session(sid)['pages'] if p['role'] == 'popup'), None),
                              'the popup')
        self.api.evaluate(sid, main, 'setTimeout(() => confirm("Seen, not answered"), 10); return 1')
        self.wait_api(lambda: any(p.get('dialog') for p in self.api.session(sid)['pages']), 'the waiting confirm')

        self.open_dashboard(token=VIEWER_TOKEN)
        self.wait(lambda d: d.find_element(By.ID, 'role-badge').is_displayed(), 'the read-only badge')
        self.assertEqual(self.text_of('#role-badge'), 'read-only (viewer)')
        self.assertEqual(self.shown('details.create'), [], 'no create form for a viewer')
        self.wait_text(f'.session-card[data-session-id="{sid}"] .page-title', 'Watched')
        self.go_to_session(sid)
        self.wait_text(f'.page-card[data-page-id="{popup}"] .page-title', 'Popup seen')
        self.wait_text('form.dialog .dialog-message', 'Seen, not answered')
        self.assertTrue(self.shown('.dialog-viewer-note'), 'the viewer is told an operator answers')
        # Covered pages stay readable: Details opens the main page's card.
        self.browser.find_element(By.CSS_SELECTOR, f'.page-card[data-page-id="{main}"] button.peek').click()
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, f'.page-card[data-page-id="{main}"] .page-body').is_displayed(),
                  'the main page\'s details')
        for what, css in OPERATOR_CONTROLS.items():
            self.assertEqual(self.shown(css), [], f'a viewer sees no {what} ({css})')
        self.assertEqual(self.browser.execute_script(
            'return [...document.querySelectorAll(".operator-only")].filter((e) => e.checkVisibility()).length'), 0)

        # The same session for the operator: the controls are there, the badge is not.
        self.open_dashboard(token=TOKEN, fragment=f'#/sessions/{sid}')
        self.wait(lambda d: self.shown('button.close-session'), 'the operator\'s controls')
        self.assertFalse(self.browser.find_element(By.ID, 'role-badge').is_displayed())
        self.wait_text('form.dialog .dialog-message', 'Seen, not answered')
        self.browser.find_element(By.CSS_SELECTOR, f'.page-card[data-page-id="{main}"] button.peek').click()
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, f'.page-card[data-page-id="{main}"] .page-body').is_displayed(),
                  'the main page\'s details')
        for what, css in OPERATOR_CONTROLS.items():
            if css == 'details.create':
                continue  # the overview's, checked below
            self.assertTrue(self.shown(css), f'an operator sees {what} ({css})')
        self.assertEqual(self.shown('.dialog-viewer-note'), [])
        self.browser.find_element(By.CSS_SELECTOR, 'nav.crumbs a').click()
        self.wait(lambda d: self.shown('details.create'), 'the create form for an operator')


if __name__ == '__main__':
    unittest.main()
