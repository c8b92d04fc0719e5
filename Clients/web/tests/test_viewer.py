"""The browser viewer and its bridge (`python -m presentd.web`), against the real daemon.

The bridge is checked at the byte level; the page in headless Chromium: screenshots taken
mid-transition and after it must show the presented layer where the frame stream says, and
a dialog's content is drawn, redrawn at each revision, and answered — a click, Enter or
Escape reaches the owner's socket as an `action` with what was typed in the page.
Set PRESENTD_SCREENSHOTS=DIR to keep the screenshots."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import select
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

import presentd
from presentd import Client, Frame
from presentd.daemon import wait_until

sys.path.insert(0, str(Path(__file__).parent))
import chromium  # noqa: E402

MAGENTA = (255, 0, 255)
# How long a socket read may wait for what must come: only against a hang, so generous (a
# loaded machine can be slow by seconds).
PATIENCE = 30


@pytest.fixture
def bridge(manual):
    """`python -m presentd.web` on a free port, relaying to the manual-clock daemon."""
    yield from run_bridge(manual.path)


@pytest.fixture
def real_bridge(daemon):
    """The same, relaying to a daemon on the real (monotonic) clock."""
    yield from run_bridge(daemon.path)


def run_bridge(path: str):
    env = {**os.environ, "PYTHONPATH": str(Path(presentd.__file__).parents[1])}
    process = subprocess.Popen([sys.executable, "-m", "presentd.web", "--socket", path, "--port", "0"],
                               stdout=subprocess.PIPE, text=True, env=env)
    # It prints its address once it listens (one line, flushed); a cold start of Python on a
    # loaded machine can take seconds. Its stderr is pytest's, shown on failure.
    try:
        wait_until(lambda: select.select([process.stdout], [], [], 0.1)[0] or process.poll() is not None,
                   "python -m presentd.web to print its address", timeout=60,
                   context=lambda: "the bridge is still running")
        line = process.stdout.readline()
        assert line.startswith("presentd.web: http://127.0.0.1:"), (line, process.poll())
    except BaseException:
        process.kill()
        process.wait()
        raise
    port = int(line.split(":")[3].split("/")[0])
    yield port
    process.terminate()
    assert process.wait(30) == 0


# MARK: - The bridge, byte by byte


def http(port: int, request: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as s:
        s.sendall(request.encode())
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def upgrade(port: int, origin: str | None = None) -> tuple[socket.socket, bytes]:
    s = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
    key = base64.b64encode(os.urandom(16)).decode()
    head = (f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
    if origin:
        head += f"Origin: {origin}\r\n"
    s.sendall((head + "\r\n").encode())
    response = b""
    while b"\r\n\r\n" not in response:
        response += s.recv(1)
    expected = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
    if b" 101 " in response:
        assert b"Sec-WebSocket-Accept: " + expected in response
    return s, response


def send_frame(s: socket.socket, opcode: int, payload: bytes, fin: bool = True) -> None:
    mask = os.urandom(4)
    n = len(payload)
    head = struct.pack("!B", (0x80 if fin else 0) | opcode)
    head += struct.pack("!B", 0x80 | n) if n < 126 else struct.pack("!BH", 0x80 | 126, n)
    s.sendall(head + mask + bytes(b ^ mask[i & 3] for i, b in enumerate(payload)))


def recv_exactly(s: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        assert chunk, "connection closed"
        data += chunk
    return data


def recv_frame(s: socket.socket) -> tuple[int, bytes]:
    b0, b1 = recv_exactly(s, 2)
    assert not b1 & 0x80, "server frames are not masked"
    n = b1 & 0x7F
    if n == 126:
        (n,) = struct.unpack("!H", recv_exactly(s, 2))
    elif n == 127:
        (n,) = struct.unpack("!Q", recv_exactly(s, 8))
    return b0 & 0x0F, recv_exactly(s, n)


def test_static_files_and_no_way_out_of_the_root(bridge):
    page = http(bridge, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert page.startswith(b"HTTP/1.1 200") and b"text/html" in page and b"viewer.js" in page
    script = http(bridge, "GET /viewer.js HTTP/1.1\r\nHost: x\r\n\r\n")
    assert b"javascript" in script.split(b"\r\n\r\n")[0]
    for path in ("/../../../../etc/passwd", "/%2e%2e/etc/passwd", "/tests/test_viewer.py/..", "/nope.html"):
        assert http(bridge, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").startswith(b"HTTP/1.1 404"), path
    assert http(bridge, "POST / HTTP/1.1\r\nHost: x\r\n\r\n").startswith(b"HTTP/1.1 405")
    assert http(bridge, "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n").startswith(b"HTTP/1.1 400")


def test_websocket_relays_json_rpc_both_ways(bridge, manual):
    s, response = upgrade(bridge, origin=f"http://127.0.0.1:{bridge}")
    assert response.startswith(b"HTTP/1.1 101")
    send_frame(s, 0x9, b"hi")  # ping → pong
    assert recv_frame(s) == (0xA, b"hi")
    # A request split over two frames, pretty-printed over several lines: still one line to the daemon.
    text = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "subscribe", "params": {"topics": ["lifecycle"]}},
                      indent=2).encode()
    send_frame(s, 0x1, text[:10], fin=False)
    send_frame(s, 0x0, text[10:])
    opcode, payload = recv_frame(s)
    assert opcode == 0x1 and json.loads(payload)["id"] == 1
    with Client(manual.path) as app:  # events from the daemon reach the page
        app.present(style="popup", id="seen-by-page")
        opcode, payload = recv_frame(s)
    event = json.loads(payload)
    assert (event["method"], event["params"]["id"], event["params"]["event"]) == ("lifecycle", "seen-by-page",
                                                                                  "willPresent")
    send_frame(s, 0x2, b"\x00binary")  # binary is refused with 1003
    opcode, payload = recv_frame(s)
    while opcode == 0x1:  # the entry leaving with its owner, still on the way
        opcode, payload = recv_frame(s)
    assert opcode == 0x8 and struct.unpack("!H", payload[:2])[0] == 1003
    s.close()


def test_websocket_refuses_other_origins_and_unmasked_frames(bridge):
    s, response = upgrade(bridge, origin="http://evil.example")
    assert response.startswith(b"HTTP/1.1 403")
    s.close()
    s, response = upgrade(bridge)
    s.sendall(b"\x81\x02{}")  # unmasked: a protocol error
    opcode, payload = recv_frame(s)
    assert opcode == 0x8 and struct.unpack("!H", payload[:2])[0] == 1002
    s.close()


# MARK: - The page in Chromium

needs_chromium = pytest.mark.skipif(chromium.find() is None, reason="no chromium (apt-get install chromium)")


@pytest.fixture
def browser():
    with chromium.Browser() as b:
        yield b


def keep(image, name: str) -> None:
    directory = os.environ.get("PRESENTD_SCREENSHOTS")
    if directory:
        os.makedirs(directory, exist_ok=True)
        image.save(os.path.join(directory, name))


def close(pixel, colour, tolerance=30) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel[:3], colour)) <= tolerance


def assert_layer_drawn_where_the_frame_says(image, geometry: dict, frame: Frame, id: str, container) -> None:
    """Magenta inside the layer's visible rect (clipped to the container), not just outside."""
    r = frame.layer(id).visible_frame
    z, left, top = geometry["zoom"], geometry["left"], geometry["top"]
    x0, x1 = left + r.x * z, left + r.max_x * z
    y0, y1 = top + max(0, r.y) * z, top + min(container.height, r.max_y) * z
    assert y1 - y0 > 12 and x1 - x0 > 12, "the layer is not on screen"
    # Near each corner and edge (the middle holds the white label).
    for x, y in [(x0 + 4, y0 + 6), (x1 - 5, y0 + 6), (x0 + 4, y1 - 5), (x1 - 5, y1 - 5), (x0 + 4, (y0 + y1) / 2)]:
        assert close(image.getpixel((round(x), round(y))), MAGENTA), (x, y, image.getpixel((round(x), round(y))))
    for x, y in [(x0 - 4, (y0 + y1) / 2), (x1 + 4, (y0 + y1) / 2), ((x0 + x1) / 2, y0 - 4)]:
        if top < y < top + container.height * z:
            assert not close(image.getpixel((round(x), round(y))), MAGENTA), (x, y)


@needs_chromium
def test_screenshots_show_the_layer_where_the_frame_stream_says(bridge, manual, browser):
    browser.open(f"http://127.0.0.1:{bridge}/")
    browser.wait_for("window.presentdViewer && window.presentdViewer.ready")
    with Client(manual.path) as app:
        app.subscribe(["frames"])
        container = app.hello().container
        app.present(style="popup", id="probe", content="#ff00ff", statusBar={"style": "lightContent"},
                    transition={"type": "coverVertical", "duration": 0.4, "timing": "easeInEaseOut"})
        for name, seconds, moving in [("viewer-mid-transition.png", 0.2, True), ("viewer-presented.png", 0.3, False)]:
            app.advance(seconds)
            app.sync()
            frames = [e for e in app.events(timeout=0) if isinstance(e, Frame)]
            frame = frames[-1]
            assert frame.animating == moving
            browser.wait_for(f"window.presentdViewer.seq >= {frame.seq}")
            assert browser.evaluate("window.presentdViewer.seq") == frame.seq
            image = browser.screenshot()
            keep(image, name)
            geometry = browser.evaluate("window.presentdViewer.geometry()")
            assert_layer_drawn_where_the_frame_says(image, geometry, frame, "probe", container)
            # The status bar the entry captured is drawn light.
            assert browser.evaluate("getComputedStyle(document.getElementById('statusbar')).color") == \
                "rgb(255, 255, 255)"
        # Mid-transition the layer was lower than at rest: the first screenshot really was mid-way.
        assert frames[-1].layer("probe").frame.y < app.stack()[0].frame.y + 1


@needs_chromium
def test_controls_present_and_tapping_the_dimming_dismisses(bridge, manual, browser):
    browser.open(f"http://127.0.0.1:{bridge}/")
    browser.wait_for("window.presentdViewer && window.presentdViewer.ready")
    with Client(manual.path) as watcher:
        watcher.subscribe(["lifecycle"])
        browser.evaluate("document.getElementById('style').value = 'alert';"
                         "document.getElementById('transition').value = 'zoom';"
                         "document.getElementById('present').click(); true")
        event = watcher.next_event(timeout=PATIENCE)  # page → bridge → daemon → watcher
        assert event is not None, f"no lifecycle event within {PATIENCE} s of clicking present; {browser.state()}"
        assert (event.event, event.id) == ("willPresent", event.id) and event.animation.from_state.scale < 1
        watcher.advance(1)
        browser.wait_for("window.presentdViewer.layers.length == 2 && "
                         "window.presentdViewer.layers[1].scale == 1")
        g = browser.evaluate("window.presentdViewer.geometry()")
        browser.click(g["left"] + 20 * g["zoom"], g["top"] + 120 * g["zoom"])  # on the dimming, off the alert
        gone = next((e for e in watcher.events(timeout=PATIENCE) if e.event == "willDismiss"), None)
        assert gone is not None, f"no willDismiss within {PATIENCE} s of the click; {browser.state()}"
        assert (gone.id, gone.reason) == (event.id, "tap")


# MARK: - Content: the page draws it, and the user's answer reaches the owner


class Owner:
    """The app that presents, on its own connection, in raw JSON-RPC lines: what the tests
    check is exactly what the daemon wrote to it."""

    def __init__(self, path: str):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.buffer = b""
        self.notifications: list[dict] = []
        self.next_id = 0

    def __enter__(self) -> "Owner":
        return self

    def __exit__(self, *exc) -> None:
        self.socket.close()

    def _read(self, deadline: float, what: str) -> dict:
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"not within the deadline: {what}; notifications so far: {self.notifications}")
            self.socket.settimeout(left)
            try:
                chunk = self.socket.recv(65536)
            except TimeoutError:
                continue
            assert chunk, f"the daemon hung up while waiting for {what}"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def call(self, method: str, params: dict | None = None, timeout: float = 30) -> dict:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        self.socket.sendall(json.dumps(message).encode() + b"\n")
        deadline = time.monotonic() + timeout
        while True:
            m = self._read(deadline, f"the reply to {method}")
            if "method" in m:
                self.notifications.append(m)
            elif m.get("id") == self.next_id:
                assert "error" not in m, f"{method} {params}: {m['error']}"
                return m["result"]

    def wait_for(self, what: str, predicate, timeout: float = 30) -> dict:
        """The first notification, received already or later, that `predicate` accepts (taken
        off the list); AssertionError naming `what` after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            for i, n in enumerate(self.notifications):
                if predicate(n):
                    return self.notifications.pop(i)
            self.notifications.append(self._read(deadline, what))


def lifecycle(event: str, id: str):
    return lambda n: n.get("method") == "lifecycle" and (n["params"]["event"], n["params"]["id"]) == (event, id)


def dialog(id: str) -> str:
    """A CSS selector for entry `id`'s content layer."""
    return f'.layer.content[data-id="{id}"]'


def query(selector: str) -> str:
    return f"document.querySelector({json.dumps(selector)})"


def at_rest(id: str) -> str:
    """True in the page once it drew entry `id` presented, at its resting frame."""
    return ("(() => { const v = window.presentdViewer;"
            f" const e = v.entries.find((e) => e.id === {json.dumps(id)});"
            f" const l = v.layers.find((l) => l.id === {json.dumps(id)} && l.role === 'content');"
            " return !!(e && l && e.state === 'presented' && l.frame.x === e.frame.x && l.frame.y === e.frame.y"
            " && l.scale === 1 && l.alpha === 1); })()")


ASK = {"title": "Who is there?", "message": "Type your name.",
       "actions": [{"id": "ok", "title": "OK", "role": "default"}, {"id": "no", "title": "Cancel", "role": "cancel"}],
       "fields": [{"id": "name", "kind": "text", "placeholder": "Name"}]}


@pytest.fixture
def page(bridge, browser):
    browser.open(f"http://127.0.0.1:{bridge}/")
    browser.wait_for("window.presentdViewer && window.presentdViewer.ready",
                     what="the viewer subscribed and drew the snapshot")
    return browser


def present(owner: Owner, page, id: str, content, **presentation) -> None:
    """Presents `id` (an alert unless told) and runs the clock until it rests, as the page draws it."""
    owner.call("present", {"id": id, "style": "alert", "content": content, **presentation})
    owner.call("advance", {"seconds": 1})
    page.wait_for(at_rest(id), what=f"the page drew {id!r} presented, at rest")


def focus_answered(page, id: str, field: str | None) -> None:
    """Waits until the page's last `focus` was {id, field} and the daemon answered it."""
    page.wait_for(f"(() => {{ const f = window.presentdViewer.focus; return !!(f && f.id === {json.dumps(id)}"
                  f" && f.field === {json.dumps(field)} && f.answered); }})()",
                  what=f"the daemon answered focus {{id: {id}, field: {json.dumps(field)}}}")


def focus_field(page, id: str, field: str) -> None:
    """Clicks into the field and waits until the daemon answered the page's `focus`."""
    page.click_on(f'{dialog(id)} input[data-field="{field}"]')
    focus_answered(page, id, field)


@needs_chromium
@pytest.mark.parametrize("how", ["click", "enter"])
def test_the_default_action_reaches_the_owner_with_what_was_typed(manual, page, how):
    with Owner(manual.path) as owner:
        owner.call("subscribe", {"topics": ["lifecycle"]})
        present(owner, page, "ask", ASK)
        focus_field(page, "ask", "name")
        page.type("typed text")
        if how == "click":
            page.click_on(f'{dialog("ask")} button[data-action="ok"]')
        else:
            page.press("Enter")
        action = owner.wait_for("the owner's action notification", lambda n: n.get("method") == "action")
        assert action["params"] == {"id": "ask", "action": "ok", "role": "default", "fields": {"name": "typed text"},
                                    "seq": action["params"]["seq"]}
        gone = owner.wait_for("willDismiss of ask", lifecycle("willDismiss", "ask"))["params"]
        assert (gone["reason"], gone["action"]) == ("action", "ok")
        assert page.evaluate("window.presentdViewer.failures") == []


@needs_chromium
def test_escape_cancels_and_only_the_top_entry_takes_input(manual, page):
    with Owner(manual.path) as owner:
        owner.call("subscribe", {"topics": ["lifecycle"]})
        present(owner, page, "below", {"message": "The sheet underneath.", "accessibility": {"label": "Lower sheet"}},
                style="bottomHalf")
        present(owner, page, "ask", {**ASK, "accessibility": {"announce": "assertive", "hint": "Escape cancels."}})
        keep(page.screenshot(), "viewer-alert-over-sheet.png")
        aria = page.evaluate("""(() => {
            const text = (ids) => ids && ids.split(" ").map((id) => document.getElementById(id).textContent).join(" ");
            const of = (el) => ({role: el.getAttribute("role"), modal: el.getAttribute("aria-modal"),
                                 label: el.getAttribute("aria-label"), labelledBy: text(el.getAttribute("aria-labelledby")),
                                 describedBy: text(el.getAttribute("aria-describedby")),
                                 live: el.getAttribute("aria-live"), inert: el.inert});
            const layer = (id) => document.querySelector(`.layer.content[data-id="${id}"]`);
            return {ask: of(layer("ask")), below: of(layer("below")),
                    presenter: document.getElementById("presenter").inert};
        })()""")
        assert aria == {
            "ask": {"role": "alertdialog", "modal": "true", "label": None, "labelledBy": "Who is there?",
                    "describedBy": "Type your name. Escape cancels.", "live": "assertive", "inert": False},
            "below": {"role": "dialog", "modal": "true", "label": "Lower sheet", "labelledBy": None,
                      "describedBy": "The sheet underneath.", "live": None, "inert": True},
            "presenter": True}
        focus_field(page, "ask", "name")
        page.type("draft")
        page.press("Escape")
        action = owner.wait_for("the owner's action notification", lambda n: n.get("method") == "action")
        assert (action["params"]["id"], action["params"]["action"], action["params"]["fields"]) == \
            ("ask", "no", {"name": "draft"})
        gone = owner.wait_for("willDismiss of ask", lifecycle("willDismiss", "ask"))["params"]
        assert (gone["reason"], gone["action"]) == ("action", "no")
        owner.call("advance", {"seconds": 1})
        owner.wait_for("didDismiss of ask", lifecycle("didDismiss", "ask"))
        page.wait_for(f"!{query(dialog('ask'))} && !{query(dialog('below'))}.inert",
                      what="the alert gone from the page and the sheet below it taking input again")
        assert page.evaluate("window.presentdViewer.failures") == []


@needs_chromium
def test_a_focused_field_holds_the_countdown_and_leaving_it_lets_it_run(manual, page):
    with Owner(manual.path) as owner:
        owner.call("subscribe", {"topics": ["lifecycle"]})
        present(owner, page, "ask", ASK, autoDismiss={"after": 1})
        focus_field(page, "ask", "name")
        owner.call("advance", {"seconds": 5})
        assert [(e["id"], e["state"]) for e in owner.call("stack")["entries"]] == [("ask", "presented")]
        page.press("Tab")  # to the OK button: no field has focus
        focus_answered(page, "ask", None)
        owner.call("advance", {"seconds": 5})
        gone = owner.wait_for("willDismiss of ask", lifecycle("willDismiss", "ask"))["params"]
        assert gone["reason"] == "timeout"
        assert page.evaluate("window.presentdViewer.failures") == []


RICH = {"title": "Saving…", "message": "report.pdf to the printer", "icon": {"name": "document-save"},
        "actions": [{"id": "stop", "title": "Stop", "role": "destructive"},
                    {"id": "hide", "title": "Hide", "role": "cancel"},
                    {"id": "open", "title": "Open", "role": "default"}],
        "fields": [{"id": "pin", "kind": "secure", "placeholder": "PIN"},
                   {"id": "copies", "kind": "number", "value": "2"}],
        "progress": None, "surface": {"appId": "org.example.Editor", "handle": "x11:0x3a00007"}}

DRAWN = """(() => {
    const el = document.querySelector('.layer.content[data-id="job"]');
    const q = (s) => el.querySelector(s);
    const input = (f) => q(`input[data-field="${f}"]`);
    const button = (a) => getComputedStyle(q(`button[data-action="${a}"]`));
    return {revision: el.dataset.revision, role: el.getAttribute("role"), title: q(".title").textContent,
            message: q(".message").textContent, icon: q(".icon").textContent, surface: q(".surface").textContent,
            pin: [input("pin").type, input("pin").placeholder, input("pin").value],
            copies: [input("copies").type, input("copies").value],
            progress: q("progress").position, focused: document.activeElement === input("pin"),
            buttons: [...el.querySelectorAll("button")].map((b) => b.textContent),
            weights: ["open", "hide", "stop"].map((a) => Number(button(a).fontWeight)),
            red: button("stop").color};
})()"""


@needs_chromium
def test_content_is_drawn_and_redrawn_when_the_frame_names_a_new_revision(manual, page):
    with Owner(manual.path) as owner:
        present(owner, page, "job", RICH, style="popup")
        page.click_on(f'{dialog("job")} input[data-field="pin"]')
        page.wait_for(f"document.activeElement === {query(dialog('job') + ' input[data-field=pin]')}",
                      what="the PIN field has focus")
        page.type("1234")
        before = page.evaluate(DRAWN)
        keep(page.screenshot(), "viewer-dialog.png")
        assert before == {"revision": "1", "role": "alertdialog", "title": "Saving…",
                          "message": "report.pdf to the printer", "icon": "document-save",
                          "surface": "embedded surface: org.example.Editor · x11:0x3a00007",
                          "pin": ["password", "PIN", "1234"], "copies": ["number", "2"], "progress": -1,
                          "focused": True, "buttons": ["Stop", "Hide", "Open"], "weights": [700, 400, 400],
                          "red": "rgb(255, 59, 48)"}
        assert owner.call("update", {"id": "job", "content": {**RICH, "title": "Saved", "progress": 1}}) == \
            {"id": "job", "state": "presented", "contentRevision": 2}
        # The page has heard of revision 2, but no frame names it yet (the clock stands still).
        page.wait_for("window.presentdViewer.contents.get('job').has(2)", what="the updated event in the page")
        assert page.evaluate(DRAWN)["title"] == "Saving…"
        owner.call("advance", {"seconds": 0.1})
        page.wait_for(f"{query(dialog('job'))}.dataset.revision === '2'", what="the page drew revision 2")
        # What was typed, and the focus, survive the redraw.
        assert page.evaluate(DRAWN) == {**before, "revision": "2", "title": "Saved", "progress": 1}
        owner.call("update", {"id": "job", "content": "Done"})
        owner.call("advance", {"seconds": 0.1})
        page.wait_for(f"{query(dialog('job'))}.dataset.revision === '3'", what="the page drew revision 3")
        assert page.evaluate(f"[{query(dialog('job'))}.textContent, {query(dialog('job'))}.getAttribute('role'),"
                             " document.activeElement === document.body]") == ["Done", "dialog", True]
        # The PIN field went with revision 3, and the page said so.
        focus_answered(page, "job", None)
        assert page.evaluate("window.presentdViewer.failures") == []


# MARK: - Levels, forwarded taps and presentation contexts


TOAST = {"level": "overlay", "position": "top", "style": {"type": "custom", "width": {"points": 300},
                                                          "height": {"points": 60}}}

LAYERS = """(() => {
    const v = window.presentdViewer;
    const of = (el) => el && {inert: el.inert, z: Number((el.parentElement.classList.contains("clip")
                                                        ? el.parentElement : el).style.zIndex),
                              level: el.dataset.level, modal: el.getAttribute("aria-modal"),
                              role: el.getAttribute("role")};
    const layer = (id, role) => document.querySelector(`.layer.${role}[data-id="${id}"]`);
    const out = {presenter: document.getElementById("presenter").inert};
    for (const id of ["below", "modal", "toast"]) {
        out[id] = {content: of(layer(id, "content")), dimming: of(layer(id, "dimming"))};
    }
    out.drawn = v.layers.map((l) => [l.id, l.role, l.level]);
    return out;
})()"""


def pixel(image, page, x: float, y: float):
    """The colour the page shows at container point x, y of main."""
    g = page.evaluate("window.presentdViewer.geometry()")
    return image.getpixel((round(g["left"] + x * g["zoom"]), round(g["top"] + y * g["zoom"])))


@needs_chromium
def test_a_toast_is_drawn_above_a_modal_and_only_modal_entries_make_what_is_below_inert(manual, page):
    with Owner(manual.path) as owner:
        # A toast alone: nothing is inert, the presenter takes input.
        present(owner, page, "toast", "#ff00ff", **TOAST)
        state = page.evaluate(LAYERS)
        assert state["toast"] == {"content": {"inert": False, "z": state["toast"]["content"]["z"], "level": "overlay",
                                              "modal": None, "role": "status"},
                                  "dimming": None}, "an overlay has no dimming layer and is not modal"
        assert state["presenter"] is False, "a toast made the presenter inert"
        # A sheet under it: the toast makes the sheet no less interactive.
        present(owner, page, "below", {"message": "The sheet underneath."}, style="bottomHalf")
        state = page.evaluate(LAYERS)
        assert (state["below"]["content"]["inert"], state["toast"]["content"]["inert"], state["presenter"]) == \
            (False, False, True), state
        # A modal alert: what is below it goes inert, the toast stays above it and live.
        present(owner, page, "modal", "#0a84ff", style="alert", dismissOnTap=False)
        state = page.evaluate(LAYERS)
        assert state["drawn"] == [["below", "dimming", "normal"], ["below", "content", "normal"],
                                  ["modal", "dimming", "normal"], ["modal", "content", "normal"],
                                  ["toast", "content", "overlay"]], "the frame's drawing order"
        assert (state["below"]["content"]["inert"], state["below"]["dimming"]["inert"], state["presenter"]) == \
            (True, True, True), state
        assert (state["modal"]["content"]["inert"], state["modal"]["content"]["modal"]) == (False, "true"), state
        assert state["toast"]["content"]["inert"] is False, state
        assert state["toast"]["content"]["z"] > state["modal"]["content"]["z"] > state["modal"]["dimming"]["z"] > \
            state["below"]["content"]["z"], state
        image = page.screenshot()
        keep(image, "viewer-toast-above-modal.png")
        toast = owner.call("stack")["entries"][-1]
        assert (toast["id"], toast["level"]) == ("toast", "overlay")
        f = toast["frame"]
        # The toast is drawn undimmed over the modal's dimming; beside it the dimming darkens
        # the presenter.
        for x, y in [(f["x"] + 6, f["y"] + 6), (f["x"] + f["width"] - 6, f["y"] + f["height"] - 6)]:
            assert close(pixel(image, page, x, y), MAGENTA), (x, y, pixel(image, page, x, y))
        beside = pixel(image, page, f["x"] / 2, f["y"] + f["height"] / 2)
        assert sum(beside) < 3 * 100, f"the modal's dimming beside the toast is not dark: {beside}"
        # The point under the toast's middle is the toast, for the page too.
        g = page.evaluate("window.presentdViewer.geometry()")
        assert page.evaluate(f"document.elementFromPoint({g['left'] + (f['x'] + f['width'] / 2) * g['zoom']},"
                             f" {g['top'] + (f['y'] + 10) * g['zoom']}).closest('.layer').dataset.id") == "toast"
        # Keys go to the modal, not to the newest overlay.
        assert page.evaluate("window.presentdViewer.entries.filter((e) => e.state === 'presented')"
                             ".map((e) => e.id)") == ["below", "modal", "toast"]
        # An alert-level entry is above the overlays: then the toast is inert too.
        present(owner, page, "urgent", "#ff9f0a", style="alert", level="alert")
        urgent = page.evaluate(f"[{query(dialog('urgent'))}.inert, Number({query(dialog('urgent'))}.style.zIndex),"
                               f" {query(dialog('toast'))}.inert, Number({query(dialog('toast'))}.style.zIndex),"
                               f" {query(dialog('modal'))}.inert]")
        assert urgent[0] is False and urgent[2] is True and urgent[4] is True and urgent[1] > urgent[3], urgent
        owner.call("dismiss", {"id": "urgent"})
        owner.call("advance", {"seconds": 1})
        page.wait_for(f"!{query(dialog('urgent'))} && !{query(dialog('toast'))}.inert && !{query(dialog('modal'))}.inert",
                      what="the alert-level entry gone, the toast and the modal taking input again")
        owner.call("dismiss", {"id": "modal"})
        owner.call("advance", {"seconds": 1})
        page.wait_for(f"!{query(dialog('modal'))} && !{query(dialog('below'))}.inert"
                      f" && !{query(dialog('toast'))}.inert",
                      what="the modal gone and the sheet below it (and the toast) taking input again")
        assert page.evaluate("window.presentdViewer.failures") == []


@needs_chromium
def test_a_tap_through_a_forwarding_dimming_is_marked_as_forwarded_to_the_app(manual, page):
    with Owner(manual.path) as owner:
        owner.call("subscribe", {"topics": ["lifecycle"]})
        present(owner, page, "modal", "#0a84ff", style="alert", interaction="forward")
        present(owner, page, "toast", "#ff00ff", **TOAST)
        # Still modal, as the page draws it: the presenter is inert, the dimming is drawn.
        assert page.evaluate("[document.getElementById('presenter').inert,"
                             f" Number({query('.layer.dimming[data-id=modal]')}.style.opacity)]") == [True, 0.7]
        g = page.evaluate("window.presentdViewer.geometry()")
        page.click(g["left"] + 20 * g["zoom"], g["top"] + 700 * g["zoom"])  # on the dimming, off both
        page.wait_for("window.presentdViewer.taps.length === 1", what="the reply to the page's tap on the dimming")
        keep(page.screenshot(), "viewer-forwarded-tap.png")  # the marker, for a moment
        tap = page.evaluate("window.presentdViewer.taps[0]")
        assert tap["result"] == {"part": "none", "dismissed": False, "forwarded": True}, tap
        assert page.evaluate("window.presentdViewer.forwarded.map((t) => [Math.round(t.x), Math.round(t.y)])") == \
            [[20, 700]]
        assert page.evaluate("document.getElementById('log').firstChild.textContent") == \
            "tap 20,700 → forwarded to the app"
        page.click_on(dialog("toast"))
        page.wait_for("window.presentdViewer.taps.length === 2", what="the reply to the page's tap on the toast")
        tap = page.evaluate("window.presentdViewer.taps[1]")
        assert tap["result"] == {"part": "content", "dismissed": False, "id": "toast", "role": "content",
                                 "level": "overlay"}, tap
        assert page.evaluate("window.presentdViewer.forwarded.length") == 1, "a tap the toast took was forwarded"
        # Neither tap dismissed anything.
        assert [(e["id"], e["state"]) for e in owner.call("stack")["entries"]] == \
            [("modal", "presented"), ("toast", "presented")]
        assert not [n for n in owner.notifications if n["params"].get("event") == "willDismiss"]
        assert page.evaluate("window.presentdViewer.failures") == []


CONTEXT = {"x": 20, "y": 120, "width": 350, "height": 560}
OUTLINE = """(() => {
    const el = document.querySelector('.context[data-name="mail"]');
    if (!el) return null;
    const r = el.getBoundingClientRect(), g = window.presentdViewer.geometry();
    const round = (v) => Math.round(v / g.zoom);  // in container points (the page is zoomed)
    return {x: round(r.left - g.left), y: round(r.top - g.top), width: round(r.width), height: round(r.height),
            label: el.textContent};
})()"""


@needs_chromium
def test_a_context_is_outlined_and_a_sheet_in_it_is_clipped_to_it(manual, page):
    with Owner(manual.path) as owner:
        owner.call("subscribe", {"topics": ["lifecycle"]})
        owner.call("defineContext", {"name": "mail", "frame": CONTEXT})
        # No notification says so: the page learns of it by asking.
        page.wait_for(f"{query('.context[data-name=mail]')} !== null", what="the outline of context mail")
        outline = page.evaluate(OUTLINE)
        assert outline == {**CONTEXT, "label": "mail"}, outline
        owner.call("present", {"id": "compose", "style": "bottomHalf", "context": "mail", "content": "#ff00ff",
                               "transition": {"type": "coverVertical", "duration": 0.4, "timing": "linear"}})
        owner.call("advance", {"seconds": 0.2})
        # Mid-way in, the sheet's frame reaches below the context: what is outside is not drawn.
        page.wait_for("(() => { const l = window.presentdViewer.layers.find((l) => l.id === 'compose'"
                      " && l.role === 'content'); return !!l && l.clip && l.frame.y + l.frame.height > "
                      f"{CONTEXT['y'] + CONTEXT['height'] + 50}; }})()",
                      what="the page drew compose mid-transition, reaching out of its context")
        layer = page.evaluate("window.presentdViewer.layers.find((l) => l.id === 'compose' && l.role === 'content')")
        assert layer["clip"] == {k: float(v) for k, v in CONTEXT.items()}
        wrapper = page.evaluate(f"""(() => {{
            const el = {query(dialog('compose'))}, w = el.parentElement, g = window.presentdViewer.geometry();
            const r = w.getBoundingClientRect();
            const round = (v) => Math.round(v / g.zoom);
            return {{clip: w.classList.contains("clip"), overflow: getComputedStyle(w).overflow,
                     x: round(r.left - g.left), y: round(r.top - g.top), width: round(r.width),
                     height: round(r.height)}};
        }})()""")
        assert wrapper == {"clip": True, "overflow": "hidden", **CONTEXT}, wrapper
        bottom = CONTEXT["y"] + CONTEXT["height"]
        top = layer["frame"]["y"]
        middle = CONTEXT["x"] + CONTEXT["width"] / 2

        def painted():
            """A screenshot once the sheet is painted inside its context: the page's model can
            be ahead of what Chromium has painted. (Where it meets the context's edge the
            outline and its label are drawn over it; the wrapper's bounds above are the clip.)"""
            image = page.screenshot()
            inside = pixel(image, page, middle, (top + bottom) / 2)
            assert close(inside, MAGENTA), f"the sheet inside its context: {inside}"
            return image

        image = wait_until(painted, "the sheet painted inside its context", timeout=30)
        keep(image, "viewer-context-mid-transition.png")
        for y in (bottom + 6, bottom + 40):
            assert not close(pixel(image, page, middle, y), MAGENTA), f"the sheet drawn outside its context at y {y}"
        # The dimming covers only the context: the presenter beside it is not darkened.
        assert sum(pixel(image, page, 10, 400)) > 3 * 180, pixel(image, page, 10, 400)
        # The outline is drawn over the layers, where the sheet's edge crosses it.
        assert close(pixel(image, page, middle, bottom - 1), (0xff, 0x9f, 0x0a), 60), pixel(image, page, middle, bottom - 1)
        owner.call("advance", {"seconds": 1})
        page.wait_for(at_rest("compose"), what="the page drew compose at rest in its context")
        # The context moves: the outline and the clip follow.
        moved = {"x": 0, "y": 200, "width": 390, "height": 500}
        owner.call("defineContext", {"name": "mail", "frame": moved, "duration": 0})
        owner.call("advance", {"seconds": 0.1})
        page.wait_for(f"(() => {{ const o = {OUTLINE}; return !!o && o.y === 200 && o.width === 390; }})()",
                      what="the outline of mail moved to 0,200 390×500")
        page.wait_for(at_rest("compose") + " && window.presentdViewer.layers.find((l) => l.id === 'compose')"
                      ".clip.y === 200", what="compose at rest in the moved context, clipped to it")
        owner.call("removeContext", {"name": "mail"})
        owner.wait_for("willDismiss of compose", lifecycle("willDismiss", "compose"))
        owner.call("advance", {"seconds": 1})
        page.wait_for(f"{query('.context')} === null && !{query(dialog('compose'))} && !{query('.clip')}",
                      what="the outline, the sheet and its clipping wrapper gone with the context")
        assert page.evaluate("window.presentdViewer.failures") == []


# MARK: - Sheets: the grabber is drawn, and a drag moves the sheet between its detents

GRABBER_OVER_MAGENTA = (197, 18, 198)  # the grabber's #3d3d42 at 0.3 over the magenta sheet


def grabber_spot(page, id: str) -> tuple[int, int]:
    """The page pixel in the middle of entry `id`'s grabber layer, as the page last drew it."""
    f = page.evaluate(f"window.presentdViewer.layers.find((l) => l.id === {json.dumps(id)}"
                      " && l.role === 'grabber').frame")
    g = page.evaluate("window.presentdViewer.geometry()")
    return (round(g["left"] + (f["x"] + f["width"] / 2) * g["zoom"]),
            round(g["top"] + (f["y"] + f["height"] / 2) * g["zoom"]))


@needs_chromium
def test_a_sheet_is_drawn_with_its_grabber_and_a_drag_moves_it_to_the_large_detent(manual, page):
    with Owner(manual.path) as owner:
        owner.call("subscribe", {"topics": ["lifecycle"]})
        container = owner.call("hello", {"client": "test", "protocol": 1})["container"]
        present(owner, page, "s", "#ff00ff",
                style={"type": "sheet", "detents": ["medium", "large"], "grabber": True})
        [entry] = owner.call("stack")["entries"]
        assert entry["detent"] == "medium"
        medium = entry["frame"]
        assert page.evaluate("window.presentdViewer.layers.map((l) => l.role)") == ["dimming", "content", "grabber"]
        image = page.screenshot()
        keep(image, "viewer-sheet-medium.png")
        spot = grabber_spot(page, "s")
        assert close(image.getpixel(spot), GRABBER_OVER_MAGENTA), (spot, image.getpixel(spot))
        assert close(image.getpixel((spot[0], spot[1] + 12)), MAGENTA), "the grabber is larger than 36 × 5"

        # The user drags the sheet's middle up by 380 points (medium is 393 high, large 787) and
        # lets go: the daemon projects the release to the large detent.
        g = page.evaluate("window.presentdViewer.geometry()")
        x, y0 = medium["x"] + medium["width"] / 2, medium["y"] + 150
        steps = [(g["left"] + x * g["zoom"], g["top"] + (y0 - 380 * i / 20) * g["zoom"]) for i in range(21)]
        page.drag(steps)
        page.wait_for("(() => { const s = window.presentdViewer.swipes.at(-1);"
                      " return !!(s && s.params.phase === 'ended' && s.result); })()",
                      what="the daemon's reply to the page's swipe ended")
        swipes = page.evaluate("window.presentdViewer.swipes")
        assert [s["params"]["phase"] for s in swipes][:2] == ["began", "changed"], swipes
        assert {s["params"]["phase"] for s in swipes[2:-1]} == {"changed"}, swipes
        assert all(s["result"]["outcome"] == "tracking" and s["result"]["id"] == "s" for s in swipes[:-1]), swipes
        ended = swipes[-1]
        assert ended["params"]["dy"] == pytest.approx(-380, abs=1) and ended["params"]["vy"] < 0, ended
        assert ended["result"] == {**ended["result"], "outcome": "settled", "id": "s", "detent": "large"}, ended

        changed = owner.wait_for("detentChanged of s", lifecycle("detentChanged", "s"))["params"]
        assert changed["detent"] == "large"
        [entry] = owner.call("stack")["entries"]
        assert entry["detent"] == "large", entry
        owner.call("advance", {"seconds": 1})  # the spring settles the sheet at large
        large = container["height"] - 787
        page.wait_for(at_rest("s") + f" && window.presentdViewer.layers[1].frame.y === {large}",
                      what=f"the page drew the sheet at rest at the large detent (y = {large})")
        image = page.screenshot()
        keep(image, "viewer-sheet-large.png")
        at_medium, spot = spot, grabber_spot(page, "s")
        assert at_medium[1] - spot[1] > 350 * g["zoom"], (at_medium, spot)  # it rode up with the sheet
        assert close(image.getpixel(spot), GRABBER_OVER_MAGENTA), (spot, image.getpixel(spot))
        log = page.evaluate("[...document.getElementById('log').children].map((li) => li.textContent)")
        assert "swipe → settled at large" in log, log
        assert any(line.startswith("detentChanged s → large at ") for line in log), log
        assert "s · sheet at large" in page.evaluate("document.getElementById('stack').textContent")
        assert page.evaluate("window.presentdViewer.failures") == []


@needs_chromium
def test_a_sheet_under_another_is_drawn_shrunk_with_its_top_showing(manual, page):
    with Owner(manual.path) as owner:
        owner.call("subscribe", {"topics": ["lifecycle"]})
        sheet = {"type": "sheet", "detents": ["medium", "large"]}
        present(owner, page, "under", "#ff00ff", style=sheet)
        present(owner, page, "over", "#0a84ff", style=sheet)
        page.wait_for("(() => { const l = window.presentdViewer.layers.find((l) => l.id === 'under'"
                      " && l.role === 'content'); return !!l && l.scale === 0.9; })()",
                      what="the page drew the sheet under the other at scale 0.9")
        assert page.evaluate(f"{query(dialog('under'))}.style.transform").startswith("scale(0.9)")
        image = page.screenshot()
        keep(image, "viewer-sheet-on-sheet.png")
        g = page.evaluate("window.presentdViewer.geometry()")
        top = 844 - 393  # over's top; under's shows in the 10 points above it, under over's dimming

        def at(y: float):
            return image.getpixel((round(g["left"] + 195 * g["zoom"]), round(g["top"] + y * g["zoom"])))

        def dimmed_magenta(pixel) -> bool:
            r, green, b = pixel
            return r > 60 and abs(r - b) <= 12 and green < 30

        assert dimmed_magenta(at(top - 5)), ("under's top, under over's dimming", at(top - 5))
        assert not dimmed_magenta(at(top - 15)), ("above under's top: the presenter", at(top - 15))
        assert close(at(top + 20), (10, 132, 255)), ("over", at(top + 20))


# MARK: - Several outputs: a panel each


def in_panel(output: str, id: str) -> str:
    """True in the page once entry `id`'s content layer is drawn in output `output`'s panel."""
    return (f"(() => {{ const el = {query(dialog(id))};"
            f" return !!el && el.closest('.screen').dataset.output === {json.dumps(output)}; }})()")


@needs_chromium
def test_a_second_output_gets_its_own_panel_with_its_own_layers(manual, bridge, page):
    with Owner(manual.path) as owner:
        owner.call("subscribe", {"topics": ["lifecycle"]})
        owner.call("addOutput", {"name": "cluster", "width": 480, "height": 240, "fps": 30})
        # Nothing moves yet: the page learns of the output by asking.
        page.wait_for(f"{query('.output[data-output=cluster] .screen')} !== null", what="a panel for output cluster")
        assert page.evaluate(f"{query('.output[data-output=cluster] .output-name')}.textContent") == \
            "cluster · 480×240 · 30 fps"
        present(owner, page, "sheet", "#0a84ff", style="bottomHalf")
        owner.call("present", {"id": "gauge", "style": "popup", "content": "#ff00ff", "output": "cluster"})
        owner.call("advance", {"seconds": 1})
        page.wait_for(in_panel("cluster", "gauge") + " && " + in_panel("main", "sheet"),
                      what="gauge drawn in cluster's panel and sheet in main's")
        layers = page.evaluate("[...window.presentdViewer.outputs.values()].map((o) => [o.name,"
                               " o.layers.map((l) => l.id + ' ' + l.role)])")
        assert layers == [["main", ["sheet dimming", "sheet content"]], ["cluster", ["gauge dimming", "gauge content"]]]
        gauge = next(e for e in owner.call("stack", {"output": "cluster"})["entries"] if e["id"] == "gauge")
        page.wait_for(f"(() => {{ const l = window.presentdViewer.output('cluster').layers.find((l) =>"
                      f" l.id === 'gauge' && l.role === 'content'); return !!l && l.alpha === 1 && l.scale === 1"
                      f" && l.frame.y === {gauge['frame']['y']}; }})()", what="gauge at rest in cluster's panel")
        image = page.screenshot()
        keep(image, "viewer-two-outputs.png")
        g = page.evaluate("window.presentdViewer.geometry('cluster')")
        f = gauge["frame"]
        for x, y in [(f["x"] + 6, f["y"] + 6), (f["x"] + f["width"] - 6, f["y"] + f["height"] - 6)]:
            spot = (round(g["left"] + x * g["zoom"]), round(g["top"] + y * g["zoom"]))
            assert close(image.getpixel(spot), MAGENTA), (x, y, image.getpixel(spot))
        # Each panel's modality is its own: the sheet on main leaves cluster's presenter alone.
        assert page.evaluate("[...document.querySelectorAll('.presenter')].map((p) => p.inert)") == [True, True]
        # A tap on cluster's screen goes to cluster: on its dimming, it dismisses gauge.
        # (Beside the popup, halfway down: the screen's rounded corners take no clicks.)
        page.click(g["left"] + 12 * g["zoom"], g["top"] + 120 * g["zoom"])
        gone = owner.wait_for("willDismiss of gauge", lifecycle("willDismiss", "gauge"))["params"]
        assert (gone["reason"], gone.get("output")) == ("tap", "cluster")
        owner.call("advance", {"seconds": 1})
        page.wait_for(f"!{query(dialog('gauge'))} && !window.presentdViewer.output('cluster').layers.length",
                      what="gauge gone from cluster's panel")
        assert page.evaluate(f"{query(dialog('sheet'))} !== null"), "the sheet on main went too"
        # A page opened now finds both outputs in its snapshot.
        owner.call("present", {"id": "speed", "style": "popup", "content": "#ff00ff", "output": "cluster"})
        owner.call("advance", {"seconds": 1})
        page.open(f"http://127.0.0.1:{bridge}/")
        page.wait_for("window.presentdViewer && window.presentdViewer.ready", what="a second page subscribed")
        page.wait_for(in_panel("cluster", "speed") + " && " + in_panel("main", "sheet"),
                      what="the second page drew speed in cluster's panel and sheet in main's")
        owner.call("removeOutput", {"name": "cluster"})
        page.wait_for(f"{query('.output[data-output=cluster]')} === null && !{query(dialog('speed'))}",
                      what="cluster's panel gone with its output")
        assert page.evaluate("window.presentdViewer.failures") == []


# MARK: - Interpolate mode: the page computes every layer from the animations topic


def difference(a, b) -> float:
    """The largest difference in any number between two JSON values; infinity when they
    differ in anything else."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return float("inf")
        return max((difference(a[k], b[k]) for k in a), default=0.0)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return float("inf")
        return max((difference(x, y) for x, y in zip(a, b)), default=0.0)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(a - b)
    return 0.0 if a == b else float("inf")


class Interpolation:
    """What the Owner connection (subscribed to frames and animations) received, checked
    against the page: every frame against the page's arithmetic on the payload received
    before it, and the frames after the newest payload against the page's own last payload."""

    def __init__(self, owner: Owner, page):
        self.owner, self.page = owner, page
        self.payload = None     # the last animations payload the owner received
        self.frames = 0
        self.worst = 0.0

    def check(self, times: tuple[float, ...] = ()) -> list[dict]:
        """Takes what the owner received since the last check; returns its frames. `times`:
        more instants (inside the current payload's span) at which the page's layers must
        equal the same arithmetic in Python's reach: its own evaluate of the owner's copy."""
        self.owner.call("sync", {"nonce": 1})
        received, self.owner.notifications = self.owner.notifications, []
        frames, latest = [], []
        for n in received:
            if n.get("method") == "animations":
                self.payload, latest = n["params"], []
            elif n.get("method") == "frame":
                p = n["params"]
                assert self.payload is not None, "a frame before any animations payload"
                computed = self.page.evaluate(f"window.presentdViewer.evaluate({json.dumps(self.payload)}, {p['time']!r})")
                gap = difference(computed, p["layers"])
                assert gap <= 1e-6, (p["time"], gap, computed, p["layers"])
                self.worst = max(self.worst, gap)
                self.frames += 1
                frames.append(p)
                latest.append(p)
        # The page's own copy: the same payload, and the same layers at the frames' times.
        seq = self.payload["seq"]
        self.page.wait_for(f"(window.presentdViewer.animations || {{}}).seq === {seq}",
                           what=f"the page received animations payload {seq}")
        for p in latest:
            mine = self.page.evaluate(f"window.presentdViewer.layersAt({p['time']!r})")
            gap = difference(mine, p["layers"])
            assert gap <= 1e-6, ("the page's own payload", p["time"], gap, mine, p["layers"])
        for t in times:
            mine = self.page.evaluate(f"window.presentdViewer.layersAt({t!r})")
            theirs = self.page.evaluate(f"window.presentdViewer.evaluate({json.dumps(self.payload)}, {t!r})")
            assert difference(mine, theirs) == 0, (t, mine, theirs)
        return frames


def assert_rect_drawn(image, geometry: dict, r: dict, container: dict) -> None:
    """Magenta near the corners and edges of rect r (in points), not just outside it."""
    z, left, top = geometry["zoom"], geometry["left"], geometry["top"]
    x0, x1 = left + r["x"] * z, left + (r["x"] + r["width"]) * z
    y0, y1 = top + max(0, r["y"]) * z, top + min(container["height"], r["y"] + r["height"]) * z
    assert y1 - y0 > 12 and x1 - x0 > 12, "the layer is not on screen"
    for x, y in [(x0 + 4, y0 + 6), (x1 - 5, y0 + 6), (x0 + 4, y1 - 5), (x1 - 5, y1 - 5), (x0 + 4, (y0 + y1) / 2)]:
        assert close(image.getpixel((round(x), round(y))), MAGENTA), (x, y, image.getpixel((round(x), round(y))))
    for x, y in [(x0 - 4, (y0 + y1) / 2), (x1 + 4, (y0 + y1) / 2), ((x0 + x1) / 2, y0 - 4)]:
        if top < y < top + container["height"] * z:
            assert not close(image.getpixel((round(x), round(y))), MAGENTA), (x, y)


@needs_chromium
def test_interpolate_mode_draws_every_layer_from_the_animations_topic(bridge, manual, browser):
    browser.open(f"http://127.0.0.1:{bridge}/?mode=interpolate")
    browser.wait_for("window.presentdViewer && window.presentdViewer.ready", what="the viewer in interpolate mode")
    assert browser.evaluate("window.presentdViewer.mode") == "interpolate"
    assert browser.evaluate("document.getElementById('interpolate').checked") is True
    # The curves, at the worked example's point (docs/PROTOCOL.md, "animations topic").
    assert browser.evaluate("window.presentdViewer.timingProgress('easeInEaseOut', 0.25, 0.4)") == 0.7072291976232149
    with Owner(manual.path) as owner:
        owner.call("subscribe", {"topics": ["frames", "animations"]})
        check = Interpolation(owner, browser)
        owner.call("present", {"id": "probe", "style": "popup", "content": "#ff00ff",
                               "transition": {"type": "coverVertical", "duration": 0.4, "timing": "easeInEaseOut"}})
        owner.call("advance", {"seconds": 0.15})
        assert [f["time"] for f in check.check(times=(0.05, 0.125))] == [0.1]
        # Rotated mid-transition: the motion is retargeted (a second segment), and keeps its end.
        owner.call("setContainer", {"width": 844, "height": 390, "duration": 0.3})
        owner.call("advance", {"seconds": 0.1})
        assert [f["time"] for f in check.check(times=(0.175,))] == [0.2]
        assert len(check.payload["layers"][1]["segments"]) == 2
        owner.call("advance", {"seconds": 0.6})
        frames = check.check()
        assert frames[-1]["animating"] is False
        rest = owner.call("stack")["entries"][0]["frame"]
        # The page drew it at rest, where the stack says, in the rotated container.
        browser.wait_for(at_rest("probe"), what="the page drew probe at rest")
        browser.wait_for("window.presentdViewer.container.width === 844", what="the page laid out the rotated screen")
        assert browser.evaluate("window.presentdViewer.layers.find((l) => l.role === 'content').frame") == rest
        browser.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        image = browser.screenshot()
        keep(image, "viewer-interpolated-at-rest.png")
        assert_rect_drawn(image, browser.evaluate("window.presentdViewer.geometry()"), rest,
                          browser.evaluate("window.presentdViewer.container"))
        # A spring dismissal, rotated back while it runs.
        owner.call("dismiss", {"id": "probe", "transition": {"timing": {"spring": {"duration": 0.5, "dampingRatio": 0.6}}}})
        owner.call("advance", {"seconds": 0.1})
        check.check()
        owner.call("setContainer", {"width": 390, "height": 844, "duration": 0.3})
        owner.call("advance", {"seconds": 1})
        check.check()
        assert check.payload["layers"] == []
        browser.wait_for("window.presentdViewer.layers.length === 0", what="the page drew the entry gone")
        assert check.frames >= 8, check.frames
        print(f"interpolate mode: {check.frames} frames computed by the page, worst difference {check.worst}")
        # It never drew a frame notification: it is not subscribed to them.
        assert browser.evaluate("window.presentdViewer.seq") == 0
        assert browser.evaluate("window.presentdViewer.failures") == []


@needs_chromium
def test_interpolate_mode_on_the_real_clock_knows_the_daemons_time(real_bridge, daemon, browser):
    """On the monotonic clock the page draws at performance.now() plus the offset it measured
    with hello: within a round trip of the daemon's own time."""
    browser.open(f"http://127.0.0.1:{real_bridge}/?mode=interpolate")
    browser.wait_for("window.presentdViewer && window.presentdViewer.ready", what="the viewer in interpolate mode")
    with Owner(daemon.path) as owner:
        for _ in range(3):
            before = owner.call("hello", {"protocol": 1})["time"]
            page = browser.evaluate("window.presentdViewer.daemonTime()")
            after = owner.call("hello", {"protocol": 1})["time"]
            # The page's estimate is good to half its round trip to the daemon (through the
            # bridge): a quarter of a second either side leaves room for a loaded machine.
            assert before - 0.25 <= page <= after + 0.25, (before, page, after)
        owner.call("present", {"id": "live", "style": "alert", "content": "#ff00ff",
                               "transition": {"type": "zoom", "duration": 0.3}})
        browser.wait_for(at_rest("live"), what="the page drew live at rest, on the real clock")
        assert browser.evaluate("window.presentdViewer.seq") == 0
