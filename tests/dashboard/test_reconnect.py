"""The stream survives a dropped socket: the dashboard reconnects with ?since= and shows what happened while
it was cut off, without reloading the page: from the replayed events when the server still holds them, from
a fresh snapshot when it does not."""

import unittest

from selenium.webdriver.common.by import By

from harness import DashboardTestCase, Pagehost, Relay, free_port


class RelayedTestCase(DashboardTestCase):
    """The browser talks to pagehost through a relay that the test can cut (to the browser it looks as if the
    server closed the socket) and hold shut; the relay's origin is allowed to open the stream."""

    limits = None

    def start_pagehost(self):
        self.relay_port = free_port()
        return Pagehost(allowed_origins=[f'http://127.0.0.1:{self.relay_port}'], limits=self.limits)

    def setUp(self):
        super().setUp()
        self.relay = Relay(self.pagehost.port, port=self.relay_port)
        self.addCleanup(self.relay.close)
        self.via_relay = f'http://127.0.0.1:{self.relay_port}'

    def state(self):
        return self.browser.find_element(By.ID, 'connection').get_attribute('data-state')

    def cut_and_hold(self):
        self.browser.execute_script('window.__sameDocument = true')
        self.streams_before = len(self.relay.stream_requests())
        self.relay.refusing = True
        self.relay.cut()
        self.wait(lambda d: self.state() == 'reconnecting', 'the indicator to say reconnecting')

    def release(self):
        self.relay.refusing = False
        self.wait_connected()

    def assert_resumed_in_place(self):
        self.assertTrue(self.browser.execute_script('return window.__sameDocument === true'), 'the page was not reloaded')
        resumed = self.relay.stream_requests()[self.streams_before:]
        self.assertTrue(resumed and all('since=' in line for line in resumed), f'reconnects ask ?since=: {resumed}')


class ReconnectTests(RelayedTestCase):
    def test_an_event_missed_while_the_socket_was_down_is_replayed_after_reconnecting(self):
        sid, main = self.api.create_loaded(html='<title>Before</title>', baseURL='http://127.0.0.1/', label='watched')
        self.open_dashboard(base=self.via_relay)
        card = f'.session-card[data-session-id="{sid}"]'
        self.wait_text(f'{card} .page-title', 'Before')

        self.cut_and_hold()
        self.api.evaluate(sid, main, 'document.title = "Changed while cut off"; return true')
        self.wait_api(lambda: self.api.session(sid)['pages'][0]['title'] == 'Changed while cut off', 'the title change')
        created = self.api.create(html='<title>New</title>', baseURL='http://127.0.0.1/', label='born offline')['id']
        self.assertEqual(self.text_of(f'{card} .page-title'), 'Before')
        self.assertEqual(self.state(), 'reconnecting')

        self.release()
        self.wait_text(f'{card} .page-title', 'Changed while cut off')
        self.wait_text(f'.session-card[data-session-id="{created}"] .session-link', 'born offline')
        self.assert_resumed_in_place()
        self.assertEqual(self.app('app.store.snapshots'), 1, 'replayed events, no second snapshot')


class SnapshotFallbackTests(RelayedTestCase):
    limits = {'eventLogCapacity': 8}

    def test_when_the_missed_events_are_gone_a_snapshot_brings_the_state_back(self):
        sid, _ = self.api.create_loaded(html='<title>Old</title>', baseURL='http://127.0.0.1/', label='gone soon')
        self.open_dashboard(base=self.via_relay)
        self.element(f'.session-card[data-session-id="{sid}"]')

        self.cut_and_hold()
        self.api.call('DELETE', f'/api/sessions/{sid}')
        for n in range(3):  # more events than the server's log of 8 keeps
            self.api.create_loaded(html=f'<title>Filler {n}</title>', baseURL='http://127.0.0.1/')

        self.release()
        self.gone(f'.session-card[data-session-id="{sid}"]')
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, '.session-card')) == 3, 'the three new sessions')
        self.assert_resumed_in_place()
        self.assertEqual(self.app('app.store.snapshots'), 2, 'the server answered with a fresh snapshot')


if __name__ == '__main__':
    unittest.main()
