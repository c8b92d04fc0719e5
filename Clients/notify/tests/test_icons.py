"""Icons in the spec's order: image-data (a PNG the bridge writes, removed at the end),
image-path, app_icon (a name, a file:// URI, a path), the deprecated icon_data."""

from __future__ import annotations

import os
from pathlib import Path

from gi.repository import GLib
from PIL import Image

from conftest import entry
from presentd.daemon import wait_until


def image(width: int, height: int, rowstride: int, alpha: bool, bits: int, channels: int, data: bytes):
    """An (iiibiiay) variant; the bytes go in whole (PyGObject would build "ay" byte by byte)."""
    array = GLib.Variant.new_from_bytes(GLib.VariantType("ay"), GLib.Bytes.new(data), True)
    return GLib.Variant.new_tuple(GLib.Variant("i", width), GLib.Variant("i", height), GLib.Variant("i", rowstride),
                                  GLib.Variant("b", alpha), GLib.Variant("i", bits), GLib.Variant("i", channels), array)


def pixels(width: int, height: int, alpha: bool = True, rowstride: int | None = None, size: int | None = None):
    channels = 4 if alpha else 3
    stride = rowstride if rowstride is not None else width * channels
    data = bytearray()
    for y in range(height):
        row = bytearray()
        for x in range(width):
            row += bytes([x % 256, y % 256, 7] + ([200] if alpha else []))
        data += row + bytes(max(0, stride - len(row)))
    if size is not None:
        data = data[:size] if size <= len(data) else data + bytes(size - len(data))
    return image(width, height, stride, alpha, 8, channels, bytes(data))


def test_image_data_becomes_a_png_removed_when_the_notification_ends(bridge, pd, observer, runtime):
    id = observer.notify("pic", icon="dialog-information", hints={"image-data": pixels(3, 2, rowstride=16)})
    path = entry(pd, bridge, id)["content"]["icon"]["path"]
    assert path.startswith(str(runtime / "presentd-notify")) and path.endswith(".png")
    with Image.open(path) as img:
        assert img.size == (3, 2) and img.mode == "RGBA"
        assert img.getpixel((2, 1)) == (2, 1, 7, 200)
    observer.close(id)
    assert observer.closed(id) == 3
    assert not os.path.exists(path)


def test_the_images_together_are_bounded_in_the_runtime_directory(make_bridge, pd, observer, runtime):
    # Each PNG is at most 256 x 256, but a thousand may wait (--max-waiting): in RAM (the
    # runtime directory is a tmpfs) they would add up without a bound. 300 incompressible
    # 256 x 256 images are some 79 MB: past 64 MiB, image-data is not shown.
    bridge = make_bridge("--max-waiting", "1000")
    directory = runtime / "presentd-notify"
    def used() -> int:
        return sum(f.stat().st_size for f in directory.glob("*.png"))
    ids = []
    for i in range(300):
        noise = image(256, 256, 256 * 4, True, 8, 4, os.urandom(256 * 256 * 4))
        ids.append(observer.notify(f"noise {i}", hints={"image-data": noise}, timeout=0))
        assert used() <= 64 << 20
    assert used() > 60 << 20  # the bound is what stopped them, not something else
    assert "image-data not shown: the bridge's images take" in bridge.log
    for id in ids:
        observer.close(id)
    wait_until(lambda: used() == 0, "every image removed once its notification ended",
               context=lambda: f"{used()} bytes left")
    # Room again: an image is shown.
    again = observer.notify("again", hints={"image-data": pixels(3, 2)}, timeout=0)
    assert entry(pd, bridge, again)["content"]["icon"]["path"].startswith(str(directory))


def test_a_large_image_is_scaled_down_to_256(bridge, pd, observer):
    big = image(1024, 512, 3072, False, 8, 3, bytes(range(256)) * (3072 * 512 // 256))
    id = observer.notify("big", hints={"image-data": big})
    path = entry(pd, bridge, id)["content"]["icon"]["path"]
    with Image.open(path) as img:
        assert img.size == (256, 128) and img.mode == "RGB"
    assert os.path.getsize(path) < 256 * 256 * 4


def test_malformed_image_data_falls_back_to_the_next_icon(bridge, pd, observer):
    bad = [
        pixels(4, 4, rowstride=8),            # rowstride less than width × channels
        pixels(4, 4, size=20),                # fewer bytes than the header says
        image(-1, 4, 16, True, 8, 4, bytes(64)),
        image(4, 4, 16, True, 16, 4, bytes(128)),   # 16 bits per sample
        image(4, 4, 16, False, 8, 4, bytes(64)),    # 4 channels without alpha
        image(100000, 100000, 400000, True, 8, 4, bytes(64)),
    ]
    for bad_image in bad:
        id = observer.notify("bad", icon="dialog-warning", hints={"image-data": bad_image})
        assert entry(pd, bridge, id)["content"]["icon"] == {"name": "dialog-warning"}
        observer.close(id)  # at most 5 on screen: make room for the next
        assert observer.closed(id) == 3
    assert bridge.process.poll() is None


def test_image_path_wins_over_app_icon(bridge, pd, observer, tmp_path):
    png = tmp_path / "a.png"
    Image.new("RGB", (2, 2)).save(png)
    id = observer.notify("p", icon="dialog-information", hints={"image-path": GLib.Variant("s", str(png))})
    assert entry(pd, bridge, id)["content"]["icon"] == {"path": str(png)}


def test_app_icon_as_name_uri_or_path(bridge, pd, observer, tmp_path):
    svg = tmp_path / "my icon.svg"
    svg.write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    by_name = observer.notify("n", icon="mail-unread")
    by_uri = observer.notify("u", icon="file://" + str(svg).replace(" ", "%20"))
    by_path = observer.notify("p", icon=str(svg))
    assert entry(pd, bridge, by_name)["content"]["icon"] == {"name": "mail-unread"}
    assert entry(pd, bridge, by_uri)["content"]["icon"] == {"path": str(svg)}
    assert entry(pd, bridge, by_path)["content"]["icon"] == {"path": str(svg)}


def test_a_path_presentd_cannot_show_falls_back(bridge, pd, observer):
    id = observer.notify("jpg", icon="mail-unread", hints={"image-path": GLib.Variant("s", "/tmp/photo.jpg")})
    assert entry(pd, bridge, id)["content"]["icon"] == {"name": "mail-unread"}
    relative = observer.notify("rel", icon="file://relative.png")
    assert "icon" not in entry(pd, bridge, relative)["content"]


def test_a_file_uri_whose_decoded_path_is_not_utf8_falls_back_and_never_wedges(bridge, pd, observer):
    # %FF decodes to a byte that is not UTF-8: presentd would refuse the whole line with a
    # null id, and the bridge used to wait for that present's reply for ever.
    bad = observer.notify("bad", icon="file:///x/%FF.png", timeout=0)
    assert "icon" not in entry(pd, bridge, bad)["content"]
    fallback = observer.notify("fallback", icon="mail-unread", timeout=0,
                               hints={"image-path": GLib.Variant("s", "file:///x/%C3%28.png")})
    assert entry(pd, bridge, fallback)["content"]["icon"] == {"name": "mail-unread"}
    observer.close(bad)
    assert observer.closed(bad) == 3
    # Up to the places on screen (5 by default): none stays stuck taking one.
    more = [observer.notify(f"bad {i}", icon="file:///x/%FF%FE.png", timeout=0) for i in range(4)]
    for id in more:
        entry(pd, bridge, id)
    assert "not UTF-8" in bridge.log


def test_deprecated_icon_data_is_the_last_resort(bridge, pd, observer):
    id = observer.notify("old", hints={"icon_data": pixels(2, 2)})
    assert entry(pd, bridge, id)["content"]["icon"]["path"].endswith(".png")
    named = observer.notify("named", icon="mail-unread", hints={"icon_data": pixels(2, 2)})
    assert entry(pd, bridge, named)["content"]["icon"] == {"name": "mail-unread"}


def test_huge_image_data_is_scaled_and_over_the_protocol_limit_never_arrives(bridge, pd, observer):
    from conftest import Observer
    side = 4000  # 61 MiB of RGBA, under D-Bus's 64 MiB limit for an array
    id = observer.notify("huge", hints={"image-data": image(side, side, side * 4, True, 8, 4, bytes(side * side * 4))})
    path = entry(pd, bridge, id)["content"]["icon"]["path"]
    with Image.open(path) as img:
        assert img.size == (256, 256)
    # 100 MiB in one array is not D-Bus (arrays stop at 64 MiB): the sender's connection is
    # closed before anything reaches the bridge, which goes on serving.
    sender = Observer(bridge.env["DBUS_SESSION_BUS_ADDRESS"])
    side = 5200
    try:
        sender.notify("too big", hints={"image-data": image(side, side, side * 4, True, 8, 4, bytes(side * side * 4))})
        raise AssertionError("a 100 MiB image-data was sent")
    except GLib.Error as e:
        assert "closed" in e.message
    assert bridge.process.poll() is None
    assert observer.notify("after") == id + 1
