#!/usr/bin/env python3
"""Where a pagehost session's start goes: for sessions opened one at a time, the time from the request to
each step the stream shows (answer, page.opened, navigation startedProvisional / committed / finished) and to
the new web process appearing in the process tree. Usage: bench/profile_start.py PAGEHOST [SESSIONS]."""
import json
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import procs  # noqa: E402
from benchlib.pagehost import Pagehost  # noqa: E402
from benchlib.websocket import WebSocket  # noqa: E402
from benchlib.workload import PageServer  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    binary, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
    pages = PageServer()
    server = Pagehost(binary, REPO)
    steps = {}
    lock = threading.Condition()
    try:
        ws = WebSocket(f"ws://127.0.0.1:{server.port}/api/stream", headers={"Authorization": f"Bearer {server.token}"},
                       subprotocol="pagehost.v1")

        def read():
            try:
                while True:
                    event = json.loads(ws.recv())
                    now = time.time()
                    sid = event.get("sessionId")
                    with lock:
                        mark = steps.setdefault(sid, {})
                        kind = event.get("type")
                        if kind == "page.opened":
                            mark.setdefault("main page.opened" if event["page"]["role"] == "main" else "popup page.opened", now)
                        elif kind == "page.updated":
                            nav = event.get("changes", {}).get("navigation")
                            if nav and event.get("pageId") == mark.get("main"):
                                mark.setdefault(f"main {nav['event']}", now)
                        if kind == "page.opened" and event["page"]["role"] == "main":
                            mark["main"] = event["pageId"]
                        lock.notify_all()
            except Exception:  # noqa: BLE001
                pass

        threading.Thread(target=read, daemon=True).start()
        rows = []
        for i in range(count + 1):
            before = set(p for p in procs.tree(server.pid) if procs.kind(p) == "web")
            start = time.time()
            sid = server.create(pages.url("/main.html"))["id"]
            answered = time.time()
            web_seen = None
            deadline = start + 30
            while time.time() < deadline:
                if web_seen is None and set(p for p in procs.tree(server.pid) if procs.kind(p) == "web") - before:
                    web_seen = time.time()
                with lock:
                    mark = steps.get(sid, {})
                    if "main finished" in mark and "popup page.opened" in mark:
                        break
                time.sleep(0.005)
            with lock:
                mark = dict(steps.get(sid, {}))
            row = {"POST answered": answered - start, "web process in tree": (web_seen - start) if web_seen else None}
            for key, value in mark.items():
                if key != "main":
                    row[key] = value - start
            if i > 0:  # the first session also starts the network process: left out
                rows.append(row)
            time.sleep(0.5)
        keys = ["POST answered", "web process in tree", "main page.opened", "main startedProvisional", "main committed",
                "main finished", "popup page.opened"]
        print(f"pagehost session start, {count} sessions one at a time: ms after the request (median, min, max)")
        result = {}
        for key in keys:
            values = [row[key] * 1000 for row in rows if row.get(key) is not None]
            if values:
                result[key] = {"median": round(statistics.median(values), 1), "min": round(min(values), 1), "max": round(max(values), 1)}
                print(f"  {key:<26}{result[key]['median']:>9}{result[key]['min']:>9}{result[key]['max']:>9}")
        print(json.dumps(result))
    finally:
        server.stop()
        pages.close()
        procs.cleanup()


if __name__ == "__main__":
    main()
