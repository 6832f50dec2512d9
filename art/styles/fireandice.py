"""Korea: Fire and Ice counters.

Nationality backgrounds come from the data (US green, RoK tan, UN minor
powers blue with their own coloured symbol via ``Nationality.symbol``, PRC
salmon, NK red, SU orange).  Units have a fresh and a spent side: the spent
side is the same counter greyed (the generic ``is_spent``).  Cadres and the
units of their division share a coloured division stripe down the left edge
so a player sees at a glance which regiments a cadre can activate (9.4).
Aircraft have ready and reduced sides; the reduced side gets the white stripe
and italic values.
"""

from scenarios.model import Game, Unit

from art.nato import parse_symbol
from art.styles.base import STRIPE_COLOURS, CounterStyle, stable_pick


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
