"""A counter-sized drawing surface laid out on a 75-unit design grid.

Counters are designed once on a 75 x 75 grid (½" at 150 dpi, the usual
VASSAL counter) and drawn at ``75 * scale * SUPERSAMPLE`` pixels, then reduced
by box-averaging.  Supersampling is how lines, ovals and text get smooth
edges although Pillow's ImageDraw does not anti-alias shapes; the box filter
is exact arithmetic, so the result stays byte-for-byte deterministic.

With ``trace=True`` every piece of text is also drawn on a separate mask; the
tests use it to check, pixel by pixel, that no text leaves the inner margin.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageColor, ImageDraw

from art.fonts import Rect, draw_fitted, draw_wrapped, fit_font, ink_bbox, text_size
from art.nato import draw_size_marks

DESIGN = 75  # design-grid units per counter side
SUPERSAMPLE = 4
TEXT_MARGIN = 3  # design units of the counter edge no text may enter


def rgb(colour: str | tuple) -> tuple[int, int, int]:
    if isinstance(colour, tuple):
        return colour[:3]
    return ImageColor.getrgb(colour)[:3]


def mix(a: str | tuple, b: str | tuple, t: float) -> tuple[int, int, int]:
    """Blend colour ``a`` towards ``b`` by fraction ``t`` (0 = a, 1 = b)."""
    ra, rb = rgb(a), rgb(b)
    return tuple(round(x + (y - x) * t) for x, y in zip(ra, rb))


def darker(colour: str | tuple, t: float = 0.45) -> tuple[int, int, int]:
    return mix(colour, (0, 0, 0), t)


def is_dark(colour: str | tuple) -> bool:
    r, g, b = rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b < 110


@dataclass
class Face:
    """One printed side of a counter: its name (step or face) and its image.

    ``text_mask`` (only when traced) has 255 wherever text was drawn.
    """

    name: str
    image: Image.Image
    text_mask: Image.Image | None = None


class Canvas:
    """Draw in design units; ``finish`` gives the reduced, smooth image."""

    def __init__(self, scale: int, background: str | tuple, trace: bool = False,
                 width: int = DESIGN, height: int = DESIGN) -> None:
        self.px_per_unit = scale * SUPERSAMPLE
        self.size = (width * self.px_per_unit, height * self.px_per_unit)
        self.image = Image.new("RGB", self.size, rgb(background))
        self.draw = ImageDraw.Draw(self.image)
        self.text_mask = Image.new("L", self.size, 0) if trace else None
        self.width_units, self.height_units = width, height

    # -- coordinates ---------------------------------------------------------

    def rect(self, left: float, top: float, right: float, bottom: float) -> Rect:
        k = self.px_per_unit
        return Rect(left * k, top * k, right * k, bottom * k)

    def line_width(self, units: float) -> int:
        return max(1, round(units * self.px_per_unit))

    # -- shapes --------------------------------------------------------------

    def fill(self, rect: Rect, colour, outline=None, width_units: float = 0) -> None:
        self.draw.rectangle(
            (rect.left, rect.top, rect.right - 1, rect.bottom - 1), fill=rgb(colour) if colour else None,
            outline=rgb(outline) if outline else None,
            width=self.line_width(width_units) if outline else 0,
        )

    def border(self, colour, width_units: float = 1.0) -> None:
        w, h = self.size
        self.draw.rectangle((0, 0, w - 1, h - 1), outline=rgb(colour), width=self.line_width(width_units))

    # -- text ----------------------------------------------------------------

    def text(self, text: str, rect: Rect, colour, bold: bool = False, italic: bool = False,
             align: str = "centre", start: float | None = None) -> None:
        start_px = int(start * self.px_per_unit) if start else None
        draw_fitted(self.image, text, rect, rgb(colour), start_px, bold, italic, align)
        if self.text_mask is not None:
            draw_fitted(self.text_mask, text, rect, 255, start_px, bold, italic, align)

    def wrapped(self, text: str, rect: Rect, colour, start: float, bold: bool = True,
                max_lines: int = 4) -> None:
        start_px = int(start * self.px_per_unit)
        draw_wrapped(self.image, text, rect, rgb(colour), start_px, bold, max_lines=max_lines)
        if self.text_mask is not None:
            draw_wrapped(self.text_mask, text, rect, 255, start_px, bold, max_lines=max_lines)

    def runs(self, runs: list[tuple[str, str | tuple]], rect: Rect, bold: bool = True,
             italic: bool = False, start: float | None = None) -> None:
        """Text made of differently coloured runs on one line ("10-9-" black,
        "3" red), fitted as a whole and centred in ``rect``."""
        joined = "".join(t for t, _ in runs)
        if not joined:
            return
        start_px = int((start or rect.height / self.px_per_unit) * self.px_per_unit)
        f = fit_font(joined, rect.width - 2, rect.height - 2, start_px, bold, italic)
        w, h = text_size(joined, f)
        if w > rect.width - 2 or h > rect.height - 2 or len(runs) == 1:
            # Too long even at the smallest size: one colour, squeezed to fit.
            self.text(joined, rect, runs[0][1], bold, italic, start=start)
            return
        left, top, _, _ = ink_bbox(joined, f)
        x = round(rect.left + (rect.width - w) / 2) - left
        y = round(rect.top + (rect.height - h) / 2) - top
        offset = 0.0
        for text, colour in runs:
            self.draw.text((x + offset, y), text, font=f, fill=rgb(colour))
            if self.text_mask is not None:
                ImageDraw.Draw(self.text_mask).text((x + offset, y), text, font=f, fill=255)
            offset += f.getlength(text)

    def size_marks(self, size: str, rect: Rect, colour) -> None:
        """Unit size marks (II, XX...); traced like text, since they are
        printed ink that must stay inside the margin too."""
        draw_size_marks(self.image, rect, size, rgb(colour), self.line_width(1.2))
        if self.text_mask is not None:
            draw_size_marks(self.text_mask, rect, size, 255, self.line_width(1.2))

    # -- result --------------------------------------------------------------

    def finish(self, name: str) -> Face:
        image = self.image.reduce(SUPERSAMPLE)
        mask = self.text_mask.reduce(SUPERSAMPLE) if self.text_mask is not None else None
        return Face(name, image, mask)


def rotate_canvas_ccw(c: Canvas) -> None:
    """Turn the canvas (and its text mask) a quarter turn counter-clockwise.

    Used to print a HoldFast block's strengths on all four edges: draw the
    top edge, turn, draw the next... Quarter turns are exact pixel moves.
    """
    c.image = c.image.transpose(Image.Transpose.ROTATE_90)
    c.draw = ImageDraw.Draw(c.image)
    if c.text_mask is not None:
        c.text_mask = c.text_mask.transpose(Image.Transpose.ROTATE_90)
