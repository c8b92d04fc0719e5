"""Headless Chromium driven over the DevTools protocol through a pipe
(--remote-debugging-pipe: commands on fd 3, answers on fd 4, NUL-terminated JSON),
so no port and no WebSocket client are needed."""

from __future__ import annotations

import base64
import fcntl
import io
import json
import os
import shutil
import subprocess
import tempfile
import time
from typing import Any

BINARIES = ("chromium", "chromium-browser", "google-chrome")


def find() -> str | None:
    return os.environ.get("CHROMIUM") or next((p for b in BINARIES if (p := shutil.which(b))), None)


def _above_4(fd: int) -> int:
    """The same pipe end on a descriptor above 4, so the shell's redirections cannot clash."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


class Browser:
    def __init__(self, width: int = 1200, height: int = 1000):
        binary = find()
        if binary is None:
            raise FileNotFoundError("no chromium (Debian: apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="presentd-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Chromium reads commands on fd 3 and writes answers on fd 4: bash puts the
        # pipes there, whatever numbers they have here.
        r, w = (_above_4(fd) for fd in (to_browser_r, from_browser_w))
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
                "--no-default-browser-check", "--hide-scrollbars", "--force-device-scale-factor=1",
                f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank"]
        self.process = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{r} 4>&{w} {r}<&- {w}>&-', binary, *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(r, w))
        os.close(r)
        os.close(w)
        self._buffer = b""
        self._next_id = 0
        self.session: str | None = None

    def close(self) -> None:
        try:
            self.send("Browser.close", session=False, timeout=5)
        except (OSError, TimeoutError, RuntimeError):
            pass  # already gone
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        finally:
            os.close(self._to_browser)
            os.close(self._from_browser)
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # MARK: Protocol

    def send(self, method: str, params: dict | None = None, *, session: bool = True, timeout: float = 20) -> dict:
        self._next_id += 1
        message: dict = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _read(self, deadline: float) -> dict:
        import select
        while b"\0" not in self._buffer:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([self._from_browser], [], [], wait)[0]:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise ConnectionError("chromium exited")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    # MARK: Pages

    def open(self, url: str) -> None:
        target = self.send("Target.createTarget", {"url": url}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30, what: str | None = None) -> Any:
        """The expression's value once it is truthy (polled); TimeoutError naming `what` (else
        the expression) when it is not within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.02)
        raise TimeoutError(f"not within {timeout:g} s: {what or expression}" + (f" ({expression})" if what else ""))

    def screenshot(self):
        from PIL import Image
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")

    def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def click_on(self, selector: str) -> None:
        """A real mouse click in the middle of the element `selector` names (it must be drawn)."""
        box = self.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                            ".getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        self.click(*box)

    def type(self, text: str) -> None:
        """Text into the focused element, as an input method would commit it."""
        self.send("Input.insertText", {"text": text})

    KEYS = {"Escape": ("Escape", 27, None), "Enter": ("Enter", 13, "\r"), "Tab": ("Tab", 9, None)}

    def press(self, key: str) -> None:
        """One key down and up, delivered to the focused element (Escape, Enter, Tab)."""
        code, keycode, text = self.KEYS[key]
        down = {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": keycode}
        if text:
            down.update(text=text, unmodifiedText=text)
        self.send("Input.dispatchKeyEvent", down)
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": keycode})
