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

from presentd.daemon import wait_until

BINARIES = ("chromium", "chromium-browser", "google-chrome")


def find() -> str | None:
    return os.environ.get("CHROMIUM") or next((p for b in BINARIES if (p := shutil.which(b))), None)


class ProtocolError(RuntimeError):
    """An error answer to a DevTools command (not an exception thrown by the page's script)."""


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
        # Its stderr, for the failure messages (outside the profile, which it owns).
        self._log = tempfile.NamedTemporaryFile(prefix="presentd-chromium-", suffix=".log")
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
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._log, pass_fds=(r, w))
        os.close(r)
        os.close(w)
        self._buffer = b""
        self._next_id = 0
        self.session: str | None = None

    def close(self) -> None:
        try:
            self.send("Browser.close", session=False, timeout=30)
        except (OSError, TimeoutError, RuntimeError):
            pass  # already gone
        try:
            self.process.wait(30)  # a loaded machine can take seconds to shut a browser down
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        finally:
            os.close(self._to_browser)
            os.close(self._from_browser)
            self._log.close()
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # MARK: Protocol

    def state(self) -> str:
        """Whether chromium still runs, and the end of what it wrote: for failure messages."""
        status = "running" if self.process.poll() is None else f"exited with {self.process.returncode}"
        with open(self._log.name, "rb") as f:
            tail = f.read()[-3000:].decode(errors="replace")
        return f"chromium (pid {self.process.pid}) is {status}; the end of its stderr:\n{tail}"

    # A cold start on a loaded machine (the first command waits for it) can take many seconds.
    def send(self, method: str, params: dict | None = None, *, session: bool = True, timeout: float = 60) -> dict:
        self._next_id += 1
        message: dict = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline, method)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise ProtocolError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _read(self, deadline: float, method: str) -> dict:
        import select
        while b"\0" not in self._buffer:
            wait = deadline - time.monotonic()
            if wait <= 0 or not select.select([self._from_browser], [], [], wait)[0]:
                raise TimeoutError(f"chromium did not answer {method} in time; {self.state()}")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise ConnectionError(f"chromium closed its pipe during {method}; {self.state()}")
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

    def wait_for(self, expression: str, timeout: float = 60, what: str | None = None) -> Any:
        """Until the page's state makes ``expression`` true. While the page is still loading
        the evaluation can fail (its context replaced by the new document's): that is "not
        yet" too. Generous: a page load on a loaded machine can take many seconds. ``what``
        names the condition in the failure (else the expression does)."""
        def page() -> str:
            try:
                where = self.evaluate("location.href + ' (' + document.readyState + ')'")
            except (RuntimeError, TimeoutError, OSError) as error:
                where = f"unknown ({error})"
            return f"the page: {where}; {self.state()}"

        return wait_until(lambda: self.evaluate(expression), what or f"the page to make this true: {expression}",
                          timeout=timeout, context=page, retry_on=(ProtocolError,), interval=0.02)

    def screenshot(self):
        from PIL import Image
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")

    def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def drag(self, points: list[tuple[float, float]]) -> None:
        """A real mouse drag: pressed at the first point, moved with the button held through
        the others, released at the last."""
        (x, y), *rest = points
        left = {"button": "left", "clickCount": 1}
        self.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "buttons": 1, **left})
        for x, y in rest:
            self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y, "buttons": 1, **left})
        self.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x, "y": y, "buttons": 0, **left})

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
