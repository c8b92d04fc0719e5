"""Draws a frame's layers with Pillow, the way a renderer would: the presenter's screen,
then per entry its dimming and its content (frame, alpha, scale about the centre,
rotation about the vertical axis, corner radius, shadow, blur), then the status bar. A
layer with a ``clip`` (an entry in a presentation context) is drawn only inside it.

What a content layer shows is its entry's content (frames carry only its revision; the
caller passes the contents it kept, e.g. with :class:`presentd.Contents`). A layer is
filled with its content label when that is a colour (``#rrggbb``), else with a colour
chosen from its id, and labelled with the label, or the content's title, message and
buttons, or else the id."""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from .types import Content, Layer

PALETTE = ["#0a84ff", "#30d158", "#ff9f0a", "#bf5af2", "#ff375f", "#64d2ff", "#ffd60a", "#5e5ce6"]
PRESENTER_BACKGROUND = "#f2f2f7"
SUPERSAMPLE = 2  # draw at twice the size, then shrink: smooth edges without antialiased primitives

_FONT_FILES = ["/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "DejaVuSans-Bold.ttf"]


def font(size: int) -> ImageFont.ImageFont:
    for name in _FONT_FILES:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def parse_color(text: str | None, default: str = "#000000") -> tuple[int, int, int, int]:
    """``#rrggbb`` or ``#rrggbbaa`` as RGBA (the protocol's colour strings)."""
    t = (text or default).lstrip("#")
    if len(t) not in (6, 8) or any(c not in "0123456789abcdefABCDEF" for c in t):
        t = default.lstrip("#")
    rgba = [int(t[i:i + 2], 16) for i in range(0, len(t), 2)]
    return tuple(rgba + [255] * (4 - len(rgba)))  # type: ignore[return-value]


def content_color(layer: Layer, content: "str | Content | None" = None) -> tuple[int, int, int, int]:
    if isinstance(content, str) and content.startswith("#"):
        return parse_color(content)
    return parse_color(PALETTE[zlib.crc32(layer.id.encode()) % len(PALETTE)])


@dataclass
class Canvas:
    """The container drawn at ``scale`` pixels per point."""
    width: float
    height: float
    scale: float = 0.5
    safe_top: float = 47

    def px(self, v: float) -> int:
        return int(round(v * self.scale * SUPERSAMPLE))

    @property
    def size(self) -> tuple[int, int]:
        return (max(1, round(self.width * self.scale)), max(1, round(self.height * self.scale)))


def draw_frame(canvas: Canvas, layers: Iterable[Layer], status_bar: Mapping | None = None,
               contents: Mapping[str, Any] | None = None) -> Image.Image:
    """One picture of the scene; ``contents`` maps entry ids to what they show."""
    big = (canvas.px(canvas.width), canvas.px(canvas.height))
    image = Image.new("RGBA", big, PRESENTER_BACKGROUND)
    _draw_presenter(image, canvas)
    for layer in layers:
        target = image.copy() if layer.clip else image
        if layer.role == "dimming":
            _draw_dimming(target, canvas, layer)
        else:
            _draw_content(target, canvas, layer, (contents or {}).get(layer.id))
        if layer.clip:
            c = layer.clip
            box = _box(canvas, c.x, c.y, c.width, c.height)
            image.paste(target.crop(box), box[:2])
    _draw_status_bar(image, canvas, status_bar or {})
    return image.resize(canvas.size, Image.LANCZOS).convert("RGB")


def _draw_presenter(image: Image.Image, canvas: Canvas) -> None:
    """Placeholder rows, so dimming, blur and scale have something to show against."""
    d = ImageDraw.Draw(image)
    x0, row, y = canvas.px(16), canvas.px(60), canvas.px(canvas.safe_top + 56)
    d.text((x0, canvas.px(canvas.safe_top + 8)), "Presenter", fill="#1c1c1e", font=font(canvas.px(28)))
    while y + row < image.height:
        d.rounded_rectangle([x0, y, image.width - x0, y + row - canvas.px(10)], radius=canvas.px(10), fill="#ffffff")
        d.rectangle([x0 + canvas.px(14), y + canvas.px(16), x0 + canvas.px(170), y + canvas.px(26)], fill="#d1d1d6")
        y += row


def _draw_dimming(image: Image.Image, canvas: Canvas, layer: Layer) -> None:
    box = _box(canvas, layer.frame.x, layer.frame.y, layer.frame.width, layer.frame.height)
    if layer.blur:
        region = image.crop(box).filter(ImageFilter.GaussianBlur(canvas.px(12)))
        image.paste(region, box[:2])
    r, g, b, a = parse_color(layer.color)
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    ImageDraw.Draw(overlay).rectangle(box, fill=(r, g, b, round(a * _clamp(layer.alpha))))
    image.alpha_composite(overlay)


def _draw_content(image: Image.Image, canvas: Canvas, layer: Layer, content: "str | Content | None") -> None:
    """Scale about the centre, then the flip: the width shrinks by |cos(rotation)| and the
    back face (cos < 0) is drawn darker, as a card seen from behind."""
    f = layer.frame.scaled(layer.scale)
    squeeze = math.cos(layer.rotation)
    width = f.width * abs(squeeze)
    x = f.x + (f.width - width) / 2
    box = _box(canvas, x, f.y, width, f.height)
    if box[2] - box[0] < 1 or box[3] - box[1] < 1 or layer.alpha <= 0:
        return
    radius = min(canvas.px(layer.corner_radius * layer.scale), (box[2] - box[0]) // 2, (box[3] - box[1]) // 2)
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    if layer.shadow:
        _draw_shadow(overlay, canvas, box, radius, layer.shadow)
    fill = content_color(layer, content)
    if squeeze < 0:
        fill = tuple(int(c * 0.6) for c in fill[:3]) + (fill[3],)
    if layer.tint_dimmed:
        gray = sum(fill[:3]) // 3
        fill = (gray, gray, gray, fill[3])
    d = ImageDraw.Draw(overlay)
    d.rounded_rectangle(box, radius=radius, fill=fill)
    if squeeze >= 0 and box[2] - box[0] > canvas.px(40):
        if isinstance(content, Content):
            _draw_dialog(d, canvas, box, layer, content)
        else:
            label = layer.id if not content or content.startswith("#") else content
            size = max(8, min(canvas.px(22 * layer.scale), (box[3] - box[1]) // 3))
            d.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), label, fill="#ffffff", font=font(size),
                   anchor="mm")
    if layer.alpha < 1:
        overlay.putalpha(overlay.getchannel("A").point(lambda a: round(a * _clamp(layer.alpha))))
    image.alpha_composite(overlay)


def _draw_dialog(d: ImageDraw.ImageDraw, canvas: Canvas, box: tuple[int, int, int, int], layer: Layer,
                 content: Content) -> None:
    """The title (else the id), the message, and the buttons along the bottom: the
    default one underlined, a destructive one in red."""
    height = box[3] - box[1]
    middle = (box[0] + box[2]) / 2
    size = max(8, min(canvas.px(20 * layer.scale), height // 5))
    d.text((middle, box[1] + height * 0.25), content.title or layer.id, fill="#ffffff", font=font(size), anchor="mm")
    if content.message:
        d.text((middle, box[1] + height * 0.48), content.message[:60], fill="#ffffff",
               font=font(max(6, size * 2 // 3)), anchor="mm")
    if content.actions:
        small = font(max(6, size * 3 // 4))
        slot = (box[2] - box[0]) / len(content.actions)
        y = box[1] + height * 0.8
        for i, action in enumerate(content.actions):
            x = box[0] + slot * (i + 0.5)
            colour = "#ff453a" if action.role == "destructive" else "#ffffff"
            d.text((x, y), action.title, fill=colour, font=small, anchor="mm")
            if action.role == "default":
                half = min(slot * 0.4, canvas.px(40 * layer.scale))
                d.line([x - half, y + size * 0.6, x + half, y + size * 0.6], fill=colour, width=max(1, size // 10))


def _draw_shadow(overlay: Image.Image, canvas: Canvas, box: tuple[int, int, int, int], radius: int,
                 shadow: Mapping) -> None:
    r, g, b, a = parse_color(shadow.get("color"))
    offset = shadow.get("offset") or {}
    dx, dy = canvas.px(offset.get("x", 0)), canvas.px(offset.get("y", 0))
    layer = Image.new("RGBA", overlay.size, (0, 0, 0, 0))
    ImageDraw.Draw(layer).rounded_rectangle([box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy], radius=radius,
                                            fill=(r, g, b, round(a * _clamp(shadow.get("opacity", 0)))))
    blur = canvas.px(shadow.get("radius", 0)) / 2
    overlay.alpha_composite(layer.filter(ImageFilter.GaussianBlur(blur)) if blur > 0 else layer)


def _draw_status_bar(image: Image.Image, canvas: Canvas, status_bar: Mapping) -> None:
    """"9:41" and a battery, black for default/darkContent, white for lightContent."""
    if status_bar.get("hidden"):
        return
    color = "#ffffff" if status_bar.get("style") == "lightContent" else "#000000"
    d = ImageDraw.Draw(image)
    mid = canvas.px(canvas.safe_top * 0.55)
    d.text((canvas.px(40), mid), "9:41", fill=color, font=font(canvas.px(16)), anchor="lm")
    w, h = canvas.px(24), canvas.px(11)
    x = image.width - canvas.px(30) - w
    d.rounded_rectangle([x, mid - h // 2, x + w, mid + h // 2], radius=canvas.px(3), outline=color,
                        width=max(1, canvas.px(1)))
    d.rectangle([x + canvas.px(2), mid - h // 2 + canvas.px(2), x + w - canvas.px(6), mid + h // 2 - canvas.px(2)],
                fill=color)


def _box(canvas: Canvas, x: float, y: float, w: float, h: float) -> tuple[int, int, int, int]:
    return (canvas.px(x), canvas.px(y), canvas.px(x + w), canvas.px(y + h))


def _clamp(v: float) -> float:
    return max(0.0, min(1.0, float(v)))
