"""SPI Korea movement costs (Movement (A)-(N), Terrain Effects Chart, Zones of Control (A)).

The cost of one step is what the unit pays to ENTER the next hex, plus the ZOC penalty for LEAVING
the hex it is in:
- Clear 1 MP; Rough (wholly or partly) 2 MP (TEC);
- along a road or railroad (or into/out of a town on one, TEC City "treat as a railroad hex")
  1/2 MP "no matter what terrain it passes through" (TEC Roads) - so neither Rough nor the river
  surcharge applies on a road step (every road crossing of a river is a bridge, Bridges);
- River hex (two sides crossed by a river): +1 MP "above the ordinary terrain cost" (TEC);
- leaving an Enemy Zone of Control: +1 MP, however many enemy units (Zones of Control (A));
  "thus it would cost four Movement Points to leave an Enemy Zone, and enter a Rough terrain/River
  hex" (1 + 2 + 1);
- sea hexes and inlet hexsides: no land unit (TEC Sea, Inlet);
- Communist supply units: 1/2 MP into clear, 1 MP into Rough (Movement (K));
- Intervention rule (2): no ZOC-leaving cost in the First Movement Phases of turns 1-3;
  rule (4): Chinese units enter entirely Rough hexes for 1 MP in the Second Movement Phases.

The same function prices UN supply lines (Supply (D): "computed just as if an actual unit was being
moved"), so its numbers come from tables/rule_parameters.csv.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from adjudicator.rules.spi import board as sb
from adjudicator.rules.spi import data
from scenarios.hexgrid import Hex
from scenarios.model import Game

RULE_TEC = "Terrain Effects Chart"
RULE_ZOC = "Zones of Control (A)"


@dataclass(frozen=True)
class Mover:
    """How a unit pays for terrain: ordinary land unit, Communist supply unit, Chinese under rule (4)."""

    communist_supply: bool = False
    chinese_rough_at_one: bool = False  # Intervention rule (4): entirely Rough costs 1 MP
    free_zoc_exit: bool = False  # Intervention rule (2)


ORDINARY = Mover()


def enter_cost(g: Game, t: sb.Terrain, a: Hex, b: Hex, mover: Mover = ORDINARY) -> Fraction | None:
    """MP to enter hex b from adjacent hex a, terrain only (None: a land unit may not)."""
    gm = t.map
    if sb.is_sea(gm, b) or sb.inlet_between(gm, a, b):
        return None
    if t.road_step(a, b):
        return Fraction(1, 2)
    rough = sb.is_rough(gm, b)
    if mover.communist_supply:
        cost = data.fraction_parameter(g, "communist_supply_rough_cost" if rough else "communist_supply_clear_cost")
    elif rough and mover.chinese_rough_at_one and sb.is_entirely_rough(gm, b):
        cost = Fraction(1)
    else:
        cost = Fraction(2 if rough else 1)
    if b in t.rivers:
        cost += data.int_parameter(g, "river_hex_extra_cost")
    return cost


def step_cost(g: Game, t: sb.Terrain, a: Hex, b: Hex, enemy_zoc: set[Hex], mover: Mover = ORDINARY) -> Fraction | None:
    """Entering b from a plus the cost of leaving an enemy ZOC in a (Zones of Control (A))."""
    cost = enter_cost(g, t, a, b, mover)
    if cost is None:
        return None
    if a in enemy_zoc and not mover.free_zoc_exit:
        cost += data.int_parameter(g, "zoc_leave_cost")
    return cost


def halve(value: int) -> int:
    """Supply (A), Movement (N): halved, 'drop any fractions'."""
    return value // 2
