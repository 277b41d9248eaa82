"""A dialog waiting in a page is answered from the dashboard, and the page's script gets the answer."""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import DashboardTestCase

PROMPT_PAGE = ('<!doctype html><title>Asking</title><script>'
               'setTimeout(() => { const v = prompt("Your name?", "nobody"); document.title = "answer:" + v; }, 50);'
               '</script>')
# Opens a popup that traps beforeunload and has a button to click (WebKit asks only after user input).
TRAP_OPENER = ('<!doctype html><title>Trap opener</title><script>'
               'window.openTrap = () => { const w = window.open("about:blank", "trap", "width=400,height=300");'
               ' w.document.write("<title>Trap</title><button id=b style=\'width:100px;height:40px\'>b</button><script>'
               'addEventListener(\'beforeunload\', e => { e.preventDefault(); e.returnValue = \'stay\'; });'
               'document.getElementById(\'b\').onclick = () => { document.title = \'Trap clicked\'; };<\\/script>");'
               ' w.document.close(); return true; };'
               '</script>')
CONFIRM_PAGE = ('<!doctype html><title>Confirming</title><script>'
                'setTimeout(() => { document.title = "confirmed:" + confirm("Proceed?"); }, 50);'
                '</script>')


class DialogTests(DashboardTestCase):
    def test_a_prompt_answered_in_the_dashboard_reaches_the_page_script(self):
        self.open_dashboard()
        sid = self.api.create(html=PROMPT_PAGE, baseURL='http://127.0.0.1/', dialogPolicy='ask', label='prompt')['id']
        card = f'.session-card[data-session-id="{sid}"]'
        self.element(f'{card}.has-dialog')
        self.wait_text(f'{card} .dialogs', '1 pending')
        self.go_to_session(sid)
        form = self.element('.page-card form.dialog-prompt')
        self.assertEqual(form.find_element(By.CSS_SELECTOR, '.dialog-message').get_attribute('textContent'), 'Your name?')
        field = form.find_element(By.CSS_SELECTOR, 'input.dialog-input')
        self.assertEqual(field.get_attribute('value'), 'nobody', 'the default text is offered')
        field.send_keys(Keys.CONTROL, 'a')
        field.send_keys('Ada Lovelace')
        form.find_element(By.CSS_SELECTOR, 'button.dialog-accept').click()

        main = self.api.session(sid)['pages'][0]['id']
        self.wait_api(lambda: self.api.evaluate(sid, main, 'return document.title') == 'answer:Ada Lovelace',
                      "the page's script to receive the answer")
        self.gone('form.dialog')
        self.wait_text(f'.page-card[data-page-id="{main}"] .page-title', 'answer:Ada Lovelace')

    def test_a_confirm_is_cancelled_with_the_keyboard(self):
        self.open_dashboard()
        sid = self.api.create(html=CONFIRM_PAGE, baseURL='http://127.0.0.1/')['id']
        self.go_to_session(sid)
        form = self.element('.page-card form.dialog-confirm')
        self.assertEqual([b.text for b in form.find_elements(By.TAG_NAME, 'button')], ['OK', 'Cancel'])
        form.find_element(By.CSS_SELECTOR, 'button.dialog-dismiss').send_keys(Keys.ENTER)
        main = self.api.session(sid)['pages'][0]['id']
        self.wait_api(lambda: self.api.evaluate(sid, main, 'return document.title') == 'confirmed:false',
                      'the page to see the confirm cancelled')
        self.gone('form.dialog')

    def test_closing_a_beforeunload_trap_asks_it_and_stay_still_closes_it_forced(self):
        self.open_dashboard()
        sid, main = self.api.create_loaded(html=TRAP_OPENER, baseURL='http://127.0.0.1/')
        self.assertTrue(self.api.evaluate(sid, main, 'return openTrap()'))
        popup = self.wait_api(lambda: next((p['id'] for p in self.api.session(sid)['pages'] if p['role'] == 'popup'), None),
                              'the popup in the API')
        self.api.call('POST', f'/api/sessions/{sid}/pages/{popup}/click', {'selector': '#b'})
        self.wait_api(lambda: self.api.evaluate(sid, popup, 'return document.title') == 'Trap clicked', 'the click')
        self.go_to_session(sid)
        card = f'.page-card[data-page-id="{popup}"]'
        self.browser.find_element(By.CSS_SELECTOR, f'{card} .close-page').click()
        # The page is asked: its "Leave page?" dialog waits on its card.
        form = self.element(f'{card} form.dialog-beforeunload')
        self.assertEqual([b.text for b in form.find_elements(By.TAG_NAME, 'button')], ['Leave', 'Stay'])
        form.find_element(By.CSS_SELECTOR, 'button.dialog-dismiss').click()
        # Stay is the page's answer; the operator's close still wins, and says so.
        self.gone(card)
        self.assertEqual([p['id'] for p in self.api.session(sid)['pages']], [main])
        self.wait(lambda d: any(f'{popup} closed (reason: admin, forced' in li.get_attribute('textContent')
                                for li in d.find_elements(By.CSS_SELECTOR, '.timeline li')),
                  'the timeline says the close was forced')
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, '.page-card .error:not([hidden])'), [],
                         'the close itself succeeded')


if __name__ == '__main__':
    unittest.main()
