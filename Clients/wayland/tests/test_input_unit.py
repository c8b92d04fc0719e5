"""input.c's unit tests (tests/input_test.c, built with the renderer), for what headless sway
cannot drive: wl_touch events fed to the touch listener directly (no touch device there), and
key repeat on an injected clock. Each compares what presentd would be sent."""

import subprocess

import pytest

from conftest import RENDERER

INPUT_TEST = RENDERER.parent / "input-test"


def test_a_finger_taps_presses_swipes_and_cancels_as_the_pointer_does_and_held_keys_repeat():
    if not INPUT_TEST.exists():
        pytest.skip(f"{INPUT_TEST} is not built (make -C Clients/wayland)")
    out = subprocess.run([str(INPUT_TEST)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, f"input-test:\n{out.stdout}{out.stderr}"
