"""A pagehost server started for a benchmark (`pagehost serve` on a free loopback port, its own Xvfb), and
its HTTP API."""
import http.client
import json
import os
import re
import secrets
import tempfile
import time

from . import procs


class APIError(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body[:200]}")
        self.status = status
        self.body = body


class Pagehost:
    def __init__(self, binary, repo, sessions=400, stream_clients=256):
        self.token = secrets.token_hex(16)
        self.folder = tempfile.mkdtemp(prefix="pagehost-bench-")
        config = {
            "host": "127.0.0.1", "port": 0, "demo": False,
            "adminUI": os.path.join(repo, "admin-ui"), "demoFolder": os.path.join(repo, "examples/demo"),
            "openAPIFile": os.path.join(repo, "docs/openapi.json"),
            "limits": {"sessions": sessions, "streamClients": stream_clients, "eventLogCapacity": 100000},
        }
        path = os.path.join(self.folder, "pagehost.json")
        with open(path, "w") as f:
            json.dump(config, f)
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        self.log = open(os.path.join(self.folder, "serve.log"), "w+")
        self.proc = procs.start([binary, "serve", "--config", path, "--port", "0", "--no-demo", "--token", self.token],
                                stdout=self.log, stderr=self.log, env=env)
        deadline = time.time() + 60
        self.port = None
        while time.time() < deadline and self.port is None:
            if self.proc.poll() is not None:
                break
            self.log.seek(0)
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", self.log.read())
            if m:
                self.port = int(m.group(1))
            else:
                time.sleep(0.05)
        if self.port is None:
            self.log.seek(0)
            output = self.log.read()
            self.stop()
            raise RuntimeError(f"pagehost serve did not start: {output[-2000:]}")
        self.url = f"http://127.0.0.1:{self.port}"

    @property
    def pid(self):
        return self.proc.pid

    def request(self, method, path, body=None, timeout=60):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            headers = {"Authorization": f"Bearer {self.token}"}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            text = response.read().decode(errors="replace")
            if response.status >= 400:
                raise APIError(response.status, text)
            return json.loads(text) if text and response.getheader("Content-Type", "").startswith("application/json") else text
        finally:
            conn.close()

    def create(self, url, **options):
        return self.request("POST", "/api/sessions", dict(url=url, **options))

    def sessions(self):
        return self.request("GET", "/api/sessions")

    def metrics(self):
        text = self.request("GET", "/metrics")
        out = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                try:
                    out[name] = float(value)
                except ValueError:
                    pass
        return out

    def supports(self, option, value):
        """Whether POST /api/sessions accepts a session option (a server before the option answers 400)."""
        try:
            session = self.create("about:blank", **{option: value})
        except APIError as error:
            if error.status == 400:
                return False
            raise
        self.request("DELETE", f"/api/sessions/{session['id']}")
        return True

    def stop(self):
        procs.stop(self.proc)
        self.log.close()


class Watcher:
    """The server's stream, followed on a thread: which sessions' main pages loaded and how many popups each
    opened, so a driver can wait for a session without polling the API."""

    def __init__(self, server):
        import threading
        from .websocket import WebSocket
        self.ws = WebSocket(f"ws://127.0.0.1:{server.port}/api/stream", headers={"Authorization": f"Bearer {server.token}"},
                            subprotocol="pagehost.v1")
        self.lock = threading.Condition()
        self.main = {}      # session id -> main page id
        self.loaded = {}    # session id -> time loaded
        self.failed = {}    # session id -> error
        self.popups = {}    # session id -> popups opened
        self.closed = set()
        self.error = None
        threading.Thread(target=self._read, daemon=True).start()

    def _page(self, sid, page, now):
        if page.get("role") == "main":
            self.main[sid] = page["id"]
            self._navigation(sid, page.get("navigation"), now)
        else:
            self.popups[sid] = self.popups.get(sid, 0) + 1

    def _navigation(self, sid, navigation, now):
        if not navigation or sid in self.loaded or sid in self.failed:
            return
        if navigation.get("event") == "finished":
            self.loaded[sid] = now
        elif navigation.get("event") in ("failed", "failedProvisional"):
            self.failed[sid] = navigation.get("error")

    def _read(self):
        from .websocket import Closed
        try:
            while True:
                event = json.loads(self.ws.recv())
                now = time.time()
                kind, sid = event.get("type"), event.get("sessionId")
                with self.lock:
                    if kind == "snapshot":
                        for session in event.get("sessions", []):
                            for page in session.get("pages", []):
                                self._page(session["id"], page, now)
                    elif kind == "page.opened":
                        self._page(sid, event["page"], now)
                    elif kind == "page.updated" and self.main.get(sid) == event.get("pageId"):
                        self._navigation(sid, event.get("changes", {}).get("navigation"), now)
                    elif kind == "session.closed":
                        self.closed.add(sid)
                    self.lock.notify_all()
        except (Closed, OSError, ValueError) as error:
            with self.lock:
                self.error = str(error)
                self.lock.notify_all()

    def wait(self, predicate, timeout):
        deadline = time.time() + timeout
        with self.lock:
            while not predicate():
                left = deadline - time.time()
                if left <= 0 or self.error:
                    return False
                self.lock.wait(left)
            return True

    def close(self):
        self.ws.close()


class PagehostTool:
    """Sessions on a pagehost server, opened through the API and watched on the stream."""

    def __init__(self, server, options=None, expect_popup=True):
        self.server = server
        self.options = options or {}
        self.expect_popup = expect_popup
        self.watcher = Watcher(server)

    @property
    def pid(self):
        return self.server.pid

    def open_session(self, url, timeout=60):
        start = time.time()
        sid = self.server.create(url, **self.options)["id"]
        w = self.watcher
        ok = w.wait(lambda: sid in w.failed or (sid in w.loaded and (not self.expect_popup or w.popups.get(sid, 0) >= 1)), timeout)
        if sid in w.failed:
            raise RuntimeError(f"session {sid} failed to load: {w.failed[sid]}")
        if not ok:
            raise TimeoutError(f"session {sid} did not load and open its popup in {timeout} s")
        return sid, w.loaded[sid] - start

    def close_session(self, sid):
        try:
            self.server.request("DELETE", f"/api/sessions/{sid}")
        except APIError as error:
            if error.status != 404:
                raise
        self.watcher.wait(lambda: sid in self.watcher.closed, 30)

    def stop(self):
        self.watcher.close()
