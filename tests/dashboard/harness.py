"""Fixtures for the dashboard tests: a real pagehost on a free loopback port, headless Chromium driven by
Selenium, a small API client, and a TCP relay that can cut connections (for the reconnect test)."""

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
TOKEN = 'dashboard-test-token'
VIEWER_TOKEN = 'dashboard-test-viewer-token'
WAIT = float(os.environ.get('DASHBOARD_TEST_WAIT', '20'))


def pagehost_binary():
    path = os.environ.get('PAGEHOST_BIN') or os.path.join(REPO, '.build', 'debug', 'pagehost')
    if not os.access(path, os.X_OK):
        raise RuntimeError(
            f'no pagehost binary at {path}: build it (swift build --product pagehost) or set PAGEHOST_BIN')
    return path


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


class Pagehost:
    """`pagehost serve` on 127.0.0.1 with a known token and a config written for the test (absolute paths into
    the repository, optional extra allowed origins and limits). It starts its own Xvfb (DISPLAY is unset)."""

    def __init__(self, demo=False, allowed_origins=(), limits=None, viewer_token=None):
        with open(os.path.join(REPO, 'config', 'pagehost.json')) as f:
            config = json.load(f)
        config.update(host='127.0.0.1', port=0, token=TOKEN, demo=demo, allowedOrigins=list(allowed_origins),
                      adminUI=os.path.join(REPO, 'admin-ui'), demoFolder=os.path.join(REPO, 'examples', 'demo'),
                      openAPIFile=os.path.join(REPO, 'docs', 'openapi.json'))
        config['limits'].update(limits or {})
        if viewer_token:
            config['tokens'] = {'viewer': viewer_token}
        self.folder = tempfile.mkdtemp(prefix='pagehost-dash-')
        self.config_path = os.path.join(self.folder, 'pagehost.json')
        with open(self.config_path, 'w') as f:
            json.dump(config, f)
        self.log_path = os.path.join(self.folder, 'pagehost.log')
        env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY') and not k.startswith('PAGEHOST_')}
        self.log = open(self.log_path, 'wb')
        self.process = subprocess.Popen([pagehost_binary(), 'serve', '--config', self.config_path],
                                        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=self.log)
        self.port = self._read_port()
        self.base = f'http://127.0.0.1:{self.port}'
        self.api = API(self.base)

    def _read_port(self):
        deadline = time.monotonic() + 30
        line = b''
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                if not chunk:
                    break
                line += chunk
                if b'\n' in line:
                    text = line.decode()
                    # "pagehost: listening on http://127.0.0.1:PORT — dashboard: …"
                    return int(text.split('http://127.0.0.1:')[1].split('/')[0].split(' ')[0])
            elif self.process.poll() is not None:
                break
        self.stop()
        raise RuntimeError(f'pagehost did not start: {line!r}; log: {self.read_log()}')

    def read_log(self):
        try:
            with open(self.log_path, 'rb') as f:
                return f.read().decode(errors='replace')[-3000:]
        except OSError:
            return ''

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class APIError(Exception):
    def __init__(self, status, body):
        super().__init__(f'HTTP {status}: {body}')
        self.status = status


class API:
    """The HTTP API with the bearer token (the way a program other than the dashboard uses it)."""

    def __init__(self, base, token=TOKEN):
        self.base = base
        self.token = token

    def call(self, method, path, body=None, timeout=30):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={'Authorization': f'Bearer {self.token}', 'Content-Type': 'application/json'})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read()
                return json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raise APIError(error.code, error.read().decode(errors='replace')) from None

    def create(self, **body):
        return self.call('POST', '/api/sessions', body)

    def session(self, sid):
        return self.call('GET', f'/api/sessions/{sid}')

    def create_loaded(self, **body):
        """Creates a session and waits until its main page has finished loading; returns (sid, main page id)."""
        session = self.create(**body)
        sid, main = session['id'], session['pages'][0]['id']
        self.wait_for(lambda: ((self.session(sid)['pages'][0].get('navigation') or {}).get('event') == 'finished'),
                      f'session {sid} to finish loading')
        return sid, main

    def evaluate(self, sid, pid, script):
        return self.call('POST', f'/api/sessions/{sid}/pages/{pid}/evaluate', {'script': script})['result']

    def wait_for(self, predicate, what, timeout=WAIT):
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            last = predicate()
            if last:
                return last
            time.sleep(0.05)
        raise AssertionError(f'timed out waiting for {what} (last: {last!r})')


def make_browser(width=1280, height=800):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get('CHROMIUM_BIN') or shutil.which('chromium') or '/usr/bin/chromium'
    for argument in ('--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu',
                     '--disable-extensions', '--no-first-run', f'--window-size={width},{height}'):
        options.add_argument(argument)
    options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    service = Service(os.environ.get('CHROMEDRIVER_BIN') or shutil.which('chromedriver') or '/usr/bin/chromedriver')
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_script_timeout(WAIT)
    set_viewport(driver, width, height)
    return driver


def set_viewport(driver, width, height):
    """The page's viewport is exactly width×height (a headless window's size includes its frame)."""
    driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride',
                           {'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False})


class DashboardTestCase(unittest.TestCase):
    """Each test: its own pagehost and its own browser, opened on the dashboard URL the server prints."""

    pagehost_options = {}

    def setUp(self):
        self.pagehost = self.start_pagehost()
        self.addCleanup(self.pagehost.stop)
        self.api = self.pagehost.api
        self.browser = make_browser()
        self.addCleanup(self.browser.quit)
        self.addCleanup(self.report_browser_errors)

    def start_pagehost(self):
        return Pagehost(**self.pagehost_options)

    def open_dashboard(self, base=None, fragment='', token=TOKEN):
        self.browser.get(f'{base or self.pagehost.base}/?token={token}{fragment}')
        self.wait_connected()

    def report_browser_errors(self):
        """JavaScript errors in the dashboard fail the test (network failures the test caused do not)."""
        errors = [entry['message'] for entry in self.browser.get_log('browser')
                  if entry['level'] == 'SEVERE' and entry.get('source') != 'network'
                  and 'Failed to load resource' not in entry['message']
                  and 'WebSocket connection' not in entry['message']]
        if errors and not getattr(self, 'allow_console_errors', False):
            raise AssertionError('errors in the dashboard console:\n' + '\n'.join(errors))

    def app(self, expression):
        """Evaluates `expression` with `app` bound to the dashboard's running module (js/app.js exports its
        store and stream; importing it again returns the same instance)."""
        return self.browser.execute_async_script(
            'const done = arguments[arguments.length - 1];'
            'import("/js/app.js").then((app) => done(' + expression + '), (e) => done("import failed: " + e));')

    # Waiting -----------------------------------------------------------------------------------------

    def wait(self, condition, what, timeout=WAIT):
        def attempt(driver):
            try:
                return condition(driver)
            except StaleElementReferenceException:
                return False
        return WebDriverWait(self.browser, timeout, poll_frequency=0.05).until(attempt, f'timed out: {what}')

    def wait_connected(self):
        return self.wait(lambda d: d.find_element(By.ID, 'connection').get_attribute('data-state') == 'connected',
                         'the dashboard says it is connected')

    def element(self, css):
        """The first element matching `css`, waited for."""
        return self.wait(lambda d: (d.find_elements(By.CSS_SELECTOR, css) or [None])[0], f'an element {css}')

    def gone(self, css):
        return self.wait(lambda d: not d.find_elements(By.CSS_SELECTOR, css), f'no element {css}')

    def text_of(self, css):
        elements = self.browser.find_elements(By.CSS_SELECTOR, css)
        return elements[0].get_attribute('textContent') if elements else None

    def wait_text(self, css, expected):
        return self.wait(lambda d: self.text_of(css) == expected, f'{css} to read {expected!r} (reads {self.text_of(css)!r})')

    def go_to_session(self, sid):
        link = self.element(f'.session-card[data-session-id="{sid}"] a.session-link')
        link.click()
        self.wait(lambda d: d.current_url.endswith(f'#/sessions/{sid}'), 'the session view')
        self.element(f'#session-view .page-card')

    def wait_api(self, predicate, what, timeout=WAIT):
        return self.api.wait_for(predicate, what, timeout)


# Pages used by the tests -------------------------------------------------------------------------------

def opener_page(title='Opener'):
    """A page that opens a popup when told to (the test calls `openPopup` through evaluate)."""
    return ('<!doctype html><title>' + title + '</title><body><p>opener</p><script>'
            'window.openPopup = (name) => { const w = window.open("about:blank", name, "width=400,height=300");'
            ' if (w) { w.document.write("<title>" + name + "</title><p>" + name); w.document.close(); } return !!w; };'
            '</script></body>')


class Relay:
    """A TCP relay on 127.0.0.1 in front of pagehost. `cut()` closes every relayed connection (to the browser it
    looks as if the server closed the socket); while `refusing`, new connections are closed at once. It records
    the first request line of each connection, so a test can see what the dashboard asked for."""

    def __init__(self, target_port, port=0):
        self.target_port = target_port
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(('127.0.0.1', port))
        self.server.listen(64)
        self.port = self.server.getsockname()[1]
        self.refusing = False
        self.request_lines = []
        self.lock = threading.Lock()
        self.pairs = []
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            try:
                upstream = socket.create_connection(('127.0.0.1', self.target_port))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, client, upstream):
        sockets = [client, upstream]
        first = True
        try:
            while True:
                ready, _, _ = select.select(sockets, [], [], 1)
                for source in ready:
                    data = source.recv(65536)
                    if not data:
                        return
                    if first and source is client:
                        first = False
                        with self.lock:
                            self.request_lines.append(data.split(b'\r\n', 1)[0].decode(errors='replace'))
                    (upstream if source is client else client).sendall(data)
        except OSError:
            return
        finally:
            for s in sockets:
                try:
                    s.close()
                except OSError:
                    pass

    def stream_requests(self):
        with self.lock:
            return [line for line in self.request_lines if '/api/stream' in line]

    def cut(self):
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for s in pair:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def close(self):
        self.closed = True
        self.server.close()
        self.cut()
