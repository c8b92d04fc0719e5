#!/usr/bin/env python3
"""Runs every example of docs/PROTOCOL.md against a real presentd and writes what it
answered between the document's `<!-- example NAME -->` and `<!-- /example -->` markers.

    python3 Tests/docs/examples.py            # rewrite the examples in place
    python3 Tests/docs/examples.py --check    # exit 1 (and show a diff) if any is out of date

The daemon is $PRESENTD, else `swift build --show-bin-path`/presentd. Every example gets
a fresh daemon on a temporary socket, almost always with `--clock manual`, so the output
is the same on every run. Standard library only.
"""

import difflib, json, os, re, select, shutil, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(TOP, "docs", "PROTOCOL.md")
WIDTH = 100  # messages longer than this are shown indented
# How long to wait for what presentd must send, and for it to start and stop: only against a
# hang, so generous (a loaded machine can be slow by seconds); on success it costs nothing.
PATIENCE = 30


# ---------------------------------------------------------------- talking to presentd

def presentd_binary():
    if os.environ.get("PRESENTD"):
        return os.environ["PRESENTD"]
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=TOP,
                         capture_output=True, text=True, check=True)
    return os.path.join(out.stdout.strip(), "presentd")


class Session:
    """One daemon, some named clients, and the transcript of what they sent and received."""

    def __init__(self, binary, args, config=None):
        self.dir = tempfile.mkdtemp(prefix="presentd-doc-")
        self.path = os.path.join(self.dir, "presentd.sock")
        self.log = open(os.path.join(self.dir, "stderr.log"), "w+b")
        if config is not None:  # a configuration file (presentd --config)
            with open(os.path.join(self.dir, "presentd.json"), "w") as f:
                json.dump(config, f)
            args = ("--config", os.path.join(self.dir, "presentd.json"), *args)
        self.proc = subprocess.Popen([binary, "--socket", self.path, *args], stderr=self.log)
        self.clients = {}     # name → [socket, pending bytes, still open]
        # (client, kind, text); kind: "→" sent, "←" received, "×" an event, "#" a note
        self.transcript = []

    def state(self):
        """Whether presentd still runs, and what it wrote to stderr: for failure messages."""
        status = "running" if self.proc.poll() is None else f"exited with {self.proc.returncode}"
        self.log.seek(0)
        return f"presentd is {status}; its stderr: {self.log.read().decode(errors='replace') or '(nothing)'}"

    def connect(self, *names):
        # The first connection waits for the daemon to listen (the socket file exists a
        # moment before listen()). No probe connection of its own: it would take a client
        # number and a connection slot, which the examples show.
        for name in names:
            deadline = time.monotonic() + 60  # a cold start on a loaded machine
            while True:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    s.connect(self.path)
                    break
                except (FileNotFoundError, ConnectionRefusedError):
                    s.close()
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"presentd did not accept a connection on {self.path}; {self.state()}")
                time.sleep(0.01)
            self.clients[name] = [s, b"", True]

    def _read(self, name, timeout):
        """The next line from `name`, or None (timeout or end of stream)."""
        entry = self.clients[name]
        deadline = time.monotonic() + timeout
        while b"\n" not in entry[1]:
            if not entry[2]:
                return None
            left = deadline - time.monotonic()
            ready, _, _ = select.select([entry[0]], [], [], max(0, left))
            if not ready:
                return None
            try:
                data = entry[0].recv(1 << 20)
            except ConnectionResetError:  # shown as such, so that --check tells
                entry[2] = False
                self.transcript.append((name, "←", "(connection reset)"))
                return None
            if not data:
                entry[2] = False
                self.transcript.append((name, "←", "(connection closed by presentd)"))
                return None
            entry[1] += data
        line, entry[1] = entry[1].split(b"\n", 1)
        text = line.decode()
        # Resume tokens are random: show a fixed one so the examples stay reproducible.
        text = re.sub(r'"resumeToken":"[0-9a-f]{32}"', '"resumeToken":"5f0c3d6a9b2e4f718a1c0d2e3f4a5b6c"', text)
        # stats: the processes and the real time differ from run to run.
        text = re.sub(r'"pid":\d+,"uid":\d+,"gid":\d+', '"pid":4242,"uid":1000,"gid":1000', text)
        text = re.sub(r'"uptime":[0-9.e+-]+', '"uptime":0.25', text)
        self.transcript.append((name, "←", text))
        return text

    def drain(self, names=None, timeout=0.0):
        """Everything already written to the clients (events a request caused are written
        before its reply, so after a reply they are all there); with a timeout, until each
        is quiet that long or closed."""
        for name in names or list(self.clients):
            while self._read(name, timeout) is not None:
                pass

    def expect(self, counts):
        """Reads what presentd is known to send now, `counts[name]` messages to each named
        client, then whatever else is already there. (Waiting a fixed time instead could stop
        short on a loaded machine, and the transcript would change.)"""
        for name, n in counts.items():
            for i in range(n):
                if self._read(name, PATIENCE) is None:
                    raise RuntimeError(f"{name} got {i} of the {n} messages expected within {PATIENCE} s; "
                                       f"{self.state()}")
        self.drain()

    def send(self, name, message, record=True):
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        self.clients[name][0].sendall(text.encode() + b"\n")
        if record:
            self.transcript.append((name, "→", text))
        return text

    def note(self, text):
        self.transcript.append(("", "#", text))

    def call(self, name, message, quiet=False, shown=None):
        """Sends a request and reads up to its reply, and what it caused for the others.
        `quiet`: leave it out of the transcript; `shown`: what to show instead of it."""
        mark = len(self.transcript)
        self.send(name, message, record=shown is None)
        if shown is not None:
            self.transcript.append((name, "→", shown))
        while True:
            line = self._read(name, PATIENCE)
            if line is None or is_reply(line):
                break
        # Show the others' events before the reply: that is the order they were written in.
        reply = self.transcript.pop() if line is not None else None
        self.drain([n for n in self.clients if n != name])
        if reply:
            self.transcript.append(reply)
        if quiet:
            del self.transcript[mark:]

    def notify(self, name, message, expect):
        """Sends something that gets no reply, then collects what it caused: `expect`, how
        many messages each client gets (see `expect`)."""
        self.send(name, message)
        self.expect(expect)

    def close(self, name):
        self.clients[name][0].close()
        del self.clients[name]
        self.transcript.append((name, "×", "(closes the connection)"))

    def kill(self, sig, label):
        self.transcript.append(("", "×", label))
        self.proc.send_signal(sig)
        self.drain(timeout=PATIENCE)  # until each connection is closed

    def finish(self):
        for entry in self.clients.values():
            entry[0].close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def is_reply(text):
    try:
        value = json.loads(text)
    except ValueError:
        return False
    if isinstance(value, list):
        return True
    return "method" not in value and ("result" in value or "error" in value)


def rq(id, method, params=None):
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return message


# ---------------------------------------------------------------- showing a transcript

class Raw:
    """A number exactly as presentd wrote it."""
    def __init__(self, text): self.text = text


def compact(v):
    if isinstance(v, Raw): return v.text
    if isinstance(v, dict): return "{" + ",".join(json.dumps(k) + ":" + compact(x) for k, x in v.items()) + "}"
    if isinstance(v, list): return "[" + ",".join(compact(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def pretty(v, indent, width):
    """`v` as the wire writes it (no spaces), where it fits in `width` from column
    `indent`; otherwise its members go on lines of their own, packed while they fit."""
    flat = compact(v)
    if indent + len(flat) <= width or not isinstance(v, (dict, list)) or not v:
        return flat
    pad = " " * (indent + 2)
    if isinstance(v, dict):
        parts = [json.dumps(k) + ":" + pretty(x, indent + 2, width) for k, x in v.items()]
        open_, close = "{", "}"
    else:
        parts = [pretty(x, indent + 2, width) for x in v]
        open_, close = "[", "]"
    lines, line = [], ""
    for i, part in enumerate(parts):
        part += "," if i < len(parts) - 1 else ""
        if line and "\n" not in part and indent + 2 + len(line) + len(part) <= width:
            line += part
            continue
        if line:
            lines.append(line)
        line = part
        if "\n" in part:
            lines.append(line)
            line = ""
    if line:
        lines.append(line)
    return open_ + "\n" + "\n".join(pad + l for l in lines) + "\n" + " " * indent + close


def show(text, prefix):
    if len(prefix) + len(text) <= WIDTH:
        return prefix + text
    try:
        value = json.loads(text, parse_float=Raw, parse_int=Raw)
    except ValueError:
        return prefix + text
    if compact(value) != text:  # only reformat what survives the round trip exactly
        return prefix + text
    return prefix + pretty(value, 0, WIDTH - len(prefix)).replace("\n", "\n" + " " * len(prefix))


def render(session):
    names = {n for n, _, _ in session.transcript if n}
    many = len(names) > 1
    width = max((len(n) for n in names), default=0)
    out = []
    for name, arrow, text in session.transcript:
        if arrow == "#":
            out.append("# " + text)
            continue
        if arrow == "×":
            out.append(f"{name:<{width}} {text}".strip() if name else text)
            continue
        prefix = f"{name:<{width}} {arrow} " if many else f"{arrow} "
        out.append(show(text, prefix))
    return "\n".join(out)


# ---------------------------------------------------------------- the examples

EXAMPLES = {}


def example(name, *args, config=None):
    def register(body):
        EXAMPLES[name] = (args or ("--clock", "manual"), body, config)
        return body
    return register


@example("first-session", "--clock", "manual", "--fps", "4")
def _(s):
    s.connect("c")
    s.call("c", rq(1, "hello", {"client": "doc", "protocol": 1}))
    s.call("c", rq(2, "subscribe", {"topics": ["lifecycle", "frames"]}))
    s.call("c", rq(3, "present", {"style": "alert", "transition": {"type": "crossDissolve", "duration": 0.5}}))
    s.call("c", rq(4, "advance", {"seconds": 0.5}))
    s.call("c", rq(5, "dismiss", {"id": "p1", "animated": False}))


@example("hello")
def _(s):
    s.connect("c")
    s.call("c", rq(1, "hello", {"client": "my-renderer", "protocol": 1}))


@example("ping")
def _(s):
    s.connect("c")
    s.call("c", rq(1, "ping"))


@example("present")
def _(s):
    s.connect("app", "watcher")
    s.call("watcher", rq(1, "subscribe", {"topics": ["lifecycle", "stack"]}), quiet=True)
    s.call("app", rq(1, "present", {
        "id": "login", "kind": "login", "style": "popup",
        "transition": {"type": "coverVertical", "duration": 0.3, "timing": "easeOut"},
        "background": {"color": "#101020", "opacity": 0.5}}))
    s.call("app", rq(2, "present", {"style": "alert", "content": "network-error", "priority": 750}))
    s.call("app", rq(3, "present", {"style": "popup", "kind": "login"}))


@example("dismiss")
def _(s):
    s.connect("app")
    s.call("app", rq(1, "present", {"id": "sheet", "style": "bottomHalf"}), quiet=True)
    s.call("app", rq(2, "present", {"id": "confirm", "style": "alert"}), quiet=True)
    s.call("app", rq(3, "advance", {"seconds": 1}), quiet=True)
    s.call("app", rq(4, "subscribe", {"topics": ["lifecycle"]}), quiet=True)
    s.note('"sheet" (bottomHalf) and "confirm" (alert) are presented; app subscribed to lifecycle')
    s.call("app", rq(5, "dismiss", {"id": "sheet", "transition": {"type": "crossDissolve", "duration": 0.2}}))


@example("dismissAll")
def _(s):
    s.connect("app")
    s.call("app", rq(1, "present", {"id": "a", "style": "popup"}), quiet=True)
    s.call("app", rq(2, "present", {"id": "b", "style": "alert"}), quiet=True)
    s.call("app", rq(3, "subscribe", {"topics": ["lifecycle"]}), quiet=True)
    s.note('"a" is presenting, "b" is queued behind it; app subscribed to lifecycle')
    s.call("app", rq(4, "dismissAll", {"animated": False}))


@example("stack")
def _(s):
    s.connect("app")
    s.call("app", rq(1, "present", {"id": "menu", "style": {"type": "slideIn", "direction": "left", "fraction": 0.8}}), quiet=True)
    s.call("app", rq(2, "present", {"id": "toast", "kind": "toast", "style": {"type": "custom", "width": {"fluid": 0.9}, "height": {"points": 64}, "position": "topCenter"}, "content": "saved"}), quiet=True)
    s.note('app presented "menu" (slideIn, 0.8) and, while it slides in, "toast" (custom)')
    s.call("app", rq(3, "stack"))


@example("subscribe")
def _(s):
    s.connect("app", "renderer")
    s.call("app", rq(1, "present", {"id": "a", "style": "alert", "statusBar": {"style": "lightContent"}}), quiet=True)
    s.call("app", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.note('app presented "a" (alert, capturing the status bar) and advanced the clock by 1 s')
    s.call("renderer", rq(1, "subscribe", {"topics": ["frames", "lifecycle", "stack", "statusBar"]}))


@example("unsubscribe", "--clock", "manual", "--fps", "10")
def _(s):
    s.connect("c")
    s.call("c", rq(1, "subscribe", {"topics": ["frames", "lifecycle"]}), quiet=True)
    s.call("c", rq(2, "present", {"id": "a", "style": "alert", "transition": {"duration": 0.1}}), quiet=True)
    s.note('subscribed to frames and lifecycle; "a" presents over 0.1 s')
    s.call("c", rq(3, "unsubscribe", {"topics": ["frames"]}))
    s.call("c", rq(4, "advance", {"seconds": 0.5}))


@example("notification-frame", "--clock", "manual", "--fps", "2")
def _(s):
    s.connect("renderer", "app")
    s.call("renderer", rq(1, "subscribe", {"topics": ["frames"]}), quiet=True)
    s.note("presentd --clock manual --fps 2; renderer subscribed to frames")
    s.call("app", rq(1, "present", {"id": "a", "style": "bottomHalf", "transition": {"duration": 1, "timing": "linear"},
                                     "shadow": {"radius": 12}, "content": "share-sheet"}))
    s.call("app", rq(2, "advance", {"seconds": 1.5}))


@example("notification-lifecycle")
def _(s):
    s.connect("app", "watcher")
    s.call("watcher", rq(1, "subscribe", {"topics": ["lifecycle"]}), quiet=True)
    s.note("watcher subscribed to lifecycle")
    s.call("app", rq(1, "present", {"id": "a", "style": "alert", "transition": {"type": "zoom", "duration": 0.2}}))
    s.call("app", rq(2, "present", {"id": "b", "style": "popup", "transition": {"timing": {"spring": {"response": 0.3}}}}))
    s.call("app", rq(3, "advance", {"seconds": 1}))


@example("notification-stack")
def _(s):
    s.connect("app", "watcher")
    s.call("watcher", rq(1, "subscribe", {"topics": ["stack"]}), quiet=True)
    s.note("watcher subscribed to stack")
    s.call("app", rq(1, "present", {"id": "a", "kind": "sheet", "style": "topHalf", "content": "filters"}))
    s.call("app", rq(2, "advance", {"seconds": 1}))


@example("setContainer")
def _(s):
    s.connect("app")
    s.call("app", rq(1, "present", {"id": "form", "style": "popup", "adaptive": {"replacement": {"style": "alert", "content": "rotate-back"}}}), quiet=True)
    s.call("app", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.call("app", rq(3, "subscribe", {"topics": ["lifecycle"]}), quiet=True)
    s.note('"form" (popup, adaptive: replacement alert "rotate-back") is presented; app subscribed to lifecycle')
    s.call("app", rq(4, "setContainer", {"width": 844, "height": 390, "safeArea": {"left": 47, "right": 47, "bottom": 21}, "duration": 0.25}))


@example("keyboard")
def _(s):
    s.connect("app")
    s.call("app", rq(1, "present", {"id": "form", "style": "popup", "keyboard": "compress"}), quiet=True)
    s.call("app", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.note('"form" (popup, keyboard: compress) is presented at 30,143.5 330×557')
    s.call("app", rq(3, "keyboard", {"height": 336, "duration": 0.25, "curve": "system"}))
    s.call("app", rq(4, "stack"))


@example("tap")
def _(s):
    s.connect("screen")
    s.call("screen", rq(1, "present", {"id": "a", "style": "alert"}), quiet=True)
    s.call("screen", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.note('"a" (alert, 60,332 270×180) is presented')
    s.call("screen", rq(3, "tap", {"x": 195, "y": 422}))
    s.call("screen", rq(4, "tap", {"x": 10, "y": 10}))
    s.call("screen", rq(5, "tap", {"x": 10, "y": 10}))


@example("swipe")
def _(s):
    s.connect("screen")
    s.call("screen", rq(1, "present", {"id": "sheet", "style": "bottomHalf", "dismissOnSwipe": True}), quiet=True)
    s.call("screen", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.note('"sheet" (bottomHalf, dismissOnSwipe) is presented at 0,422 390×422')
    s.call("screen", rq(3, "swipe", {"phase": "began", "dx": 0, "dy": 0}))
    s.call("screen", rq(4, "swipe", {"phase": "changed", "dx": 3, "dy": 120}))
    s.call("screen", rq(5, "swipe", {"phase": "ended", "dx": 4, "dy": 150, "vx": 0, "vy": 900}))


@example("sheet")
def _(s):
    s.connect("app", "screen")
    s.call("app", rq(1, "present", {"id": "s", "style": {"type": "sheet", "detents": ["medium", "large"],
                                                         "largestUndimmedDetent": "medium", "grabber": True}}))
    s.call("app", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.note('"s" rests at medium: 0,451 390×393, undimmed; a tap above it reaches the app below')
    s.call("screen", rq(3, "tap", {"x": 10, "y": 10}))
    s.call("screen", rq(4, "swipe", {"phase": "began", "dx": 0, "dy": 0}), quiet=True)
    s.call("screen", rq(5, "swipe", {"phase": "changed", "dx": 0, "dy": -100}), quiet=True)
    s.note("dragged up 100 points, then let go at 600 points/s: 493 + 0.499 · 600 projects past medium to large (787)")
    s.call("screen", rq(6, "swipe", {"phase": "ended", "dx": 0, "dy": -100, "vy": -600}))
    s.call("app", rq(7, "update", {"id": "s", "selectedDetent": "tiny"}))


@example("reduced-motion")
def _(s):
    s.connect("shell", "app")
    s.call("shell", rq(1, "setMode", {"reducedMotion": True}))
    s.call("app", rq(1, "subscribe", {"topics": ["lifecycle"]}), quiet=True)
    s.note("app presents a slide from the bottom: it fades in where it rests instead, over the same 0.4 s")
    s.call("app", rq(2, "present", {"id": "a", "style": "alert", "transition": {"type": "coverVertical", "duration": 0.4}}))


@example("layout-direction")
def _(s):
    s.connect("shell", "app")
    s.call("shell", rq(1, "setContainer", {"width": 390, "height": 844, "layoutDirection": "rightToLeft"}), quiet=True)
    s.note("main is right to left")
    s.call("app", rq(1, "present", {"id": "nav", "style": {"type": "slideIn", "direction": "leading", "fraction": 0.5},
                                    "transition": {"duration": 0}}), quiet=True)
    s.call("shell", rq(2, "stack", {}))
    s.call("shell", rq(3, "setContainer", {"width": 390, "height": 844, "layoutDirection": "leftToRight", "duration": 0}),
           quiet=True)
    s.note("left to right again: the leading panel moves to the left edge")
    s.call("shell", rq(4, "stack", {}))


@example("advance", "--clock", "manual", "--fps", "10")
def _(s):
    s.connect("c")
    s.call("c", rq(1, "subscribe", {"topics": ["frames", "lifecycle"]}), quiet=True)
    s.call("c", rq(2, "present", {"id": "a", "style": "alert", "transition": {"type": "zoom", "duration": 0.2, "timing": "linear"}}), quiet=True)
    s.note('presentd --clock manual --fps 10; subscribed to frames and lifecycle; "a" is zooming in over 0.2 s')
    s.call("c", rq(3, "advance", {"seconds": 0.25}))


@example("sync")
def _(s):
    s.connect("app", "renderer")
    s.call("renderer", rq(1, "subscribe", {"topics": ["lifecycle"]}), quiet=True)
    s.note("app sends present as a notification (no id: no reply), then sync")
    s.notify("app", {"jsonrpc": "2.0", "method": "present", "params": {"id": "n", "style": "alert"}}, {"renderer": 1})
    s.call("app", rq(1, "sync", {"nonce": "after-present"}))


@example("batch")
def _(s):
    s.connect("c")
    s.call("c", json.dumps([rq(1, "present", {"style": "alert"}),
                            {"jsonrpc": "2.0", "method": "ping"},
                            rq(2, "dismiss", {"id": "nope"}),
                            rq(3, "stack")], separators=(",", ":")))


@example("notification-statusBar")
def _(s):
    s.connect("app", "shell")
    s.call("shell", rq(1, "subscribe", {"topics": ["statusBar"]}), quiet=True)
    s.note("shell subscribed to statusBar")
    s.call("app", rq(1, "present", {"id": "photo", "style": "fullScreen", "statusBar": {"style": "lightContent", "hidden": True}}))
    s.call("app", rq(2, "advance", {"seconds": 1}))
    s.call("app", rq(3, "dismiss", {"id": "photo"}))


@example("ownerGone")
def _(s):
    s.connect("app", "watcher")
    s.call("watcher", rq(1, "subscribe", {"topics": ["lifecycle", "stack"]}), quiet=True)
    s.call("app", rq(1, "present", {"id": "a", "style": "alert"}), quiet=True)
    s.call("watcher", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.note('watcher subscribed to lifecycle and stack; app presented "a", which is at rest')
    s.close("app")
    s.expect({"watcher": 2})  # willDismiss, stack
    s.call("watcher", rq(3, "advance", {"seconds": 0.5}))


@example("preempted")
def _(s):
    s.connect("app", "system")
    s.call("app", rq(1, "subscribe", {"topics": ["lifecycle"]}), quiet=True)
    s.call("app", rq(2, "present", {"id": "ad", "style": "popup", "priority": 250}), quiet=True)
    s.call("app", rq(3, "advance", {"seconds": 1}), quiet=True)
    s.note('app subscribed to lifecycle and presented "ad" (popup, priority 250), now at rest')
    s.call("system", rq(1, "present", {"id": "battery", "style": "alert", "priority": 1000, "precedence": "override"}))


@example("shouldDismiss", "--clock", "manual", "--log-level", "error")
def _(s):
    s.connect("app", "screen")
    s.call("app", rq(1, "present", {"id": "draft", "style": "bottomHalf", "confirmDismiss": True}), quiet=True)
    s.call("app", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.note('app presented "draft" (bottomHalf, confirmDismiss: true); it is at rest')
    s.notify("screen", rq(1, "tap", {"x": 200, "y": 100}), {"app": 1})  # the question
    s.notify("app", {"jsonrpc": "2.0", "id": "shouldDismiss-1", "result": {"allow": False}}, {"screen": 1})
    s.notify("screen", rq(2, "tap", {"x": 200, "y": 100}), {"app": 1})
    s.transcript.append(("app", "×", "(does not answer)"))
    s.expect({"screen": 1})  # the reply, once presentd stops waiting (shouldDismissTimeout, 1 s)


@example("shutdown")
def _(s):
    s.connect("c")
    # Connected is not yet accepted: the connection can still wait in the listen queue, and
    # a daemon that stops then resets it without a word. A reply says presentd has it.
    s.call("c", rq(1, "ping"), quiet=True)
    s.kill(signal.SIGTERM, "(presentd receives SIGTERM)")


@example("closing", "--clock", "manual", "--max-connections", "1")
def _(s):
    s.connect("first")
    s.note("presentd --max-connections 1")
    s.call("first", rq(1, "ping"))
    s.connect("second")
    s.drain(["second"], timeout=PATIENCE)  # until presentd closes it


@example("errors-envelope")
def _(s):
    s.connect("c")
    s.call("c", '{"jsonrpc":"2.0","id":1,"method":"ping"')
    s.call("c", "", shown="(an empty line)")
    s.call("c", '{"id":2,"method":"ping"}')
    s.call("c", '{"jsonrpc":"2.0","id":true,"method":"ping"}')
    s.call("c", '{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}')
    s.call("c", "[]")
    s.call("c", '{"jsonrpc":"2.0","id":4,"method":"teleport"}')
    s.call("c", rq(5, "ping"))


@example("errors-params")
def _(s):
    s.connect("c")
    s.call("c", rq(1, "present", {"style": "popup", "transition": {"type": "zoom", "timing": {"bezier": [0.1, "x", 0.2, 1]}}}))
    s.call("c", rq(2, "present", {"style": "popup", "transition": {"duration": 90}}))
    s.call("c", rq(3, "present", {"style": "sheet"}))
    s.call("c", rq(4, "present", {"style": "alert", "dismisOnTap": False}))
    s.call("c", rq(5, "present", {"style": "alert", "background": {"color": "red"}}))
    s.call("c", rq(6, "present", {"style": "alert", "transition": {"timing": {"spring": {"stiffness": 1, "damping": 0.01}}}}))
    s.call("c", rq(7, "subscribe", {"topics": ["frame"]}))
    s.call("c", rq(8, "ping", [1]))
    s.call("c", rq(9, "hello", {"protocol": 2}))


@example("errors-server", "--clock", "manual", "--dismiss-policy", "owner")
def _(s):
    s.connect("a", "b")
    s.call("a", rq(1, "present", {"id": "mine", "style": "alert"}), quiet=True)
    s.note('presentd --clock manual --dismiss-policy owner; a has presented "mine"')
    s.call("b", rq(1, "dismiss", {"id": "nothing"}))
    s.call("b", rq(2, "dismiss", {"id": "mine"}))
    s.call("a", rq(2, "present", {"id": "mine", "style": "alert", "deduplicate": False}))
    for i in range(64):
        s.call("b", rq(100 + i, "present", {"style": "alert", "deduplicate": False}), quiet=True)
    s.note("b presents 64 alerts (the per-connection limit), then one more:")
    s.call("b", rq(200, "present", {"style": "alert", "deduplicate": False}))
    s.call("b", json.dumps([rq(i, "ping") for i in range(65)], separators=(",", ":")),
           shown='[{"jsonrpc":"2.0","id":0,"method":"ping"}, … 65 requests in all]')


@example("errors-clock", "--clock", "monotonic")
def _(s):
    s.connect("c")
    s.note("presentd --clock monotonic (the default)")
    s.call("c", rq(1, "advance", {"seconds": 1}))


@example("errors-line-too-long", "--clock", "manual", "--log-level", "error")
def _(s):
    s.connect("c")
    head, tail = '{"jsonrpc":"2.0","id":1,"method":"sync","params":{"nonce":"', '"}}'
    s.send("c", head + "x" * (1 << 20) + tail, record=False)
    s.transcript.append(("c", "→", f"{head}xxx…xxx{tail}   ({(1 << 20) + len(head) + len(tail)} bytes)"))
    s.drain(timeout=PATIENCE)  # until presentd closes it


@example("update", "--clock", "manual", "--fps", "10")
def _(s):
    s.connect("app", "renderer")
    s.call("app", rq(1, "present", {"id": "saving", "style": {"type": "custom", "width": {"points": 240}, "height": "content"},
                                    "preferredContentSize": {"height": 80}, "content": {"title": "Saving…", "progress": None},
                                    "transition": {"type": "crossDissolve", "duration": 0}}), quiet=True)
    s.call("renderer", rq(1, "subscribe", {"topics": ["lifecycle"]}), quiet=True)
    s.note('app presented "saving" (custom: 240 wide, as tall as its content); renderer subscribed to lifecycle')
    s.call("app", rq(2, "update", {"id": "saving", "content": {"title": "Saved", "message": "report.txt"},
                                   "preferredContentSize": {"height": 120}, "autoDismiss": {"after": 2},
                                   "duration": 0.2, "timing": "easeOut"}))


@example("activate")
def _(s):
    s.connect("app", "renderer")
    s.call("app", rq(1, "present", {"id": "save", "style": "alert", "content": {
        "title": "Save changes?", "fields": [{"id": "name", "kind": "text", "value": "untitled"}],
        "actions": [{"id": "save", "title": "Save", "role": "default"}, {"id": "cancel", "title": "Cancel", "role": "cancel"}]}}), quiet=True)
    s.call("app", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.note('app presented "save" (alert: Save, Cancel and a field "name"); it is at rest')
    s.call("renderer", rq(1, "activate", {"id": "save", "action": "save", "fields": {"name": "report.txt"}}))
    s.call("renderer", rq(2, "activate", {"id": "save", "action": "save"}))


@example("key")
def _(s):
    s.connect("app", "shell")
    s.call("app", rq(1, "present", {"id": "quit", "style": "alert", "content": {
        "title": "Quit?", "actions": [{"id": "quit", "title": "Quit", "role": "destructive"},
                                      {"id": "stay", "title": "Stay", "role": "cancel"}]}}), quiet=True)
    s.call("app", rq(2, "advance", {"seconds": 1}), quiet=True)
    s.note('app presented "quit" (alert: Quit, and Stay as its cancel action); it is at rest')
    s.call("shell", rq(1, "key", {"key": "enter"}))
    s.call("shell", rq(2, "key", {"key": "escape"}))


@example("contexts")
def _(s):
    s.connect("shell", "app")
    s.call("shell", rq(1, "defineContext", {"name": "mail", "frame": {"x": 0, "y": 100, "width": 390, "height": 600}}))
    s.call("app", rq(1, "present", {"id": "compose", "style": "bottomHalf", "context": "mail",
                                    "transition": {"type": "crossDissolve", "duration": 0}}))
    s.call("app", rq(2, "present", {"id": "saved", "level": "overlay", "position": "top",
                                    "style": {"type": "custom", "width": {"points": 300}, "height": {"points": 50}},
                                    "content": "Saved", "autoDismiss": {"after": 2}, "transition": {"duration": 0}}), quiet=True)
    s.note('app also showed a toast "saved" (level overlay, top)')
    s.call("shell", rq(2, "tap", {"x": 195, "y": 80}))
    s.call("shell", rq(3, "tap", {"x": 10, "y": 50}))
    s.call("shell", rq(4, "removeContext", {"name": "mail"}))


@example("outputs")
def _(s):
    s.connect("shell", "app")
    s.call("shell", rq(1, "addOutput", {"name": "cluster", "width": 1280, "height": 480, "fps": 30}), quiet=True)
    s.note('shell added "cluster" (1280x480, 30 fps)')
    s.call("app", rq(1, "present", {"id": "gauge", "style": "alert", "output": "cluster",
                                    "transition": {"type": "crossDissolve", "duration": 0}}))
    s.call("app", rq(2, "present", {"id": "gauge", "style": "alert"}))
    s.call("shell", rq(2, "tap", {"x": 640, "y": 240, "output": "cluster"}))
    s.call("shell", rq(3, "removeOutput", {"name": "cluster"}))


KIOSK = {"rootIsAdmin": False, "roles": {"app": {"anyone": True}}}


@example("roles", config=KIOSK)
def _(s):
    s.connect("app")
    s.note("presentd --clock manual --config kiosk.json: " + json.dumps(KIOSK, separators=(",", ":")))
    s.call("app", rq(1, "hello", {"client": "kiosk-app"}))
    s.call("app", rq(2, "present", {"id": "promo", "style": "alert", "priority": 900}))
    s.call("app", rq(3, "tap", {"x": 10, "y": 10}))
    s.call("app", rq(4, "subscribe", {"topics": ["lifecycle", "frames"]}))
    s.call("app", rq(5, "ping"))


@example("conformance")
def _(s):
    s.connect("c")
    s.call("c", '{"jsonrpc":"2.0","id":null,"method":"ping"}')
    s.call("c", '{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}')
    s.call("c", '{"jsonrpc":"2.0","id":2,"method":"foobar","params":[42,23]}')
    s.call("c", '{"jsonrpc":"2.0","id":3,"method":"sync","params":[42,23]}')
    s.send("c", '{"jsonrpc":"2.0","method":"foobar"}')
    s.note("a notification: no reply, not even an error; the next reply is the batch's")
    s.call("c", '[1,2,3]')
    s.call("c", '[{"jsonrpc":"2.0","method":"sync","params":{"nonce":7},"id":"1"},'
                '{"jsonrpc":"2.0","method":"notify_hello","params":[7]},{"foo":"boo"},'
                '{"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"}]')


def abbreviate_methods(s, keep):
    """Keeps the first `keep` methods of the OpenRPC document in the last reply shown, and
    says how many more there are (docs/openrpc.json has them all)."""
    name, arrow, text = s.transcript.pop()
    reply = json.loads(text)
    methods = reply["result"]["methods"]
    reply["result"]["methods"] = methods[:keep]
    s.transcript.append((name, arrow, json.dumps(reply, separators=(",", ":"), ensure_ascii=False)))
    s.note(f"… and {len(methods) - keep} more methods, as in docs/openrpc.json")


@example("rpc.discover")
def _(s):
    s.connect("c")
    s.call("c", rq(1, "rpc.discover"))
    abbreviate_methods(s, 2)


@example("stats", "--clock", "manual", "--fps", "10")
def _(s):
    s.connect("renderer", "app")
    s.call("renderer", rq(1, "hello", {"client": "renderer"}), quiet=True)
    s.call("renderer", rq(2, "subscribe", {"topics": ["frames"]}), quiet=True)
    s.call("app", rq(1, "present", {"id": "a", "style": "alert"}), quiet=True)
    s.call("app", rq(2, "present", {"id": "b", "style": "alert", "deduplicate": False}), quiet=True)
    s.call("app", rq(3, "advance", {"seconds": 0.1}), quiet=True)
    s.note("renderer subscribed to frames; app presented a, queued b behind it, advanced 0.1 s")
    s.call("app", rq(4, "stats"))



@example("presented")
def _(s):
    s.connect("renderer", "admin")
    s.note("renderer drew two frames of main; the compositor discarded the first and showed the second at the time "
           "it was drawn for, 7.8 ms after its commit; presentd kept no motion of main at 12.5, so the frame has no error")
    s.call("renderer", rq(1, "presented", {"frames": [{"time": 12.5, "shownAt": 12.5, "drawnAt": 12.4921875,
                                                       "refresh": 0.016667}], "discarded": 1}))
    s.call("admin", rq(1, "stats"))
    # Of stats' reply, only the member this method fills.
    name, arrow, text = s.transcript.pop()
    reply = json.loads(text)
    reply["result"] = {"presented": reply["result"]["presented"]}
    s.transcript.append((name, arrow, json.dumps(reply, separators=(",", ":"), ensure_ascii=False)))
    s.note("… stats' other members left out")


@example("setMode", "--clock", "manual", "--fps", "10")
def _(s):
    s.connect("shell", "app", "watcher")
    s.call("watcher", rq(1, "subscribe", {"topics": ["lifecycle", "modes"]}), quiet=True)
    s.note("watcher subscribed to lifecycle and modes")
    s.call("shell", rq(1, "setMode", {"doNotDisturb": {"allowPriorityAbove": 500}}))
    s.call("app", rq(1, "present", {"id": "digest", "style": "popup", "priority": 250,
                                    "transition": {"type": "crossDissolve", "duration": 0.2}}))
    s.call("app", rq(2, "present", {"id": "saved", "level": "overlay", "content": "Saved", "droppable": True,
                                    "style": {"type": "custom", "width": {"points": 300}, "height": {"points": 50}}}))
    s.call("shell", rq(2, "setMode", {"doNotDisturb": None}))


@example("setMode-until", "--clock", "manual", "--fps", "10")
def _(s):
    s.connect("shell", "app", "watcher")
    s.call("watcher", rq(1, "subscribe", {"topics": ["modes"]}), quiet=True)
    s.call("shell", rq(1, "setMode", {"doNotDisturb": {"duration": 2}}), quiet=True)
    s.call("app", rq(1, "present", {"id": "digest", "style": "popup", "priority": 250}), quiet=True)
    s.note('watcher subscribed to modes; shell turned do not disturb on for 2 s; "digest" (priority 250) is held')
    s.call("app", rq(2, "explain", {"id": "digest"}))
    s.call("app", rq(3, "advance", {"seconds": 3}))


@example("dryRun", "--clock", "manual", "--fps", "10")
def _(s):
    s.connect("app")
    s.call("app", rq(1, "present", {"id": "sheet", "style": "bottomHalf", "kind": "compose",
                                    "transition": {"duration": 0.5}}), quiet=True)
    s.call("app", rq(2, "present", {"id": "tip", "style": "popup", "transition": {"duration": 0.3}}), quiet=True)
    s.call("app", rq(3, "advance", {"seconds": 0.1}), quiet=True)
    s.note('"sheet" presents from 0 to 0.5; "tip" (0.3 s) is queued behind it; the time is 0.1')
    s.call("app", rq(4, "present", {"style": "alert", "transition": {"duration": 0.2}, "dryRun": True}))
    s.call("app", rq(5, "present", {"style": "alert", "priority": 900, "precedence": "override", "dryRun": True}))
    s.call("app", rq(6, "present", {"style": "popup", "kind": "compose", "dryRun": True}))
    s.call("app", rq(7, "present", {"id": "tip", "style": "popup", "dryRun": True}))
    s.call("app", rq(8, "present", {"style": "alert", "transition": {"duration": 0.2}}))


@example("explain", "--clock", "manual", "--fps", "10", "--container", "844x390", "--dismiss-policy", "owner")
def _(s):
    s.connect("app", "other")
    s.call("app", rq(1, "hello", {"client": "mail", "protocol": 1}), quiet=True)
    s.call("app", rq(2, "present", {"id": "compose", "style": "bottomHalf", "adaptive": "fullScreen",
                                    "transition": {"duration": 0.5}}), quiet=True)
    s.call("app", rq(3, "present", {"id": "tip", "style": "popup"}), quiet=True)
    s.note('a landscape phone (844x390: compact height); "compose" (bottomHalf, adaptive fullScreen) '
           'presents over 0.5 s, "tip" waits for it')
    s.call("other", rq(1, "explain", {"id": "compose"}))
    s.call("other", rq(2, "explain", {"id": "tip"}))


@example("recordDump", "--clock", "manual", "--fps", "10")
def _(s):
    # The admin connects first: a line is served as soon as its connection is accepted,
    # so app's hello would come before a later connection's connect record or after it,
    # as the daemon happened to accept.
    s.connect("admin", "app")
    s.call("app", rq(1, "hello", {"client": "app"}), quiet=True)
    s.call("app", rq(2, "present", {"id": "login", "style": "alert", "content": {
        "title": "Sign in", "fields": [{"id": "pw", "kind": "secure", "value": "hunter2"}],
        "actions": [{"id": "ok", "title": "OK"}]}}), quiet=True)
    s.call("admin", rq(1, "advance", {"seconds": 0.1}), quiet=True)
    s.note("app said hello and presented login (its field pw secure, value hunter2); admin advanced 0.1 s")
    s.call("admin", rq(2, "recordDump"))
    name, arrow, text = s.transcript.pop()
    reply = json.loads(text)
    # The processes differ from run to run: shown as pid 4242, uid 1000, and the byte
    # counts as they are for what is shown.
    shown = reply["result"]["recording"].splitlines()
    lines = [re.sub(r'"pid":\d+,"uid":\d+,"gid":\d+', '"pid":4242,"uid":1000,"gid":1000', line) for line in shown]
    size = reply["result"]["bytes"] + sum(len(a.encode()) - len(b.encode()) for a, b in zip(lines, shown))
    reply["result"]["recording"] = "…"
    reply["result"]["bytes"] = size
    s.transcript.append((name, arrow, json.dumps(reply, separators=(",", ":"), ensure_ascii=False)))
    s.note("the recording, line by line (presentctl record-dump prints it so):")
    lines[0] = re.sub(r'"bytes":\d+', f'"bytes":{size}', lines[0])
    for line in lines:
        s.transcript.append(("", "×", line))


# ---------------------------------------------------------------- the document

MARKER = re.compile(r"(<!-- example (\S+) -->\n```text\n)(.*?)(```\n<!-- /example -->)", re.S)


def generate(binary, names):
    results = {}
    for name in names:
        args, body, config = EXAMPLES[name]
        session = Session(binary, args, config)
        try:
            body(session)
        finally:
            session.finish()
        results[name] = render(session)
    return results


def main():
    if sys.argv[1:2] == ["--show"]:  # print some examples, for writing the document
        for name, text in generate(presentd_binary(), sys.argv[2:] or list(EXAMPLES)).items():
            print(f"== {name}\n{text}\n")
        return
    check = "--check" in sys.argv[1:]
    with open(DOC) as f:
        doc = f.read()
    wanted = [m.group(2) for m in MARKER.finditer(doc)]
    unknown = [n for n in wanted if n not in EXAMPLES]
    unused = [n for n in EXAMPLES if n not in wanted]
    if unknown or unused:
        sys.exit(f"examples.py: unknown in PROTOCOL.md: {unknown}; not used by PROTOCOL.md: {unused}")
    results = generate(presentd_binary(), wanted)
    updated = MARKER.sub(lambda m: m.group(1) + results[m.group(2)] + "\n" + m.group(4), doc)
    if check:
        if updated != doc:
            sys.stdout.writelines(difflib.unified_diff(doc.splitlines(True), updated.splitlines(True),
                                                       "PROTOCOL.md", "presentd says"))
            sys.exit(1)
        print(f"examples.py: all {len(wanted)} examples match presentd")
    elif updated != doc:
        with open(DOC, "w") as f:
            f.write(updated)
        print(f"examples.py: rewrote {len(wanted)} examples")
    else:
        print(f"examples.py: all {len(wanted)} examples already up to date")


if __name__ == "__main__":
    main()
