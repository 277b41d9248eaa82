"""Process trees from /proc: PSS by process kind, CPU time, and cleaning up what a benchmark started."""
import os
import signal
import subprocess
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")
_started = []  # Popen objects this run started (each the leader of its own process group)


def start(args, **kwargs):
    """Starts a process in a process group of its own and remembers it, so cleanup() can end it and
    everything it started."""
    proc = subprocess.Popen(args, start_new_session=True, **kwargs)
    _started.append(proc)
    return proc


def stop(proc, grace=20.0):
    """SIGTERM to the process (it closes its sessions and children), then SIGKILL to its whole group and
    every process still in its tree."""
    tree = descendants(proc.pid)
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=grace)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            pass
    for pid in [proc.pid] + tree:
        _kill(pid)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    # Wait for the tree to be gone (web processes exit when their parent's socket closes).
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(pid) for pid in tree):
        time.sleep(0.1)
    for pid in tree:
        _kill(pid)
    if proc in _started:
        _started.remove(proc)


def cleanup():
    for proc in list(_started):
        stop(proc, grace=5)


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def alive(pid):
    """Whether a process runs (a zombie does not)."""
    return _alive(pid)


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _parents():
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
    return parents


def descendants(root):
    parents = _parents()
    children = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    out, stack = [], list(children.get(root, []))
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack.extend(children.get(pid, []))
    return out


def tree(root):
    return [root] + descendants(root)


def kind(pid):
    """A short name for what a process is: pagehost, web, network, xvfb, chromium-browser, renderer, …"""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        return "gone"
    exe = os.path.basename(argv[0].decode(errors="replace")) if argv and argv[0] else "?"
    args = b" ".join(argv).decode(errors="replace")
    if exe.startswith("WebKitWebProcess"):
        return "web"
    if exe.startswith("WebKitNetworkProcess"):
        return "network"
    if exe == "Xvfb":
        return "xvfb"
    if exe == "pagehost":
        return "pagehost"
    if "chrom" in exe:
        for t in ("renderer", "gpu-process", "zygote", "utility", "broker"):
            if f"--type={t}" in args:
                return f"chromium-{t}"
        return "chromium-browser"
    return exe


def pss_kib(pid):
    """(PSS, RSS) in KiB from smaps_rollup; (0, 0) for a process gone meanwhile."""
    pss = rss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
    except OSError:
        pass
    return pss, rss


def memory(root):
    """PSS of the whole tree under root, in MB, by process kind, and the process count."""
    by_kind = {}
    total = 0
    pids = tree(root)
    for pid in pids:
        pss, _ = pss_kib(pid)
        k = kind(pid)
        entry = by_kind.setdefault(k, {"processes": 0, "pssMB": 0.0})
        entry["processes"] += 1
        entry["pssMB"] += pss / 1024
        total += pss
    for entry in by_kind.values():
        entry["pssMB"] = round(entry["pssMB"], 1)
    return {"pssMB": round(total / 1024, 1), "processes": len(pids), "byKind": by_kind}


def cpu_seconds(pid):
    """User + system CPU seconds of one process (its threads included)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return 0.0


def tree_cpu_seconds(root):
    return sum(cpu_seconds(pid) for pid in tree(root))
