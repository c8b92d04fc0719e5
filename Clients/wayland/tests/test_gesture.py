"""The touch path (tests/gesture_test.c, built with the renderer): headless sway has no touch
device to drive, so wl_touch events are fed to input.c's listener directly, and what presentd
would be sent is compared."""

import subprocess

import pytest

from conftest import RENDERER

GESTURE_TEST = RENDERER.parent / "gesture-test"


def test_a_finger_taps_presses_swipes_and_cancels_as_the_pointer_does():
    if not GESTURE_TEST.exists():
        pytest.skip(f"{GESTURE_TEST} is not built (make -C Clients/wayland)")
    out = subprocess.run([str(GESTURE_TEST)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, f"gesture-test:\n{out.stdout}{out.stderr}"
