"""Soak: sessions whose pages open and close popups and show dialogs continuously, for a given duration.
Samples the process tree's memory and process count every minute and prints the growth after warm-up, the
stream's lost events (seq gaps that no `coalesced` count explains), and what the server counted. A benchmark, not a test.

    bench/soak --minutes 60 --sessions 100
"""
import argparse
import json
import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import procs  # noqa: E402
from benchlib.pagehost import Pagehost  # noqa: E402
from benchlib.websocket import Closed, WebSocket  # noqa: E402
from benchlib import workload  # noqa: E402

# Every few seconds: open a popup that closes itself, then show a confirm (the session's policy answers it).
CHURN = """<!doctype html><html><head><meta charset=utf-8><title>churn</title></head><body><script>
let round = 0;
setInterval(() => {
  round++;
  const popup = window.open('/popup-closes.html', '_blank', 'popup');
  setTimeout(() => { confirm('round ' + round); document.title = 'round ' + round; }, 500);
}, %d);
</script></body></html>"""
POPUP = """<!doctype html><html><head><meta charset=utf-8><title>popup</title></head><body>
<script>setTimeout(() => window.close(), 1000);</script></body></html>"""


class StreamCheck:
    """Follows the stream and counts events lost to it. A `page.updated` the server merged for a slow reader
    carries `coalesced: N` (the earlier updates folded into it), so a seq gap it explains is deliberate: lost
    events are the seqs between the first and the last that were neither received nor folded. A snapshot (the
    server's answer to a reader past its bound) starts the count again, and is counted."""

    def __init__(self, server):
        self.ws = WebSocket(f"ws://127.0.0.1:{server.port}/api/stream",
                            headers={"Authorization": f"Bearer {server.token}"}, subprotocol="pagehost.v1")
        self.events = 0
        self.coalesced = 0
        self.snapshots = 0
        self.lost_before = 0  # lost in spans that a snapshot ended
        self.first = self.last = None
        self.covered = 0  # seqs received or folded since `first`
        threading.Thread(target=self._read, daemon=True).start()

    @property
    def lost(self):
        span = 0 if self.first is None else self.last - self.first + 1
        return self.lost_before + span - self.covered

    def _read(self):
        try:
            while True:
                event = json.loads(self.ws.recv())
                seq = event.get("seq")
                if event.get("type") == "snapshot":
                    self.snapshots += 1
                    self.lost_before = self.lost
                    self.first, self.last, self.covered = None, seq, 0
                    continue
                folded = event.get("coalesced", 0)
                if self.first is None:
                    self.first = (self.last + 1) if self.last is not None else seq - folded
                self.last = seq
                self.covered += 1 + folded
                self.coalesced += folded
                self.events += 1
        except (Closed, OSError, ValueError):
            pass


def timed_shutdown(server, limit=30.0):
    """SIGTERM to pagehost, then how long until it and every process it started are gone (at most `limit`
    seconds), and how many were still there then."""
    tree = [server.pid] + procs.descendants(server.pid)
    start = time.time()
    os.kill(server.pid, signal.SIGTERM)
    left = tree
    while left and time.time() - start < limit:
        time.sleep(0.05)
        left = [pid for pid in left if procs.alive(pid)]
    return {"processes": len(tree), "seconds": round(time.time() - start, 2), "left": len(left)}


def memory_growth(samples, warmup_minutes, window_minutes=10):
    """The growth after warm-up, three ways. First to last sample: what one reading says, at the mercy of
    the moment (the popups open then, where each web process's JavaScript heap is in its collection cycle:
    the tree swings by 10 % within minutes). The least-squares trend over every sample after warm-up. And
    the mean of the first `window_minutes` after warm-up against the mean of the last ones: the figure the
    growth target is read from, as it averages over those swings."""
    warm = [s for s in samples if s["minute"] >= warmup_minutes] or samples
    first, last = warm[0], warm[-1]
    keys = ("pssMB", "pagehostMB", "webMB")

    def trend_per_hour(key):
        xs, ys = [s["minute"] for s in warm], [s[key] for s in warm]
        if len(xs) < 3:
            return None
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        var = sum((x - mx) ** 2 for x in xs)
        return round(60 * sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var, 1) if var else None

    def percent(before, after):
        return round((after - before) / before * 100, 2) if before else 0

    def mean(window, key):
        return round(sum(s[key] for s in window) / len(window), 1)

    early = [s for s in warm if s["minute"] < warm[0]["minute"] + window_minutes]
    late = [s for s in warm if s["minute"] > warm[-1]["minute"] - window_minutes]
    return {
        "warmupMinutes": warmup_minutes,
        "pssAfterWarmupMB": first["pssMB"], "pssAtEndMB": last["pssMB"], "growthPercent": percent(first["pssMB"], last["pssMB"]),
        "pagehostGrowthPercent": percent(first["pagehostMB"], last["pagehostMB"]),
        "webGrowthPercent": percent(first["webMB"], last["webMB"]),
        "trendMBPerHour": {key: trend_per_hour(key) for key in keys},
        "windowMinutes": window_minutes,
        "meansMB": {key: {"afterWarmup": mean(early, key), "atEnd": mean(late, key)} for key in keys},
        "meanGrowthPercent": {key: percent(mean(early, key), mean(late, key)) for key in keys},
        "pagesAfterWarmup": first.get("pages"), "pagesAtEnd": last.get("pages"),
        "processesAfterWarmup": first["processes"], "processesAtEnd": last["processes"],
        "processCounts": sorted({s["processes"] for s in warm}),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pagehost", required=True)
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--interval-ms", type=int, default=5000, help="how often each page opens a popup and asks")
    parser.add_argument("--warmup-minutes", type=float, default=5)
    args = parser.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    workload.PAGES["/churn.html"] = CHURN % args.interval_ms
    workload.PAGES["/popup-closes.html"] = POPUP
    pages = workload.PageServer()
    server = Pagehost(args.pagehost, repo, sessions=args.sessions + 10)
    samples = []
    try:
        stream = StreamCheck(server)
        for _ in range(args.sessions):
            server.create(pages.url("/churn.html"), dialogPolicy="accept")
        start = time.time()
        end = start + args.minutes * 60
        while True:
            memory = procs.memory(server.pid)
            kinds = memory["byKind"]
            # Pages open now: memory follows them (a popup lives longer on a loaded machine), so a rise with
            # more pages open is load, not a leak.
            open_pages = sum(v for k, v in server.metrics().items() if k.startswith("pagehost_pages{"))
            sample = {"minute": round((time.time() - start) / 60, 2), "pssMB": memory["pssMB"],
                      # pagehost's own process apart: a leak there would hide in the web processes' gigabytes.
                      "pagehostMB": kinds.get("pagehost", {}).get("pssMB", 0.0), "webMB": kinds.get("web", {}).get("pssMB", 0.0),
                      "processes": memory["processes"], "pages": int(open_pages), "events": stream.events, "coalesced": stream.coalesced, "lostEvents": stream.lost}
            samples.append(sample)
            print(json.dumps(sample), flush=True)
            if time.time() >= end:
                break
            time.sleep(min(60, max(0, end - time.time())))
        metrics = server.metrics()
        shutdown = timed_shutdown(server)
        print(json.dumps({"shutdown": shutdown}), flush=True)
    finally:
        server.stop()
        pages.close()
        procs.cleanup()

    memory = memory_growth(samples, args.warmup_minutes)
    summary = {
        "sessions": args.sessions, "minutes": args.minutes,
        **memory,
        "events": stream.events, "coalesced": stream.coalesced, "lostEvents": stream.lost, "snapshots": stream.snapshots,
        "popupsClosedByScript": sum(v for k, v in metrics.items() if "popups_closed" in k and 'reason="script"' in k),
        "dialogsAnswered": sum(v for k, v in metrics.items() if "dialogs_answered" in k),
        "shutdown": shutdown,
        "samples": samples,
    }
    os.makedirs(os.path.join(repo, "bench/results"), exist_ok=True)
    with open(os.path.join(repo, "bench/results/soak-latest.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "samples"}, indent=1))


if __name__ == "__main__":
    main()
