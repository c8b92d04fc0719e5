"""The README's pictures, on a headless sway with a wallpaper, at scale 2, by grim:

    PRESENTD=… PRESENTCTL=… python3 Clients/wayland/tests/screenshot.py docs/images/wayland-alert.png
    PRESENTD=… PRESENTCTL=… python3 Clients/wayland/tests/screenshot.py --sheet docs/images/wayland-sheet.png
    PRESENTD=… PRESENTCTL=… python3 Clients/wayland/tests/screenshot.py --notification docs/images/wayland-notification.png
    PRESENTD=… PRESENTCTL=… python3 Clients/wayland/tests/screenshot.py --toast docs/images/wayland-toast.png

presentctl's alert (the default), a two-detent sheet with a grabber, a notification with an
icon, a body and two actions sent through presentd-notify on a private bus (a real one:
corpus.py's calendar reminder), and a toast. The alert and the sheet are the whole screen;
the notification and the toast, overlays in a corner of it, are cut to their frames and
24 pt around. The same desktop as the tests (glass.py), with --scale 1 for a picture at 1x.
PRESENTD_WAYLAND and PRESENTD_NOTIFY choose other builds (a before picture)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../python/src"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../Tests/kit"))

from corpus import CORPUS, variants  # noqa: E402
from glass import Glass  # noqa: E402


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


ALERT = ["present", "--title", "Delete file?", "--message", "It cannot be undone",
         "--action", "ok:Delete:destructive", "--action", "no:Cancel:cancel", "--wait"]
SHEET = ["present", "--title", "Share", "--message", "Send this photo to your contacts", "--detents", "medium,large",
         "--grabber", "--action", "ok:Send:default", "--action", "no:Cancel:cancel", "--wait"]
TOAST = ["toast", "Saved to ~/Documents/report.pdf", "--after", "600"]
# The notification's picture: a reminder with an icon, two lines of body and two buttons.
NOTIFICATION = next(n for n in CORPUS if n["name"] == "evolution-reminder")
MODES = {"--alert": ALERT, "--sheet": SHEET, "--toast": TOAST, "--notification": NOTIFICATION}
CUT = {"--toast", "--notification"}  # cut to the frames (and MARGIN around)
MARGIN = 24


def shoot(out: str, mode: str = "--alert", scale: int = 2) -> None:
    width, height = 800 * scale, 500 * scale
    directory = tempfile.mkdtemp(prefix="presentd-screenshot-")
    try:
        picture = os.path.join(directory, "wallpaper.png")
        wallpaper(picture, width, height)
        os.chmod(directory, 0o755)
        os.chmod(picture, 0o644)
        with Glass(width, height, scale, notifications=mode == "--notification", wallpaper=picture) as glass:
            what = MODES[mode]
            ctl = None
            if isinstance(what, dict):
                glass.notify(what["app"], 0, what["icon"], what["summary"], what["body"], what["actions"],
                             variants(what["hints"]), what["timeout"])
            else:
                ctl = glass.presentctl(*what)
            try:
                entries, shot = glass.settle(1)
            finally:
                if ctl:
                    ctl.terminate()
                    ctl.wait(30)
            if mode in CUT:
                frames = [e["frame"] for e in entries.values()]
                box = {"x": max(0, min(f["x"] for f in frames) - MARGIN),
                       "y": max(0, min(f["y"] for f in frames) - MARGIN)}
                box["width"] = min(width / scale, max(f["x"] + f["width"] for f in frames) + MARGIN) - box["x"]
                box["height"] = min(height / scale, max(f["y"] + f["height"] for f in frames) + MARGIN) - box["y"]
                shot = glass.crop(shot, box)
            shot.save(out)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    scale = 2
    if "--scale" in args:
        i = args.index("--scale")
        scale = int(args[i + 1])
        del args[i:i + 2]
    modes = [a for a in args if a in MODES]
    paths = [a for a in args if a not in MODES]
    if len(paths) != 1 or len(modes) > 1:
        sys.exit(f"usage: screenshot.py [{' | '.join(MODES)}] [--scale N] OUT.png")
    shoot(paths[0], modes[0] if modes else "--alert", scale)
