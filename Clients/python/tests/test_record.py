"""The recorder: a manual-clock daemon's frames become a GIF, a contact sheet and a
timing plot, and the pictures show each layer where the frame stream put it."""

from __future__ import annotations

import json

import pytest

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from presentd import record  # noqa: E402

MAGENTA = (255, 0, 255)


def run_recorder(tmp_path, *args: str) -> tuple[dict, str]:
    prefix = str(tmp_path / "out" / "rec")
    assert record.main([*args, "--out", prefix]) == 0
    with open(prefix + "-frames.json") as f:
        return json.load(f), prefix


def close(pixel, colour, tolerance=40) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel[:3], colour)) <= tolerance


def test_gif_frames_show_the_layer_where_the_frame_stream_says(tmp_path):
    data, prefix = run_recorder(tmp_path, "--style", "alert", "--transition", "coverVertical", "--duration", "0.3",
                                "--timing", "linear", "--fps", "10", "--scale", "0.5",
                                "--json", '{"content": "#ff00ff"}')
    times = [f["time"] for f in data["frames"]]
    assert times == pytest.approx([0, 0.1, 0.2, 0.3])
    gif = Image.open(prefix + ".gif")
    assert gif.n_frames == len(data["frames"])
    durations = []
    checked = 0
    for k, frame in enumerate(data["frames"]):
        gif.seek(k)
        durations.append(gif.info["duration"])
        picture = gif.convert("RGB")
        content = [l for l in frame["layers"] if l["role"] == "content"]
        if not content:
            assert not any(close(picture.getpixel((x, y)), MAGENTA)
                           for x in range(0, picture.width, 4) for y in range(0, picture.height, 4))
            continue
        r = content[0]["frame"]
        x0, y0, x1, y1 = (v * 0.5 for v in (r["x"], r["y"], r["x"] + r["width"], r["y"] + r["height"]))
        y1 = min(y1, picture.height)
        inside = ((x0 + x1) / 2, (y0 + min(y1, picture.height)) / 2)
        if y0 >= picture.height - 2:
            continue  # still below the screen
        assert close(picture.getpixel((round(inside[0]), round(min(inside[1], picture.height - 2)))), MAGENTA), k
        assert close(picture.getpixel((round(x0) + 3, round(y0) + 3)), MAGENTA), k  # inside the top-left corner
        assert not close(picture.getpixel((round(x0) + 3, round(y0) - 4)), MAGENTA), k  # just above it
        assert not close(picture.getpixel((round(x0) - 4, round(y0) + 10)), MAGENTA), k  # just left of it
        checked += 1
    assert checked == 3
    assert durations[0] == 400 and durations[1] == 100 and durations[-1] == 1000
    sheet = Image.open(prefix + "-sheet.png")
    assert sheet.width > sheet.height  # four cells in one row of six
    assert Image.open(prefix + "-timing.png").size == (720, 460)


def test_the_same_arguments_give_the_same_files(tmp_path):
    args = ["--style", "popup", "--transition", "zoom", "--duration", "0.2", "--fps", "20"]
    _, first = run_recorder(tmp_path / "a", *args)
    _, second = run_recorder(tmp_path / "b", *args)
    for suffix in (".gif", "-sheet.png", "-frames.json"):
        with open(first + suffix, "rb") as a, open(second + suffix, "rb") as b:
            assert a.read() == b.read(), suffix


def test_progress_is_read_back_from_the_frames_along_the_timing_curve():
    linear = record.record({"style": "popup", "transition": {"type": "crossDissolve", "duration": 0.4,
                                                             "timing": "linear"}}, fps=20)
    [(phase, animation)] = linear.animations
    assert phase == "willPresent"
    series = record.progress_series(linear, animation)
    assert len(series) == 9
    for t, p in series:
        assert p == pytest.approx(t / 0.4, abs=1e-9)
    eased = record.record({"style": "topHalf", "transition": {"type": "coverVerticalFromTop", "duration": 0.4,
                                                             "timing": "easeInEaseOut"}}, fps=20)
    points = dict(record.progress_series(eased, eased.animations[0][1]))
    assert points[0.2] == pytest.approx(0.5, abs=1e-6)  # symmetric curve: half way at half time
    assert points[0.1] < 0.25 and points[0.3] > 0.75


def test_a_recorded_dismissal_ends_with_the_entry_gone(tmp_path):
    r = record.record({"style": "bottomHalf", "transition": {"type": "coverVertical", "duration": 0.2}},
                      fps=30, dismiss=True, hold=0.25)
    assert [phase for phase, _ in r.animations] == ["willPresent", "willDismiss"]
    assert r.shots[-1].layers == () and r.shots[-1].hold == 1.0
    at_rest = next(s for s in r.shots if s.hold == 0.25)
    assert [l.role for l in at_rest.layers] == ["dimming", "content"]


def test_the_recorder_takes_content_from_the_entries_and_draws_a_dialog():
    from presentd import Action, Content
    dialog = Content(title="Delete file?", message="This cannot be undone.",
                     actions=[Action("delete", "Delete", role="destructive"), Action("keep", "Keep", role="cancel")])
    r = record.record({"style": "alert", "content": dialog, "transition": {"type": "crossDissolve", "duration": 0.2}},
                      fps=10)
    # Frames name only the revision; the content came with willPresent.
    assert r.shots[0].contents == {} and r.shots[-1].contents == {r.id: dialog}
    assert all("content" not in l for s in r.shots for l in s.raw.get("layers", []))
    picture = record.frames_as_images(r, 1.0)[-1]
    layer = next(l for l in r.shots[-1].layers if l.role == "content")
    box = [round(v) for v in (layer.frame.x, layer.frame.y, layer.frame.max_x, layer.frame.max_y)]
    red = [(x, y) for x in range(box[0], box[2]) for y in range(box[1], box[3])
           if close(picture.getpixel((x, y)), (255, 69, 58), 60)]
    assert red, "the destructive button is drawn in red"
    assert all(y > layer.frame.y + layer.frame.height / 2 for _, y in red)  # along the bottom


def test_a_layer_in_a_context_is_drawn_only_inside_its_clip():
    from presentd import Layer
    from presentd.render import Canvas, draw_frame

    canvas = Canvas(390, 844, scale=0.5)
    clip = {"x": 0, "y": 300, "width": 390, "height": 300}
    sheet = Layer.from_json({"id": "s", "role": "content", "level": "normal", "clip": clip, "alpha": 1, "scale": 1,
                             "frame": {"x": 0, "y": 200, "width": 390, "height": 300}})
    picture = draw_frame(canvas, [sheet], contents={"s": "#ff00ff"})
    plain = draw_frame(canvas, [], contents={})
    assert close(picture.getpixel((100, 200)), MAGENTA), "inside the clip, the sheet is drawn"
    # Above the context (y 250 pt) the sheet's frame reaches, but the clip keeps it out.
    assert picture.getpixel((100, 125)) == plain.getpixel((100, 125))
