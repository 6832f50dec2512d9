"""The bundled font and the text-fitting helpers every renderer uses.

We ship DejaVu Sans Condensed (Bitstream Vera licence, see
``fonts/LICENSE-DejaVu.txt``) inside the package and never look at system
fonts: the same data must give byte-identical PNGs on every machine, and a
font that differs from host to host would break that.

Counters are small (75 px), so text is always *fitted*: the helpers shrink the
font until the text fits its box, and as a last resort squeeze it
horizontally.  Text never overflows the box it was given.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"

_FILES = {
    (False, False): "DejaVuSansCondensed.ttf",
    (True, False): "DejaVuSansCondensed-Bold.ttf",
    (True, True): "DejaVuSansCondensed-BoldOblique.ttf",
    # No regular oblique is bundled: italic text is always printed bold.
    (False, True): "DejaVuSansCondensed-BoldOblique.ttf",
}

MIN_SIZE = 6  # below this the glyphs are unreadable at 100% zoom anyway


class RememberingFont(ImageFont.FreeTypeFont):
    """A FreeType font that remembers the coverage masks it rendered.

    ``ImageDraw.text`` asks the font for a mask (``getmask2``) and stamps it in the ink
    colour; FreeType lays out and rasterises the string anew on every call. The same
    strings recur (a counter's values are drawn twice, on the picture and on its text
    mask; chart cells repeat "1", "-", "2-1"), so a mask is kept per string, mode,
    anchor and sub-pixel start. Masks are only read by the drawing code, and for
    "1"/"L" masks the ink does not enter the rendering, so the pixels are exactly those
    of a fresh render.  Colour ("RGBA") text is never remembered.
    """

    MAX_MASKS = 4096  # per font; maps draw thousands of unique hex numbers, so forget in bulk

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._masks: dict[tuple, tuple] = {}
        self._lengths: dict[tuple, float] = {}

    def getlength(self, text, mode="", direction=None, features=None, language=None) -> float:
        """The advance of ``text``, remembered (charts measure every cell twice: for the
        column width and to centre it)."""
        key = (text, mode, direction, tuple(features) if features else None, language)
        found = self._lengths.get(key)
        if found is None:
            if len(self._lengths) >= self.MAX_MASKS:
                self._lengths.clear()
            found = self._lengths[key] = super().getlength(text, mode, direction, features, language)
        return found

    def getmask2(self, text, mode="", direction=None, features=None, language=None, stroke_width=0,
                 anchor=None, ink=0, start=None, *args, **kwargs):
        if mode not in ("1", "L") or args:
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink,
                                    start, *args, **kwargs)
        key = (text, mode, direction, tuple(features) if features else None, language, stroke_width, anchor,
               tuple(start) if start else None, tuple(sorted(kwargs.items())))
        found = self._masks.get(key)
        if found is None:
            if len(self._masks) >= self.MAX_MASKS:
                self._masks.clear()
            found = self._masks[key] = super().getmask2(text, mode, direction, features, language, stroke_width,
                                                        anchor, ink, start, **kwargs)
        return found


def draw_line(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont,
              fill: tuple[int, int, int], anchor: str | None = None) -> None:
    """``draw.text(xy, text, font=fnt, fill=fill, anchor=anchor)`` for one line of text.

    The same FreeType calls as ``ImageDraw.text`` (the mask from ``fnt.getmask2``, remembered
    by a ``RememberingFont``, stamped with ``draw_bitmap``), so the same pixels, without the text
    layout object ``ImageDraw.text`` builds for every string to split lines and handle strokes:
    a third of the time of each of a map's thousands of hex numbers.
    """
    if "\n" in text:
        raise ValueError("draw_line draws one line")
    ink = draw._getink(fill)[0]
    x, y = xy
    mask, offset = fnt.getmask2(text, draw.fontmode, None, None, None, 0, anchor, ink,
                                (math.modf(x)[0], math.modf(y)[0]), stroke_filled=True)
    draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


@lru_cache(maxsize=512)
def font(size: int, bold: bool = False, italic: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font at a pixel size (cached: loading a TTF is slow)."""
    path = FONT_DIR / _FILES[(bold, italic)]
    return RememberingFont(str(path), max(1, int(size)))


@lru_cache(maxsize=65536)
def ink_bbox(text: str, fnt: ImageFont.FreeTypeFont, stroke: int = 0) -> tuple[int, int, int, int]:
    """``fnt.getbbox(text)``, remembered: the same values, unit names and hex
    numbers are measured again on every counter and map, and FreeType lays the
    string out anew each time.  Fonts come from the cached ``font()``, so one
    font object stands for one face and size and is a safe key."""
    return fnt.getbbox(text, stroke_width=stroke)


def text_size(text: str, fnt: ImageFont.FreeTypeFont, stroke: int = 0) -> tuple[int, int]:
    """Width and height of the ink of ``text`` (not including the line gap)."""
    if not text:
        return 0, 0
    left, top, right, bottom = ink_bbox(text, fnt, stroke)
    return right - left, bottom - top


@dataclass(frozen=True)
class Rect:
    """A pixel rectangle (left, top, right, bottom), right/bottom exclusive."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def centre(self) -> tuple[float, float]:
        return (self.left + self.right) / 2, (self.top + self.bottom) / 2

    def inset(self, dx: float, dy: float | None = None) -> "Rect":
        dy = dx if dy is None else dy
        return Rect(self.left + dx, self.top + dy, self.right - dx, self.bottom - dy)


@lru_cache(maxsize=16384)
def fit_font(
    text: str, max_w: float, max_h: float, start: int, bold: bool = False,
    italic: bool = False, stroke: int = 0, min_size: int = MIN_SIZE,
) -> ImageFont.FreeTypeFont:
    """The largest font <= ``start`` px whose ink of ``text`` fits max_w x max_h.

    Returns the ``min_size`` font if nothing fits; ``draw_fitted`` then
    squeezes the text so it still stays inside its box.  Remembered: the
    search measures the text at every size from ``start`` down, and the same
    string in the same box recurs on many counters (and twice per counter,
    once for the picture and once for its text mask).
    """
    size = max(int(start), min_size)
    while size > min_size:
        f = font(size, bold, italic)
        w, h = text_size(text, f, stroke)
        if w <= max_w and h <= max_h:
            return f
        size -= 1
    return font(min_size, bold, italic)


def draw_fitted(
    img: Image.Image, text: str, box: Rect, fill: str | tuple, start: int | None = None,
    bold: bool = False, italic: bool = False, align: str = "centre",
    stroke: int = 0, stroke_fill: str | tuple | None = None,
) -> Rect | None:
    """Draw ``text`` on one line inside ``box``, shrinking it to fit.

    ``align`` is "centre", "left" or "right" (vertically always centred).
    Returns the box the ink actually occupies (None for empty text), so
    callers can lay out neighbours.  If even the smallest font is too wide the
    text is rendered apart and squeezed horizontally: the box is a hard limit.
    """
    if not text:
        return None
    box = _whole_pixels(box)
    if box.width < 1 or box.height < 1:
        return None
    start = int(start if start is not None else box.height)
    f = fit_font(text, box.width, box.height, start, bold, italic, stroke)
    left, top, right, bottom = ink_bbox(text, f, stroke)
    w, h = right - left, bottom - top
    if w <= box.width and h <= box.height:
        if align == "left":
            x = box.left
        elif align == "right":
            x = box.right - w
        else:
            x = box.left + (box.width - w) // 2
        y = box.top + (box.height - h) // 2
        ImageDraw.Draw(img).text(
            (x - left, y - top), text, font=f, fill=fill, stroke_width=stroke,
            stroke_fill=stroke_fill,
        )
        return Rect(x, y, x + w, y + h)
    return _draw_squeezed(img, text, box, f, fill, stroke, stroke_fill)


def _whole_pixels(box: Rect) -> Rect:
    """The largest whole-pixel box inside ``box`` (ink never straddles its edge)."""
    return Rect(math.ceil(box.left), math.ceil(box.top), math.floor(box.right), math.floor(box.bottom))


def _draw_squeezed(img, text, box, f, fill, stroke, stroke_fill) -> Rect:
    """Render text as a coverage mask and shrink it into the box (last resort).

    Works for any image mode: the mask is pasted with the fill colour, so an
    "L" text mask gets the same pixels as the RGB counter.
    """
    left, top, right, bottom = ink_bbox(text, f, stroke)
    w, h = max(1, right - left), max(1, bottom - top)
    coverage = Image.new("L", (w, h), 0)
    ImageDraw.Draw(coverage).text((-left, -top), text, font=f, fill=255, stroke_width=stroke,
                                  stroke_fill=255)
    nw = max(1, min(w, int(box.width)))
    nh = max(1, min(h, int(box.height)))
    coverage = coverage.resize((nw, nh), Image.Resampling.LANCZOS)
    x = int(box.left + (box.width - nw) // 2)
    y = int(box.top + (box.height - nh) // 2)
    if isinstance(fill, str):
        fill = ImageColor.getcolor(fill, img.mode)
    img.paste(fill, (x, y, x + nw, y + nh), coverage)
    return Rect(x, y, x + nw, y + nh)


def wrap_lines(text: str, fnt: ImageFont.FreeTypeFont, max_w: float) -> list[str]:
    """Greedy word wrap: as many words per line as fit ``max_w``.

    A single word wider than the line stays on its own line (the caller
    shrinks the font until that no longer happens).
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        # A string's ink spans at least that of any of its prefixes, so when the whole
        # paragraph fits, so does every line the greedy loop would try: one line.
        if len(words) > 1 and text_size(" ".join(words), fnt)[0] <= max_w:
            lines.append(" ".join(words))
            continue
        start = 0
        while start < len(words):
            end = _line_end(words, start, fnt, max_w)
            lines.append(" ".join(words[start:end]))
            start = end
    return lines


def _line_end(words: list[str], start: int, fnt: ImageFont.FreeTypeFont, max_w: float) -> int:
    """Where the greedy line that begins with ``words[start]`` ends: word by word, the line
    takes the next word while the ink still fits (its first word always).

    Why not measure word by word: each measurement lays out and loads every glyph of the
    candidate line again, so a long paragraph (the charts' rule texts) cost as many
    measurements as it has words, each as long as a line. Instead the break is guessed from
    the characters' advances, then confirmed by measuring the ink: the line up to the guess
    fits and one more word does not (stepping a word at a time where the guess was off). As
    ink never spans less when words are added, that is exactly where word-by-word wrapping
    breaks; the guess only decides how many measurements it takes (usually two).
    """

    def fits(end: int) -> bool:
        return text_size(" ".join(words[start:end]), fnt)[0] <= max_w

    space = _advance(fnt, " ")
    end, width = start + 1, _advance(fnt, words[start])
    while end < len(words):
        wider = width + space + _advance(fnt, words[end])
        if wider > max_w:
            break
        width, end = wider, end + 1
    if end > start + 1 and not fits(end):
        end -= 1
        while end > start + 1 and not fits(end):
            end -= 1
        return end
    while end < len(words) and fits(end + 1):
        end += 1
    return end


_CHAR_ADVANCES: "weakref.WeakKeyDictionary[ImageFont.FreeTypeFont, dict[str, float]]" = weakref.WeakKeyDictionary()


def _advance(fnt: ImageFont.FreeTypeFont, text: str) -> float:
    """The sum of the characters' own advances: close to the laid-out width (kerning and
    rounding aside), and cheap, for guessing where a line breaks."""
    advances = _CHAR_ADVANCES.get(fnt)
    if advances is None:
        advances = _CHAR_ADVANCES[fnt] = {}
    total = 0.0
    for char in text:
        advance = advances.get(char)
        if advance is None:
            advance = advances[char] = fnt.getlength(char)
        total += advance
    return total


def draw_wrapped(
    img: Image.Image, text: str, box: Rect, fill: str | tuple, start: int,
    bold: bool = False, italic: bool = False, max_lines: int = 4,
) -> None:
    """Draw ``text`` word-wrapped and centred in ``box``, shrinking to fit.

    Used for marker faces ("Great Leader", "Ammo Shortage") where one line at
    a readable size would be too wide.  Each line goes through
    ``draw_fitted`` so no line can overflow even in the worst case.
    """
    if not text.strip():
        return
    size = max(start, MIN_SIZE)
    while True:
        f = font(size, bold, italic)
        lines = wrap_lines(text, f, box.width)[:max_lines]
        line_h = f.getmetrics()[0] + f.getmetrics()[1] * 0.3
        widest = max(text_size(line, f)[0] for line in lines)
        if (widest <= box.width and line_h * len(lines) <= box.height) or size <= MIN_SIZE:
            break
        size -= 1
    total = line_h * len(lines)
    top = box.top + max(0.0, (box.height - total) / 2)
    for i, line in enumerate(lines):
        line_box = Rect(box.left, top + i * line_h, box.right, min(box.bottom, top + (i + 1) * line_h))
        draw_fitted(img, line, line_box, fill, start=size, bold=bold, italic=italic)
