"""The pages every benchmark loads, served on 127.0.0.1 by a thread of this process (both browsers load the
same bytes from the same origin)."""
import http.server
import threading
from urllib.parse import parse_qs, urlparse

PAGES = {
    # A main page that opens one popup and then says it loaded (Chromium's drivers watch the title).
    "/main.html": """<!doctype html><html><head><meta charset=utf-8><title>main</title></head>
<body><h1>Main</h1><p>Opens one popup.</p>
<script>addEventListener('load', () => { window.open('/popup.html', '_blank', 'popup'); document.title = 'loaded'; });</script>
</body></html>""",
    "/popup.html": """<!doctype html><html><head><meta charset=utf-8><title>popup</title></head>
<body><h1>Popup</h1><p>A small popup page.</p></body></html>""",
    # No timers, no popup: an idle session.
    "/static.html": """<!doctype html><html><head><meta charset=utf-8><title>static</title></head>
<body><h1>Static</h1></body></html>""",
}

TICKER = """<!doctype html><html><head><meta charset=utf-8><title>t=0</title></head><body><script>
setInterval(() => { document.title = 't=' + (performance.timeOrigin + performance.now()).toFixed(3); }, %d);
</script></body></html>"""


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/ticker.html":
            ms = int(parse_qs(url.query).get("ms", ["100"])[0])
            body = (TICKER % ms).encode()
        elif url.path in PAGES:
            body = PAGES[url.path].encode()
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    # Hundreds of pages load at once: the default listen backlog (5) makes the kernel drop their connections
    # (SYN cookies), and pages then wait in "startedProvisional", which measures this server, not pagehost.
    request_queue_size = 1024


class PageServer:
    def __init__(self):
        self.httpd = _Server(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, path):
        return self.base + path

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
