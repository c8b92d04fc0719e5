"""Records a transition, frame by frame, for a review:

    python -m presentd.record --style alert --transition zoom --timing easeOut --dismiss --out review/alert

writes ``review/alert.gif`` (the animation), ``review/alert-sheet.png`` (a contact sheet:
one cell per frame with its time), ``review/alert-timing.png`` (progress against time of
the timing curve used) and ``review/alert-frames.json`` (the frames as the daemon sent them).

It starts its own presentd on the manual clock (``--clock manual``) and moves time with
``advance``, so every frame is exactly the one a renderer would get at that tick, and the
same arguments always give the same files. Drawing needs Pillow (Debian: python3-pil).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .client import Client
from .daemon import Daemon
from .types import Animation, Container, Content, Contents, Frame, Layer, Lifecycle, StatusBarChange

#: Manual-clock seconds after which a transition that never settles is given up on.
MAX_SECONDS = 70.0
#: The rate of the reference curve on the timing plot.
CURVE_FPS = 240


@dataclass
class Shot:
    """What is on screen at ``time``: the layers and the status bar, shown for ``hold`` s,
    and what each entry shows (frames name only its revision; the content came in the
    snapshot and the lifecycle events)."""
    time: float
    seq: int
    layers: tuple[Layer, ...]
    status_bar: Mapping[str, Any]
    hold: float
    raw: Mapping[str, Any] = field(default_factory=dict)
    contents: Mapping[str, "str | Content | None"] = field(default_factory=dict)


@dataclass
class Recording:
    id: str
    container: Container
    fps: int
    shots: list[Shot]
    #: (phase, animation): the entry's willPresent / willDismiss animations, in order.
    animations: list[tuple[str, Animation]]


def record(presentation: Mapping[str, Any], *, fps: int = 30, binary: str | None = None,
           container: tuple[float, float] | None = None, dismiss: bool = False, hold: float = 0.5) -> Recording:
    """Presents on a private manual-clock daemon and keeps every frame until the entry is
    at rest (then, with ``dismiss``, after ``hold`` seconds, until it has left)."""
    step = 1 / fps
    with Daemon(binary, clock="manual", fps=fps, container=container) as daemon, Client(daemon.path) as c:
        sub = c.subscribe(["frames", "lifecycle", "statusBar"])
        status = dict(sub.snapshot.status_bar)
        contents = Contents(sub.snapshot)
        shots = [Shot(sub.snapshot.time, 0, sub.snapshot.layers, status, hold=0.4, contents=contents.as_dict())]
        animations: list[tuple[str, Animation]] = []
        id = c.present(dict(presentation)).id

        def run_until(final_event: str) -> None:
            nonlocal status
            done, moving, stepped, elapsed = False, True, False, 0.0
            while True:
                framed = False
                for e in _pending(c):
                    contents.see(e)
                    if isinstance(e, Frame):
                        shots.append(Shot(e.time, e.seq, e.layers, status, hold=step, raw=e.raw,
                                          contents=contents.as_dict()))
                        moving, framed = e.animating, True
                    elif isinstance(e, StatusBarChange):
                        status = {"style": e.style, "hidden": e.hidden}
                    elif isinstance(e, Lifecycle) and e.id == id:
                        if e.animation is not None:
                            animations.append((e.event, e.animation))
                        done = done or e.event == final_event
                if done and (not moving or (stepped and not framed)):
                    break
                if elapsed > MAX_SECONDS:
                    raise RuntimeError(f"{id} did not reach {final_event} within {MAX_SECONDS} s")
                c.advance(step)
                stepped, elapsed = True, elapsed + step
            if moving:
                # The motion ended between two ticks and no frame at rest followed: the
                # scene at rest is the one a new subscriber is given.
                snapshot = c.subscribe(["frames"]).snapshot
                shots.append(Shot(snapshot.time, shots[-1].seq, snapshot.layers, status, hold=step,
                                  raw={"layers": snapshot.raw["snapshot"]["layers"]},
                                  contents=Contents(snapshot).as_dict()))

        run_until("didPresent")
        if dismiss:
            shots[-1].hold = max(hold, step)
            c.advance(hold)
            c.dismiss(id)
            run_until("didDismiss")
        shots[-1].hold = 1.0
        return Recording(id, sub.snapshot.container, fps, shots, animations)


def _pending(c: Client) -> list:
    events = []
    while (e := c.next_event(timeout=0)) is not None:
        events.append(e)
    return events


# MARK: - Progress


def _animated_value(animation: Animation) -> tuple[str, float, float]:
    """The property that moves most in this animation, with its from and to values: the
    frame in points first, then scale, rotation, alpha, and the dimming last."""
    a, b = animation.from_state, animation.to_state
    candidates = [("x", a.frame.x, b.frame.x, 0.5), ("y", a.frame.y, b.frame.y, 0.5),
                  ("width", a.frame.width, b.frame.width, 0.5), ("height", a.frame.height, b.frame.height, 0.5),
                  ("scale", a.scale, b.scale, 1e-6), ("rotation", a.rotation, b.rotation, 1e-6),
                  ("alpha", a.alpha, b.alpha, 1e-6), ("dimming", a.dimming, b.dimming, 1e-6)]
    for name, start, end, eps in candidates:
        if abs(end - start) > eps:
            return name, start, end
    return "alpha", 0.0, 1.0


def _value(shot: Shot, id: str, name: str) -> float | None:
    role = "dimming" if name == "dimming" else "content"
    layer = next((l for l in shot.layers if l.id == id and l.role == role), None)
    if layer is None:
        return None
    if name in ("x", "y", "width", "height"):
        return getattr(layer.frame, name)
    return layer.alpha if name == "dimming" else getattr(layer, name)


def progress_series(recording: Recording, animation: Animation) -> list[tuple[float, float]]:
    """(seconds since the animation started, progress) for each frame inside it, read
    back from the frames: (value − from) / (to − from) of the property that moves most."""
    name, start, end = _animated_value(animation)
    series = [(0.0, 0.0)]
    for shot in recording.shots:
        t = shot.time - animation.start
        if t <= 1e-9 or t > animation.duration + 1e-9:
            continue
        v = _value(shot, recording.id, name)
        if v is not None:
            series.append((t, (v - start) / (end - start)))
    return series


def describe_timing(timing: Any) -> str:
    if isinstance(timing, str):
        return timing
    if isinstance(timing, dict) and "bezier" in timing:
        return "bezier(" + ", ".join(f"{v:g}" for v in timing["bezier"]) + ")"
    if isinstance(timing, dict) and "spring" in timing:
        s = timing["spring"]
        return f"spring(stiffness {s.get('stiffness', 0):.4g}, damping {s.get('damping', 0):.4g})"
    return json.dumps(timing)


# MARK: - Pictures


def _canvas(recording: Recording, scale: float):
    from .render import Canvas
    return Canvas(recording.container.width, recording.container.height, scale,
                  recording.container.safe_area.get("top", 0))


def frames_as_images(recording: Recording, scale: float) -> list:
    from .render import draw_frame
    canvas = _canvas(recording, scale)
    return [draw_frame(canvas, shot.layers, shot.status_bar, shot.contents) for shot in recording.shots]


def write_gif(images: Sequence, recording: Recording, path: str) -> None:
    durations = [max(20, round(shot.hold * 1000)) for shot in recording.shots]
    # One palette for every frame, made from all of them, keeps each colour steady.
    from PIL import Image
    w, h = images[0].size
    strip = Image.new("RGB", (w, h * len(images)))
    for i, im in enumerate(images):
        strip.paste(im, (0, i * h))
    palette = strip.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    frames = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False,
                   disposal=1)


def write_contact_sheet(images: Sequence, recording: Recording, path: str, columns: int = 6) -> None:
    from PIL import Image, ImageDraw
    from .render import font
    cell_w = min(160, images[0].width)
    thumb_h = round(images[0].height * cell_w / images[0].width)
    label_h, pad = 30, 8
    rows = (len(images) + columns - 1) // columns
    sheet = Image.new("RGB", (pad + columns * (cell_w + pad), pad + rows * (thumb_h + label_h + pad)), "#ffffff")
    d = ImageDraw.Draw(sheet)
    start = recording.shots[0].time
    for i, (image, shot) in enumerate(zip(images, recording.shots)):
        x = pad + (i % columns) * (cell_w + pad)
        y = pad + (i // columns) * (thumb_h + label_h + pad)
        sheet.paste(image.resize((cell_w, thumb_h), Image.LANCZOS), (x, y))
        d.rectangle([x - 1, y - 1, x + cell_w, y + thumb_h], outline="#c7c7cc")
        d.text((x, y + thumb_h + 4), f"t = {shot.time - start:.3f} s", fill="#1c1c1e", font=font(13))
        d.text((x, y + thumb_h + 17), f"frame {shot.seq}" if shot.seq else "before", fill="#8e8e93", font=font(10))
    sheet.save(path, optimize=True)


def write_timing_plot(curves: Sequence[tuple[str, list[tuple[float, float]], list[tuple[float, float]]]],
                      title: str, path: str) -> None:
    """Progress (vertical) against seconds (horizontal): per curve a line through the
    dense samples and a dot per recorded frame."""
    from PIL import Image, ImageDraw
    from .render import font
    W, H, left, right, bottom = 720, 460, 64, 24, 56
    top = 56 + 18 * len(curves)  # the title, then one legend line per curve
    points = [p for _, dense, dots in curves for p in dense + dots]
    t_max = max([t for t, _ in points] + [1e-3])
    p_min = min([0.0] + [p for _, p in points])
    p_max = max([1.0] + [p for _, p in points])
    image = Image.new("RGB", (W, H), "#ffffff")
    d = ImageDraw.Draw(image)

    def xy(t: float, p: float) -> tuple[float, float]:
        return (left + t / t_max * (W - left - right), top + (p_max - p) / (p_max - p_min) * (H - top - bottom))

    small = font(12)
    for k in range(5):  # progress grid
        p = k / 4
        y = xy(0, p)[1]
        d.line([left, y, W - right, y], fill="#e5e5ea")
        d.text((left - 8, y), f"{p:g}", fill="#3a3a3c", font=small, anchor="rm")
    tick = _nice_step(t_max / 6)
    t = 0.0
    while t <= t_max + 1e-9:
        x = xy(t, 0)[0]
        d.line([x, top, x, H - bottom], fill="#f2f2f7")
        d.text((x, H - bottom + 8), f"{t:g}", fill="#3a3a3c", font=small, anchor="mt")
        t += tick
    d.line([left, top, left, H - bottom], fill="#3a3a3c")
    d.line([left, xy(0, 0)[1], W - right, xy(0, 0)[1]], fill="#3a3a3c")
    d.text((W / 2, H - 18), "seconds since the transition started", fill="#3a3a3c", font=small, anchor="mm")
    d.text((14, top - 20), "progress", fill="#3a3a3c", font=small)
    d.text((W / 2, 16), title, fill="#1c1c1e", font=font(15), anchor="mm")
    colours = ["#0a84ff", "#ff375f", "#30d158"]
    for i, (name, dense, dots) in enumerate(curves):
        colour = colours[i % len(colours)]
        d.line([xy(t, p) for t, p in dense], fill=colour, width=2, joint="curve")
        for t, p in dots:
            x, y = xy(t, p)
            d.ellipse([x - 3.5, y - 3.5, x + 3.5, y + 3.5], fill=colour)
        d.text((left, 36 + 18 * i), "● " + name, fill=colour, font=small)
    image.save(path, optimize=True)


def _nice_step(raw: float) -> float:
    for step in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10):
        if step >= raw:
            return step
    return 10.0


# MARK: - Command line


def _json_or_name(text: str) -> Any:
    return json.loads(text) if text.lstrip().startswith(("{", "[")) else text


def presentation_from_args(args: argparse.Namespace) -> dict:
    p: dict = {"style": _json_or_name(args.style)}
    transition: dict = {"type": args.transition}
    if args.duration is not None:
        transition["duration"] = args.duration
    if args.timing is not None:
        transition["timing"] = _json_or_name(args.timing)
    p["transition"] = transition
    if args.json:
        p.update(json.loads(args.json))
    return p


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    a = argparse.ArgumentParser(prog="python -m presentd.record", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--style", default="popup", help="a style name or a style object as JSON (default popup)")
    a.add_argument("--transition", default="coverVertical", help="transition type (default coverVertical)")
    a.add_argument("--duration", type=float, help="transition duration, seconds")
    a.add_argument("--timing", help="timing curve: a name or JSON ({\"bezier\":[…]}, {\"spring\":{…}})")
    a.add_argument("--json", help="more presentation fields, as a JSON object (merged last)")
    a.add_argument("--dismiss", action="store_true", help="also record the dismissal")
    a.add_argument("--hold", type=float, default=0.5, help="seconds at rest before the dismissal (default 0.5)")
    a.add_argument("--fps", type=int, default=30, help="frames per second to record (default 30)")
    a.add_argument("--scale", type=float, default=0.5, help="pixels per point (default 0.5)")
    a.add_argument("--container", help="container size WxH in points (default: the daemon's, 390x844)")
    a.add_argument("--columns", type=int, default=6, help="contact sheet columns (default 6)")
    a.add_argument("--out", default="presentd-recording", help="output prefix (default presentd-recording)")
    a.add_argument("--presentd", help="the presentd binary (default: $PRESENTD, else presentd on PATH)")
    return a.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import PIL  # noqa: F401
    except ImportError:
        print("presentd.record needs Pillow (Debian: apt-get install python3-pil; else pip install Pillow)",
              file=sys.stderr)
        return 2
    container = tuple(float(v) for v in args.container.split("x")) if args.container else None
    presentation = presentation_from_args(args)
    options = dict(binary=args.presentd, container=container, dismiss=args.dismiss, hold=args.hold)
    recording = record(presentation, fps=args.fps, **options)
    # The same requests at a high rate: the smooth reference for the timing plot.
    dense = record(presentation, fps=CURVE_FPS, **options)

    directory = os.path.dirname(args.out)
    if directory:
        os.makedirs(directory, exist_ok=True)
    images = frames_as_images(recording, args.scale)
    paths = {k: f"{args.out}{suffix}" for k, suffix in
             [("gif", ".gif"), ("sheet", "-sheet.png"), ("timing", "-timing.png"), ("frames", "-frames.json")]}
    write_gif(images, recording, paths["gif"])
    write_contact_sheet(images, recording, paths["sheet"], args.columns)
    curves = [(f"{phase} · {describe_timing(anim.timing)} · {anim.duration:g} s",
               progress_series(dense, dense_anim), progress_series(recording, anim))
              for (phase, anim), (_, dense_anim) in zip(recording.animations, dense.animations)]
    title = f"{json.dumps(presentation['style'])} · {presentation['transition']['type']}: progress against time"
    write_timing_plot(curves, title, paths["timing"])
    with open(paths["frames"], "w") as f:
        json.dump({"id": recording.id, "fps": recording.fps, "container": dict(recording.container.raw),
                   "frames": [{"time": s.time, "seq": s.seq, "hold": s.hold, "statusBar": dict(s.status_bar),
                               "layers": s.raw.get("layers", [])} for s in recording.shots]}, f, indent=1)
    for path in paths.values():
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
