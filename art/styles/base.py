"""The generic counter look, and the hooks each game's style overrides.

Layout on the 75-unit design grid (see ``art.canvas``)::

     3 ┌──────────────────────────┐   size marks (II, XX...) centred on top,
       │ S        XX              │   nationality letter top-left (SPI)
    16 │      ┌──────────┐        │
       │      │   NATO   │        │   the unit symbol
    40 │      └──────────┘        │
       │         5/1M             │   designation
    56 │       10-9-3             │   printed values (movement red if mobile)
    72 └──────────────────────────┘

A style is a class whose methods each decide one thing (background colour,
whether a step is "reduced", how values are coloured...), so a game's style
module is a handful of small overrides rather than a copy of the layout.
"""

from __future__ import annotations

import hashlib

from scenarios.model import Game, MarkerType, Nationality, Step, Unit

from art.canvas import Canvas, Face, darker, is_dark, mix, rgb
from art.nato import draw_unit_symbol, parse_symbol

NEUTRAL_MARKER = "#e4e0d4"
WHITE = (255, 255, 255)
RED = (200, 16, 16)

# Division stripe colours (Fire and Ice cadres and their regiments); picked
# by a stable hash of the division id so the same division always gets the
# same colour.
STRIPE_COLOURS = (
    "#1f4e9c", "#c0392b", "#f1c40f", "#27ae60", "#8e44ad", "#e67e22", "#111111",
    "#16a085", "#ffffff", "#7f5539",
)


class CounterStyle:
    """Generic counters: nationality colours, NATO symbol, values at the bottom."""

    name = "generic"

    # -- what a game's style may override ----------------------------------

    def nationality(self, game: Game, unit: Unit) -> Nationality:
        nat = game.nationalities.get(unit.nationality)
        if nat is None:  # the loader rejects this; keep the art total anyway
            nat = Nationality(unit.nationality, unit.nationality, unit.side, "#dddddd")
        return nat

    def background(self, game: Game, unit: Unit, step_index: int) -> tuple[int, int, int]:
        colour = rgb(self.nationality(game, unit).background)
        if self.is_spent(game, unit, step_index):
            colour = mix(colour, (128, 128, 128), 0.55)
        return colour

    def text_colour(self, game: Game, unit: Unit) -> tuple[int, int, int]:
        return rgb(self.nationality(game, unit).text or "#000000")

    def symbol_colour(self, game: Game, unit: Unit) -> tuple[int, int, int]:
        nat = self.nationality(game, unit)
        return rgb(nat.symbol or nat.text or "#000000")

    def symbol(self, game: Game, unit: Unit) -> str:
        utype = game.unit_types.get(unit.type)
        symbol = utype.symbol if utype else unit.type
        # Flags that are also symbol primitives add them (a "taskforce"-flagged
        # airborne regiment gets the task-force bracket).
        for flag in ("hq", "taskforce"):
            if unit.has(flag) and flag not in parse_symbol(symbol):
                symbol += f"+{flag}"
        return symbol

    def is_mobile(self, game: Game, unit: Unit) -> bool:
        utype = game.unit_types.get(unit.type)
        return unit.has("mobile") or bool(utype and utype.mobile)

    def is_spent(self, game: Game, unit: Unit, step_index: int) -> bool:
        """A "spent" side (Fire and Ice): same values, greyed."""
        return step_index > 0 and "spent" in unit.steps[step_index].name.lower()

    def is_reduced(self, game: Game, unit: Unit, step_index: int) -> bool:
        """A reduced / depleted side: white stripe, values in italics."""
        return step_index > 0 and not self.is_spent(game, unit, step_index)

    def corner_letter(self, game: Game, unit: Unit) -> str:
        return self.nationality(game, unit).letter

    def stripe_colour(self, game: Game, unit: Unit) -> str | None:
        """Colour of a division stripe down the left edge, or None."""
        return None

    def value_runs(self, game: Game, unit: Unit, step: Step) -> list[tuple[str, tuple]]:
        """The printed values split into coloured runs (mobile movement in red)."""
        colour = self.text_colour(game, unit)
        sep = game.value_separator
        parts = step.text.split(sep) if sep else [step.text]
        move_index = _movement_index(game.value_fields)
        if (
            not self.is_mobile(game, unit) or move_index is None
            or len(parts) != len(game.value_fields) or len(parts) < 2
        ):
            return [(step.text, colour)]
        runs: list[tuple[str, tuple]] = []
        for i, part in enumerate(parts):
            if i:
                runs.append((sep, colour))
            runs.append((part, RED if i == move_index else colour))
        return _merge_runs(runs)

    def printed_extras(self, game: Game, unit: Unit) -> dict | None:
        """Data beyond the unit's own record that its counter prints (the image cache keys
        on it): none in the generic look."""
        return None

    # -- drawing ---------------------------------------------------------------

    def unit_faces(self, game: Game, unit: Unit, scale: int = 1, trace: bool = False) -> list[Face]:
        """One image per step of the unit, in step order."""
        return [self.unit_face(game, unit, i, scale, trace) for i in range(len(unit.steps))]

    def unit_face(self, game: Game, unit: Unit, step_index: int, scale: int, trace: bool) -> Face:
        step = unit.steps[step_index]
        bg = self.background(game, unit, step_index)
        c = Canvas(scale, bg, trace)
        ink = self.text_colour(game, unit)
        reduced = self.is_reduced(game, unit, step_index)
        if reduced:
            self.draw_reduced_stripe(c)
        stripe = self.stripe_colour(game, unit)
        if stripe:
            c.fill(c.rect(0, 0, 4, 75), stripe)
            c.fill(c.rect(4, 0, 4.75, 75), darker(stripe, 0.5))
        self.draw_top_row(c, game, unit, ink)
        self.draw_symbol(c, game, unit, bg)
        if self.prints_values(step):
            c.text(unit.designation, c.rect(6, 40.5, 69, 54.5), ink, bold=True, start=13)
            c.runs(self.value_runs(game, unit, step), c.rect(4, 55, 71, 72), bold=True,
                   italic=reduced, start=17)
        else:
            c.text(unit.designation, c.rect(6, 41, 69, 57), ink, bold=True, start=15)
        if self.is_spent(game, unit, step_index):
            c.fill(c.rect(0, 60, 75, 75), (40, 40, 40))
            c.text("SPENT", c.rect(8, 61.5, 67, 71.5), (255, 255, 255), bold=True)
        c.border(darker(bg, 0.55), 1.0)
        return c.finish(step.name)

    def prints_values(self, step: Step) -> bool:
        """False when a step's "values" are only its own name (Fire and Ice
        ground counters print no numbers: their steps are just fresh/spent)."""
        return bool(step.text.strip()) and step.text.strip().lower() != step.name.strip().lower()

    def draw_reduced_stripe(self, c: Canvas) -> None:
        """The white stripe across a depleted counter (KWB 2.3.1), behind the
        designation so the values stay on the nationality colour."""
        c.fill(c.rect(0, 40.5, 75, 54.5), WHITE)

    def draw_top_row(self, c: Canvas, game: Game, unit: Unit, ink) -> None:
        letter = self.corner_letter(game, unit)
        if letter:
            c.text(letter, c.rect(4, 3, 17, 15), ink, bold=True)
        tf = "taskforce" in parse_symbol(self.symbol(game, unit))
        c.size_marks(unit.size, c.rect(24, 5.5 if tf else 4, 51, 14), ink)

    def draw_symbol(self, c: Canvas, game: Game, unit: Unit, bg) -> None:
        line = self.symbol_colour(game, unit)
        fill = mix(bg, WHITE, 0.35)
        draw_unit_symbol(c.image, c.rect(19, 16, 56, 40), self.symbol(game, unit), line, fill,
                         c.line_width(1.3))

    # -- markers ---------------------------------------------------------------

    def marker_background(self, game: Game, marker: MarkerType, face_index: int) -> tuple[int, int, int]:
        colour = rgb(side_colour(game, marker.side) if marker.side else NEUTRAL_MARKER)
        # A back face gets a darker shade, so the two sides never look alike.
        return darker(colour, 0.18) if face_index % 2 else colour

    def marker_faces(self, game: Game, marker: MarkerType, scale: int = 1, trace: bool = False) -> list[Face]:
        faces = marker.faces or (marker.name,)
        return [self.marker_face(game, marker, i, faces[i], scale, trace) for i in range(len(faces))]

    def marker_face(self, game: Game, marker: MarkerType, index: int, text: str, scale: int,
                    trace: bool) -> Face:
        bg = self.marker_background(game, marker, index)
        ink = (255, 255, 255) if is_dark(bg) else (0, 0, 0)
        c = Canvas(scale, bg, trace)
        if marker.kind == "aircraft":
            draw_unit_symbol(c.image, c.rect(22, 6, 53, 27), "aircraft", ink, None, c.line_width(1.2))
            c.wrapped(text, c.rect(5, 30, 70, 70), ink, start=15)
        else:
            c.fill(c.rect(4, 4, 71, 71), None, outline=mix(bg, ink, 0.35), width_units=0.8)
            c.wrapped(text, c.rect(7, 8, 68, 67), ink, start=17)
        c.border(darker(bg, 0.55), 1.0)
        return c.finish(str(index))


def side_colour(game: Game, side: str) -> str:
    """A side's colour: its first nationality's background (sorted by id, so
    the choice does not depend on file order)."""
    for nat_id in sorted(game.nationalities):
        nat = game.nationalities[nat_id]
        if nat.side == side:
            return nat.background
    return NEUTRAL_MARKER


def stable_pick(key: str, choices: tuple[str, ...]) -> str:
    """The same choice for the same key on every run (Python's hash() is salted)."""
    digest = hashlib.sha1(key.encode("utf-8")).digest()
    return choices[digest[0] % len(choices)]


def _movement_index(fields: tuple[str, ...]) -> int | None:
    for i, name in enumerate(fields):
        lowered = name.lower()
        if lowered.startswith("move") or lowered in ("ma", "mp", "mf"):
            return i
    return None


def _merge_runs(runs: list[tuple[str, tuple]]) -> list[tuple[str, tuple]]:
    merged: list[tuple[str, tuple]] = []
    for text, colour in runs:
        if merged and merged[-1][1] == colour:
            merged[-1] = (merged[-1][0] + text, colour)
        else:
            merged.append((text, colour))
    return merged
