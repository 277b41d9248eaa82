"""Fuzzes the HTTP API from docs/openapi.json with schemathesis against a real pagehost on 127.0.0.1.

Starts `$PAGEHOST_BIN serve` (its own Xvfb, real WebKit) with a known token, opens two sessions, records the
state, runs a fixed number of generated requests per operation (seeded, so a run can be repeated), and then
checks:
  - no answer was a 5xx (schemathesis's not_a_server_error check, and again from the recorded HAR);
  - the state afterwards equals the state before: every session that exists was there before or was answered
    201 by a POST /api/sessions (no half-created session), every session that was there before is still there
    unless a DELETE answered 204, and its pages are the same unless a close answered 200. Sessions the fuzzer
    created are then deleted, and the list must equal the one before (less the deleted ones).
Exit status 0 only when all of that holds.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = int(os.environ.get("PAGEHOST_FUZZ_EXAMPLES", "25"))
SEED = os.environ.get("PAGEHOST_FUZZ_SEED", "7")
TOKEN = "fuzz-" + os.urandom(8).hex()


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def state(base):
    """Session id -> (page ids, order): what a request could half-do."""
    status, body = call(base, "GET", "/api/sessions")
    assert status == 200, (status, body)
    return {s["id"]: (sorted(p["id"] for p in s["pages"]), s["order"]) for s in json.loads(body)}


def start_pagehost(workdir):
    config = os.path.join(workdir, "pagehost.json")
    with open(config, "w") as f:
        json.dump({"host": "127.0.0.1", "port": 0, "token": TOKEN, "demo": False,
                   "adminUI": os.path.join(ROOT, "admin-ui"), "demoFolder": os.path.join(ROOT, "examples/demo"),
                   "openAPIFile": os.path.join(ROOT, "docs/openapi.json"),
                   # Few sessions: the fuzzer's valid creations hit 429 soon, and the machine stays light.
                   "limits": {"sessions": 6, "requestBodyBytes": 65536}}, f)
    log = open(os.path.join(workdir, "pagehost.log"), "w+")
    process = subprocess.Popen([os.environ["PAGEHOST_BIN"], "serve", "--config", config], cwd=ROOT,
                               stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        log.seek(0)
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", log.read())
        if match:
            return process, match.group(1), log
        if process.poll() is not None:
            break
        time.sleep(0.1)
    log.seek(0)
    sys.exit("fuzz-api: pagehost did not start:\n" + log.read())


def main():
    started = time.time()
    workdir = tempfile.mkdtemp(prefix="pagehost-fuzz-")
    process, base, log = start_pagehost(workdir)
    failures = []
    try:
        # Two settled sessions for generated ids (s1, p1, …) to land on; popups blocked and dialogs dismissed,
        # so nothing changes unless a request changes it.
        for title in ("one", "two"):
            status, _ = call(base, "POST", "/api/sessions", {"html": f"<title>{title}</title>", "popupPolicy": "block",
                                                            "dialogPolicy": "dismiss"})
            assert status == 201, status
        before = state(base)
        har = os.path.join(workdir, "requests.har")
        command = [os.path.join(os.path.dirname(sys.executable), "schemathesis"), "run",
                   os.path.join(ROOT, "docs/openapi.json"), "--url", base,
                   "-H", "Authorization: Bearer " + TOKEN,
                   "--checks", "not_a_server_error", "--max-examples", str(EXAMPLES), "--seed", SEED,
                   "--phases", "examples,coverage,fuzzing", "--workers", "1", "--generation-allow-x00", "false", "--request-timeout", "40",
                   "--exclude-path", "/api/stream", "--no-color", "--continue-on-failure",
                   "--report", "har", "--report-har-path", har, "--suppress-health-check", "all"]
        print("fuzz-api:", " ".join(c if TOKEN not in c else c.replace(TOKEN, "<token>") for c in command), flush=True)
        result = subprocess.run(command, cwd=workdir)
        if result.returncode != 0:
            failures.append(f"schemathesis exited with {result.returncode}")

        created, deleted, closed_pages, server_errors, total = set(), set(), set(), [], 0
        with open(har) as f:
            entries = json.load(f)["log"]["entries"]
        for entry in entries:
            total += 1
            method, url = entry["request"]["method"], entry["request"]["url"]
            path = url.split(base, 1)[-1].split("?", 1)[0]
            status = entry["response"]["status"]
            if status >= 500:
                server_errors.append(f"{method} {path} -> {status}: {entry['response'].get('content', {}).get('text', '')[:200]}")
            if method == "POST" and path == "/api/sessions" and status == 201:
                created.add(json.loads(entry["response"]["content"]["text"])["id"])
            match = re.fullmatch(r"/api/sessions/([^/]+)", path)
            if method == "DELETE" and match and status == 204:
                deleted.add(match.group(1))
            match = re.fullmatch(r"/api/sessions/([^/]+)/pages/([^/]+)/close", path)
            if method == "POST" and match and status == 200:
                closed_pages.add(match.group(2))
        if server_errors:
            failures.append(f"{len(server_errors)} answers were 5xx:\n  " + "\n  ".join(server_errors[:20]))
        if total == 0:
            failures.append("no request was made")

        after = state(base)
        half = set(after) - set(before) - created
        if half:
            failures.append(f"sessions nobody was answered 201 for: {sorted(half)}")
        for sid, (pages, order) in before.items():
            if sid in deleted:
                if sid in after:
                    failures.append(f"{sid} was deleted (204) but is still listed")
                continue
            if sid not in after:
                failures.append(f"{sid} disappeared without a 204 DELETE")
                continue
            expected = [p for p in pages if p not in closed_pages]
            if after[sid][0] != expected:
                failures.append(f"{sid}'s pages were {pages}, are {after[sid][0]}")
        for sid in set(after) - set(before):
            status, body = call(base, "DELETE", f"/api/sessions/{sid}")
            if status != 204:
                failures.append(f"cleaning up {sid}: {status} {body[:200]}")
        final = state(base)
        expected = {sid: value for sid, value in before.items() if sid not in deleted}
        if set(final) != set(expected):
            failures.append(f"sessions after cleanup {sorted(final)} != before {sorted(expected)}")
        status, _ = call(base, "GET", "/api/health")
        if status != 200:
            failures.append(f"health answered {status} after the run")
        print(f"fuzz-api: {total} requests, {len(server_errors)} 5xx, {len(created)} sessions created and "
              f"{len(deleted)} deleted by the fuzzer, {time.time() - started:.0f} s")
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
    if process.returncode not in (0, -15):
        log.seek(0)
        failures.append(f"pagehost exited with {process.returncode}:\n{log.read()[-2000:]}")
    if failures:
        print("fuzz-api: FAILED\n- " + "\n- ".join(failures), file=sys.stderr)
        sys.exit(1)
    print("fuzz-api: passed")


if __name__ == "__main__":
    main()
