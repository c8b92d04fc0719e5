"""presentd-wayland's figures (make bench-wayland): for an alert presenting and dismissing on the
real clock at 60 Hz, on a headless sway at 1920x1080 scale 1 and 3840x2160 scale 2, the CPU per
drawn frame, the p50 and p99 time to draw one (paint and hand over, from --stats), and the
renderer's RSS and private memory with the alert at rest. Prints a Markdown table.

Then (alone with --glass, which `make bench` runs) present-to-glass: the time from an app's
`present` to the first frame of it on glass, from the renderer's --trace. Headless sway answers
no presentation feedback, so there it is measured to the renderer's commit and to the frame
callback that follows it (sway has composited the frame); headless weston answers every frame,
so there it is measured to `presented`, with the renderer drawing for its predicted time and
for the next refresh (--predict latency and refresh), and presentd's latency and error figures
for each. A compositor that is missing or does not start gives a SKIPPED line."""

from __future__ import annotations

import os
import re
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, p) for p in ("../../Clients/wayland/tests", "../../Clients/python/src", "../../Tests/kit")]

from conftest import RENDERER, Renderer, Sway, Weston  # noqa: E402
from presentd import Client  # noqa: E402
from presentd.daemon import Daemon, wait_until  # noqa: E402

CYCLES = 5
ALERT = {"title": "Delete file?", "message": "It cannot be undone",
         "actions": [{"id": "ok", "title": "Delete", "role": "destructive"}, {"id": "no", "title": "Cancel", "role": "cancel"}]}


def memory(pid: int) -> tuple[float, float]:
    """RSS and private (clean + dirty) memory, MiB."""
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                fields[parts[0][:-1]] = int(parts[1])
    return fields["Rss"] / 1024, (fields["Private_Clean"] + fields["Private_Dirty"]) / 1024


def run(width: int, height: int, scale: int) -> dict:
    with Daemon() as daemon, Sway(width=width, height=height, scale=scale) as sway:
        renderer = Renderer(sway, daemon.path, "--stats")
        try:
            with Client(daemon.path) as app:
                wait_until(lambda: app.call("outputs")["outputs"][0]["container"]["width"] == width / scale,
                           "the renderer to set main", context=renderer.context)
                rss = private = 0.0
                for i in range(CYCLES):
                    id = app.call("present", {"style": "alert", "content": ALERT})["id"]
                    wait_until(lambda: all(e["state"] == "presented" for e in app.call("stack")["entries"]),
                               "the alert to be presented")
                    if i == CYCLES - 1:
                        rss, private = memory(renderer.process.pid)
                    app.call("dismiss", {"id": id})
                    wait_until(lambda: not app.call("stack")["entries"], "the alert to leave")
            renderer.stop()
            line = next(l for l in renderer.log.splitlines() if l.startswith("stats:"))
        finally:
            renderer.stop()
    numbers = dict(re.findall(r"(frames|p50|p99|cpu per frame) ([\d.]+)", line))
    return {"size": f"{width}×{height} @{scale}", "frames": int(numbers["frames"]), "cpu": float(numbers["cpu per frame"]),
            "p50": float(numbers["p50"]), "p99": float(numbers["p99"]), "rss": rss, "private": private}


GLASS_CYCLES = 40
MOTION = {"type": "coverVertical", "duration": 0.4}


def trace(log: str) -> list[tuple[str, float, float | None]]:
    """The renderer's --trace lines of main: (commit|done|shown|discarded, time drawn for, when)."""
    events = []
    for kind, rest in re.findall(r"^trace: (commit|done|shown|discarded) main (.*)$", log, re.M):
        numbers = dict(re.findall(r"(time|at) ([\d.]+)", rest))
        events.append((kind, float(numbers.get("time", "nan")), float(numbers["at"]) if "at" in numbers else None))
    return events


def after_present(events, sent: float) -> dict[str, float]:
    """For a `present` sent at `sent` (monotonic) onto a screen at rest, with nothing drawn
    since: how long until the renderer committed its first frame, the frame callback after that
    commit, and the first frame of it shown (seconds; those the compositor told)."""
    first = next(i for i, (kind, _, at) in enumerate(events) if kind == "commit" and at >= sent)
    times = {"commit": events[first][2] - sent}
    done = next((at for kind, _, at in events[first + 1:] if kind == "done"), None)
    if done is not None:
        times["done"] = done - sent
    drawn = {t for kind, t, at in events[first:] if kind == "commit"}
    shown = next((at for kind, t, at in events[first:] if kind == "shown" and t in drawn), None)
    if shown is not None:
        times["shown"] = shown - sent
    return times


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p * len(ordered) + 0.5) - 1))]


def glass(compositor, *renderer_args: str, width: int) -> dict:
    """GLASS_CYCLES alerts presented and dismissed on `compositor`'s main, each from rest."""
    with Daemon() as daemon:
        renderer = Renderer(compositor, daemon.path, "--trace", *renderer_args)
        try:
            with Client(daemon.path) as app:
                wait_until(lambda: app.call("outputs")["outputs"][0]["container"]["width"] == width,
                           "the renderer to set main", context=renderer.context)
                sent = []
                for i in range(GLASS_CYCLES):
                    time.sleep(0.25)   # at rest, the last frame's feedback in: nothing is drawn until the present
                    sent.append(time.monotonic())
                    app.call("present", {"id": f"g{i}", "style": "alert", "content": ALERT, "transition": MOTION})
                    wait_until(lambda: all(e["state"] == "presented" for e in app.call("stack")["entries"]),
                               "the alert to be presented", context=renderer.context)
                    app.call("dismiss", {"id": f"g{i}", "transition": MOTION})
                    wait_until(lambda: not app.call("stack")["entries"], "the alert to leave", context=renderer.context)
                def main_rows():
                    return [r for r in app.call("stats")["presented"] if r["output"] == "main"]

                def reports_done():   # the renderer's last report of shown frames is in: the figures hold still
                    before = main_rows()
                    time.sleep(0.2)
                    after = main_rows()
                    return (after,) if after == before else None   # a tuple: true even with no rows (sway reports none)

                (rows,) = wait_until(reports_done, "presentd's figures of the frames shown on main to hold still",
                                     context=renderer.context)
        finally:
            renderer.stop()
    events = trace(renderer.log)
    measured = [after_present(events, t) for t in sent]
    return {"samples": {k: [m[k] for m in measured if k in m] for k in ("commit", "done", "shown")},
            "presented": rows[0] if rows else None}


def unavailable(tool: str) -> str | None:
    if not shutil.which(tool):
        return f"{tool} is not installed (make deps installs it)"
    if not os.path.exists(RENDERER):
        return f"{RENDERER} is not built (make wayland)"
    return None


def glass_report() -> None:
    def cell(samples: list[float]) -> str:
        if not samples:
            return "—"
        return f"{percentile(samples, 0.5) * 1000:.1f} / {percentile(samples, 0.99) * 1000:.1f} ms"

    rows, skipped, figures = [], [], []
    reason = unavailable("sway")
    if reason is None:
        try:
            with Sway(width=1920, height=1080) as sway:
                r = glass(sway, width=1920)
            rows.append(("sway 1.7, 1920×1080", r))
        except Exception as error:  # noqa: BLE001 - any failure to start means: not measured here
            reason = f"a headless sway does not start here: {str(error).splitlines()[0]}"
    if reason:
        skipped.append(f"present-to-glass on headless sway: SKIPPED ({reason})")
    reason = unavailable("weston")
    if reason is None:
        for mode in ("latency", "refresh"):
            try:
                with Weston() as weston:
                    r = glass(weston, "--kiosk", "--predict", mode, width=640)
                rows.append((f"weston 10 --kiosk, 640×480, --predict {mode}", r))
                figures.append((mode, r["presented"]))
            except RuntimeError as error:
                reason = f"weston does not start here: {str(error).splitlines()[0]}"
                break
    if reason:
        skipped.append(f"present-to-glass on headless weston: SKIPPED ({reason})")
    if rows:
        print(f"Present-to-glass: {GLASS_CYCLES} alerts (coverVertical, 0.4 s) presented from rest, each timed from "
              "the app sending `present` (p50 / p99):\n")
        print("| compositor (headless, 60 Hz) | to the renderer's commit | to the frame callback | to `presented` (on glass) |")
        print("|---|---|---|---|")
    for name, r in rows:
        s = r["samples"]
        print(f"| {name} | {cell(s['commit'])} | {cell(s['done'])} | {cell(s['shown'])} |")
    if figures:
        print("\nOn weston, presentd's `stats` (`presented`, the latest 512 frames):\n")
        print("| renderer draws for | frames | discarded | latency p50 / p99 | error p50 / p99 / max |")
        print("|---|---|---|---|---|")
        for mode, row in figures:
            if not row:
                print(f"| --predict {mode} | — | — | — | — |")
                continue
            lat, err = row["latency"], row["error"] or {"p50": float("nan"), "p99": float("nan"), "max": float("nan")}
            print(f"| --predict {mode} | {row['frames']} | {row['discarded']} | {lat['p50'] * 1000:.1f} / "
                  f"{lat['p99'] * 1000:.1f} ms | {err['p50']:.2f} / {err['p99']:.2f} / {err['max']:.2f} px |")
    for line in skipped:
        print(line)


def main() -> None:
    if "--glass" in sys.argv[1:]:
        glass_report()
        return
    rows = [run(1920, 1080, 1), run(3840, 2160, 2)]
    print(f"{CYCLES} alert transitions in and out (0.4 s each, the default), real clock, 60 Hz output:\n")
    print("| output | frames drawn | CPU per frame | draw p50 | draw p99 | RSS at rest | private at rest |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['size']} | {r['frames']} | {r['cpu']:.2f} ms | {r['p50']:.2f} ms | {r['p99']:.2f} ms | "
              f"{r['rss']:.1f} MiB | {r['private']:.1f} MiB |")
    print()
    glass_report()


if __name__ == "__main__":
    main()
