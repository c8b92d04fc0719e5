"""The README's pictures: presentctl's alert, or with --sheet a two-detent sheet with a
grabber, on a headless sway with a wallpaper, by grim.

    PRESENTD=… PRESENTCTL=… python3 Clients/wayland/tests/screenshot.py docs/images/wayland-alert.png
    PRESENTD=… PRESENTCTL=… python3 Clients/wayland/tests/screenshot.py --sheet docs/images/wayland-sheet.png

The same sway, renderer and command as the tests (conftest.py), at scale 2."""

from __future__ import annotations

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../python/src"))

from conftest import Renderer, Sway  # noqa: E402
from presentd import Client  # noqa: E402
from presentd.daemon import Daemon, find_binary, wait_until  # noqa: E402


def wallpaper(path: str, width: int, height: int) -> None:
    """A quiet diagonal gradient, as a desktop's default background."""
    from PIL import Image
    image = Image.new("RGB", (width, height))
    top, bottom = (46, 84, 140), (120, 70, 130)
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            k = (x / width + y / height) / 2
            pixels[x, y] = tuple(round(a + (b - a) * k) for a, b in zip(top, bottom))
    image.save(path)


ALERT = ["--title", "Delete file?", "--message", "It cannot be undone",
         "--action", "ok:Delete:destructive", "--action", "no:Cancel:cancel"]
SHEET = ["--title", "Share", "--message", "Send this photo to your contacts", "--detents", "medium,large",
         "--grabber", "--action", "ok:Send:default", "--action", "no:Cancel:cancel"]


def main(out: str, what: list[str]) -> None:
    with Daemon() as daemon, Sway(width=1600, height=1000, scale=2) as sway:
        picture = os.path.join(sway.dir, "wallpaper.png")
        wallpaper(picture, 1600, 1000)
        os.chmod(picture, 0o644)
        sway.msg("output", "HEADLESS-1", "bg", picture, "fill")
        renderer = Renderer(sway, daemon.path)
        try:
            with Client(daemon.path) as client:
                wait_until(lambda: client.call("outputs")["outputs"][0]["container"]["width"] == 800,
                           "presentd's main screen to be the output", context=renderer.context)
            ctl = subprocess.Popen([find_binary("presentctl"), "--socket", daemon.path, "present", *what, "--wait"])
            with Client(daemon.path) as client:
                wait_until(lambda: any(e["state"] == "presented" for e in client.call("stack")["entries"]),
                           "the presentation to be presented")
            # Presented in the stack is not yet at rest on the glass: the resting frame may
            # still be on its way through the renderer. Shoot until two shots agree.
            previous, deadline = None, time.monotonic() + 30
            while True:
                subprocess.run(["grim", "-o", "HEADLESS-1", out], env=sway.env, check=True)
                with open(out, "rb") as f:
                    shot = f.read()
                if shot == previous:
                    break
                if time.monotonic() > deadline:
                    sys.exit("screenshot: the picture did not come to rest within 30 s")
                previous = shot
                time.sleep(0.1)
            ctl.terminate()
            ctl.wait()
        finally:
            renderer.stop()


if __name__ == "__main__":
    sheet = "--sheet" in sys.argv[1:]
    main([a for a in sys.argv[1:] if a != "--sheet"][0], SHEET if sheet else ALERT)
