"""One desktop under test, for reading what reaches the glass: the real presentd on the manual
clock (nothing expires unless the test advances it), a headless sway, presentd-wayland, and
for notifications a private session bus with presentd-notify on it. test_corpus.py keeps one
per module; screenshot.py takes the README's pictures with it.

What is drawn is read back by grim and tesseract: ``settle`` brings every entry to rest and
shoots until two shots agree, ``read`` crops one entry's frame and OCRs it. The checks on the
text (``words``, ``found``, ``ellipsised``) live here too, so each rule is written once."""

from __future__ import annotations

import html
import importlib.util
import os
import re
import subprocess
import tempfile
from difflib import SequenceMatcher
from pathlib import Path

from presentd import Client
from presentd.daemon import Daemon, find_binary, wait_until

from conftest import Renderer, Sway, drawn_at_rest, pixel

_NOTIFY_TESTS = Path(__file__).resolve().parents[2] / "notify/tests/conftest.py"


def _notify_harness():
    """The notify suite's bus, observer and bridge (Clients/notify/tests/conftest.py), loaded
    under its own name: both suites call their fixtures module ``conftest``."""
    spec = importlib.util.spec_from_file_location("notify_harness", _NOTIFY_TESTS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Glass:
    """presentd (manual clock), sway at width×height and `scale`, the renderer; with
    ``notifications`` also a bus and the bridge. A ``with`` stops them all."""

    def __init__(self, width: int = 1920, height: int = 1080, scale: int = 1, notifications: bool = False,
                 wallpaper: str | None = None, pictures: str | None = None):
        self.pictures = pictures  # where read() keeps its crops (default: sway's directory, gone with it)
        self.width, self.height, self.scale = width, height, scale
        self._started: list = []
        self.daemon = self._keep(Daemon(clock="manual", fps=10))
        self.sway = self._keep(Sway(width=width, height=height, scale=scale))
        if wallpaper:
            self.sway.msg("output", "HEADLESS-1", "bg", wallpaper, "fill")
        self.renderer = Renderer(self.sway, self.daemon.path)
        self._started.append(self.renderer)
        self.client = Client(self.daemon.path)
        self.client.hello("glass")
        self._started.append(self.client)
        want = (width / scale, height / scale, scale)
        wait_until(lambda: self.container("main")[:3] == want,
                   f"presentd's main screen to be the output, {want[0]:g}x{want[1]:g} at scale {scale}",
                   timeout=60, context=self.renderer.context)
        self.bridge = self.observer = None
        if notifications:
            harness = _notify_harness()
            self.bus = harness.Bus()
            self._started.append(self.bus)
            self.observer = harness.Observer(self.bus.address)
            runtime = Path(tempfile.mkdtemp(prefix="presentd-glass-"))
            os.chmod(runtime, 0o700)
            self.bridge = harness.start_bridge(self.bus, self.daemon, runtime, self.observer)
            self._started.append(self.bridge)

    def _keep(self, thing):
        self._started.append(thing)
        return thing

    def __enter__(self) -> "Glass":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        for thing in reversed(self._started):
            (thing.close if isinstance(thing, Client) else thing.stop)()
        self._started.clear()

    # -- presentd's side ----------------------------------------------------------------

    def container(self, output: str = "main") -> tuple:
        screen = next((s for s in self.client.call("outputs")["outputs"] if s["name"] == output), None)
        c = screen and screen["container"]
        return (c["width"], c["height"], c["scale"], c.get("layoutDirection")) if c else ()

    def set_direction(self, direction: str) -> None:
        w, h, scale, _ = self.container()
        self.client.call("setContainer", {"width": w, "height": h, "layoutDirection": direction, "duration": 0})
        wait_until(lambda: self.container()[3] == direction, f"main's layoutDirection to be {direction}")

    def entries(self) -> dict[str, dict]:
        """presentd's entries on main, by id (raw JSON: frame, content, state)."""
        return {e["id"]: e for e in self.client.call("stack")["entries"]}

    def presentctl(self, *args: str) -> subprocess.Popen:
        """presentctl on this daemon, left running (a --wait or a toast's holder)."""
        return subprocess.Popen([find_binary("presentctl"), "--socket", self.daemon.path, *args],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def notify(self, app: str, replaces: int, icon: str, summary: str, body: str, actions: list[str],
               hints: dict, timeout: int) -> int:
        """Notify on the bus, with the exact types a client sends; the D-Bus id."""
        return self.observer.notify(summary, body, app=app, replaces=replaces, icon=icon, actions=actions,
                                    hints=hints, timeout=timeout)

    def close_all(self) -> None:
        """Every entry dismissed (notifications by CloseNotification), and gone."""
        for id in list(self.entries()):
            if self.bridge and id.startswith("notify."):
                self.observer.close(int(id.rsplit(".", 1)[1]))
            else:
                self.client.call("dismiss", {"id": id})

        def empty():
            if self.entries():
                self.client.call("advance", {"seconds": 0.25})
                return False
            return True
        wait_until(empty, "every entry gone from presentd's stack",
                   context=lambda: f"stack: {list(self.entries())}")

    def settle(self, count: int):
        """Waits for `count` entries on main, advances the clock until all are presented, and
        shoots until the picture holds still with each card drawn at its frame, edge to edge
        (conftest.drawn_at_rest). Returns (entries by id, the picture)."""
        def presented():
            entries = self.entries()
            if len(entries) < count or any(e["state"] != "presented" or not Renderer.measured(e) for e in entries.values()):
                self.client.call("advance", {"seconds": 0.1})
                return None
            return entries
        wait_until(presented, f"{count} entries on main, all presented and measured",
                   context=lambda: f"stack: {self.entries()}\n{self.renderer.context()}")
        _, shot = drawn_at_rest(self.client, self.sway, self.scale,
                                lambda: {id: e["frame"] for id, e in self.entries().items()},
                                f"the picture at rest with all {count} cards at their frames",
                                context=lambda: f"stack: {self.entries()}\n{self.renderer.context()}", timeout=30)
        return self.entries(), shot

    def crop(self, shot, frame: dict):
        s = self.scale
        return shot.crop(tuple(pixel(v, s) for v in (frame["x"], frame["y"], frame["x"] + frame["width"],
                                                      frame["y"] + frame["height"])))

    def read(self, shot, frame: dict, name: str) -> "Reading":
        """tesseract on the frame's crop (kept as `name`.png, for a failure to point at)."""
        path = os.path.join(self.pictures or self.sway.dir, f"{name}.png")
        self.crop(shot, frame).save(path)
        return ocr(path, self.scale)


class Reading:
    """What tesseract read in a crop: the text, and each word with its box (in points)."""

    def __init__(self, text: str, boxes: list[tuple[str, float, float, float, float]], path: str):
        self.text, self.boxes, self.path = text, boxes, path
        self.tokens = [t for t in (norm(w) for w in text.split()) if t]

    def top_of(self, word: str) -> float | None:
        """Where the topmost word matching `word` begins, in points from the crop's top (the
        title, where a button below has the same word)."""
        tops = [y for w, x, y, _, _ in self.boxes if close(norm(word), norm(w))]
        return min(tops) if tops else None

    def __repr__(self) -> str:
        return f"OCR of {self.path}: {self.text!r}"


def ocr(path: str, scale: float) -> Reading:
    """tesseract on the crop, twice, and what either read. First as it is, in grey, enlarged
    to 2 pixels a point (its glyphs, 9 to 17 pt, are small for it). Then made plain ink on
    paper: every pixel that differs from its neighbourhood's median (the background: the
    card, a button's fill) by more than 50 levels is ink. Read as it is, tesseract misses
    light text on a coloured button; made ink, it hollows bold strokes and misreads them
    now and then ("Frelio"): each pass reads what the other misses. Sparse text (--psm 11):
    a card is a few separate lines, and buttons side by side."""
    from PIL import Image, ImageChops, ImageFilter, ImageOps
    image = ImageOps.grayscale(Image.open(path).convert("RGB"))
    factor = max(1, round(2 / scale))
    if factor > 1:
        image = image.resize((image.width * factor, image.height * factor), Image.LANCZOS)
    background = image.filter(ImageFilter.MedianFilter(21))
    ink = ImageChops.difference(image, background).point(lambda v: 0 if v > 50 else 255)
    texts, boxes = [], []
    for suffix, picture in (("grey", image), ("ink", ink)):
        readable = f"{path[:-4]}-{suffix}.png"
        picture.save(readable)
        text, found_boxes = _tesseract(readable, factor * scale)
        texts.append(text)
        boxes += found_boxes
    return Reading("\n".join(texts), boxes, path)


def _tesseract(path: str, pixels_per_point: float) -> tuple[str, list]:
    """tesseract's words in `path`: the text, a line a line, and each word's box in points."""
    out = subprocess.run(["tesseract", path, "-", "--psm", "11", "tsv"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, f"tesseract failed on {path}: {out.stderr}"
    boxes, lines, current = [], [], None
    for row in out.stdout.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or not cols[11].strip():
            continue
        line = tuple(cols[2:5])  # block, paragraph, line
        if line != current:
            lines.append([])
            current = line
        lines[-1].append(cols[11])
        k = pixels_per_point
        boxes.append((cols[11], int(cols[6]) / k, int(cols[7]) / k, int(cols[8]) / k, int(cols[9]) / k))
    return "\n".join(" ".join(words) for words in lines), boxes


# -- text rules ---------------------------------------------------------------------------

def plain(body: str) -> str:
    """A body's markup as the person reads it: tags gone, <br> a line break, entities decoded
    (the spec's b, i, u, a, img)."""
    text = re.sub(r"<br\s*/?>", "\n", body)
    text = re.sub(r"<[^>]*>", "", text)
    return html.unescape(text)


def norm(word: str) -> str:
    """A word compared: case folded, punctuation at its ends dropped."""
    return re.sub(r"^\W+|\W+$", "", word.casefold())


def words(text: str) -> list[str]:
    """The words of `text` an OCR can be asked for: those with a letter or digit in them."""
    return [w for w in (norm(t) for t in text.split()) if re.search(r"\w", w)]


def close(want: str, got: str) -> bool:
    """The same word, to an OCR's error: exact for short words, else 85 % alike (a glyph or
    two misread: 0 for O, rn for m)."""
    if want == got:
        return True
    return len(want) >= 5 and SequenceMatcher(None, want, got).ratio() >= 0.85


def found(word: str, reading: Reading) -> bool:
    """Whether `word` is read in the crop, as a token or inside one (a word glued to its
    neighbour's punctuation, as "report.pdf" read as "report. pdf")."""
    w = norm(word)
    joined = "".join(reading.tokens)
    return any(close(w, t) for t in reading.tokens) or (len(w) >= 3 and w in joined)


# An ellipsis as tesseract reads pango's "…" in DejaVu Sans: "…", or two or three dots
# (spaced or not), or a cut word ending in one dot ("w." for "word30"). The last only counts
# where the source has no such word with a full stop.
_DOTS = re.compile(r"…|\.\s?\.")


def ellipsised(reading: Reading, source: str) -> bool:
    """Whether the drawn text shows it was cut: an ellipsis as OCR reads one (see _DOTS)."""
    if _DOTS.search(reading.text):
        return True
    sources = [norm(w) for w in source.split()]
    for token in reading.text.split():
        if token.endswith(".") and token not in source:
            stem = norm(token)
            if stem and any(s.startswith(stem) and s != stem for s in sources):
                return True
    return False


def inside(frame: dict, width: float, height: float) -> bool:
    return (frame["x"] >= 0 and frame["y"] >= 0 and frame["x"] + frame["width"] <= width
            and frame["y"] + frame["height"] <= height)


def overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def text_problems(what: str, text: str, reading: Reading, first: int = 3) -> list[str]:
    """The rule for one text (a title, a message): its first words are read, and it is drawn
    whole (nine words in ten read, for OCR's sake) or ends in an ellipsis. [] when it holds."""
    ws = words(text)
    if not ws:
        return []
    read = sum(found(w, reading) for w in ws)
    if read == 0:
        return [f"{what}: not drawn at all ({len(ws)} words)"]
    problems = []
    missing_first = [w for w in ws[:first] if not found(w, reading)]
    if missing_first:
        problems.append(f"{what}: its first words {ws[:first]} are not all drawn (missing {missing_first})")
    if read < 0.9 * len(ws) and not ellipsised(reading, text):
        problems.append(f"{what}: {read} of {len(ws)} words drawn and no ellipsis: cut silently")
    return problems
