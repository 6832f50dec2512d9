"""Korean War Battles: what the odds of its checks with dice compare and count.

Losses are steps (7.6): each flip to the depleted side and each move to the deadpile is one.
Which unnumbered regiment replaces a depleted division is drawn at random, but every unnumbered
regiment of a nationality prints the same values (units.csv), so the draw is one option whenever
that holds and every face otherwise.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from adjudicator.odds import faces
from adjudicator.odds.declare import declare, fields
from adjudicator.odds.faces import Option, RollCall
from adjudicator.rules.kwb import data, losses, support

REGIMENT_DRAW = "random unnumbered "  # losses.take_step's purpose: "random unnumbered NK regiment for nk-6"


def unit_steps(states: list[dict]) -> list[dict]:
    """Units as a loss leaves them: which unit shows which side (not which regiment replaced whom)."""
    return [{"unit": s["unit"], "step": s["step"]} for s in states]


def step_losses(*state_lists: list[dict]) -> dict[str, int]:
    """Steps lost per side: the flips and deadpile moves in the units' histories (7.6)."""
    g = data.game()
    lost: dict[str, int] = {}
    for states in state_lists:
        for s in states:
            side = g.units[s["unit"]].side
            n = sum(1 for h in s["history"] if ": flipped to" in h or ": deadpile" in h)
            lost[side] = lost.get(side, 0) + n
    return lost


def _same_values(nationality: str) -> bool:
    regiments = data.generic_regiments(data.game(), nationality)
    return len({tuple(s.text for s in u.steps) for u in regiments}) <= 1


def regiment_draws(request: Any, call: RollCall) -> list[Option] | None:
    """A depleted division's replacement: one option when its nationality's regiments are alike."""
    if call.purpose.startswith(REGIMENT_DRAW) and call.count == 1:
        nationality = call.purpose[len(REGIMENT_DRAW):].split(" ", 1)[0].lower()
        if nationality in losses.LADDER_NATIONALITIES and _same_values(nationality):
            return [((1,), Fraction(1))]
    return None


def breakdown_draws(request: Any, call: RollCall) -> list[Option] | None:
    """5.3.2: three regiments drawn from the pool; only their values and side count, not the order."""
    g = data.game()
    u = data.unit(g, request.division)
    pool = losses.GenericPool.for_game(g, set(), request.generic_pool).available[u.nationality]
    left, drawn = faces.replay_draws(pool, [values[0] for values in call.before])
    side = "depleted" if data.step_name(u, "" if request.step == "full" else request.step) != u.steps[0].name \
        else "full"
    values = {r: data.unit(g, r).step(side).text for r in pool}
    need = data.int_parameter(g, "breakdown_regiments")
    return faces.draw([values[r] for r in left], [values[r] for r in drawn], unordered=True,
                      still_to_draw=need - len(drawn) - 1)


declare(
    "kwb.combat",
    distinct=lambda o: {"result": o["result"], "meaning": o["meaning"], "attackers": unit_steps(o["attackers"]),
                        "defenders": unit_steps(o["defenders"]), "attacker_retreat_hexes": o["attacker_retreat_hexes"],
                        "defender_retreat_hexes": o["defender_retreat_hexes"]},
    label=lambda d: d["result"],
    headline=lambda given: f"{given['odds']} odds, column {given['column']}" if "column" in given else "",
    losses=lambda req, o: step_losses(o["attackers"], o["defenders"], o["new_units"]),
    loss_unit="steps",
    options=regiment_draws,
)

declare(
    "kwb.bombardment",
    distinct=lambda o: {"result": o["result"], "targets": unit_steps(o["targets"])},
    label=lambda d: d["result"],
    headline=lambda given: f"column {given['column']}" if "column" in given else "",
    losses=lambda req, o: step_losses(o["targets"], o["new_units"]),
    loss_unit="steps",
    options=regiment_draws,
)

declare(
    "kwb.counter_battery",
    distinct=fields("result", "cancelled"),
    label=lambda d: f"{d['result']} ({'cancelled' if d['cancelled'] else 'no effect'})",
    headline=lambda given: f"column {given['column']}" if "column" in given else "",
)

declare(
    "kwb.division_breakdown",
    distinct=lambda o: {"regiments": sorted(f"{r['values']} ({r['step']})" for r in o["regiments"])},
    label=lambda d: ", ".join(d["regiments"]),
    options=breakdown_draws,
)

declare(
    "kwb.supply_center_move",
    distinct=fields("moves_normally", "nearest_supply_symbol_hexes"),
    label=lambda d: "moves normally" if d["moves_normally"] else (
        "placed in the nearest supply-symbol hex" + (f" ({' or '.join(d['nearest_supply_symbol_hexes'])})"
                                                     if d["nearest_supply_symbol_hexes"] else "")),
)

declare(
    "kwb.un_supply_shortage_end",
    distinct=fields("shortage_ended"),
    label=lambda d: "the shortage ends" if d["shortage_ended"] else "the shortage continues",
)

declare(
    "kwb.support_fire_draw",
    distinct=lambda o: {"markers": sorted(o["markers"])},
    label=lambda d: ", ".join(d["markers"]),
    options=faces.cup_draws(lambda req: support.marker_pool(data.game(), req.side, req.out_of_pool),
                            count=lambda req: req.count),
)
