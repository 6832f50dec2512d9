"""Korea: Fire and Ice counters.

Nationality backgrounds come from the data (US green, RoK tan, UN minor
powers blue with their own coloured symbol via ``Nationality.symbol``, PRC
salmon, NK red, SU orange).  Units have a fresh and a spent side: the spent
side is the same counter greyed (the generic ``is_spent``).  Cadres and the
units of their division share a coloured division stripe down the left edge
so a player sees at a glance which regiments a cadre can activate (9.4).
Aircraft have ready and reduced sides; the reduced side gets the white stripe
and italic values.  Ground counters print no values (2.2); an aircraft prints
its plane type and, from the data's aircraft table (stand-in ratings: the book
prints them on the Air Displays), its mission ratings and a star for elite
pilots, so a player planning the air war reads them off the counter.
"""

from scenarios.model import Game, Unit

from art.canvas import Canvas, Face, darker
from art.nato import draw_unit_symbol, parse_symbol
from art.styles.base import STRIPE_COLOURS, WHITE, CounterStyle, stable_pick

AIRCRAFT_TABLE = "aircraft"
#: The ratings an aircraft counter prints, as (label, aircraft table column), in two rows.
RATINGS = ((("A", "air_combat"), ("S", "strategic"), ("I", "interdiction")),
           (("G", "ground_support"), ("St", "station")))


def aircraft_ratings(game: Game, unit: Unit) -> dict[str, str] | None:
    """The unit's row of the aircraft table (None: not an aircraft, or no row)."""
    table = game.tables.get(AIRCRAFT_TABLE)
    if table is None or not table.key:
        return None
    return next((dict(row) for row in table.rows if row.get(table.key) == unit.id), None)


class FireAndIceStyle(CounterStyle):
    name = "fireandice"

    def is_cadre(self, game: Game, unit: Unit) -> bool:
        return unit.has("cadre") or "cadre" in parse_symbol(self.symbol(game, unit))

    def stripe_colour(self, game: Game, unit: Unit) -> str | None:
        if self.is_cadre(game, unit):
            return stable_pick(unit.id, STRIPE_COLOURS)
        if unit.parent and unit.parent in game.units and self.is_cadre(game, game.units[unit.parent]):
            return stable_pick(unit.parent, STRIPE_COLOURS)
        if unit.parent and unit.has("divisional"):
            return stable_pick(unit.parent, STRIPE_COLOURS)
        return None

    def printed_extras(self, game: Game, unit: Unit) -> dict | None:
        return aircraft_ratings(game, unit)

    def unit_face(self, game: Game, unit: Unit, step_index: int, scale: int, trace: bool) -> Face:
        ratings = aircraft_ratings(game, unit)
        if ratings is None:
            return super().unit_face(game, unit, step_index, scale, trace)
        return self.aircraft_face(game, unit, step_index, ratings, scale, trace)

    def aircraft_face(self, game: Game, unit: Unit, step_index: int, ratings: dict[str, str], scale: int,
                      trace: bool) -> Face:
        """Symbol, designation, plane type, then the ratings "A2 S0 I3" / "G4 St4" (2.2; the
        reduced side in italics behind a white stripe, as the book marks reduced values)."""
        step = unit.steps[step_index]
        bg = self.background(game, unit, step_index)
        c = Canvas(scale, bg, trace)
        ink = self.text_colour(game, unit)
        reduced = self.is_reduced(game, unit, step_index)
        if ratings.get("elite", "").strip().lower() in ("yes", "true", "1"):
            c.text("\u2605", c.rect(4, 3, 17, 16), ink, bold=True)
        draw_unit_symbol(c.image, c.rect(23, 4, 52, 20), self.symbol(game, unit), ink, None, c.line_width(1.2))
        c.text(unit.designation, c.rect(5, 21, 70, 31), ink, bold=True, start=10)
        if reduced:
            c.fill(c.rect(0, 32, 75, 46), WHITE)
        c.text(step.text, c.rect(5, 32, 70, 46), ink, bold=True, italic=reduced, start=14)
        for row, top in zip(RATINGS, (48, 60)):
            line = " ".join(f"{label}{ratings.get(column, '?')}" for label, column in row)
            c.text(line, c.rect(4, top, 71, top + 11), ink, bold=True, italic=reduced, start=11)
        c.border(darker(bg, 0.55), 1.0)
        return c.finish(step.name)
