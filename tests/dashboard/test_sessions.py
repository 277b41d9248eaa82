"""The overview and the session view follow the server live: sessions appear and go, popups stack or become
tabs, and × closes a popup on the server."""

import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import DashboardTestCase, opener_page


class SessionsTests(DashboardTestCase):
    def test_a_session_created_over_the_api_appears_in_the_overview_and_goes_when_closed(self):
        self.open_dashboard()
        self.gone('.session-card')
        session = self.api.create(html='<title>Checkout page</title><p>hi', baseURL='http://shop.test/cart',
                                  label='overview-check')
        sid = session['id']
        card = f'.session-card[data-session-id="{sid}"]'
        self.element(card)
        self.wait_text(f'{card} .session-link', 'overview-check')
        self.wait_text(f'{card} .page-title', 'Checkout page')
        self.wait_text(f'{card} .url', 'http://shop.test/cart')
        self.assertEqual(self.text_of(f'{card} .mode'), 'stacked')
        self.assertEqual(self.text_of(f'{card} .engine'), 'webkit')
        self.assertEqual(self.text_of(f'{card} .pages-open'), '1')

        # The filter matches label, URL and title.
        other = self.api.create(html='<title>Other</title>', baseURL='http://elsewhere.test/', label='second')['id']
        self.element(f'.session-card[data-session-id="{other}"]')
        box = self.browser.find_element(By.ID, 'filter')
        box.send_keys('shop.test')
        self.wait(lambda d: not d.find_element(By.CSS_SELECTOR, f'.session-card[data-session-id="{other}"]').is_displayed(),
                  'the filter hides the other session')
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, card).is_displayed())
        box.send_keys(Keys.CONTROL, 'a', Keys.DELETE)
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, f'.session-card[data-session-id="{other}"]').is_displayed(),
                  'clearing the filter shows it again')

        self.api.call('DELETE', f'/api/sessions/{sid}')
        self.gone(card)

    def test_a_popup_in_a_stacked_session_is_a_card_on_top_of_the_stack(self):
        self.open_dashboard()
        sid, main = self.api.create_loaded(html=opener_page('Stacked opener'), baseURL='http://127.0.0.1/', popupMode='stacked')
        self.go_to_session(sid)
        self.element(f'.stack .page-card[data-page-id="{main}"].is-top')
        self.assertTrue(self.api.evaluate(sid, main, 'return openPopup("First popup")'))

        popup = self.wait_api(lambda: next((p['id'] for p in self.api.session(sid)['pages'] if p['role'] == 'popup'), None),
                              'the popup in the API')
        top = self.element(f'.stack .page-card[data-page-id="{popup}"].is-top')
        self.wait_text(f'.page-card[data-page-id="{popup}"] .page-title', 'First popup')
        cards = self.browser.find_elements(By.CSS_SELECTOR, '.stack > .page-card')
        self.assertEqual([c.get_attribute('data-page-id') for c in cards], [main, popup], 'bottom to top')
        under = self.browser.find_element(By.CSS_SELECTOR, f'.page-card[data-page-id="{main}"]')
        self.assertIn('covered', under.get_attribute('class'))
        self.assertNotIn('is-top', under.get_attribute('class'))
        self.assertGreater(int(top.value_of_css_property('z-index')), int(under.value_of_css_property('z-index')))
        # The popup's card overlaps the one it covers and sits further in.
        self.assertLess(top.rect['y'], under.rect['y'] + under.rect['height'])
        self.assertGreater(top.rect['x'], under.rect['x'])
        self.assertTrue(self.text_of(f'.page-card[data-page-id="{popup}"] .opener').startswith(f'{main}, window.opener set'))
        self.assertTrue(self.text_of(f'.page-card[data-page-id="{popup}"] .features').startswith('400×300'))

    def test_a_popup_in_a_tabbed_session_is_a_new_active_tab(self):
        self.open_dashboard()
        sid, main = self.api.create_loaded(html=opener_page('Tabbed opener'), baseURL='http://127.0.0.1/', popupMode='tabbed')
        self.go_to_session(sid)
        self.element(f'.tab-item[data-page-id="{main}"].active .tab[aria-selected="true"]')
        self.assertTrue(self.api.evaluate(sid, main, 'return openPopup("Tab popup")'))

        popup = self.wait_api(lambda: next((p['id'] for p in self.api.session(sid)['pages'] if p['role'] == 'popup'), None),
                              'the popup in the API')
        self.element(f'.tab-item[data-page-id="{popup}"].active .tab[aria-selected="true"]')
        self.wait_text(f'.tab-item[data-page-id="{popup}"] .tab-label', 'Tab popup')
        tabs = self.browser.find_elements(By.CSS_SELECTOR, '.tabstrip .tab-item')
        self.assertEqual([t.get_attribute('data-page-id') for t in tabs], [main, popup], 'left to right')
        self.assertNotIn('active', tabs[0].get_attribute('class'))
        self.assertEqual(tabs[0].find_element(By.CSS_SELECTOR, '.tab').get_attribute('aria-selected'), 'false')
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, f'.page-card[data-page-id="{popup}"]').is_displayed())
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, f'.page-card[data-page-id="{main}"]').is_displayed())
        # The keyboard moves between tabs.
        tabs[1].find_element(By.CSS_SELECTOR, '.tab').send_keys(Keys.ARROW_LEFT)
        self.wait(lambda d: d.find_element(By.CSS_SELECTOR, f'.page-card[data-page-id="{main}"]').is_displayed(),
                  'Left arrow shows the main tab')

    def test_the_close_button_closes_a_popup_on_the_server_and_the_main_page_has_none(self):
        self.open_dashboard()
        sid, main = self.api.create_loaded(html=opener_page(), baseURL='http://127.0.0.1/')
        self.assertTrue(self.api.evaluate(sid, main, 'return openPopup("Doomed")'))
        popup = self.wait_api(lambda: next((p['id'] for p in self.api.session(sid)['pages'] if p['role'] == 'popup'), None),
                              'the popup in the API')
        self.go_to_session(sid)
        card = f'.page-card[data-page-id="{popup}"]'
        self.element(f'{card}.is-top')
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, f'.page-card[data-page-id="{main}"] .close-page'), [])
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, '.close-page')), 1)

        self.browser.find_element(By.CSS_SELECTOR, f'{card} .close-page').click()
        self.gone(card)
        pages = [p['id'] for p in self.api.session(sid)['pages']]
        self.assertEqual(pages, [main], 'the server closed the popup')
        self.element(f'.page-card[data-page-id="{main}"].is-top')
        self.assertEqual(self.browser.execute_script('return document.activeElement.closest(".page-card")?.dataset.pageId'),
                         main, 'the keyboard focus moves to the page now on top')
        self.wait(lambda d: any(f'{popup} closed (reason: admin)' in li.get_attribute('textContent')
                                for li in d.find_elements(By.CSS_SELECTOR, '.timeline li')),
                  'the timeline says why the popup closed')


if __name__ == '__main__':
    unittest.main()
