#!/usr/bin/env python3
"""Soak test: many clients doing random things to one presentd for a bounded time.

usage: soak.py --daemon PATH [--seconds 600] [--clients 50] [--seed N] [--rss-growth PERCENT]

Starts PATH (presentd) with --check-invariants and a 256 KiB flight recorder (full within
the warm-up) on a temporary socket, runs the clients —
presenting, dismissing, subscribing, tapping, swiping, rotating, sending garbage and
batches, ignoring or answering shouldDismiss, disconnecting and coming back — and fails if:
  - a request goes unanswered (30 s: a hang, not a slow machine) on a connection the daemon did not close,
  - the daemon closes a connection without saying why (`closing` or `shutdown`),
  - a reply does not match its request (wrong id, error where success is certain),
  - the daemon logs a broken stack invariant, an error, or dies,
  - the stack listing is ever inconsistent (duplicate ids, unknown states),
  - resident memory is not flat: after warm-up (the first quarter) the median of the last
    samples may exceed the median of the first samples by at most 5 % (--rss-growth) + 1 MiB,
  - under AddressSanitizer (ASAN_OPTIONS in the environment), it reports anything at exit.
Prints the figures on stdout ("soak: …"). Standard library only.
"""

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

STYLES = ["fullScreen", "overFullScreen", "alert", "popup", "topHalf", "bottomHalf",
          {"type": "slideIn", "direction": "right", "fraction": 0.5},
          {"type": "custom", "width": {"fluid": 0.8}, "height": {"points": 300}, "position": "center"}]
TRANSITIONS = ["coverVertical", "coverVerticalFromTop", "coverHorizontalFromLeft", "coverHorizontalFromRight",
               "slide", "crossDissolve", "flipHorizontal", "zoom"]
TIMINGS = ["linear", "easeIn", "easeOut", "easeInEaseOut", "default", "system", {"bezier": [0.2, 0.8, 0.2, 1]},
           {"spring": {"duration": 0.4, "dampingRatio": 0.7, "initialVelocity": 0}}]
# How long a reply may take before it counts as never coming, and the daemon may take to
# start or to exit: a hang, not a loaded machine (AddressSanitizer's build is slow too).
REPLY_TIMEOUT = 30
START_TIMEOUT = 60
EXIT_TIMEOUT = 60
GARBAGE = [b"{nope", b"\xff\xfe", b"[]", b"5", b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', b"[" * 80 + b"]" * 80,
           b'{"jsonrpc":"2.0","id":"g","method":"present","params":{"style":"alert","transition":{"type":"zoom","duration":61}}}']


class Failure(Exception):
    pass


class Stats:
    def __init__(self):
        self.requests = self.replies = self.errors = self.notifications = 0
        self.frames = self.questions = self.connections = self.backlog_closes = 0
        self.latencies = []


class Client:
    """One connection with its pending requests; notifications are counted."""

    def __init__(self, path, stats, rng, answers):
        self.path, self.stats, self.rng, self.answers = path, stats, rng, answers
        self.pending = {}
        self.next_id = 1
        self.closed_reason = None
        self.mine = set()
        # Ids of batch elements and garbage lines: their replies are not awaited.
        self.untracked = {"g"} | {"b%d" % i for i in range(10)}

    async def open(self):
        self.reader, self.writer = await asyncio.open_unix_connection(self.path, limit=4 << 20)
        self.stats.connections += 1
        self.task = asyncio.ensure_future(self.read_loop())

    async def read_loop(self):
        try:
            while True:
                line = await self.reader.readline()
                if not line:
                    break
                self.dispatch(json.loads(line))
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except ValueError as error:
            raise Failure("the daemon sent invalid JSON: %s" % error)
        finally:
            for future in self.pending.values():
                if not future.done():
                    future.set_result(None)

    def dispatch(self, message):
        if isinstance(message, list):   # a batch's replies
            for reply in message:
                self.dispatch(reply)
            return
        method = message.get("method")
        if method is None:
            ident = message.get("id")
            future = self.pending.pop(ident, None)
            if future is not None:
                future.set_result(message)
            elif ident is not None and ident not in self.untracked:
                raise Failure("a reply to no request: %r" % message)
            return
        if method in ("closing", "shutdown"):
            self.closed_reason = message.get("params", {}).get("reason", method)
            if self.closed_reason == "backlog":
                self.stats.backlog_closes += 1
            return
        if "id" in message:   # shouldDismiss
            self.stats.questions += 1
            if self.answers:
                allow = self.rng.random() < 0.7
                self.send_raw({"jsonrpc": "2.0", "id": message["id"], "result": {"allow": allow}})
            return
        self.stats.notifications += 1
        if method == "frame":
            self.stats.frames += 1

    def send_raw(self, message):
        data = message if isinstance(message, bytes) else (json.dumps(message, separators=(",", ":")) + "\n").encode()
        self.writer.write(data)

    async def call(self, method, params=None, expect_ok=False):
        ident = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        future = asyncio.get_running_loop().create_future()
        self.pending[ident] = future
        self.stats.requests += 1
        started = time.monotonic()
        self.send_raw(message)
        try:
            await self.writer.drain()
            reply = await asyncio.wait_for(future, REPLY_TIMEOUT)
        except (ConnectionError, asyncio.TimeoutError) as error:
            reply = None
            if not isinstance(error, ConnectionError) and self.closed_reason is None:
                raise Failure("%s (id %d) unanswered after %d s" % (method, ident, REPLY_TIMEOUT))
        if reply is None:
            # The connection ended: the daemon must have said why before closing it.
            try:
                await asyncio.wait_for(asyncio.shield(self.task), REPLY_TIMEOUT)
            except asyncio.TimeoutError:
                pass
            if self.closed_reason is None:
                raise Failure("the daemon closed a connection without saying why (during %s)" % method)
            return None
        self.stats.replies += 1
        self.stats.latencies.append(time.monotonic() - started)
        if "error" in reply:
            self.stats.errors += 1
            if expect_ok:
                raise Failure("%s failed: %r" % (method, reply["error"]))
            return None
        return reply.get("result")

    async def close(self):
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except ConnectionError:
            pass
        await self.task


def random_presentation(rng, n):
    p = {"style": rng.choice(STYLES), "dismissOnSwipe": rng.random() < 0.5, "deduplicate": rng.random() < 0.5,
         "kind": "k%d" % rng.randrange(5), "priority": rng.choice([100, 500, 900])}
    if rng.random() < 0.8:
        p["transition"] = {"type": rng.choice(TRANSITIONS), "duration": rng.choice([0, 0.1, 0.25, 0.5]),
                           "timing": rng.choice(TIMINGS)}
    if rng.random() < 0.2:
        p["confirmDismiss"] = True
    if rng.random() < 0.2:
        p["statusBar"] = {"style": rng.choice(["default", "lightContent", "darkContent"])}
    if rng.random() < 0.1:
        p["precedence"] = "override"
    if rng.random() < 0.3:
        p["id"] = "c%d" % n
    return p


async def client_life(path, stats, rng, deadline, index):
    """One simulated client: connects, acts at random, sometimes leaves and comes back."""
    while time.monotonic() < deadline:
        client = Client(path, stats, rng, answers=index % 5 != 0)
        await client.open()
        if rng.random() < 0.8:
            await client.call("hello", {"client": "soak-%d" % index, "protocol": 1}, expect_ok=True)
        for _ in range(rng.randrange(20, 400)):
            if time.monotonic() >= deadline or client.closed_reason:
                break
            await act(client, rng, index)
            await asyncio.sleep(rng.random() * 0.02)
        await client.close()


async def act(client, rng, index):
    roll = rng.random()
    n = rng.randrange(1 << 30)
    if roll < 0.25:
        result = await client.call("present", random_presentation(rng, n))
        if result:
            client.mine.add(result["id"])
    elif roll < 0.40 and client.mine:
        await client.call("dismiss", {"id": rng.choice(sorted(client.mine)), "animated": rng.random() < 0.8})
    elif roll < 0.42:
        await client.call("dismissAll", {"animated": rng.random() < 0.5})
    elif roll < 0.55:
        result = await client.call("stack", expect_ok=True)
        check_listing(result)
    elif roll < 0.60:
        topics = rng.sample(["frames", "lifecycle", "stack", "statusBar"], rng.randrange(1, 5))
        await client.call(rng.choice(["subscribe", "unsubscribe"]), {"topics": topics}, expect_ok=True)
    elif roll < 0.70:
        await client.call("tap", {"x": rng.uniform(0, 390), "y": rng.uniform(0, 844)}, expect_ok=True)
    elif roll < 0.76:
        for phase, dy in (("began", 0), ("changed", rng.uniform(0, 500)), (rng.choice(["ended", "cancelled"]), rng.uniform(0, 800))):
            await client.call("swipe", {"phase": phase, "dx": 0, "dy": dy, "vy": rng.uniform(-2000, 3000)}, expect_ok=True)
    elif roll < 0.78:
        portrait = rng.random() < 0.5
        await client.call("setContainer", {"width": 390 if portrait else 844, "height": 844 if portrait else 390,
                                           "duration": rng.choice([0, 0.3])}, expect_ok=True)
    elif roll < 0.80:
        await client.call("keyboard", {"height": rng.choice([0, 0, 300]), "duration": 0.25}, expect_ok=True)
    elif roll < 0.86:
        await client.call("ping", expect_ok=True)
    elif roll < 0.90:
        items = [{"jsonrpc": "2.0", "id": "b%d" % i, "method": rng.choice(["ping", "stack", "nope"])} for i in range(rng.randrange(1, 10))]
        # Batch replies come back as one array; only its arrival is awaited here.
        await client.call("sync", {"nonce": n}, expect_ok=True)
        client.send_raw(items)
    elif roll < 0.94:
        client.send_raw(rng.choice(GARBAGE) + b"\n")
        await client.call("ping", expect_ok=True)   # the connection still works
    else:
        await client.call("sync", {"nonce": n}, expect_ok=True)


VALID_STATES = {"queued", "presenting", "presented", "dismissing"}


def check_listing(result):
    ids = [entry["id"] for entry in result["entries"]]
    if len(set(ids)) != len(ids):
        raise Failure("duplicate ids in the stack: %r" % ids)
    for entry in result["entries"]:
        if entry["state"] not in VALID_STATES:
            raise Failure("unknown state %r" % entry)


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def monitor(path, pid, deadline, samples, log_path):
    """Once a second: the daemon's RSS and stack depth, and its log checked."""
    watcher = Client(path, Stats(), random.Random(0), answers=True)
    await watcher.open()
    while time.monotonic() < deadline:
        listing = await watcher.call("stack", expect_ok=True)
        check_listing(listing)
        samples.append((time.monotonic(), rss_kib(pid), len(listing["entries"])))
        with open(log_path, errors="replace") as log:
            text = log.read()
        if "invariant" in text or " error: " in text:
            raise Failure("the daemon logged: " + "\n".join(l for l in text.splitlines() if "invariant" in l or " error: " in l)[:2000])
        await asyncio.sleep(1)


async def soak(args, path, pid, log_path):
    stats = Stats()
    start = time.monotonic()
    deadline = start + args.seconds
    samples = []
    rng = random.Random(args.seed)
    lives = [client_life(path, stats, random.Random(rng.random()), deadline, i) for i in range(args.clients)]
    await asyncio.gather(monitor(path, pid, deadline, samples, log_path), *lives)
    return stats, samples, time.monotonic() - start


def wait_until_listening(daemon, path, log_path):
    """None once a connection is accepted, as a client would see it (the socket file exists
    from bind(), a moment before listen()); else what went wrong, with the daemon's stderr."""
    def stderr():
        with open(log_path, errors="replace") as log:
            return "; its stderr:\n" + log.read()[-4000:]

    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if daemon.poll() is not None:
            return "the daemon exited with status %s before it listened on %s%s" % (daemon.returncode, path, stderr())
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            try:
                s.connect(path)
                return None
            except OSError:
                pass
        if time.monotonic() >= deadline:
            return "the daemon (pid %d, still running) did not accept a connection on %s within %d s%s" % (
                daemon.pid, path, START_TIMEOUT, stderr())
        time.sleep(0.01)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--daemon", required=True)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--rss-growth", type=float, default=5,
                        help="allowed RSS growth after warm-up, percent (AddressSanitizer's allocator needs more)")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="presentd-soak-")
    path = os.path.join(directory, "presentd.sock")
    log_path = os.path.join(directory, "stderr.log")
    with open(log_path, "w") as log:
        # The flight recorder's ring is bounded memory that fills: a small one (256 KiB) is
        # full within the warm-up and then wraps thousands of times, so flat memory after
        # warm-up still means no leak — the ring's included.
        daemon = subprocess.Popen([args.daemon, "--socket", path, "--check-invariants", "--max-connections-per-uid", "1024",
                                   "--recorder-bytes", str(256 << 10)],
                                  stderr=log, stdout=subprocess.DEVNULL)
    print("soak: %d clients for %g s against %s (seed %d)" % (args.clients, args.seconds, args.daemon, args.seed))
    failure = wait_until_listening(daemon, path, log_path)
    stats, samples, elapsed = None, [], 0
    if failure is None:
        try:
            stats, samples, elapsed = asyncio.run(soak(args, path, daemon.pid, log_path))
        except Failure as error:
            failure = str(error)
    alive = daemon.poll() is None
    if alive:
        daemon.send_signal(signal.SIGTERM)
    try:
        status = daemon.wait(timeout=EXIT_TIMEOUT)  # AddressSanitizer's leak check runs at exit
    except subprocess.TimeoutExpired:
        daemon.kill()
        status = daemon.wait()
        failure = failure or "the daemon did not exit within %d s of SIGTERM" % EXIT_TIMEOUT
    with open(log_path, errors="replace") as log:
        text = log.read()

    if stats:
        warm = [kib for t, kib, _ in samples if t >= samples[0][0] + args.seconds / 4] if samples else []
        tenth = max(1, len(samples) // 10)
        print("soak: every %d s — RSS KiB %s; stack depth %s" % (
            tenth, " ".join(str(kib) for _, kib, _ in samples[::tenth]), " ".join(str(d) for _, _, d in samples[::tenth])))
        head, tail = warm[:10], warm[-10:]
        latencies = sorted(stats.latencies)
        p99 = latencies[int(0.99 * (len(latencies) - 1))] if latencies else 0
        print("soak: %d requests, %d answered (%d of them errors: entries already gone, limits…), %d notifications (%d frames), "
              "%d shouldDismiss questions, %d connections, %d closed for backlog" %
              (stats.requests, stats.replies, stats.errors, stats.notifications, stats.frames, stats.questions,
               stats.connections, stats.backlog_closes))
        print("soak: round trip p50 %.2f ms, p99 %.2f ms" % (1000 * statistics.median(latencies) if latencies else 0, 1000 * p99))
        if head and tail:
            before, after = statistics.median(head), statistics.median(tail)
            print("soak: RSS %d KiB at start, %d KiB after warm-up, %d KiB at the end (%+.1f %%), peak %d KiB" %
                  (samples[0][1], before, after, 100.0 * (after - before) / before, max(k for _, k, _ in samples)))
            if failure is None and after > before * (1 + args.rss_growth / 100) + 1024:
                failure = "resident memory grew from %d to %d KiB after warm-up" % (before, after)
    if failure is None and not alive:
        failure = "the daemon died (status %s)" % status
    if failure is None and status != 0:
        failure = "the daemon exited with status %s" % status
    if failure is None and ("ERROR: AddressSanitizer" in text or "ERROR: LeakSanitizer" in text):
        failure = "AddressSanitizer:\n" + text[text.find("ERROR:"):][:4000]
    if failure:
        print("soak: FAILED: " + failure)
        print("soak: daemon log kept in " + log_path)
        sys.exit(1)
    for name in os.listdir(directory):
        os.unlink(os.path.join(directory, name))
    os.rmdir(directory)
    print("soak: passed")


if __name__ == "__main__":
    main()
