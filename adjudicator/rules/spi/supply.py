"""SPI Korea supply (Supply (A)-(I); Zones of Control (B), (C); Special Game Rules), every unit of a side
at once.

Supply (C) Communist: "considered in supply if they are within two hexes, regardless of terrain, of a
supply unit, i.e., there may be only one intervening hex ... This supply line is blocked if an Enemy Zone
of Control intervenes."
Supply (D) UN: "in supply if they are within sixteen (16) Movement Points of a supply unit [or Pusan]
... the Movement Points are computed just as if an actual unit was being moved, with one exception: a
supply line may not be traced through an Enemy Zone of Control, unless a Friendly unit is in that Zone.
UN supply units may not be used as a source of supply if they themselves are not able to trace a line
clear of Enemy Zones of Control, no matter how long or devious, to Pusan."
Supply (F) the Amph unit on a coastal hex is a source and "need not trace a clear lane back to Pusan".
Supply (G) air supply: "Up to two divisions (six regiments) of UN units ... per Game-Turn" (one division
in the turn of a paradrop, Parachute Troops).
Zones of Control (B): for supply, ZOCs do not extend into hexes occupied by the tracing side's units;
(C) nor into entirely Rough hexes. Invasion Game rule (2): Soul is a UN supply base until taken by the
Communists (Campaign: only to turn 17). Intervention (1) / Shock Effect / the stand-in Invasion (1):
Communist units in supply at all times.

How the tracer works (searches from the sources outward, never one search per unit):
- Communist: one search of at most two steps from every Communist supply unit; a hex may be passed
  THROUGH (the one intervening hex) only if no unscreened UN ZOC and no UN unit is in it.
- UN: one unbounded search from Pusan over land, through no unscreened Communist ZOC, finds the UN
  supply units that may act as sources; then one search of at most 16 MP from Pusan, (Soul), those
  supply units and every coastal Amph reaches the units in supply. Step costs are movement.step_cost
  (terrain, road 1/2, river +1, +1 to leave an enemy ZOC hex - which on a supply line can only be a
  hex a UN unit occupies).

Readings (the book is silent; the alternative in brackets):
- The 16 MP are priced from the source outward, as if a unit moved from the source to the supplied
  unit [from the unit to the source: costs differ only where entering costs differ by direction].
- The 16 MP use an ordinary unit's terrain costs; Movement (I)'s road doubling for non-Korean units
  changes the allowance, not the cost per hex, so it does not apply [16 MP doubled on roads].
- Communist lines do not cross sea hexes or inlet hexsides ("regardless of terrain" read as land terrain).
- A line includes its source hex: Pusan, Soul or an Amph hex in an enemy ZOC with no UN land unit in it
  starts no line [the source hex is exempt].
- UN supply units that cannot trace to Pusan are out of supply themselves (Supply (A) "Exception: see
  Case D") and are no source.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, register_check
from adjudicator.rules.positions import PositionModel, SupplyReport, UnitAt, UnitSupply, register_supply_tracer
from adjudicator.rules.spi import board as sb
from adjudicator.rules.spi import data, losses, movement, special
from adjudicator.rules.spi.schemas import ScenarioName, SideName
from scenarios.hexgrid import Hex, search
from scenarios.model import Game

RULE_C = "Supply (C)"
RULE_D = "Supply (D)"


def _labels(gm, hexes) -> list[str]:
    return [gm.grid.label(h) for h in hexes]


def air_capacity(g: Game, paradrop_this_turn: bool) -> int:
    """Supply (G): six regiments; Parachute Troops: one division (three) in the turn of a paradrop."""
    key = "air_supply_capacity_paradrop_turn" if paradrop_this_turn else "air_supply_capacity"
    return data.int_parameter(g, key)


def air_regiments(g: Game, unit_ids: list[str]) -> int:
    return sum(losses.regiments(g, data.values_text(data.unit(g, u))) for u in unit_ids)


def soul_is_base(g: Game, scenario_id: str, game_turn: int | None, soul_taken: bool) -> tuple[bool, str]:
    rule = data.special(g, scenario_id, "soul_supply_base")
    if not rule:
        return False, ""
    if soul_taken:
        return False, "Soul has been taken by the Communists: no longer a supply base, even if retaken (Invasion (2))"
    last = rule.get("last_turn")
    if last is not None and game_turn is not None and game_turn > int(last):
        return False, f"Soul's supply base ends with the Invasion special rules (turn {last}, Campaign Game)"
    return True, "Soul is a UN supply base until taken by the Communists (Special Game Rules: Invasion (2))"


def trace_side(g: Game, scenario_id: str, side: str, positions: list[UnitAt], options: dict[str, Any]) -> SupplyReport:
    """Supply status of every unit of `side` among `positions`. `options`: game_turn,
    shock_effect_active, air_supplied (UN unit ids), paradrop_this_turn, soul_taken_by_communists."""
    gm = data.scenario_map(g, scenario_id)
    elsewhere = [p for p in positions if p.map and p.map != gm.id]
    positions = [p for p in positions if not (p.map and p.map != gm.id)]
    board = sb.Board.from_positions(g, gm, positions)
    report = SupplyReport(side=side)
    if elsewhere:
        report.warnings.append(f"{len(elsewhere)} position(s) on maps other than {gm.id} ignored")
    report.warnings += data.map_warnings(g, gm.id)
    rules = special.in_force(g, scenario_id, options.get("game_turn"), bool(options.get("shock_effect_active")))
    report.warnings += rules.warnings
    if side == "communist":
        _trace_communist(g, gm, board, rules, report)
    else:
        _trace_un(g, scenario_id, gm, board, options, report)
    return report


def _naval(report: SupplyReport, p: sb.Placed) -> None:
    report.units.append(UnitSupply(p.at.unit, p.at.hex, True, reason="naval unit: supply rules do not apply "
                                   "(Naval Units)"))


def _trace_communist(g: Game, gm, board: sb.Board, rules: special.InForce, report: SupplyReport) -> None:
    mine = board.units_of("communist")
    if rules.communist_always_supplied:
        why = rules.cite(special.ALWAYS_SUPPLIED) or rules.rule
        report.steps.append(("Communist units are in supply at all times this Game-Turn.", why))
        for p in mine:
            report.units.append(UnitSupply(p.at.unit, p.at.hex, True, source="special rule", reason=why))
        return
    supply_units = [p for p in mine if data.is_supply_unit(p.unit)]
    by_hex: dict[Hex, list[str]] = {}
    for p in supply_units:
        by_hex.setdefault(p.hex, []).append(p.at.unit)
    enemy_units = board.occupied_by("un")
    blocked = board.zoc_of("un", for_supply_of="communist") | enemy_units
    reach = data.int_parameter(g, "communist_supply_range")

    def step(a: Hex, b: Hex):
        if sb.is_sea(gm, b) or sb.inlet_between(gm, a, b) or b in enemy_units:
            return None
        if a not in by_hex and a in blocked:
            return None
        return 1

    found = search(gm.grid, list(by_hex), step, max_cost=reach)
    report.steps.append((f"{len(supply_units)} Communist supply unit(s); a unit within {reach} hexes of one is in "
                         "supply unless an enemy ZOC (not screened by a Communist unit) or enemy unit is on the "
                         "intervening hex.", RULE_C))
    for p in mine:
        if data.is_naval(p.unit):
            continue
        if data.is_supply_unit(p.unit):
            report.units.append(UnitSupply(p.at.unit, p.at.hex, True, source=p.at.unit,
                                           reason="supply units are never out of supply (Supply (A))"))
            continue
        if found.reached(p.hex):
            path = found.path_to(p.hex)
            src = ", ".join(by_hex[found.origin[p.hex]])
            report.units.append(UnitSupply(p.at.unit, p.at.hex, True, _labels(gm, reversed(path)), src,
                                           f"within {int(found.cost[p.hex])} hex(es) of supply unit {src} "
                                           "(Supply (C))", cost=found.cost[p.hex]))
        else:
            report.units.append(UnitSupply(p.at.unit, p.at.hex, False, reason=(
                f"no Communist supply unit within {reach} hexes with a free intervening hex (Supply (C), "
                "Zones of Control (B))")))


def _trace_un(g: Game, scenario_id: str, gm, board: sb.Board, options: dict[str, Any], report: SupplyReport) -> None:
    terrain = sb.Terrain.of(gm)
    mine = board.units_of("un")
    enemy_units = board.occupied_by("communist")
    zoc_moving = board.zoc_of("communist")
    zoc_supply = board.zoc_of("communist", for_supply_of="un")
    sc = data.scenario(g, scenario_id)
    pusan = sb.place_hexes(gm, "Pusan")
    soul = set(gm.find_named(data.special(g, scenario_id, "soul_supply_base").get("place", "Soul")))
    sources: dict[Hex, str] = {}
    for text in sc.supply_sources.get("un", []):
        if text.startswith("any:"):
            continue
        h = sb.parse(gm, text)
        if h in soul:
            ok, why = soul_is_base(g, scenario_id, options.get("game_turn"), bool(options.get("soul_taken_by_communists")))
            report.steps.append((why, "Special Game Rules: Invasion (2)"))
            if not ok:
                continue
        if h in enemy_units or h in zoc_supply:
            report.steps.append((f"{text} is occupied by Communist units or in their Zone of Control with no UN unit "
                                 "in it: no supply line can start there.", RULE_D))
            continue
        sources[h] = "Pusan" if h in pusan else ("Soul" if h in soul else text)

    def clear_of_zoc(a: Hex, b: Hex):
        if sb.is_sea(gm, b) or sb.inlet_between(gm, a, b) or b in enemy_units or b in zoc_supply:
            return None
        return 1

    to_pusan = search(gm.grid, [h for h in pusan if h not in enemy_units and h not in zoc_supply], clear_of_zoc)
    supply_status: dict[str, tuple[bool, str]] = {}
    for p in mine:
        if data.is_supply_unit(p.unit):
            ok = to_pusan.reached(p.hex)
            supply_status[p.at.unit] = (ok, "traces a line clear of enemy ZOCs to Pusan (Supply (D))" if ok else
                                        "cannot trace a line clear of enemy ZOCs to Pusan: not a source and out of "
                                        "supply (Supply (D))")
            if ok:
                sources.setdefault(p.hex, p.at.unit)
        elif data.is_amph(p.unit):
            if sb.is_coastal(gm, p.hex) and p.hex not in zoc_supply:
                sources.setdefault(p.hex, p.at.unit)
                report.steps.append((f"Amph {p.at.unit} on coastal hex {p.at.hex} is a supply source (need not trace "
                                     "to Pusan).", "Supply (F)"))
            else:
                report.steps.append((f"Amph {p.at.unit} in {p.at.hex} is not on a partially-land (coast) hex free of "
                                     "unscreened enemy ZOC: no supply source.", "Supply (F)"))
    reach = data.int_parameter(g, "un_supply_range")

    def priced(a: Hex, b: Hex):
        if b in enemy_units or b in zoc_supply:
            return None
        return movement.step_cost(g, terrain, a, b, zoc_moving)

    found = search(gm.grid, {h: 0 for h in sources}, priced, max_cost=reach)
    report.steps.append((f"UN sources: {', '.join(sorted(set(sources.values()))) or 'none'}; a unit within {reach} MP "
                         "(terrain costs as if moving, no line through an enemy ZOC without a UN unit in it) is in "
                         "supply.", RULE_D))
    air = list(options.get("air_supplied") or [])
    if air:
        report.steps.append((f"Air supply this Game-Turn: {', '.join(air)} ({air_regiments(g, air)} regiments of "
                             f"{air_capacity(g, bool(options.get('paradrop_this_turn')))}).", "Supply (G)"))
    for p in mine:
        if data.is_naval(p.unit):
            _naval(report, p)
            continue
        if data.is_supply_unit(p.unit):
            ok, why = supply_status[p.at.unit]
            report.units.append(UnitSupply(p.at.unit, p.at.hex, ok, _labels(gm, reversed(to_pusan.path_to(p.hex))),
                                           "Pusan" if ok else "", why))
            continue
        if found.reached(p.hex):
            path = found.path_to(p.hex)
            src = sources[found.origin[p.hex]]
            cost = float(found.cost[p.hex])
            report.units.append(UnitSupply(p.at.unit, p.at.hex, True, _labels(gm, reversed(path)), src,
                                           f"{cost:g} MP from {src} (Supply (D))", cost=cost))
        elif p.at.unit in air:
            report.units.append(UnitSupply(p.at.unit, p.at.hex, True, source="air",
                                           reason="supplied by air this Game-Turn (Supply (G))"))
        else:
            report.units.append(UnitSupply(p.at.unit, p.at.hex, False, reason=(
                f"no source within {reach} MP by a line free of unscreened enemy ZOC (Supply (D)); not air-supplied")))


@register_supply_tracer("spi")
def spi_supply_tracer(game: Game, scenario_id: str, side: str, positions: list[UnitAt],
                      options: dict[str, Any]) -> SupplyReport:
    """The saved-game bridge's entry point (adjudicator.rules.positions)."""
    return trace_side(game, scenario_id, side, positions, options)


# -- the check ---------------------------------------------------------------------------------


class SupplyRequest(CheckRequest):
    """Supply status of every unit of one side at the instant it matters (Supply, Procedure)."""

    scenario: ScenarioName = board("scenario",
                                   description="Game played: a scenario id of the data, e.g. 'invasion' (sources differ).")
    side: SideName = board("side", description="The side whose units are checked.")
    positions: list[PositionModel] = board("positions", min_length=1, max_length=300, description=(
        "Every unit on the map, BOTH sides (enemy units project ZOC, friendly units screen it): unit id from "
        "units.csv and hex (CCRR)."))
    game_turn: int | None = board("turn", default=None, ge=1, le=60, description=(
        "The Game-Turn: Intervention 1-3 (rule (1)) and Invasion 1-3 (stand-in rule (1)) put every Communist unit "
        "in supply; the Campaign's Soul base ends after turn 17."))
    shock_effect_active: bool = Field(default=False, description=(
        "Campaign only: a Shock Effect turn (Intervention rule (1): Communist units always in supply)."))
    air_supplied: list[str] = Field(default_factory=list, max_length=6, description=(
        "UN units supplied by air this Game-Turn: at most six regiments (two divisions), Supply (G)."))
    paradrop_this_turn: bool = Field(default=False, description=(
        "The 187th paradropped this turn: air supply capacity is one division (Parachute Troops)."))
    soul_taken_by_communists: bool = Field(default=False, title="Seoul (Soul) taken by the Communists", description=(
        "Invasion/Campaign: the Communists have taken Soul at some point; it is no longer a UN supply base (rule (2))."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        gm = data.scenario_map(g, self.scenario)
        sb.Board.from_positions(g, gm, [UnitAt.from_model(p) for p in self.positions if not p.map or p.map == gm.id])
        special.in_force(g, self.scenario, self.game_turn, self.shock_effect_active)
        if self.air_supplied:
            if self.side != "un":
                raise ValueError("air supply is for UN units only (Supply (G))")
            on_map = {p.unit for p in self.positions}
            for u in self.air_supplied:
                if u not in on_map or data.unit(g, u).side != "un":
                    raise ValueError(f"air_supplied names {u!r}, which is not a UN unit among the positions")
            used, cap = air_regiments(g, self.air_supplied), air_capacity(g, self.paradrop_this_turn)
            if used > cap:
                raise ValueError(f"air supply for {used} regiments exceeds the {cap} allowed this Game-Turn "
                                 "(Supply (G); Parachute Troops)")
        return self

    def options(self) -> dict[str, Any]:
        return {"game_turn": self.game_turn, "shock_effect_active": self.shock_effect_active,
                "air_supplied": self.air_supplied, "paradrop_this_turn": self.paradrop_this_turn,
                "soul_taken_by_communists": self.soul_taken_by_communists}


OUT_OF_SUPPLY_EFFECTS = ("Movement Allowance and Combat Strength halved, fractions dropped (Supply (A), Movement (N)); "
                         "no rail movement; no entrenching nor benefit from an Entrenched counter, Position Defense "
                         "only by terrain (Supply (E)); unsupplied non-Korean UN units lose the special road rate "
                         "(Supply (E)); never eliminated for lack of supply (Supply (B)).")


def run_supply(g: Game, req: SupplyRequest) -> CheckResult:
    report = trace_side(g, req.scenario, req.side, [UnitAt.from_model(p) for p in req.positions], req.options())
    steps = [Step(text, rule) for text, rule in report.steps]
    for u in report.units:
        steps.append(Step(f"{u.unit} in {u.hex}: {'in supply' if u.in_supply else 'OUT OF SUPPLY'} - {u.reason}"
                          + (f"; path {' '.join(u.path)}" if u.path else ""),
                          RULE_C if req.side == "communist" else RULE_D))
    outcome = report.to_json()
    outcome.pop("steps")
    outcome.pop("warnings")
    if any(not u.in_supply for u in report.units):
        outcome["out_of_supply_effects"] = OUT_OF_SUPPLY_EFFECTS
    return CheckResult(outcome=outcome, steps=steps, warnings=report.warnings)


@register_check(system="spi", name="supply", request=SupplyRequest, random=False,
                summary="Supply of every unit of a side at once (Communist 2 hexes, UN 16 MP, Amph, air supply)",
                rule="Supply (A)-(I); Zones of Control (B), (C)",
                actor=either_side(rule="Supply (A)", why="a supply state both players may establish; no die"),
                example={"scenario": "invasion",
                         "side": "communist",
                         "game_turn": 1,
                         "positions": [{"unit": "nk-d6", "hex": "1518"}, {"unit": "nk-d1", "hex": "1818"},
                                       {"unit": "nk-105", "hex": "2317"}]})
def supply(req: SupplyRequest, dice: Dice) -> CheckResult:
    return run_supply(data.game(), req)
