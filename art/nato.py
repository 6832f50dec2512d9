"""NATO unit symbols drawn from primitives, and unit size (echelon) marks.

A unit type's ``symbol`` is a "+"-joined list of primitive names
("infantry+armour" = mechanised infantry).  Each primitive is one small
function that draws into the symbol's frame; adding an arm of service means
adding one function to ``PRIMITIVES``.  A name we do not know is printed as a
short abbreviation inside the frame rather than failing, so new data never
breaks the art (the contact sheet shows it for a person to notice).

Board wargames keep the rectangular frame for both sides and tell the sides
apart by counter colour (research note 3.1), so there is no hostile diamond.
"""

from __future__ import annotations

from typing import Callable

from PIL import Image, ImageDraw

from art.fonts import Rect, draw_fitted

Colour = str | tuple


def parse_symbol(symbol: str) -> list[str]:
    """"infantry + Armour" -> ["infantry", "armour"] (names are case-insensitive)."""
    return [part.strip().lower() for part in symbol.split("+") if part.strip()]


def frame_rect(area: Rect, symbol: str) -> Rect:
    """The frame inside the area allotted to the symbol.

    Frames keep the NATO 3:2 aspect ratio; an HQ leaves room below the frame
    for its staff.
    """
    parts = parse_symbol(symbol)
    height = area.height * (0.72 if "hq" in parts else 1.0)
    width = min(area.width, height * 1.5)
    height = min(height, width / 1.5)
    cx = (area.left + area.right) / 2
    return Rect(cx - width / 2, area.top, cx + width / 2, area.top + height)


def draw_unit_symbol(
    img: Image.Image, area: Rect, symbol: str, line: Colour, fill: Colour | None, width: int,
) -> Rect:
    """Draw frame + primitives into ``area``; return the frame rectangle."""
    draw = ImageDraw.Draw(img)
    frame = frame_rect(area, symbol)
    box = (frame.left, frame.top, frame.right, frame.bottom)
    draw.rectangle(box, fill=fill, outline=None)
    for name in parse_symbol(symbol):
        primitive = PRIMITIVES.get(ALIASES.get(name, name))
        if primitive is None:
            _abbreviation(img, draw, frame, line, width, name)
        else:
            primitive(img, draw, frame, line, width)
    draw.rectangle(box, outline=line, width=width)
    return frame


# -- primitives ---------------------------------------------------------------
# Each takes (img, draw, frame, colour, line width) and draws inside the frame
# (the HQ staff and task-force bracket are the two that draw outside it).

Primitive = Callable[[Image.Image, ImageDraw.ImageDraw, Rect, Colour, int], None]


def _infantry(img, draw, f: Rect, c, w) -> None:
    draw.line((f.left, f.top, f.right, f.bottom), fill=c, width=w)
    draw.line((f.left, f.bottom, f.right, f.top), fill=c, width=w)


def _armour(img, draw, f: Rect, c, w) -> None:
    inner = f.inset(f.width * 0.18, f.height * 0.24)
    draw.rounded_rectangle(
        (inner.left, inner.top, inner.right, inner.bottom),
        radius=inner.height / 2, outline=c, width=w,
    )


def _motorised(img, draw, f: Rect, c, w) -> None:
    cx = (f.left + f.right) / 2
    draw.line((cx, f.top, cx, f.bottom), fill=c, width=w)


def _hq(img, draw, f: Rect, c, w) -> None:
    # The staff hangs from the frame's lower-left corner (APP-6 headquarters).
    draw.line((f.left + w / 2, f.bottom, f.left + w / 2, f.bottom + f.height * 0.38), fill=c, width=w)


def _engineer(img, draw, f: Rect, c, w) -> None:
    left, right = f.left + f.width * 0.3, f.right - f.width * 0.3
    top, bottom = f.top + f.height * 0.35, f.bottom - f.height * 0.3
    cx = (left + right) / 2
    draw.line((left, top, right, top), fill=c, width=w)
    for x in (left, cx, right):
        draw.line((x, top, x, bottom), fill=c, width=w)


def _airborne(img, draw, f: Rect, c, w) -> None:
    cx, base = (f.left + f.right) / 2, f.bottom - f.height * 0.1
    r = f.width * 0.12
    for x in (cx - r, cx + r):
        draw.arc((x - r, base - r, x + r, base + r), 180, 360, fill=c, width=w)


def _marine(img, draw, f: Rect, c, w) -> None:
    cx = (f.left + f.right) / 2
    top, bottom = f.top + f.height * 0.2, f.bottom - f.height * 0.18
    arm = f.width * 0.14
    draw.line((cx, top, cx, bottom), fill=c, width=w)
    draw.line((cx - arm * 0.7, top + f.height * 0.15, cx + arm * 0.7, top + f.height * 0.15), fill=c, width=w)
    draw.arc((cx - arm, bottom - arm * 1.4, cx + arm, bottom), 0, 180, fill=c, width=w)


def _police(img, draw, f: Rect, c, w) -> None:
    draw_fitted(img, "MP", f.inset(f.width * 0.22, f.height * 0.2), c, bold=True)


def _supply(img, draw, f: Rect, c, w) -> None:
    y = f.bottom - f.height * 0.28
    draw.line((f.left, y, f.right, y), fill=c, width=w)


def _cadre(img, draw, f: Rect, c, w) -> None:
    cx, cy = f.centre
    r = min(f.width, f.height) * 0.16
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=c, width=w)


def _artillery(img, draw, f: Rect, c, w) -> None:
    cx, cy = f.centre
    r = min(f.width, f.height) * 0.16
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c)


def _reconnaissance(img, draw, f: Rect, c, w) -> None:
    draw.line((f.left, f.bottom, f.right, f.top), fill=c, width=w)


def _mountain(img, draw, f: Rect, c, w) -> None:
    cx = (f.left + f.right) / 2
    half, h = f.width * 0.14, f.height * 0.32
    draw.polygon([(cx - half, f.bottom), (cx + half, f.bottom), (cx, f.bottom - h)], fill=c)


def _aircraft(img, draw, f: Rect, c, w) -> None:
    cx, cy = f.centre
    fw, fh = f.width, f.height
    # Fuselage, swept wings and tailplane seen from above, nose up.
    draw.line((cx, f.top + fh * 0.12, cx, f.bottom - fh * 0.12), fill=c, width=w + 1)
    draw.polygon(
        [(cx, cy - fh * 0.12), (cx + fw * 0.34, cy + fh * 0.08), (cx + fw * 0.34, cy + fh * 0.16),
         (cx, cy + fh * 0.04), (cx - fw * 0.34, cy + fh * 0.16), (cx - fw * 0.34, cy + fh * 0.08)],
        fill=c,
    )
    tail = f.bottom - fh * 0.16
    draw.polygon(
        [(cx, tail - fh * 0.1), (cx + fw * 0.12, tail), (cx - fw * 0.12, tail)], fill=c,
    )


def _naval(img, draw, f: Rect, c, w) -> None:
    cx = (f.left + f.right) / 2
    fw, fh = f.width, f.height
    deck, keel = f.top + fh * 0.55, f.bottom - fh * 0.18
    draw.polygon(
        [(cx - fw * 0.34, deck), (cx + fw * 0.34, deck), (cx + fw * 0.24, keel), (cx - fw * 0.24, keel)],
        fill=c,
    )
    draw.rectangle((cx - fw * 0.1, deck - fh * 0.2, cx + fw * 0.08, deck), fill=c)
    draw.line((cx, deck - fh * 0.34, cx, deck), fill=c, width=w)


def _taskforce(img, draw, f: Rect, c, w) -> None:
    # The task-force bracket stands above the frame, over the size marks.
    top = f.top - f.height * 0.42
    left, right = f.left + f.width * 0.18, f.right - f.width * 0.18
    draw.line((left, top, right, top), fill=c, width=w)
    draw.line((left, top, left, f.top - w), fill=c, width=w)
    draw.line((right, top, right, f.top - w), fill=c, width=w)


def _antitank(img, draw, f: Rect, c, w) -> None:
    cx = (f.left + f.right) / 2
    draw.line((f.left, f.bottom, cx, f.top), fill=c, width=w)
    draw.line((cx, f.top, f.right, f.bottom), fill=c, width=w)


def _antiaircraft(img, draw, f: Rect, c, w) -> None:
    r = f.width * 0.32
    cx = (f.left + f.right) / 2
    draw.arc((cx - r, f.bottom - r * 0.9, cx + r, f.bottom + r * 0.9), 180, 360, fill=c, width=w)


def _signal(img, draw, f: Rect, c, w) -> None:
    draw.line(
        [(f.left, f.top), (f.left + f.width * 0.45, f.top + f.height * 0.6),
         (f.left + f.width * 0.55, f.top + f.height * 0.4), (f.right, f.bottom)],
        fill=c, width=w,
    )


def _abbreviation(img, draw, f: Rect, c, w, name: str) -> None:
    """An unknown primitive: print its first letters so the gap is visible."""
    draw_fitted(img, name[:3].upper(), f.inset(f.width * 0.15, f.height * 0.2), c, bold=True)


PRIMITIVES: dict[str, Primitive] = {
    "infantry": _infantry,
    "armour": _armour,
    "motorised": _motorised,
    "hq": _hq,
    "engineer": _engineer,
    "airborne": _airborne,
    "marine": _marine,
    "police": _police,
    "supply": _supply,
    "cadre": _cadre,
    "artillery": _artillery,
    "reconnaissance": _reconnaissance,
    "mountain": _mountain,
    "aircraft": _aircraft,
    "naval": _naval,
    "taskforce": _taskforce,
    "antitank": _antitank,
    "antiaircraft": _antiaircraft,
    "signal": _signal,
}

ALIASES = {
    "armor": "armour", "tank": "armour", "motorized": "motorised", "motor": "motorised",
    "headquarters": "hq", "parachute": "airborne", "recon": "reconnaissance",
    "cavalry": "reconnaissance", "air": "aircraft", "ship": "naval", "navy": "naval",
    "task_force": "taskforce", "tf": "taskforce", "mp": "police", "logistics": "supply",
    "anti-tank": "antitank", "at": "antitank", "aa": "antiaircraft", "flak": "antiaircraft",
}


# -- size marks ---------------------------------------------------------------

ECHELON_MARKS = {"I", "II", "III", "X", "XX", "XXX", "XXXX", "XXXXX"}


def draw_size_marks(img: Image.Image, area: Rect, size: str, colour: Colour, width: int) -> None:
    """Echelon marks (II battalion ... XXX corps) centred in ``area``.

    Bars and crosses are drawn as lines, not glyphs, so they look the same
    at every scale.  Any other size text ("Cadre", "Bde") is printed fitted.
    """
    size = size.strip()
    if not size:
        return
    if size.upper() not in ECHELON_MARKS:
        draw_fitted(img, size, area, colour, bold=True)
        return
    draw = ImageDraw.Draw(img)
    marks = size.upper()
    h = area.height
    x_w, gap = h * 0.8, h * 0.3
    total = sum(x_w if m == "X" else width for m in marks) + gap * (len(marks) - 1)
    if total > area.width:  # shrink marks to the area, keeping proportions
        k = area.width / total
        h, x_w, gap = h * k, x_w * k, gap * k
        total = area.width
    top = area.top + (area.height - h) / 2
    x = area.left + (area.width - total) / 2
    half = width / 2
    for m in marks:
        if m == "X":
            draw.line((x + half, top + half, x + x_w - half, top + h - half), fill=colour, width=width)
            draw.line((x + half, top + h - half, x + x_w - half, top + half), fill=colour, width=width)
            x += x_w + gap
        else:
            draw.rectangle((x, top, x + width - 1, top + h), fill=colour)
            x += width + gap
