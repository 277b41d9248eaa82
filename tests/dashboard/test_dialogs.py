"""A dialog waiting in a page is answered from the dashboard, and the page's script gets the answer."""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import DashboardTestCase

PROMPT_PAGE = ('<!doctype html><title>Asking</title><script>'
               'setTimeout(() => { const v = prompt("Your name?", "nobody"); document.title = "answer:" + v; }, 50);'
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


if __name__ == '__main__':
    unittest.main()
