"""Generates docs/dashboard-*.png: the dashboard on a real pagehost (with its demo session), a stacked session
with a popup and a tabbed session with two popups, at 1280×800 and on a narrow window. Run by
scripts/dashboard-screenshot."""

import os
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import REPO, TOKEN, Pagehost, make_browser, set_viewport

DOCS = os.path.join(REPO, 'docs')


def page(title, color, heading, text):
    return (f'<!doctype html><meta name="theme-color" content="{color}"><title>{title}</title>'
            f'<body style="font:16px sans-serif;margin:0"><header style="background:{color};color:#fff;padding:12px 20px">'
            f'<b>{heading}</b></header><main style="padding:20px"><p>{text}</p></main>'
            '<script>window.openPopup = (name, title, color, features) => {'
            ' const w = window.open("about:blank", name, features); if (!w) return false;'
            ' w.document.write(`<meta name=theme-color content=${color}><title>${title}</title>'
            '<body style="font:16px sans-serif;margin:0"><header style="background:${color};color:#fff;padding:12px 20px">'
            '<b>${title}</b></header><main style="padding:20px"><p>Opened by window.open.</p></main>`);'
            ' w.document.close(); return true; };</script></body>')


def wait(driver, condition, what, timeout=30):
    WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition(d), f'timed out: {what}')


def thumbnails_shown(driver):
    cards = [c for c in driver.find_elements(By.CSS_SELECTOR, '.page-card') if c.is_displayed()]
    bodies = [c for c in cards if c.find_element(By.CSS_SELECTOR, '.page-body').is_displayed()]
    return bodies and all(c.find_element(By.CSS_SELECTOR, 'img.thumb').get_attribute('src') for c in bodies)


def main():
    pagehost = Pagehost(demo=True)
    browser = None
    try:
        api = pagehost.api
        # The browser watches from the start, so the timelines show the events as they came.
        browser = make_browser(1280, 800)
        browser.get(f'{pagehost.base}/?token={TOKEN}')
        wait(browser, lambda d: d.find_element(By.ID, 'connection').get_attribute('data-state') == 'connected', 'connected')
        stacked, shop = api.create_loaded(html=page('Shop: your cart', '#2a6f97', 'Shop', 'Two items in the cart.'),
                                          baseURL='https://shop.example/cart', label='Checkout (stacked)',
                                          popupMode='stacked')
        api.evaluate(stacked, shop, 'return openPopup("pay", "Payment", "#8a3ffc", "width=480,height=640")')
        tabbed, mail = api.create_loaded(html=page('Mail: inbox', '#1e7b34', 'Mail', 'Three unread messages.'),
                                         baseURL='https://mail.example/inbox', label='Mail (tabbed)',
                                         popupMode='tabbed', userAgentSuffix='GOOGLE_PAY_SUPPORTED')
        api.evaluate(tabbed, mail, 'return openPopup("cal", "Calendar invite", "#b35c00", "")')
        api.evaluate(tabbed, mail, 'return openPopup("att", "Attachment preview", "#6a1b9a", "width=600,height=400")')
        api.wait_for(lambda: len(api.session(tabbed)['pages']) == 3 and len(api.session(stacked)['pages']) == 2,
                     'the popups')
        time.sleep(0.5)  # let titles and theme colours settle in the pages (a picture, not a test)

        wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, '.session-card')) == 3, 'three sessions')
        browser.save_screenshot(os.path.join(DOCS, 'dashboard-overview.png'))

        for sid, name in ((stacked, 'stacked'), (tabbed, 'tabbed')):
            browser.execute_script('location.hash = arguments[0]', f'#/sessions/{sid}')
            wait(browser, thumbnails_shown, f'the thumbnails of {sid}')
            time.sleep(0.3)  # the images decode
            browser.save_screenshot(os.path.join(DOCS, f'dashboard-{name}.png'))

        set_viewport(browser, 420, 900)
        demo = next(s['id'] for s in api.call('GET', '/api/sessions') if s['id'] not in (stacked, tabbed))
        browser.execute_script('location.hash = arguments[0]', f'#/sessions/{demo}')
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, 'form.dialog'), 'the demo dialog')
        browser.save_screenshot(os.path.join(DOCS, 'dashboard-narrow.png'))
        print('dashboard-screenshot: wrote docs/dashboard-{overview,stacked,tabbed,narrow}.png')
    finally:
        if browser:
            browser.quit()
        pagehost.stop()


if __name__ == '__main__':
    sys.exit(main())
