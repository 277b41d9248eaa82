#!/usr/bin/env python3
"""Pagehost's benchmarks, side by side with headless Chromium. `bench/run` builds pagehost and runs this.

Each benchmark prints its figures; none passes or fails. Every process started here (pagehost and its
Xvfb and WebKit processes, Chromium and its children) is ended before the run exits, also on Ctrl-C.
"""
import argparse
import atexit
import concurrent.futures
import datetime
import http.client
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import chromium, procs  # noqa: E402
from benchlib.pagehost import Pagehost, PagehostTool  # noqa: E402
from benchlib.workload import PageServer  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    rank = max(1, min(len(values), int(-(-p / 100 * len(values) // 1))))
    return values[rank - 1]


def dist_ms(seconds):
    ms = [s * 1000 for s in seconds]
    return {"count": len(ms), "p50": r(percentile(ms, 50)), "p95": r(percentile(ms, 95)), "p99": r(percentile(ms, 99)),
            "max": r(max(ms) if ms else None), "mean": r(statistics.mean(ms) if ms else None)}


def r(value, places=1):
    return None if value is None else round(value, places)


# MARK: Tools


def pagehost_tool(args, model=None, expect_popup=True):
    server = Pagehost(args.pagehost, REPO)
    options = {"processModel": model} if model else {}
    tool = PagehostTool(server, options, expect_popup)
    tool.stop_all = lambda: (tool.stop(), server.stop())
    tool.server = server
    return tool


def chromium_tool(flags, isolated):
    browser = chromium.Chromium(flags, isolated=isolated)
    browser.stop_all = browser.stop
    return browser


SETUPS = {
    "pagehost-perSession": ("Pagehost perSession (own web process + store)", lambda a: pagehost_tool(a, "perSession" if a.model_option else None)),
    "pagehost-shared": ("Pagehost shared (pooled web processes)", lambda a: pagehost_tool(a, "shared")),
    "chromium-context-lean": ("Chromium, own context, lean flags", lambda a: chromium_tool(chromium.LEAN, True)),
    "chromium-context-stock": ("Chromium, own context, stock flags", lambda a: chromium_tool([], True)),
    "chromium-default-limit1": ("Chromium, default context, --renderer-process-limit=1", lambda a: chromium_tool(chromium.LEAN + chromium.SHARED, False)),
}


def open_many(tool, url, count, concurrency, timeout):
    """Opens `count` sessions, `concurrency` at a time; returns (handles, load seconds, failures, wall seconds)."""
    handles, loads, failures = [], [], []
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        def one(_):
            return tool.open_session(url, timeout=timeout)
        futures = [pool.submit(one, i) for i in range(count)]
        for future in futures:
            try:
                handle, seconds = future.result()
                handles.append(handle)
                loads.append(seconds)
            except Exception as error:  # noqa: BLE001 - a benchmark reports failures, it does not stop on them
                failures.append(str(error)[:200])
    return handles, loads, failures, time.time() - start


def close_many(tool, handles, concurrency=4):
    with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        list(pool.map(lambda h: _quiet(tool.close_session, h), handles))


def _quiet(fn, *a):
    try:
        fn(*a)
    except Exception as error:  # noqa: BLE001
        log(f"  (closing: {error})")


def settle(pid, seconds):
    """Waits until the tree's PSS stops moving (at most `seconds`): pages finish painting, caches settle."""
    deadline = time.time() + seconds
    previous = procs.memory(pid)["pssMB"]
    time.sleep(1)
    while time.time() < deadline:
        now = procs.memory(pid)["pssMB"]
        if abs(now - previous) < max(2.0, previous * 0.005):
            return
        previous = now
        time.sleep(1)


def health_latency(server, count=50):
    times = []
    for _ in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        start = time.perf_counter()
        conn.request("GET", "/api/health")
        conn.getresponse().read()
        times.append(time.perf_counter() - start)
        conn.close()
    return dist_ms(times)


# MARK: Benchmarks


def bench_density(args, pages, setup):
    name, factory = SETUPS[setup]
    log(f"density: {name}, sizes {args.sizes}")
    tool = factory(args)
    result = {"setup": setup, "name": name, "sizes": []}
    try:
        settle(tool.pid, 10)
        base = procs.memory(tool.pid)
        result["base"] = base
        handles = []
        for size in args.sizes:
            new, loads, failures, wall = open_many(tool, pages.url("/main.html"), size - len(handles), args.concurrency, args.timeout)
            handles += new
            settle(tool.pid, 15)
            mem = procs.memory(tool.pid)
            entry = {"sessions": len(handles), "requested": size, "failures": len(failures), "openSeconds": r(wall),
                     "pssMB": mem["pssMB"], "processes": mem["processes"], "byKind": mem["byKind"],
                     "perSessionMB": r((mem["pssMB"] - base["pssMB"]) / len(handles)) if handles else None}
            if failures:
                entry["firstFailure"] = failures[0]
            if setup.startswith("pagehost"):
                entry["health"] = health_latency(tool.server)
            result["sizes"].append(entry)
            log(f"  {len(handles)} sessions: {mem['pssMB']:.0f} MB PSS, {mem['processes']} processes, "
                f"{entry['perSessionMB']} MB/session, {len(failures)} failures, opened in {wall:.1f} s")
            if failures and len(failures) > size // 10:
                log("  too many failures: stopping this setup")
                break
        close_many(tool, handles)
    finally:
        tool.stop_all()
    return result


def bench_start(args, pages, setup):
    name, factory = SETUPS[setup]
    log(f"session start: {name}")
    tool = factory(args)
    result = {"setup": setup, "name": name, "levels": []}
    try:
        # One session first, closed again: the first process start and cache fills are not what is measured.
        warm, _, _, _ = open_many(tool, pages.url("/main.html"), 1, 1, args.timeout)
        close_many(tool, warm)
        for concurrency in (1, 2, 4):
            handles, loads, failures, wall = open_many(tool, pages.url("/main.html"), args.start_sessions, concurrency, args.timeout)
            level = {"concurrency": concurrency, "sessions": len(handles), "failures": len(failures),
                     "sessionsPerSecond": r(len(handles) / wall, 2), "loadMs": dist_ms(loads)}
            result["levels"].append(level)
            log(f"  concurrency {concurrency}: {level['sessionsPerSecond']} sessions/s, p50 {level['loadMs']['p50']} ms")
            close_many(tool, handles)
            settle(tool.pid, 5)
    finally:
        tool.stop_all()
    return result


def run_stream_clients(args, server, clients, seconds, warmup=2):
    out = subprocess.run([args.bench_client, "stream", "--server", server.url, "--token", server.token,
                          "--clients", str(clients), "--seconds", str(seconds), "--warmup", str(warmup)],
                         capture_output=True, text=True, timeout=seconds + warmup + 120)
    if out.returncode != 0:
        raise RuntimeError(f"pagehost-bench failed: {out.stderr[-500:]}")
    return json.loads(out.stdout)


def bench_stream(args, pages):
    log(f"stream latency: {args.stream_sessions} sessions changing their title every 100 ms")
    tool = pagehost_tool(args, expect_popup=False)
    result = {"sessions": args.stream_sessions, "titleIntervalMs": 100, "levels": []}
    try:
        handles, _, failures, _ = open_many(tool, pages.url("/ticker.html?ms=100"), args.stream_sessions, args.concurrency, args.timeout)
        result["failures"] = len(failures)
        time.sleep(2)
        for clients in (1, 10, 50):
            before = procs.cpu_seconds(tool.pid)
            run = run_stream_clients(args, tool.server, clients, args.stream_seconds)
            cpu = procs.cpu_seconds(tool.pid) - before
            level = {"clients": clients, "latencyMs": run["latencyMs"], "messagesPerSecond": run["messagesPerSecond"],
                     "serverCPUPercent": r(100 * cpu / (args.stream_seconds + 2)), "clientCPUSeconds": run["clientCPUSeconds"],
                     "errors": run["errors"]}
            result["levels"].append(level)
            log(f"  {clients} clients: p50 {run['latencyMs']['p50']} ms, p99 {run['latencyMs']['p99']} ms, "
                f"{run['messagesPerSecond']:.0f} msg/s")
        metrics = tool.server.metrics()
        result["coalesced"] = metrics.get("pagehost_events_coalesced_total")
        result["dropped"] = metrics.get("pagehost_events_dropped_total")
        close_many(tool, handles)
    finally:
        tool.stop_all()
    return result


def bench_fanout(args, pages):
    interval = args.fanout_interval
    log(f"fan-out: {args.fanout_sessions} sessions changing their title every {interval} ms, {args.fanout_clients} clients")
    tool = pagehost_tool(args, expect_popup=False)
    result = {"sessions": args.fanout_sessions, "titleIntervalMs": interval, "clients": args.fanout_clients}
    try:
        handles, _, failures, _ = open_many(tool, pages.url(f"/ticker.html?ms={interval}"), args.fanout_sessions, args.concurrency, args.timeout)
        result["failures"] = len(failures)
        time.sleep(2)
        metrics_before = tool.server.metrics()
        warmup = 2
        t0 = time.time()
        server_before, tree_before = procs.cpu_seconds(tool.pid), procs.tree_cpu_seconds(tool.pid)
        run = run_stream_clients(args, tool.server, args.fanout_clients, args.fanout_seconds, warmup=warmup)
        wall = time.time() - t0
        server_cpu = procs.cpu_seconds(tool.pid) - server_before
        tree_cpu = procs.tree_cpu_seconds(tool.pid) - tree_before
        metrics_after = tool.server.metrics()
        emitted = metrics_after.get("pagehost_events_emitted_total", 0) - metrics_before.get("pagehost_events_emitted_total", 0)
        result.update({
            "deliveredPerSecond": r(run["messagesPerSecond"]),
            "eventsEmittedPerSecond": r(emitted / wall),
            "serverCPUPercent": r(100 * server_cpu / wall),
            "deliveredPerServerCPUSecond": r(run["messagesPerSecond"] * wall / server_cpu) if server_cpu else None,
            "webProcessesCPUPercent": r(100 * (tree_cpu - server_cpu) / wall),
            "clientCPUPercent": r(100 * run["clientCPUSeconds"] / (args.fanout_seconds + warmup)),
            "coalesced": metrics_after.get("pagehost_events_coalesced_total", 0) - metrics_before.get("pagehost_events_coalesced_total", 0),
            "dropped": metrics_after.get("pagehost_events_dropped_total", 0) - metrics_before.get("pagehost_events_dropped_total", 0),
            "latencyMs": run["latencyMs"], "errors": run["errors"],
        })
        log(f"  {result['deliveredPerSecond']:.0f} events/s delivered, server CPU {result['serverCPUPercent']} %, "
            f"{result['deliveredPerServerCPUSecond']} per server CPU-second")
        close_many(tool, handles)
    finally:
        tool.stop_all()
    return result


def bench_idle(args, pages):
    log(f"idle: {args.idle_sessions} idle sessions, server CPU over {args.idle_seconds} s")
    tool = pagehost_tool(args, expect_popup=False)
    result = {"sessions": args.idle_sessions, "seconds": args.idle_seconds}
    try:
        handles, _, failures, _ = open_many(tool, pages.url("/static.html"), args.idle_sessions, args.concurrency, args.timeout)
        result["failures"] = len(failures)
        settle(tool.pid, 20)
        t0 = time.time()
        server_before, tree_before = procs.cpu_seconds(tool.pid), procs.tree_cpu_seconds(tool.pid)
        time.sleep(args.idle_seconds)
        wall = time.time() - t0
        server_cpu = procs.cpu_seconds(tool.pid) - server_before
        tree_cpu = procs.tree_cpu_seconds(tool.pid) - tree_before
        result.update({"serverCPUPercent": r(100 * server_cpu / wall, 2), "treeCPUPercent": r(100 * tree_cpu / wall, 2)})
        log(f"  server {result['serverCPUPercent']} % of a core, whole tree {result['treeCPUPercent']} %")
        close_many(tool, handles)
    finally:
        tool.stop_all()
    return result


# MARK: Report


def cell(value):
    return "-" if value is None else str(value)


def table(results):
    lines = []
    density = results.get("density", [])
    if density:
        sizes = sorted({s["sessions"] for d in density for s in d["sizes"] if s["sessions"] > 0})
        lines.append("Density: PSS of the whole process tree per session (marginal over the idle tool), MB")
        lines.append("  " + "setup".ljust(56) + "".join(f"{n:>9}" for n in sizes))
        for d in density:
            by = {s["sessions"]: s for s in d["sizes"]}
            lines.append("  " + d["name"].ljust(56) + "".join(f"{cell(by[n]['perSessionMB'] if n in by else None):>9}" for n in sizes))
        for d in density:
            for entry in d["sizes"]:
                if entry.get("firstFailure"):
                    lines.append(f"  {d['name']}: {entry['failures']} of {entry['requested']} sessions failed, e.g. {entry['firstFailure']}")
                    break
        ratios = results.get("ratios", {})
        for label, value in ratios.items():
            if value:
                lines.append(f"  ratio {label}: {value}")
        for d in density:
            if d["setup"].startswith("pagehost") and d["sizes"] and d["sizes"][-1]["sessions"] > 0:
                top = d["sizes"][-1]
                h = top.get("health", {})
                lines.append(f"  {d['name']}: {top['sessions']} sessions, {top['processes']} processes, "
                             f"/api/health p50 {h.get('p50')} ms p99 {h.get('p99')} ms max {h.get('max')} ms")
        lines.append("")
    start = results.get("start", [])
    if start:
        lines.append("Session start (request -> main page loaded; sessions/s until popups opened too)")
        lines.append("  " + "setup".ljust(44) + "".join(f"{'c=' + str(c) + ' /s':>10}{'p50 ms':>9}{'p95 ms':>9}" for c in (1, 2, 4)))
        for s in start:
            cells = ""
            for level in s["levels"]:
                cells += f"{cell(level['sessionsPerSecond']):>10}{cell(level['loadMs']['p50']):>9}{cell(level['loadMs']['p95']):>9}"
            lines.append("  " + s["name"].ljust(44) + cells)
        lines.append("")
    stream = results.get("stream")
    if stream:
        lines.append(f"Stream latency, page clock -> client ({stream['sessions']} sessions, title every 100 ms)")
        for level in stream["levels"]:
            lat = level["latencyMs"]
            lines.append(f"  {level['clients']:>3} clients: p50 {lat['p50']} ms, p99 {lat['p99']} ms, max {lat['max']} ms, "
                         f"{level['messagesPerSecond']:.0f} msg/s, server CPU {level['serverCPUPercent']} %")
        lines.append("")
    fan = results.get("fanout")
    if fan:
        lines.append(f"Fan-out ({fan['sessions']} sessions, title every {fan['titleIntervalMs']} ms, {fan['clients']} clients)")
        lines.append(f"  {fan['deliveredPerSecond']} events/s delivered ({fan['eventsEmittedPerSecond']} emitted/s), server CPU "
                     f"{fan['serverCPUPercent']} %, {fan['deliveredPerServerCPUSecond']} events per server CPU-second; "
                     f"coalesced {fan['coalesced']:.0f}, dropped {fan['dropped']:.0f}")
        lines.append("")
    idle = results.get("idle")
    if idle:
        lines.append(f"Idle: {idle['sessions']} idle sessions over {idle['seconds']} s: server {idle['serverCPUPercent']} % of a core, "
                     f"whole tree {idle['treeCPUPercent']} %")
    return "\n".join(lines)


def machine():
    info = {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
        with open("/proc/meminfo") as f:
            info["memoryGB"] = round(int(f.readline().split()[1]) / 1048576, 1)
        info["chromium"] = subprocess.run([chromium.BINARY, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
        info["webkitgtk"] = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libwebkit2gtk-4.1-0"], capture_output=True, text=True).stdout
    except (OSError, StopIteration, subprocess.SubprocessError):
        pass
    return info


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pagehost", required=True, help="the pagehost executable (a release build)")
    parser.add_argument("--bench-client", required=True, help="the PagehostBench executable")
    parser.add_argument("--only", default="density,start,stream,fanout,idle")
    parser.add_argument("--sizes", default="10,50,100,200")
    parser.add_argument("--setups", default="pagehost-perSession,pagehost-shared,chromium-context-lean,chromium-default-limit1",
                        help="density setups: " + ", ".join(SETUPS))
    parser.add_argument("--concurrency", type=int, default=4, help="sessions opened at once while filling")
    parser.add_argument("--timeout", type=float, default=60, help="longest one session may take to open")
    parser.add_argument("--start-sessions", type=int, default=20)
    parser.add_argument("--stream-sessions", type=int, default=100)
    parser.add_argument("--stream-seconds", type=float, default=10)
    parser.add_argument("--fanout-sessions", type=int, default=20)
    parser.add_argument("--fanout-interval", type=int, default=10, help="ms between title changes")
    parser.add_argument("--fanout-clients", type=int, default=100)
    parser.add_argument("--fanout-seconds", type=float, default=10)
    parser.add_argument("--idle-sessions", type=int, default=100)
    parser.add_argument("--idle-seconds", type=float, default=30)
    parser.add_argument("--quick", action="store_true", help="small sizes and short runs (a smoke test of the benchmarks)")
    parser.add_argument("--output", default=os.path.join(REPO, "bench", "results"))
    args = parser.parse_args()
    if args.quick:
        args.sizes = "5,10"
        args.start_sessions, args.stream_sessions, args.stream_seconds = 4, 10, 3
        args.fanout_sessions, args.fanout_clients, args.fanout_seconds = 5, 10, 3
        args.idle_sessions, args.idle_seconds = 10, 5
    args.sizes = sorted(int(s) for s in args.sizes.split(","))
    only = set(args.only.split(","))

    atexit.register(procs.cleanup)
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: sys.exit(130))

    pages = PageServer()
    started = time.time()
    results = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), "machine": machine(),
               "parameters": {k: v for k, v in vars(args).items() if k not in ("pagehost", "bench_client", "output")}}
    # Does the server take the processModel option yet? Without it only perSession runs.
    probe = pagehost_tool(args, expect_popup=False)
    try:
        args.model_option = probe.server.supports("processModel", "perSession")
    finally:
        probe.stop_all()
    results["processModelOption"] = args.model_option
    setups = [s for s in args.setups.split(",") if s]
    if not args.model_option and "pagehost-shared" in setups:
        log("the server does not accept the processModel session option yet: pagehost-shared is skipped")
        setups.remove("pagehost-shared")
        results["skipped"] = ["pagehost-shared: the server does not accept the processModel session option"]

    try:
        if "density" in only:
            results["density"] = [bench_density(args, pages, s) for s in setups]
            by = {d["setup"]: d for d in results["density"]}
            ratios = {}
            for mine, theirs in (("pagehost-perSession", "chromium-context-lean"), ("pagehost-shared", "chromium-default-limit1")):
                if mine in by and theirs in by:
                    a = {s["sessions"]: s["perSessionMB"] for s in by[mine]["sizes"]}
                    b = {s["sessions"]: s["perSessionMB"] for s in by[theirs]["sizes"]}
                    ratios[f"{mine} / {theirs}"] = {n: r(a[n] / b[n], 2) for n in a if n in b and a[n] and b[n]}
            results["ratios"] = ratios
        if "start" in only:
            results["start"] = [bench_start(args, pages, s) for s in ("pagehost-perSession", "chromium-context-lean")]
        if "stream" in only:
            results["stream"] = bench_stream(args, pages)
        if "fanout" in only:
            results["fanout"] = bench_fanout(args, pages)
        if "idle" in only:
            results["idle"] = bench_idle(args, pages)
    finally:
        pages.close()
        procs.cleanup()
    results["seconds"] = round(time.time() - started)

    os.makedirs(args.output, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = os.path.join(args.output, f"run-{stamp}.json")
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
    if not args.quick and only >= {"density", "start", "stream", "fanout", "idle"}:
        # The committed summary: only a full run replaces it.
        with open(os.path.join(args.output, "latest.json"), "w") as f:
            json.dump(results, f, indent=1)
    log(f"wrote {path}")
    print(table(results))


if __name__ == "__main__":
    main()
