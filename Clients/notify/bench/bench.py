#!/usr/bin/python3
"""Notify round trip, side by side: presentd-notify (with presentd), mako and dunst (on a headless
sway), on a private session bus, from one in-process python3-dbus client.

For each server: ROUNDS rounds of CALLS sequential Notify calls (expire_timeout 0, so they
stay up), each round's notifications then closed; p50/p99 of the round trip over all calls,
the calls per second that sequence makes, the server's CPU per notification (its threads'
time on a CPU, /proc/PID/task/*/schedstat), and its RSS and private dirty memory with 0 and 100 notifications
up. sway refuses to run as root, so as root the whole bench runs as `nobody` (setpriv).

    /usr/bin/python3 Clients/notify/bench/bench.py --presentd PATH --bridge PATH [--calls 500] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def wait(condition, what: str, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise TimeoutError(f"waited {timeout} s for {what}")


def memory(pid: int) -> dict:
    out = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("Rss", "Private_Dirty"):
                out[key] = int(rest.split()[0])
    return out


def cpu_seconds(pid: int) -> float:
    """Time on a CPU, every thread (schedstat: nanoseconds, not /proc/PID/stat's 10 ms ticks)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
            total += int(f.read().split()[0])
    return total / 1e9


def measure(name: str, server_pid: int, extra_pids: list[int], address: str, calls: int, rounds: int,
            progress: dict | None = None) -> dict:
    import dbus
    bus = dbus.bus.BusConnection(address)
    proxy = bus.get_object(NAME, PATH)
    notify = proxy.get_dbus_method("Notify", NAME)
    close = proxy.get_dbus_method("CloseNotification", NAME)
    idle = memory(server_pid)
    latencies = []
    up100 = None
    cpu0 = cpu_seconds(server_pid)
    cpu0_extra = sum(cpu_seconds(p) for p in extra_pids)
    for r in range(rounds):
        ids = []
        for i in range(calls):
            t = time.perf_counter()
            ids.append(notify("bench", dbus.UInt32(0), "", f"n{r}.{i}", "body", [], {}, 0,
                              signature="susssasa{sv}i"))
            latencies.append(time.perf_counter() - t)
            if progress is not None:
                progress["answered"] = progress.get("answered", 0) + 1
            if r == 0 and i == 99:
                up100 = memory(server_pid)
        for id in ids:
            close(id)
    cpu = cpu_seconds(server_pid) - cpu0
    cpu_extra = sum(cpu_seconds(p) for p in extra_pids) - cpu0_extra
    latencies.sort()
    n = len(latencies)
    return {
        "server": name, "calls": n,
        "p50_us": round(latencies[n // 2] * 1e6), "p99_us": round(latencies[int(n * 0.99)] * 1e6),
        "calls_per_s": round(n / sum(latencies)),
        "cpu_ms_per_notification": round(cpu * 1000 / n, 3),
        "cpu_ms_per_notification_with_presentd": round((cpu + cpu_extra) * 1000 / n, 3) if extra_pids else None,
        "rss_kib_0": idle["Rss"], "private_dirty_kib_0": idle["Private_Dirty"],
        "rss_kib_100": up100["Rss"], "private_dirty_kib_100": up100["Private_Dirty"],
    }


def accepts(path: str) -> bool:
    import socket
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        try:
            s.connect(path)
            return True
        except OSError:
            return False


def has_owner(address: str) -> bool:
    import dbus
    bus = dbus.bus.BusConnection(address)
    try:
        return bool(bus.name_has_owner(NAME))
    finally:
        bus.close()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--presentd", required=True)
    ap.add_argument("--bridge", required=True)
    ap.add_argument("--calls", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", help="write the results here too")
    args = ap.parse_args()
    if os.getuid() == 0:
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

    results = []
    try:
        dbusd = start(["dbus-daemon", "--session", "--print-address=1", "--nofork"], stdout=subprocess.PIPE, text=True)
        address = dbusd.stdout.readline().strip()
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        open(os.path.join(tmp, "sway.conf"), "w").close()
        start(["sway", "-c", os.path.join(tmp, "sway.conf")],
              env=dict(env, WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman"))
        wait(lambda: os.path.exists(os.path.join(tmp, "wayland-1")), "sway's wayland-1 socket")
        socket = os.path.join(tmp, "presentd.sock")
        presentd = start([args.presentd, "--socket", socket])
        wait(lambda: accepts(socket), "presentd accepting connections")

        bridge = start([args.bridge, "--socket", socket, "--max-waiting", str(args.calls + 10)])
        wait(lambda: has_owner(address), "presentd-notify on the bus")
        results.append(measure("presentd-notify", bridge.pid, [presentd.pid], address, args.calls, args.rounds))
        bridge.terminate()
        bridge.wait(30)
        wait(lambda: not has_owner(address), "the name released")

        mako = start(["mako"], env=dict(env, WAYLAND_DISPLAY="wayland-1"))
        wait(lambda: has_owner(address), "mako on the bus")
        results.append(measure("mako", mako.pid, [], address, args.calls, args.rounds))
        mako.terminate()
        mako.wait(30)
        wait(lambda: not has_owner(address), "the name released")

        dunst = start(["dunst"], env=dict(env, WAYLAND_DISPLAY="wayland-1"))
        wait(lambda: has_owner(address), "dunst on the bus")
        progress: dict = {}
        try:
            results.append(measure("dunst", dunst.pid, [], address, args.calls, args.rounds, progress))
        except Exception as e:  # dunst 1.9.0 as Debian packages it has crashed under this load
            status = dunst.wait(10) if dunst.poll() is None else dunst.returncode
            print(f"dunst failed after {progress.get('answered', 0)} answered Notify calls (exit status {status}): "
                  f"{type(e).__name__}: {str(e)[:120]}", file=sys.stderr)
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        shutil.rmtree(tmp, ignore_errors=True)

    keys = ["p50_us", "p99_us", "calls_per_s", "cpu_ms_per_notification", "cpu_ms_per_notification_with_presentd",
            "rss_kib_0", "private_dirty_kib_0", "rss_kib_100", "private_dirty_kib_100"]
    print("| figure | " + " | ".join(r["server"] for r in results) + " |")
    print("|---|" + "---|" * len(results))
    for k in keys:
        print(f"| {k} | " + " | ".join("—" if r[k] is None else str(r[k]) for r in results) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
