"""Headless Chromium from Debian (/usr/lib/chromium/chromium itself, not the /usr/bin wrapper, which adds
Debian's own flags), driven over the DevTools protocol: one browser context per session (isolated) or the
default context (shared)."""
import itertools
import json
import os
import re
import shutil
import tempfile
import threading
import time

from . import procs
from .websocket import WebSocket, Closed

BINARY = "/usr/lib/chromium/chromium"
# Stock headless opens hidden omnibox WebUI pages per context; these flags stop that (the lean setup).
LEAN = ["--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"]
SHARED = ["--renderer-process-limit=1"]


class Chromium:
    def __init__(self, extra_flags=(), isolated=True):
        self.isolated = isolated
        self.folder = tempfile.mkdtemp(prefix="pagehost-bench-chromium-")
        args = [BINARY, "--headless", "--no-sandbox", "--remote-debugging-port=0", f"--user-data-dir={self.folder}",
                "--no-first-run", "--no-default-browser-check", "--disable-popup-blocking", "--mute-audio",
                "--window-size=1280,800", *extra_flags, "about:blank"]
        self.log_path = os.path.join(self.folder, "chromium.log")
        self.log = open(self.log_path, "w+")
        self.proc = procs.start(args, stdout=self.log, stderr=self.log)
        deadline = time.time() + 60
        url = None
        while time.time() < deadline and not url:
            if self.proc.poll() is not None:
                break
            self.log.seek(0)
            m = re.search(r"DevTools listening on (ws://\S+)", self.log.read())
            if m:
                url = m.group(1)
            else:
                time.sleep(0.05)
        if not url:
            self.log.seek(0)
            output = self.log.read()
            self.stop()
            raise RuntimeError(f"chromium did not start: {output[-2000:]}")
        self.ws = WebSocket(url)
        self.ids = itertools.count(1)
        self.lock = threading.Condition()
        self.results = {}
        self.targets = {}  # targetId -> targetInfo
        self.loaded = {}   # DevTools session id -> time of Page.loadEventFired
        self.closed = None
        threading.Thread(target=self._read, daemon=True).start()
        self.send("Target.setDiscoverTargets", {"discover": True})

    @property
    def pid(self):
        return self.proc.pid

    def _read(self):
        try:
            while True:
                message = json.loads(self.ws.recv())
                with self.lock:
                    if "id" in message:
                        self.results[message["id"]] = message
                    elif message.get("method") in ("Target.targetCreated", "Target.targetInfoChanged"):
                        info = message["params"]["targetInfo"]
                        self.targets[info["targetId"]] = info
                    elif message.get("method") == "Page.loadEventFired":
                        self.loaded.setdefault(message.get("sessionId"), time.time())
                    elif message.get("method") == "Target.targetDestroyed":
                        self.targets.pop(message["params"]["targetId"], None)
                    self.lock.notify_all()
        except (Closed, OSError, ValueError) as error:
            with self.lock:
                self.closed = str(error)
                self.lock.notify_all()

    def send(self, method, params=None, timeout=60, session=None):
        request_id = next(self.ids)
        message = {"id": request_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        deadline = time.time() + timeout
        with self.lock:
            while request_id not in self.results:
                if self.closed:
                    raise RuntimeError(f"DevTools connection closed: {self.closed}")
                left = deadline - time.time()
                if left <= 0:
                    raise TimeoutError(f"{method} timed out")
                self.lock.wait(left)
            message = self.results.pop(request_id)
        if "error" in message:
            raise RuntimeError(f"{method}: {message['error']}")
        return message.get("result", {})

    def open_session(self, url, timeout=60):
        """One session as Puppeteer opens a page: its own browser context (isolated) or the default one, a new
        target, attached, then navigated; returns (handle, seconds until the main page's load event) once its
        popup opened too."""
        start = time.time()
        context = self.send("Target.createBrowserContext", {"disposeOnDetach": False})["browserContextId"] if self.isolated else None
        params = {"url": "about:blank"}
        if context:
            params["browserContextId"] = context
        target = self.send("Target.createTarget", params)["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable", session=session)
        self.send("Page.navigate", {"url": url}, session=session)
        deadline = start + timeout
        with self.lock:
            while True:
                loaded_at = self.loaded.get(session)
                popup = any(t.get("openerId") == target and t.get("type") == "page" for t in self.targets.values())
                if loaded_at is not None and popup:
                    break
                left = deadline - time.time()
                if left <= 0 or self.closed:
                    raise TimeoutError(f"session did not load and open its popup (loaded: {loaded_at is not None}, popup: {popup})")
                self.lock.wait(left)
            self.loaded.pop(session, None)
        return (context, target), loaded_at - start

    def close_session(self, handle):
        context, target = handle
        if context:
            self.send("Target.disposeBrowserContext", {"browserContextId": context})
        else:
            popups = [t for t, info in list(self.targets.items()) if info.get("openerId") == target]
            for t in popups + [target]:
                try:
                    self.send("Target.closeTarget", {"targetId": t})
                except RuntimeError:
                    pass

    def stop(self):
        try:
            self.ws.close()
        except Exception:
            pass
        procs.stop(self.proc, grace=10)
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)
