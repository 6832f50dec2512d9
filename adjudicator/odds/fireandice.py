"""Korea: Fire and Ice: what the odds of its checks with dice compare and count.

Most of its rolls are "needs N or less" on a D6 or D10: the faces at or under the value do one
thing and the others another (a strategic strike's 1 and 6 also count on their own, 10.3.2).
Draws from a cup (chits, Objective markers, SNAFU markers) keep which items were drawn, not the
order. A combat's result is its winner and spread (5.6): the loser's losses are the spread, which
`combat_losses` then satisfies.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from adjudicator.checks import side_label
from adjudicator.odds import faces
from adjudicator.odds.declare import declare, fields, without_dice_echo
from adjudicator.odds.faces import Option, RollCall
from adjudicator.rules.fireandice import air, data, events
from adjudicator.rules.fireandice.victory import objective_pool

RANDOM_EVENT = "Random Event Table "  # events.roll_random_event's purpose: "Random Event Table B"


def random_event_rows(request: Any, call: RollCall) -> list[Option] | None:
    """The Random Event Table: rows that print the same event are one option."""
    if not call.purpose.startswith(RANDOM_EVENT) or call.count != 1:
        return None
    table = data.table(data.game(), "random_events")
    letter = call.purpose[len(RANDOM_EVENT):].strip()
    return faces.one_die(call.sides, lambda face: table.cell(face, letter))


def needs_or_less(value: int, sides: int) -> list[Option]:
    return faces.one_die(sides, lambda face: face <= value)


def air_combat_shots(request: Any, call: RollCall) -> list[Option] | None:
    """10.3.1: a shot hits on its air combat value or less; nothing else reads the die."""
    shooter = call.purpose.split(" fires at ", 1)[0]
    aircraft = next((a for a in request.aircraft if a.unit == shooter), None)
    if aircraft is None or call.count != 1:
        return None
    value, _ = air.rating(data.game(), aircraft, "air_combat", request.rain)
    return needs_or_less(value, call.sides)


def strike_rolls(request: Any, call: RollCall) -> list[Option] | None:
    """10.3.2-10.3.3: a hit on the strategic value or less; a 1 strikes twice, a 6 damages the aircraft."""
    index = len(call.before)
    if index >= len(request.aircraft) or call.count != 1:
        return None
    value, _ = air.rating(data.game(), request.aircraft[index], "strategic", request.rain)
    return faces.one_die(call.sides, lambda face: (face == 1, face == 6, value > 0 and face <= value))


def repair_rolls(request: Any, call: RollCall) -> list[Option] | None:
    """10.2: a repair succeeds within the side's success range."""
    g = data.game()
    side = air.side_of(g, request.aircraft[0])
    low, high = data.success_range(data.table(g, "air_checks").cell(
        f"damaged aircraft repair ({'UN' if side == 'un' else 'Communist'})", "success"))
    return faces.one_die(call.sides, lambda face: low <= face <= high)


def combat_label(d: dict) -> str:
    text = f"{side_label(d['winner'])} wins, spread {d['spread']}"
    if d["random_event"]:
        text += f"; event: {d['random_event'].replace('_', ' ')}"
    if d["quality_markers"]:
        text += f"; {', '.join(d['quality_markers'])}"
    return text


def combat_headline(given: dict) -> str:
    parts = []
    if isinstance(given.get("chit"), dict):
        parts.append(f"chit {given['chit']['id']}")
    if isinstance(given.get("attacker_support"), dict) and isinstance(given.get("defender_support"), dict):
        parts.append(f"support {given['attacker_support']['total']} against "
                     f"{given['defender_support']['total']}")
    return ", ".join(parts)


declare(
    "fireandice.combat",
    distinct=lambda o: {"winner": o["winner_side"], "spread": o["spread"],
                        "random_event": (o["random_event"] or {}).get("kind"),
                        "quality_markers": sorted(f"{m['marker']} ({side_label(m['side'])})"
                                                  for m in o["quality_markers_placed"])},
    label=combat_label,
    headline=combat_headline,
    losses=lambda req, o: {o["loser_side"]: o["spread"], o["winner_side"]: 0},
    loss_unit="spread",
    options=random_event_rows,
    exact_runs=500,
    samples=200,
)

declare(
    "fireandice.random_event",
    distinct=lambda o: {"event": o["text"], "snafu": (o.get("snafu") or {}).get("face"),
                        "snafu_side": (o.get("snafu") or {}).get("side"), "placed_by": o.get("placed_by"),
                        "objective_marker": o.get("objective_marker")},
    label=lambda d: d["event"] + (f" - {d['snafu']} ({side_label(d['snafu_side'])})" if d["snafu"] else ""),
    options=random_event_rows,
)

@lru_cache(maxsize=16)
def chit_cup(combat_type: str) -> tuple[str, ...]:
    """The chits of a combat type's cup, by id (the game's data is read-only: cached)."""
    return tuple(c.id for c in data.cup(data.game(), combat_type))


@lru_cache(maxsize=16)
def objective_markers(side: str, out_of_pool: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    return tuple(objective_pool(data.game(), side, dict(out_of_pool)))


declare(
    "fireandice.snafu_draw",
    distinct=lambda o: {"draws": sorted(f"{d['face']} ({side_label(d['side'])})" for d in o["draws"])},
    label=lambda d: ", ".join(d["draws"]),
    options=faces.cup_draws(lambda req: events.snafu_cup(data.game()), count=lambda req: req.count),
)

declare(
    "fireandice.draw_chits",
    distinct=lambda o: {"chits": sorted(c["id"] for c in o["chits"])},
    label=lambda d: ", ".join(d["chits"]),
    options=faces.cup_draws(lambda req: chit_cup(req.combat_type), count=lambda req: req.count),
)

declare(
    "fireandice.objective_draw",
    distinct=lambda o: {"values": sorted(o["values"]), "total": sum(o["values"])},
    label=lambda d: f"{' + '.join(map(str, d['values']))} = {d['total']} VP",
    options=faces.cup_draws(lambda req: objective_markers(req.side, tuple(sorted(req.out_of_pool.items()))),
                      count=lambda req: req.count),
)

declare(
    "fireandice.air_combat",
    distinct=fields("aircraft", "vp_to", "four_fi_arrives"),  # where each aircraft ends, not who shot whom
    label=lambda d: "; ".join(f"{u} {state}" for u, state in d["aircraft"].items() if state != "full")
    + (f"; VP to {side_label(d['vp_to'])}" if d["vp_to"] else "")
    + ("; 4 F-I arrives" if d["four_fi_arrives"] else "") or "every shot misses",
    options=air_combat_shots,
)

declare(
    "fireandice.air_attack",
    distinct=fields("hit", "target_result", "attacker_station"),
    label=lambda d: (d["target_result"] or "no shot") + (f"; attacker {d['attacker_station']}"
                                                          if d["attacker_station"] else ""),
)

declare(
    "fireandice.stay_on_station",
    distinct=fields("result"),
    label=lambda d: d["result"],
)

declare(
    "fireandice.interdiction",
    distinct=fields("denied", "interdictor_damaged", "station"),
    label=lambda d: ("denied" if d["denied"] else "not denied") + ("; interdictor damaged" if d["interdictor_damaged"]
                                                                   else "")
    + (f"; {d['station']}" if d["station"] else ""),
)

declare(
    "fireandice.strategic_strike",
    distinct=lambda o: without_dice_echo({k: v for k, v in o.items() if k != "results"})
    | {"damaged": sorted(r["aircraft"] for r in o["results"] if r["attacker_damaged"])},
    label=lambda d: (f"Infrastructure -{d['infrastructure_struck']}" if d.get("infrastructure_struck")
                     else f"{d['airfields_damaged']} airfield(s) damaged" if d.get("airfields_damaged") else "no hit")
    + (f"; damaged: {', '.join(d['damaged'])}" if d["damaged"] else ""),
    options=strike_rolls,
)

declare(
    "fireandice.aircraft_repair",
    distinct=fields("results"),
    label=lambda d: ", ".join(f"{a} {r}" for a, r in d["results"].items()),
    options=repair_rolls,
)

declare(
    "fireandice.amphibious_invasion",
    distinct=fields("to_replacements"),
    label=lambda d: f"to the Replacements box: {', '.join(d['to_replacements'])}" if d["to_replacements"]
    else "the bombardment hits nothing",
    losses=lambda req, o: {"communist": len(o["to_replacements"])},
    loss_unit="units",
    options=lambda req, call: needs_or_less(req.bombardment_level, call.sides),
)

for _check, _what in (("atomic_release", "Atomic Release"), ("roc_intervention", "RoC intervention"),
                      ("soviet_intervention", "Soviet intervention")):
    declare(
        f"fireandice.{_check}",
        distinct=fields("roll_allowed", "success", "effect"),
        label=lambda d, what=_what: (f"{what}" if d["success"] else f"no {what}") if d["roll_allowed"]
        else "no roll allowed",
    )

declare(
    "fireandice.chinese_intervention",
    distinct=fields("roll_allowed", "intervenes", "may_delay"),
    label=lambda d: ("the Chinese intervene" if d["intervenes"] else "no intervention") if d["roll_allowed"]
    else "no roll allowed",
)

declare(
    "fireandice.foreign_aid",
    distinct=lambda o: {"interventions": {r["intervention"]: r["success"] for r in o.get("intervention_rolls") or []}},
    label=lambda d: ", ".join(f"{k} intervention" if ok else f"no {k} intervention"
                              for k, ok in d["interventions"].items()) or "no intervention roll",
)

declare(
    "fireandice.weather",
    distinct=fields("weather", "aircraft_fly", "un_loc_mp", "un_supply_costs_doubled"),
    label=lambda d: d["weather"],
)

declare(
    "fireandice.combat_losses",
    # what the spread does is fixed by the request; the dice only draw SNAFU markers for routed units (6.2)
    distinct=lambda o: without_dice_echo(o) | {"snafu_draws": sorted(
        f"{d['unit']}: {d['face']} ({side_label(d['side'])})" for d in o["snafu_draws"])},
    label=lambda d: "SNAFU: " + ", ".join(d["snafu_draws"]) if d["snafu_draws"] else "no SNAFU draw",
)
