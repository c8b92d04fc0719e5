#!/usr/bin/python3
"""Notify, side by side: presentd-notify (with presentd), mako and dunst (on a headless sway).

Each server has its own private session bus, and presentd-notify and mako run at the same
time: their rounds take turns (ours, mako, mako, ours, …), so a machine that gets busier or
quieter during the run weighs on both alike. dunst is measured last, alone: Debian's 1.9.0
crashes under this load, and its crash is reported as it is.

- The client is notify-load (bench/notify/notify_load.c, C on sd-bus, as the servers are), so that its
  own cost is small beside theirs and the same for each.
- Round trip: ROUNDS rounds of CALLS sequential Notify calls (expire_timeout 0, so they stay
  up), each round's notifications then closed one by one; p50 and p99 over every call, and the
  calls per second that sequence makes. Between rounds a pause (SETTLE_S) lets what a server
  does after its answers (mako and sway drawing) end before the other's round.
- CPU per notification: the server's threads' time on a CPU (/proc/PID/task/*/schedstat) from
  before the first round to after the last pause (what it does after its answers counts), over
  the notifications; for presentd-notify also with presentd's (the two together are the server).
- Memory: RSS and private dirty (/proc/PID/smaps_rollup) before the first call and with 100 up;
  for presentd-notify also with presentd's.
- Burst: BURST Notify calls sent at once, none waiting for another's answer, until the first
  error or the cap: the calls answered before the first error per second, and what ended it.

sway refuses to run as root, so as root the whole bench runs as `nobody` (setpriv).

    /usr/bin/python3 bench/notify/bench.py --presentd PATH --bridge PATH [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "../../Clients/python/src"), os.path.join(HERE, "../../Tests/kit")]
from presentd.daemon import wait_until as wait  # noqa: E402
from headless import HeadlessSway, accepts  # noqa: E402  (the one recipe for a headless sway)

NAME = "org.freedesktop.Notifications"
SETTLE_S = 0.5
PATH = "/org/freedesktop/Notifications"


def memory(pids: list[int]) -> dict:
    out = {"Rss": 0, "Private_Dirty": 0}
    for pid in pids:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in out:
                    out[key] += int(rest.split()[0])
    return out


def cpu_seconds(pids: list[int]) -> float:
    """Time on a CPU, every thread (schedstat: nanoseconds, not /proc/PID/stat's 10 ms ticks)."""
    total = 0
    for pid in pids:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
            except FileNotFoundError:  # a thread that ended meanwhile
                pass
    return total / 1e9


def has_owner(address: str) -> bool:
    import dbus
    bus = dbus.bus.BusConnection(address)
    try:
        return bool(bus.name_has_owner(NAME))
    finally:
        bus.close()


class Done(Exception):
    """Nothing more to measure."""


class Server:
    """One notification server on its own bus: `pid` is the server, `helpers` what serves with
    it (presentd for the bridge)."""

    def __init__(self, name: str, pid: int, helpers: list[int], address: str, load: str) -> None:
        self.name, self.pid, self.helpers, self.address, self.load = name, pid, helpers, address, load
        self.latencies: list[float] = []
        self.answered = 0
        self.idle = memory([pid])
        self.idle_all = memory([pid, *helpers])
        self.up100 = self.up100_all = None
        self.cpu0 = self.cpu0_all = None

    def start_cpu(self) -> None:
        self.cpu0, self.cpu0_all = cpu_seconds([self.pid]), cpu_seconds([self.pid, *self.helpers])

    def round(self, label: str, calls: int) -> None:
        """notify-load's sequential calls, then their closes; the memory with 100 up (once)."""
        p = subprocess.Popen([self.load, self.address, "round", label, str(calls)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        took = []
        for line in p.stdout:
            line = line.strip()
            if line == "up100":
                if self.up100 is None:
                    self.up100, self.up100_all = memory([self.pid]), memory([self.pid, *self.helpers])
                p.stdin.write("\n")
                p.stdin.flush()
            elif line == "done":
                break
            else:
                took.append(int(line) / 1e9)
        err = p.stderr.read()
        if p.wait() != 0:
            failed = re.search(r"Notify (\d+):", err)
            self.answered += int(failed.group(1)) if failed else 0
            raise RuntimeError(err.strip())
        self.latencies += took
        self.answered += len(took)

    def figures(self) -> dict:
        cpu = cpu_seconds([self.pid]) - self.cpu0
        cpu_all = cpu_seconds([self.pid, *self.helpers]) - self.cpu0_all
        lat = sorted(self.latencies)
        n = len(lat)
        together = bool(self.helpers)
        return {
            "server": self.name, "calls": n,
            "p50_us": round(lat[n // 2] * 1e6), "p99_us": round(lat[min(n - 1, int(n * 0.99))] * 1e6),
            "calls_per_s": round(n / sum(lat)),
            "cpu_ms_per_notification": round(cpu * 1000 / n, 4),
            "cpu_ms_per_notification_with_presentd": round(cpu_all * 1000 / n, 4) if together else None,
            "rss_kib_0": self.idle["Rss"], "private_dirty_kib_0": self.idle["Private_Dirty"],
            "rss_kib_100": self.up100["Rss"], "private_dirty_kib_100": self.up100["Private_Dirty"],
            "rss_kib_0_with_presentd": self.idle_all["Rss"] if together else None,
            "private_dirty_kib_0_with_presentd": self.idle_all["Private_Dirty"] if together else None,
            "rss_kib_100_with_presentd": self.up100_all["Rss"] if together else None,
            "private_dirty_kib_100_with_presentd": self.up100_all["Private_Dirty"] if together else None,
        }


def burst(load: str, address: str, cap: int, process: subprocess.Popen) -> dict:
    """notify-load's burst: cap Notify calls sent at once; the ones answered before the first
    error, per second from the first send to that error (or to the last answer)."""
    out = subprocess.run([load, address, "burst", "burst", str(cap)], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        return {"burst_ok": 0, "burst_calls_per_s": 0, "burst_ended_by": out.stderr.strip()}
    ok, seconds, error = out.stdout.split(" ", 2)
    error = error.strip()
    if process.poll() is not None:
        error = f"the server exited with status {process.returncode} ({error})"
    return {"burst_ok": int(ok), "burst_calls_per_s": round(int(ok) / float(seconds)) if int(ok) else 0,
            "burst_ended_by": error if error != "-" else f"the cap ({cap}), no error"}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--presentd", required=True)
    ap.add_argument("--bridge", required=True)
    ap.add_argument("--load", help="the bench's client, notify-load (default: next to --bridge)")
    ap.add_argument("--calls", type=int, default=500, help="Notify calls a round (default 500)")
    ap.add_argument("--rounds", type=int, default=6, help="rounds per server, taking turns (default 6)")
    ap.add_argument("--burst", type=int, default=10000, help="the burst's cap (default 10000)")
    ap.add_argument("--quick", action="store_true", help="2 rounds of 200 calls, a burst of 2000")
    ap.add_argument("--json", help="write the results here too")
    args = ap.parse_args()
    load = os.path.abspath(args.load or os.path.join(os.path.dirname(args.bridge), "notify-load"))
    if args.quick:
        args.calls, args.rounds, args.burst = 200, 2, 2000
    if os.getuid() == 0:
        if args.json:  # written by nobody at the end
            open(args.json, "w").close()
            os.chown(args.json, 65534, 65534)
        os.execvp("setpriv", ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                              sys.executable, *sys.argv])
    tmp = tempfile.mkdtemp(prefix="notify-bench-")
    os.chmod(tmp, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=tmp, HOME=tmp)
    procs: list[subprocess.Popen] = []

    def start(argv, **kw):
        p = subprocess.Popen(argv, env=kw.pop("env", env), stdin=subprocess.DEVNULL,
                             stdout=kw.pop("stdout", subprocess.DEVNULL), stderr=subprocess.DEVNULL, **kw)
        procs.append(p)
        return p

    def bus() -> str:
        d = start(["dbus-daemon", "--session", "--print-address=1", "--nofork"], stdout=subprocess.PIPE, text=True)
        return d.stdout.readline().strip()

    def stop(p: subprocess.Popen) -> None:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    results: list[dict] = []
    notes: list[str] = []
    sway: HeadlessSway | None = None
    try:
        sway = HeadlessSway()
        wl = sway.env   # mako and dunst draw on it

        ours_bus = bus()
        sock = os.path.join(tmp, "presentd.sock")
        presentd = start([args.presentd, "--socket", sock])
        wait(lambda: accepts(sock), "presentd accepting connections")
        bridge = start([args.bridge, "--socket", sock, "--max-waiting", str(max(args.calls, args.burst))],
                       env=dict(env, DBUS_SESSION_BUS_ADDRESS=ours_bus))
        wait(lambda: has_owner(ours_bus), "presentd-notify on its bus")
        mako_bus = bus()
        mako = start(["mako"], env=dict(wl, DBUS_SESSION_BUS_ADDRESS=mako_bus))
        wait(lambda: has_owner(mako_bus), "mako on its bus")
        time.sleep(0.5)  # both settled after start-up: the idle figures
        servers = [Server("presentd-notify", bridge.pid, [presentd.pid], ours_bus, load),
                   Server("mako", mako.pid, [], mako_bus, load)]
        for s in servers:
            s.start_cpu()
        for r in range(args.rounds):
            for s in (servers if r % 2 == 0 else servers[::-1]):
                s.round(f"n{r}", args.calls)
                # What a server does after its answers (mako and sway drawing, presentd
                # animating) is over before the other's round starts.
                time.sleep(SETTLE_S)
        figures = {s.name: s.figures() for s in servers}
        for s, p in ((servers[0], bridge), (servers[1], mako)):
            figures[s.name].update(burst(load, s.address, args.burst, p))
        results += figures.values()
        stop(bridge)
        stop(mako)

        if not shutil.which("dunst"):
            notes.append("dunst: not installed")
            raise Done
        dunst_bus = bus()
        dunst = start(["dunst"], env=dict(wl, DBUS_SESSION_BUS_ADDRESS=dunst_bus))
        wait(lambda: has_owner(dunst_bus), "dunst on its bus")
        d = Server("dunst", dunst.pid, [], dunst_bus, load)
        d.start_cpu()
        try:
            for r in range(args.rounds):
                d.round(f"n{r}", args.calls)
            row = d.figures()
        except Exception as e:  # dunst 1.9.0 as Debian packages it crashes under this load
            status = dunst.wait(10) if dunst.poll() is None else dunst.returncode
            notes.append(f"dunst, sequential: failed after {d.answered} answered Notify calls "
                         f"(exit status {status}): {str(e)[:160]}")
            row = {"server": "dunst"}
        stop(dunst)
        dunst = start(["dunst"], env=dict(wl, DBUS_SESSION_BUS_ADDRESS=dunst_bus))
        wait(lambda: has_owner(dunst_bus), "dunst on its bus again")
        row.update(burst(load, dunst_bus, args.burst, dunst))
        results.append(row)
    except Done:
        pass
    finally:
        for p in reversed(procs):
            stop(p)
        if sway:
            sway.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    keys = ["p50_us", "p99_us", "calls_per_s", "burst_calls_per_s", "burst_ok",
            "cpu_ms_per_notification", "cpu_ms_per_notification_with_presentd",
            "rss_kib_0", "rss_kib_0_with_presentd", "private_dirty_kib_0", "private_dirty_kib_0_with_presentd",
            "rss_kib_100", "rss_kib_100_with_presentd", "private_dirty_kib_100", "private_dirty_kib_100_with_presentd"]
    print(f"{args.rounds} rounds of {args.calls} sequential Notify calls per server, taking turns; "
          f"a burst of up to {args.burst}; load average {os.getloadavg()[0]:.1f}")
    print("| figure | " + " | ".join(r["server"] for r in results) + " |")
    print("|---|" + "---|" * len(results))
    for k in keys:
        print(f"| {k} | " + " | ".join("—" if r.get(k) is None else str(r[k]) for r in results) + " |")
    for r in results:
        print(f"{r['server']}: the burst ended by {r['burst_ended_by']}")
    for n in notes:
        print(n)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "notes": notes}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
