#!/usr/bin/env python3
"""presentd's benchmark: the real daemon against a minimal C libuv + json-c server.

Runs the same load (bench/loadgen.c) against both servers, one test at a time, each server
started fresh on a temporary socket with --fps 120, in rounds (3; quick: 1) that alternate
which server goes first; every figure is the median of its rounds:

  rtt       sequential pings on one connection: round-trip p50 / p99
  connect   connections opened and closed one after the other: per second; and with one
            ping answered on each
  session   what `presentctl present` does: connect, hello, present, dismiss, close: p50 / p99
  process   `presentctl ping` as a whole process against `swaymsg -t get_version`, and
            /bin/true (the cost of any process), interleaved: median and p90 wall time
  pipeline  pings with 64 in flight on one connection: requests per second
  fanout N  N subscribers (1, 100, 500, 1000) to frames while a long transition animates:
            frames delivered vs the ticks of the window (missing ones split into ticks
            nobody received and copies dropped for single subscribers), p99 delay from a
            frame's `time` to its receipt (split into the first copy's delay and the
            spread to the last copy), pacing jitter (inter-arrival time against 1/120 s),
            frame times off the k/120 grid, server RSS and CPU (also per tick)
  split     the fan-out's delay in two, for both servers alike, from the kernel's record of
            when the server's thread is put on a CPU (perf, sched:sched_switch, on the
            monotonic clock; left out where perf cannot record it): the tick's lateness (from
            the k/120 deadline to the server running) and its delivery (from the server
            running to the subscriber's read returning, for the first and the last copy)
  memory    private dirty memory and PSS (/proc/PID/smaps_rollup) of a fresh server 0.2 s
            after one ping, and after 2 s with no client, and 2 s after one session (hello,
            present, dismiss) on top of that; per subscriber: the slope of the
            private dirty memory between the two largest fan-outs. Not VmRSS: it also counts
            the clean pages of the binary that happen to be resident, which the kernel takes
            back on its own and which moved by up to 3 MiB between runs of the same fan-out
  idle      a fresh server after one ping and 2 s with no client: its wake-ups
            per second over a window (10 s; quick 2 s), summed over its threads: times put
            on a CPU (/proc/PID/task/*/schedstat, third field) and context switches
            (voluntary + nonvoluntary in .../status); nothing should wake it then

`--soak SECONDS` runs only the memory soak instead (`make soak-memory`: 600 s): presentd
under churn (connections, sessions, subscribers coming and going) with its private dirty
memory and PSS sampled every few seconds, and the slope of each over the second half.

and a machine floor: how late this machine wakes a sleeping thread for a 120 Hz deadline
(no server involved), so that absolute figures can be read against what the host allows.

sway (when installed; --no-sway to leave it out) runs headless as the Wayland suite runs it
(Tests/kit/headless.py: pixman, no input devices, a private XDG_RUNTIME_DIR;
as nobody when the bench runs as root, since sway refuses root) and
is measured where its IPC (i3-ipc) has the same figure: rtt, connect and process, with
get_version as its ping. Every presentd figure is also given as a ratio to the baseline's. Prints a table and
writes a JSON file (default bench/out/results.json). Standard library only, besides that
module of this repository.
"""

import argparse
import json
import os
import platform
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path[:0] = [os.path.join(os.path.dirname(os.path.abspath(__file__)), p) for p in ("../Clients/python/src", "../Tests/kit")]
from headless import HeadlessSway  # noqa: E402  (the one recipe for a headless sway)

FPS = 120
SERVERS = ("baseline", "presentd")


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--presentd", required=True, help="the presentd binary (release build)")
    p.add_argument("--presentctl", help="the presentctl binary (default: beside --presentd)")
    p.add_argument("--baseline", required=True, help="the baseline server binary")
    p.add_argument("--no-sway", action="store_true", help="leave sway out (it is measured when sway and swaymsg are installed)")
    p.add_argument("--loadgen", required=True, help="the load generator binary")
    p.add_argument("--out", default="bench/out/results.json", help="where to write the JSON results")
    p.add_argument("--quick", action="store_true", help="a few seconds: small counts, 1 and 100 subscribers, 1 s windows")
    p.add_argument("--duration", type=float, help="seconds of each fan-out window (default 10, quick 1)")
    p.add_argument("--subscribers", help="comma-separated fan-out sizes (default 1,100,500,1000; quick 1,100)")
    p.add_argument("--idle-window", type=float, help="seconds over which idle wake-ups are counted (default 10, quick 2)")
    p.add_argument("--rounds", type=int, help="rounds of every test, alternating which server goes first; "
                                             "each figure is the median (default 3, quick 1)")
    p.add_argument("--pin", action="store_true", help="pin the server to CPU 0 and the load generator to CPU 1")
    p.add_argument("--nice", type=int, default=0,
                   help="run the servers and the load generator at this niceness (negative needs root): "
                        "shields both from other work on a shared machine")
    p.add_argument("--no-split", action="store_true", help="leave out the split of the fan-out's delay (which needs perf)")
    p.add_argument("--soak", type=float, metavar="SECONDS",
                   help="only the memory soak: presentd under churn for SECONDS, its memory sampled")
    return p.parse_args()


# ---- machine conditions ----

def read(path, default=""):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def cpu_model():
    for line in read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.machine()


def loadavg():
    return [float(x) for x in read("/proc/loadavg", "0 0 0").split()[:3]]


def cpu_busy_seconds():
    """CPU seconds all processes of the machine have used (busy time of every CPU)."""
    fields = [int(x) for x in read("/proc/stat").splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds():
    """CPU seconds of this benchmark: this script and its finished servers and load generators."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def git_revision():
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def raise_fd_limit(needed):
    """Raises this process's soft RLIMIT_NOFILE (inherited by the servers and the load
    generator) to the hard limit; returns the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, needed)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# ---- processes ----

def rollup(pid):
    """Private dirty memory and PSS (kB) from /proc/PID/smaps_rollup: what the process costs
    the machine, without the clean file pages the kernel takes back on its own."""
    values = {}
    for line in read(f"/proc/{pid}/smaps_rollup").splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] in ("Pss:", "Private_Dirty:"):
            values[fields[0][:-1]] = int(fields[1])
    return {"private_dirty_kib": values.get("Private_Dirty"), "pss_kib": values.get("Pss")}


def status_value(pid, key):
    """The number on a /proc/PID/status line (kB for the Vm lines); `pid` may be "PID/task/TID"."""
    for line in read(f"/proc/{pid}/status").splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return None


class Server:
    """One server process on a fresh socket in a temporary directory."""

    def __init__(self, kind, args, pin):
        self.kind = kind
        self.sway = None
        if kind == "sway":
            try:
                self.sway = HeadlessSway(preexec_fn=placement(args, 0 if pin else None))
            except (RuntimeError, TimeoutError) as error:
                sys.exit(f"bench: sway does not start: {str(error).splitlines()[0]}")
            self.process, self.socket = self.sway.process, self.sway.ipc
            self.pid = self.sway.pid
            return
        self.dir = tempfile.mkdtemp(prefix=f"bench-{kind}-")
        self.socket = os.path.join(self.dir, "s.sock")
        if kind == "presentd":
            # Its defaults, whatever /etc/presentd holds, with room for every subscriber
            # (all of them come from one uid).
            room = str(max(1024, args.max_subscribers + 64))
            self.config = os.path.join(self.dir, "presentd.json")
            with open(self.config, "w") as f:
                f.write("{}\n")
            command = [args.presentd, "--socket", self.socket, "--fps", str(FPS), "--log-level", "warning",
                       "--config", self.config,
                       "--max-connections", room, "--max-connections-per-uid", room]
        else:
            command = [args.baseline, self.socket, str(FPS)]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                        preexec_fn=placement(args, 0 if pin else None))
        self.pid = self.process.pid
        self.wait_until_listening()

    def wait_until_listening(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                sys.exit(f"bench: {self.kind} exited with status {self.process.returncode} at start")
            try:
                with socket.socket(socket.AF_UNIX) as s:
                    s.connect(self.socket)
                return
            except OSError:
                time.sleep(0.02)
        self.process.kill()
        self.process.wait()
        sys.exit(f"bench: {self.kind} is not listening on {self.socket} after {timeout} s")

    def after_one_ping(self):
        """Private dirty memory and PSS 0.2 s after one ping round trip, once the connection
        is gone."""
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(self.socket)
            s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
            s.recv(4096)
        time.sleep(0.2)
        return rollup(self.pid)

    def wakeup_counters(self):
        """(times put on a CPU, context switches) of every thread of the server so far."""
        runs = switches = 0
        task_dir = f"/proc/{self.pid}/task"
        for tid in os.listdir(task_dir):
            fields = read(f"{task_dir}/{tid}/schedstat", "0 0 0").split()
            runs += int(fields[2])
            switches += sum(status_value(f"{self.pid}/task/{tid}", key) or 0
                            for key in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"))
        return runs, switches

    def idle(self, window, settle=2.0):
        """After one ping and `settle` seconds with no client: private dirty memory and PSS,
        and how often the server woke up over the next `window` seconds."""
        self.after_one_ping()
        time.sleep(settle)   # the quiet itself is what is measured: no condition to wait for
        memory = rollup(self.pid)
        runs0, switches0 = self.wakeup_counters()
        start = time.monotonic()
        time.sleep(window)
        runs1, switches1 = self.wakeup_counters()
        elapsed = time.monotonic() - start
        return {**memory, "window_s": round(elapsed, 3),
                "threads": len(os.listdir(f"/proc/{self.pid}/task")),
                "wakeups_per_s": (runs1 - runs0) / elapsed,
                "context_switches_per_s": (switches1 - switches0) / elapsed}

    def stop(self):
        if self.sway:
            return self.sway.stop()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        # The socket, the configuration, and whatever the server keeps beside its socket
        # (presentd saves its stack there).
        shutil.rmtree(self.dir, ignore_errors=True)


def placement(args, cpu):
    """What a child does before exec: its niceness, and its CPU when pinned."""
    def apply():
        if args.nice:
            os.nice(args.nice)
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
    return apply


def loadgen(args, *words):
    done = subprocess.run([args.loadgen, *map(str, words)], capture_output=True, text=True,
                          preexec_fn=placement(args, 1 if args.pin else None))
    if done.returncode != 0:
        sys.exit(f"bench: loadgen {' '.join(map(str, words))} failed:\n{done.stderr}")
    return json.loads(done.stdout)


# ---- the runs ----

def run(args):
    quick = args.quick
    args.presentctl = args.presentctl or os.path.join(os.path.dirname(args.presentd), "presentctl")
    duration = args.duration or (1.0 if quick else 10.0)
    idle_window = args.idle_window or (2.0 if quick else 10.0)
    sizes = [int(x) for x in (args.subscribers or ("1,100" if quick else "1,100,500,1000")).split(",")]
    args.max_subscribers = max(sizes)
    fd_limit = raise_fd_limit(max(sizes) + 64)
    if max(sizes) + 32 > fd_limit:
        sys.exit(f"bench: {max(sizes)} subscribers need more than the open-file limit {fd_limit} (raise the hard limit)")
    rtt_count, pipe_count = (2000, 20000) if quick else (20000, 200000)
    # A full run measures each connect figure over enough connections that one scheduling
    # hiccup cannot move the rate much.
    connect_count, session_count, spawn_count = (2000, 500, 20) if quick else (200000, 5000, 200)
    peers = () if args.no_sway or not (shutil.which("sway") and shutil.which("swaymsg")) else ("sway",)
    if peers:
        try:   # installed is not enough: it may not start here (no headless backend, no setpriv)
            Server("sway", args, False).stop()
        except SystemExit as failure:
            print(f"bench: sway left out: {failure}", file=sys.stderr)
            peers = ()
    kinds = SERVERS + peers

    # A binary just built is dirty in the page cache until written back, and smaps counts
    # its mapped text as the server's private dirty memory: write the binaries out first.
    for binary in (args.presentd, args.presentctl, args.baseline, args.loadgen):
        with open(binary, "rb") as f:
            os.fsync(f.fileno())
    busy0, own0, clock0 = cpu_busy_seconds(), own_cpu_seconds(), time.monotonic()
    load_before = loadavg()
    started = time.time()

    floor = loadgen(args, "wake", "--count", 240 if quick else 1200, "--fps", FPS)
    split = not args.no_split and SchedTrace.works()
    if not args.no_split and not split:
        print("bench: the fan-out's delay is not split: perf cannot record sched:sched_switch here", file=sys.stderr)

    def each(fn, order):
        for kind in order:
            server = Server(kind, args, args.pin)
            try:
                fn(kind, server)
            finally:
                server.stop()

    # A shared machine is noisy: every test runs several rounds, alternating which server
    # goes first, and each figure is the median of its rounds.
    round_count = args.rounds or (1 if quick else 3)
    def orders(kinds):
        """Each round's order: rotated by one each round, so no server always goes first."""
        return [kinds[i % len(kinds):] + kinds[:i % len(kinds)] for i in range(round_count)]

    def in_rounds(fn, kinds=SERVERS):
        """Runs fn(kind, server) -> a result dict in every round; per server, the median of
        its rounds, with the rounds themselves under "rounds"."""
        collected = {kind: [] for kind in kinds}
        for order in orders(kinds):
            each(lambda kind, server: collected[kind].append(fn(kind, server)), order)
        return {kind: dict(median_of(collected[kind]), rounds=collected[kind]) for kind in kinds}

    def basics(kind, server):
        protocol = ["--protocol", "i3"] if kind == "sway" else []
        # First, on the fresh server: the connections below fill presentd's flight recorder
        # (a ring of 4 MiB by default), which would count here.
        r = {"after_ping": server.after_one_ping()} if kind != "sway" else {}
        r |= {"rtt": loadgen(args, "rtt", "--socket", server.socket, "--count", rtt_count,
                            "--warmup", rtt_count // 10, "--pid", server.pid, *protocol),
             "connect": loadgen(args, "connect", "--socket", server.socket, "--count", connect_count,
                                "--pid", server.pid, *protocol),
             "connect_ping": loadgen(args, "connect", "--socket", server.socket, "--count", connect_count // 2,
                                     "--ping", "--pid", server.pid, *protocol)}
        if kind != "sway":   # JSON-RPC only
            r["pipeline"] = loadgen(args, "pipeline", "--socket", server.socket, "--count", pipe_count,
                                    "--window", 64, "--pid", server.pid)
            r["session"] = loadgen(args, "session", "--socket", server.socket, "--count", session_count,
                                   "--pid", server.pid)
        progress(kind, f"rtt p50 {r['rtt']['p50_us']:.1f} us, connect+close {r['connect']['connections_per_s']:.0f}/s, "
                       f"connect+ping+close {r['connect_ping']['connections_per_s']:.0f}/s"
                       + (f", session p50 {r['session']['p50_us']:.0f} us" if "session" in r else ""))
        return r

    results = in_rounds(basics, kinds)

    # Whole client processes, interleaved one by one against both servers at once.
    if peers:
        daemon, sway = Server("presentd", args, args.pin), Server("sway", args, args.pin)
        try:
            results["process"] = spawn_times(args, spawn_count, {
                "true": ["true"],
                "presentctl ping": [args.presentctl, "--socket", daemon.socket, "ping"],
                "swaymsg -t get_version": ["swaymsg", "-s", sway.socket, "-t", "get_version"]})
        finally:
            daemon.stop()
            sway.stop()
        progress("process", ", ".join(f"{k} {v['p50_ms']:.2f} ms" for k, v in results["process"].items()))

    def idle(kind, server):
        i = server.idle(idle_window)
        # What a device shows once someone has presented: the same quiet after one session
        # (hello, present, dismiss), which reaches the stack's deeper frames and the tables
        # a presentation touches. A ping alone reaches neither.
        loadgen(args, "session", "--socket", server.socket, "--count", 1, "--pid", server.pid)
        time.sleep(2.0)   # the quiet itself is what is measured, as above
        i["after_session"] = rollup(server.pid)
        progress(kind, f"idle: private dirty {i['private_dirty_kib']} KiB ({i['after_session']['private_dirty_kib']} KiB after a session), "
                       f"PSS {i['pss_kib']} KiB, {i['wakeups_per_s']:.2f} wake-ups/s, "
                       f"{i['context_switches_per_s']:.2f} context switches/s over {i['window_s']:.0f} s")
        return i

    for kind, figures in in_rounds(idle).items():
        results[kind]["idle"] = figures
    for n in sizes:
        def fanout(kind, server, n=n):
            server.after_one_ping()
            trace = os.path.join(server.dir, "ticks")
            switches = SchedTrace(server.pid, os.path.join(server.dir, "perf.data")) if split else None
            try:
                f = loadgen(args, "fanout", "--socket", server.socket, "--subscribers", n, "--fps", FPS,
                            "--duration", duration, "--warmup", 0.5, "--pid", server.pid, "--trace", trace)
            finally:
                times = switches.stop() if switches else None
            f["server_ms_per_tick"] = f["server_cpu"] * 1000 / FPS
            if times is not None:
                f |= split_delay(times, read_ticks(trace), FPS)
            progress(kind, f"{n} subscribers: {100 * f['delivered_ratio']:.2f} % delivered, "
                           f"p99 delay {f['delay_p99_ms']:.2f} ms"
                           + (f" (tick late p99 {f['tick_lateness_p99_ms']:.3f} ms, delivery p99 "
                              f"{f['delivery_first_p99_ms']:.3f} ms first copy, {f['delivery_last_p99_ms']:.3f} ms last)"
                              if f.get("ticks_timed") else ""))
            return f

        for kind, figures in in_rounds(fanout).items():
            results[kind][f"fanout_{n}"] = figures

    # Memory per subscriber: the slope of the private dirty memory between the two largest
    # fan-outs, which leaves out what the first subscriber and the first animation allocate
    # once, and the binary's pages, which are not per subscriber (see the docstring).
    if len(sizes) >= 2:
        small, large = sorted(sizes)[-2:]
        for kind in SERVERS:
            r = results[kind]
            dirty = (r[f"fanout_{small}"]["server_private_dirty_kib"], r[f"fanout_{large}"]["server_private_dirty_kib"])
            if min(dirty) < 0:
                sys.exit("bench.py: the loadgen could not read the server's /proc/PID/smaps_rollup")
            r["private_dirty_per_subscriber_kib"] = (dirty[1] - dirty[0]) / (large - small)
    elapsed = time.monotonic() - clock0
    others = cpu_busy_seconds() - busy0 - (own_cpu_seconds() - own0)
    conditions = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "revision": git_revision(),
        "kernel": platform.release(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": round(int(read("/proc/meminfo").split()[1]) / 2**20, 1),
        "loadavg_before": load_before,
        "loadavg_after": loadavg(),
        "duration_s": round(elapsed, 1),
        "other_processes_cpu_share": round(max(0.0, others) / (elapsed * (os.cpu_count() or 1)), 3),
        "open_file_limit": fd_limit,
        "pinned": args.pin,
        "nice": args.nice,
        "quick": quick,
        "rounds": round_count,
        "fps": FPS,
        "fanout_window_s": duration,
        "idle_window_s": idle_window,
        "timer_wake_latency": floor,
    }
    conditions["peers"] = list(peers)
    conditions["delay_split"] = split
    return conditions, sizes, results


class SchedTrace:
    """The kernel's record of when one process's main thread is put on a CPU and taken off
    (perf, sched:sched_switch, stamped on CLOCK_MONOTONIC like the load generator's reads)."""

    def __init__(self, pid, path):
        self.pid, self.path = pid, path
        # Its answer to a ping on its control FIFO says it is recording (perf takes a while
        # to start on a busy machine). On this VM it misses some of the switches onto a CPU
        # (never the switches off): the ticks without one are counted, not timed.
        control, ack = path + ".ctl", path + ".ack"
        os.mkfifo(control)
        os.mkfifo(ack)
        self.process = subprocess.Popen(
            ["perf", "record", "-q", "-a", "-k", "mono", "-e", "sched:sched_switch",
             f"--control=fifo:{control},{ack}", "--filter", f"prev_pid == {pid} || next_pid == {pid}", "-o", path],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(control, "w") as c, open(ack) as a:
            c.write("ping\n")
            c.flush()
            if not a.readline().startswith("ack"):
                sys.exit("bench: perf record did not answer a ping on its control FIFO")

    @staticmethod
    def works():
        """Whether perf can record the tracepoint here (root, or a permissive perf_event_paranoid)."""
        if not shutil.which("perf"):
            return False
        with tempfile.TemporaryDirectory() as d:
            done = subprocess.run(["perf", "record", "-q", "-k", "mono", "-e", "sched:sched_switch", "-o",
                                   os.path.join(d, "p"), "true"], capture_output=True)
            return done.returncode == 0

    def stop(self):
        """[(time, on)]: when the thread went on (True) or off (False) a CPU, in time order."""
        self.process.send_signal(signal.SIGINT)
        self.process.wait(30)
        text = subprocess.run(["perf", "script", "-i", self.path, "-F", "time,trace"],
                              capture_output=True, text=True).stdout
        events = []
        for line in text.splitlines():
            stamp, _, trace = line.partition(":")
            fields = dict(f.split("=", 1) for f in trace.split() if "=" in f)
            try:
                t = float(stamp)
            except ValueError:
                continue
            if fields.get("next_pid") == str(self.pid):
                events.append((t, True))
            elif fields.get("prev_pid") == str(self.pid):
                events.append((t, False))
        return sorted(events)


def read_ticks(path):
    """The load generator's --trace: (k, copies, first copy's delay, spread to the last), in ms."""
    with open(path) as f:
        rows = [line.split() for line in f.readlines()[1:]]
    return [(int(k), int(c), float(d), float(s)) for k, c, d, s in rows if int(c) > 0]


def split_delay(switches, ticks, fps):
    """Each tick's delay, split where the server's thread went on a CPU after the deadline:
    lateness (deadline to running) and delivery (running to the first and the last copy
    read). A tick whose deadline found the thread already on a CPU (still busy) has no
    wake-up to time and is counted apart, as is one the record does not cover."""
    lateness, first, last = [], [], []
    busy = uncovered = 0
    i, running = 0, False
    for k, _, first_delay_ms, spread_ms in ticks:
        deadline = k / fps
        while i < len(switches) and switches[i][0] < deadline:
            running = switches[i][1]
            i += 1
        first_read = deadline + first_delay_ms / 1e3
        if running:
            busy += 1
            continue
        if i >= len(switches) or not switches[i][1] or switches[i][0] > first_read:
            uncovered += 1
            continue
        woke = switches[i][0]
        lateness.append((woke - deadline) * 1e3)
        first.append((first_read - woke) * 1e3)
        last.append((first_read - woke) * 1e3 + spread_ms)

    def pct(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, int(p / 100 * len(values)))] if values else None
    return {"ticks_timed": len(lateness), "ticks_busy_at_deadline": busy, "ticks_untraced": uncovered,
            "tick_lateness_p50_ms": pct(lateness, 50), "tick_lateness_p99_ms": pct(lateness, 99),
            "delivery_first_p50_ms": pct(first, 50), "delivery_first_p99_ms": pct(first, 99),
            "delivery_last_p50_ms": pct(last, 50), "delivery_last_p99_ms": pct(last, 99)}


def spawn_times(args, count, commands):
    """Wall time of each command as a whole process (spawned, run, reaped), the commands
    taking turns so that every one sees the same machine: median and p90 in ms."""
    times = {name: [] for name in commands}
    for _ in range(count):
        for name, command in commands.items():
            t0 = time.perf_counter()
            pid = os.posix_spawnp(command[0], command, os.environ,
                                  file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
            _, status = os.waitpid(pid, 0)
            times[name].append((time.perf_counter() - t0) * 1e3)
            if status != 0:
                sys.exit(f"bench: {' '.join(command)} exited with status {status}")
    def pct(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, int(p / 100 * len(values)))]
    return {name: {"p50_ms": pct(t, 50), "p90_ms": pct(t, 90), "count": count} for name, t in times.items()}


def median_of(runs):
    """The per-key median of a list of equally shaped result dicts."""
    first = runs[0]
    if isinstance(first, dict):
        return {k: median_of([r[k] for r in runs]) for k in first}
    if isinstance(first, (int, float, type(None))) and not isinstance(first, bool):
        values = sorted(v for v in runs if v is not None)   # null: no sample in that round
        return values[len(values) // 2] if values else None
    return first


def progress(kind, text):
    print(f"  {kind:9} {text}", file=sys.stderr, flush=True)


# ---- report ----

# (label, path into a server's results, unit, format, better: "lower" | "higher")
def metrics(sizes):
    rows = [
        ("round trip p50", ("rtt", "p50_us"), "us", "{:.1f}", "lower"),
        ("round trip p99", ("rtt", "p99_us"), "us", "{:.1f}", "lower"),
        ("round trip: server CPU/request", ("rtt", "server_cpu_us_per_request"), "us", "{:.2f}", "lower"),
        ("pipelined requests", ("pipeline", "requests_per_s"), "/s", "{:,.0f}", "higher"),
        ("pipelined: server CPU/request", ("pipeline", "server_cpu_us_per_request"), "us", "{:.2f}", "lower"),
        ("connect + close", ("connect", "connections_per_s"), "/s", "{:,.0f}", "higher"),
        ("connect + close: server CPU", ("connect", "server_cpu_us_per_connection"), "us", "{:.2f}", "lower"),
        ("connect + ping + close", ("connect_ping", "connections_per_s"), "/s", "{:,.0f}", "higher"),
        ("connect + ping + close: server CPU", ("connect_ping", "server_cpu_us_per_connection"), "us", "{:.2f}", "lower"),
        ("hello+present+dismiss session p50", ("session", "p50_us"), "us", "{:.1f}", "lower"),
        ("hello+present+dismiss session p99", ("session", "p99_us"), "us", "{:.1f}", "lower"),
        ("session: server CPU", ("session", "server_cpu_us_per_session"), "us", "{:.1f}", "lower"),
        ("after a ping: private dirty", ("after_ping", "private_dirty_kib"), "KiB", "{:.0f}", "lower"),
        ("after a ping: PSS", ("after_ping", "pss_kib"), "KiB", "{:.0f}", "lower"),
        ("idle 2 s: private dirty", ("idle", "private_dirty_kib"), "KiB", "{:.0f}", "lower"),
        ("idle 2 s: PSS", ("idle", "pss_kib"), "KiB", "{:.0f}", "lower"),
        ("idle after one session: private dirty", ("idle", "after_session", "private_dirty_kib"), "KiB", "{:.0f}", "lower"),
        ("private dirty per subscriber", ("private_dirty_per_subscriber_kib",), "KiB", "{:.2f}", "lower"),
        ("idle: wake-ups", ("idle", "wakeups_per_s"), "/s", "{:.2f}", "lower"),
        ("idle: context switches", ("idle", "context_switches_per_s"), "/s", "{:.2f}", "lower"),
    ]
    for n in sizes:
        k = f"fanout_{n}"
        rows += [
            (f"{n} sub: frames delivered", (k, "delivered_ratio"), "%", "{:.3f}", "higher"),
            (f"{n} sub: min frames/sub", (k, "min_per_subscriber"), "", "{:.0f}", "higher"),
            (f"{n} sub: ticks not sent", (k, "ticks_unsent"), "", "{:.0f}", "lower"),
            (f"{n} sub: copies dropped", (k, "frames_dropped"), "", "{:.0f}", "lower"),
            (f"{n} sub: delay p50", (k, "delay_p50_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: delay p99", (k, "delay_p99_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: first copy delay p99", (k, "first_delay_p99_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: fan-out spread p99", (k, "spread_p99_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: tick lateness p50", (k, "tick_lateness_p50_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: tick lateness p99", (k, "tick_lateness_p99_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: delivery p50 (first copy)", (k, "delivery_first_p50_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: delivery p99 (first copy)", (k, "delivery_first_p99_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: delivery p99 (last copy)", (k, "delivery_last_p99_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: ticks timed (lateness, delivery)", (k, "ticks_timed"), "", "{:.0f}", "higher"),
            (f"{n} sub: ticks without a switch recorded", (k, "ticks_untraced"), "", "{:.0f}", "lower"),
            (f"{n} sub: jitter p99", (k, "jitter_p99_ms"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: time off grid max", (k, "offgrid_max_us"), "us", "{:.3f}", "lower"),
            (f"{n} sub: server CPU", (k, "server_cpu"), "core", "{:.3f}", "lower"),
            (f"{n} sub: server CPU per tick", (k, "server_ms_per_tick"), "ms", "{:.3f}", "lower"),
            (f"{n} sub: loadgen CPU", (k, "loadgen_cpu"), "core", "{:.3f}", "lower"),
            (f"{n} sub: private dirty", (k, "server_private_dirty_kib"), "KiB", "{:.0f}", "lower"),
        ]
    return rows


def lookup(result, path):
    for key in path:
        result = result.get(key) if isinstance(result, dict) else None
    return result


def scaled(value, unit):
    if value is None:
        return None
    if unit == "MiB":
        return value / 1024
    if unit == "%":
        return value * 100
    return value


def targets(sizes, results):
    """The targets for speed (the tick, the round trip) and for memory, judged for presentd
    against the baseline of the same run (and the absolute ones for the baseline too, as the machine's floor)."""
    checks = []

    def add(name, kind, value, ok):
        checks.append({"target": name, "server": kind, "value": value, "met": bool(ok)})

    b, p = results["baseline"], results["presentd"]

    def ratio(*path):
        return round(lookup(p, path) / lookup(b, path), 3)

    # (what, the presentd / baseline ratio, the bound, whether higher is better)
    relative = [("round trip p50 <= 1.1x the baseline", ratio("rtt", "p50_us"), 1.1, False),
                ("round trip p99 <= 1.2x the baseline", ratio("rtt", "p99_us"), 1.2, False),
                ("pipelined requests/s >= 0.8x the baseline", ratio("pipeline", "requests_per_s"), 0.8, True),
                ("server CPU per request <= 1.3x the baseline", ratio("rtt", "server_cpu_us_per_request"), 1.3, False),
                ("server CPU per pipelined request <= 1.3x the baseline",
                 ratio("pipeline", "server_cpu_us_per_request"), 1.3, False)]
    for n in (500,):
        if n in sizes:
            relative += [(f"{n} subscribers: p99 delay <= the baseline's", ratio(f"fanout_{n}", "delay_p99_ms"), 1.0, False),
                         (f"{n} subscribers: CPU per tick <= 1.2x the baseline", ratio(f"fanout_{n}", "server_ms_per_tick"), 1.2, False)]
    for n in sizes:
        if lookup(p, (f"fanout_{n}", "delivery_last_p99_ms")) and lookup(b, (f"fanout_{n}", "delivery_last_p99_ms")):
            relative.append((f"{n} subscribers: delivery p99 (tick to the last copy read) <= the baseline's",
                             ratio(f"fanout_{n}", "delivery_last_p99_ms"), 1.0, False))
    for name, value, bound, higher in relative:
        add(name, "presentd", value, value >= bound if higher else value <= bound)
    if 500 in sizes:
        f = p["fanout_500"]
        add("500 subscribers: every frame delivered", "presentd", f["delivered_ratio"], f["delivered_ratio"] >= 1)
    add("connect + close per second >= the baseline's", "presentd", ratio("connect", "connections_per_s"),
        ratio("connect", "connections_per_s") >= 1)
    per_subscriber = p.get("private_dirty_per_subscriber_kib")
    if per_subscriber is not None:
        add("private dirty per subscriber <= 1.5 KiB", "presentd", round(per_subscriber, 2), per_subscriber <= 1.5)
    add("idle 2 s: private dirty <= 512 KiB", "presentd", p["idle"]["private_dirty_kib"], p["idle"]["private_dirty_kib"] <= 512)
    if "sway" in results:
        mine, sways = p["rtt"]["p50_us"], results["sway"]["rtt"]["p50_us"]
        add("round trip p50 <= sway's", "presentd", round(mine / sways, 3), mine <= sways)
    if "process" in results:
        mine, sways = results["process"]["presentctl ping"]["p50_ms"], results["process"]["swaymsg -t get_version"]["p50_ms"]
        add("presentctl ping <= swaymsg -t get_version (whole process, median)", "presentd", round(mine / sways, 3), mine <= sways)
    for kind in SERVERS:
        r = results[kind]
        if 1000 in sizes:
            f = r["fanout_1000"]
            add("1000 subscribers: >= 99.9 % of frames delivered", kind, f["delivered_ratio"], f["delivered_ratio"] >= 0.999)
        add("idle: no wake-ups (no watchdog here)", kind, round(r["idle"]["wakeups_per_s"], 3), r["idle"]["wakeups_per_s"] == 0)
    return checks


def report(conditions, sizes, results):
    rows = []
    table = []
    for label, path, unit, fmt, better in metrics(sizes):
        b = scaled(lookup(results["baseline"], path), unit)
        p = scaled(lookup(results["presentd"], path), unit)
        w = scaled(lookup(results.get("sway"), path), unit)
        # No ratio against a zero or negative baseline (memory slopes within a page of noise).
        ratio = p / b if (b is not None and b > 0 and p is not None) else None
        rows.append({"metric": label, "unit": unit, "baseline": b, "presentd": p, "sway": w,
                     "ratio": ratio, "better": better})
        show = lambda v: "-" if v is None else fmt.format(v)
        table.append((label, unit, show(b), show(p), show(w), "-" if ratio is None else f"{ratio:.2f}x"))
    for name, figures in results.get("process", {}).items():
        for key in ("p50_ms", "p90_ms"):
            table.append((f"process: {name} {key[:3]}", "ms", "-", "-", "-", "-"))
            column = 3 if name == "presentctl ping" else 4 if name.startswith("swaymsg") else 2
            table[-1] = table[-1][:column] + (f"{figures[key]:.2f}",) + table[-1][column + 1:]
            rows.append({"metric": f"process: {name} {key[:3]}", "unit": "ms", "value": figures[key]})

    heading = ("metric", "unit", "baseline", "presentd", "sway", "ratio")
    w = [max(len(r[i]) for r in table + [heading]) for i in range(6)]
    line = lambda r: (f"{r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]:>{w[2]}}  {r[3]:>{w[3]}}  {r[4]:>{w[4]}}"
                      f"  {r[5]:>{w[5]}}")
    c = conditions
    floor = c["timer_wake_latency"]
    print()
    print(f"presentd benchmark ({'quick' if c['quick'] else 'full'}) {c['date']}  rev {c['revision']}")
    print(f"machine: {c['cores']} x {c['cpu']}, {c['memory_gib']} GiB, kernel {c['kernel']}; "
          f"load {c['loadavg_before'][0]:.2f} -> {c['loadavg_after'][0]:.2f}, "
          f"other processes used {100 * c['other_processes_cpu_share']:.0f} % of the machine during the {c['duration_s']:.0f} s run")
    print(f"floor: a thread sleeping to 120 Hz deadlines wakes {floor['p50_us']:.0f} us late (p50), "
          f"{floor['p99_us']:.0f} us (p99), {floor['max_us']:.0f} us (max); no server involved")
    print(f"fan-out windows {c['fanout_window_s']:g} s at {c['fps']} fps; idle window {c['idle_window_s']:g} s; median of {c['rounds']} round(s); nice {c['nice']}, "
          f"{'pinned (server cpu 0, loadgen cpu 1)' if c['pinned'] else 'not pinned'}; ratio = presentd / baseline\n")
    print("process rows: /bin/true in the baseline's column (the cost of any process)\n")
    print(line(heading))
    print(line(tuple("-" * x for x in w)))
    for r in table:
        print(line(r))
    checks = targets(sizes, results)
    print("\ntargets:")
    for t in checks:
        print(f"  [{'met' if t['met'] else 'MISSED':>6}] {t['server']:9} {t['target']}: {t['value']}")
    return rows, checks


# ---- the memory soak ----

def slope_per_minute(points):
    """The least-squares slope of (seconds, KiB) points, in KiB per minute."""
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    return 60 * sum((t - mean_t) * (v - mean_v) for t, v in points) / spread if spread else 0.0


def soak(args):
    """presentd under churn for args.soak seconds: rounds of short connections (with and
    without a ping), sessions (hello, present, dismiss) and a short fan-out whose
    subscribers then leave, its memory read after every round."""
    args.max_subscribers = 32
    raise_fd_limit(256)
    with open(args.presentd, "rb") as f:
        os.fsync(f.fileno())   # a binary just built would count as dirty (see run())
    server = Server("presentd", args, args.pin)
    samples, connections, sessions = [], 0, 0
    start = time.monotonic()
    load_before = loadavg()
    try:
        samples.append({"t_s": 0.0, **rollup(server.pid)})
        while time.monotonic() - start < args.soak:
            loadgen(args, "connect", "--socket", server.socket, "--count", 2000, "--pid", server.pid)
            loadgen(args, "connect", "--socket", server.socket, "--count", 500, "--ping", "--pid", server.pid)
            loadgen(args, "session", "--socket", server.socket, "--count", 100, "--pid", server.pid)
            loadgen(args, "fanout", "--socket", server.socket, "--subscribers", 16, "--fps", FPS,
                    "--duration", 0.5, "--warmup", 0.1, "--pid", server.pid)
            connections += 2500 + 100 + 17
            sessions += 100
            t = time.monotonic() - start
            samples.append({"t_s": round(t, 1), **rollup(server.pid)})
            if int(t / 60) != int(samples[-2]["t_s"] / 60):
                last = samples[-1]
                progress("soak", f"{t:.0f} s: private dirty {last['private_dirty_kib']} KiB, PSS {last['pss_kib']} KiB, "
                                 f"{connections} connections")
    finally:
        server.stop()
    half = [x for x in samples if x["t_s"] >= args.soak / 2]
    result = {
        "seconds": args.soak, "connections": connections, "sessions": sessions,
        "loadavg_before": load_before, "loadavg_after": loadavg(), "revision": git_revision(),
        "private_dirty_kib": {"start": samples[0]["private_dirty_kib"], "max": max(x["private_dirty_kib"] for x in samples),
                              "end": samples[-1]["private_dirty_kib"],
                              "second_half_slope_kib_per_min": round(slope_per_minute(
                                  [(x["t_s"], x["private_dirty_kib"]) for x in half]), 3)},
        "pss_kib": {"start": samples[0]["pss_kib"], "end": samples[-1]["pss_kib"],
                    "second_half_slope_kib_per_min": round(slope_per_minute([(x["t_s"], x["pss_kib"]) for x in half]), 3)},
        "samples": samples,
    }
    d = result["private_dirty_kib"]
    print(f"\nmemory soak: {args.soak:.0f} s, {connections} connections, {sessions} sessions, load "
          f"{load_before[0]:.2f} -> {result['loadavg_after'][0]:.2f}")
    print(f"private dirty: {d['start']} KiB at start, {d['max']} KiB at most, {d['end']} KiB at the end; "
          f"second half's slope {d['second_half_slope_kib_per_min']:+.2f} KiB/min")
    print(f"PSS: {result['pss_kib']['start']} -> {result['pss_kib']['end']} KiB; "
          f"second half's slope {result['pss_kib']['second_half_slope_kib_per_min']:+.2f} KiB/min")
    return result


def main():
    args = parse_args()
    if args.soak:
        result = soak(args)
        out = args.out if args.out != "bench/out/results.json" else "bench/out/soak-memory.json"
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
        print(f"\nwritten: {out}")
        return
    conditions, sizes, results = run(args)
    rows, checks = report(conditions, sizes, results)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"conditions": conditions, "results": results, "table": rows, "targets": checks}, f, indent=2)
        f.write("\n")
    print(f"\nwritten: {args.out}")


if __name__ == "__main__":
    main()
