"""The browser viewer and its bridge (`python -m presentd.web`), against the real daemon.

The bridge is checked at the byte level; the page in headless Chromium: screenshots taken
mid-transition and after it must show the presented layer where the frame stream says.
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
    env = {**os.environ, "PYTHONPATH": str(Path(presentd.__file__).parents[1])}
    process = subprocess.Popen([sys.executable, "-m", "presentd.web", "--socket", manual.path, "--port", "0"],
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
