"""Korean War Battles supply (9.0, 9.1, 9.1.1 and the scenario rules), every unit of a side at once.

9.0 "The Communist player must trace a supply line no more than 3 hexes long to a Supply Center,
which must in turn trace a supply line of any length through any terrain to one of the map-edge
hexes marked with a Supply symbol. The line may not pass through an enemy ZOC (however, friendly
units do 'screen' enemy ZOCs for purposes of drawing supply)."
9.0 "The UN player must trace a supply line no more than 3 hexes long, none of which may be a Rough
hex, to a line of connected road and/or trail hexes that terminates at a supply source named in the
scenario instructions. The line may not pass through an enemy ZOC (however, friendly units do
'screen' enemy ZOCs ...)."
9.1.1 Communist Emergency Supply; 12.21 the Han River (Seoul); 12.3 Surprise and Air Supply (Changjin).

How the tracer works (searches from the sources outward, never one search per unit):
- Blocked hexes (board.Board.blocked_for): sea/reservoir, enemy-occupied hexes, and hexes in an
  enemy ZOC (6.1: none into/out of Rough or City, none across water hexsides, none from no-ZOC
  units) that no friendly unit occupies.
- Communist: one unbounded search from the scenario's supply-symbol hexes finds the Supply Centers
  that trace to the edge (leg 2); one search of at most 3 hexes from those Centers reaches every
  unit in supply (leg 1). A Center that is cut off may be declared for emergency supply (9.1.1):
  units in or adjacent to it are in supply and the Center is expended (deadpile).
- UN: the road/trail net is flooded from the scenario's source hexes along road/trail hexsides
  through unblocked hexes; one search of at most 3 hexes from every net hex reaches the units.
  Rough hexes may end a line but never be passed through (see the reading below).
- Seoul (12.21): UN lines cross a Han River hexside only if a division HQ or the 2SE engineer is
  in one of its two hexes; Communist lines cross it freely.
- Changjin (12.3): on the Surprise turns every Chinese unit is in supply; an Air Supply marker puts
  every UN unit in its hex in supply (at most two on the map).

Readings (the book is silent or ambiguous; the alternative is noted and, where it matters, an option):
- "no more than 3 hexes long" = at most 3 steps from the unit's hex to the Supply Center / net hex.
- The ZOC restriction follows both Communist legs in one sentence: it applies to the Center-to-edge
  leg too (tables/rule_parameters.csv communist_supply_zoc_applies_to). Option
  `center_leg_zoc=False` applies it to the 3-hex leg only.
- UN "none of which may be a Rough hex": the hexes the line passes THROUGH between the unit and the
  road net may not be Rough; the unit's own hex and the net hex it reaches may be (a road through
  Rough mountains is still a road). Alternative: a UN unit in a Rough hex off the net is out of supply.
- Rivers do not block supply lines ("through any terrain"); sea and reservoir hexes do.
- Emergency supply: "in or adjacent to" is plain adjacency (no ZOC test).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, register_check
from adjudicator.rules.kwb import board as kb
from adjudicator.rules.kwb import data
from adjudicator.rules.gamedata import hexes
from adjudicator.rules.kwb.schemas import ScenarioName, SideName
from adjudicator.rules.positions import PositionModel, SupplyReport, UnitAt, UnitSupply, register_supply_tracer
from scenarios.hexgrid import Hex, search
from scenarios.model import Game

RULE = "9.0 Supply"
SURPRISE = "surprise"


def _labels(gm, hexes) -> list[str]:
    return [gm.grid.label(h) for h in hexes]


def surprise_for(g: Game, scenario_id: str, side: str, game_turn: int | None) -> dict:
    """The scenario's Surprise rule when it puts every unit of `side` in supply on `game_turn`, else {}:
    12.3 'For the first two game-turns, all Chinese units are considered to be in supply regardless of
    their individual situation'. Its turns, the sides it covers (`always_in_supply`) and its source are
    the scenario's data."""
    rule = data.special(g, scenario_id, SURPRISE)
    on = game_turn is not None and game_turn in rule.get("turns", []) and side in rule.get("always_in_supply", [])
    return rule if on else {}


def _surprise(g: Game, scenario_id: str, side: str, game_turn: int | None, report: SupplyReport) -> None:
    """Surprise (12.3, by the scenario's data): every unit of the side not traced in supply is in supply."""
    rule = surprise_for(g, scenario_id, side, game_turn)
    if not rule:
        return
    when = f"game-turns {data.turns_text(rule['turns'])}"
    report.steps.append((f"Game-turn {game_turn}: Surprise is in effect ({when}): all {data.side_name(g, side)} units "
                         "are in supply regardless of their situation.", f"{rule.get('source', '')} Surprise".strip()))
    for entry in report.units:
        if not entry.in_supply:
            entry.in_supply, entry.source = True, "surprise"
            entry.reason = f"in supply regardless: Surprise, {when} ({rule.get('source', '')})"


def source_hexes(g: Game, scenario_id: str, side: str) -> list[Hex]:
    gm = data.scenario_map(g, scenario_id)
    return [kb.parse(gm, text) for text in data.scenario(g, scenario_id).supply_sources.get(side, [])]


def trace_side(g: Game, scenario_id: str, side: str, positions: list[UnitAt], options: dict[str, Any]) -> SupplyReport:
    """Supply status of every unit of `side` among `positions` (9.0). `options`:
    game_turn (Changjin Surprise), air_supply_hexes (Changjin), emergency_supply_centers (9.1.1),
    improved_positions (hexes under Improved Position markers, 6.1.1), center_leg_zoc (reading)."""
    gm = data.scenario_map(g, scenario_id)
    elsewhere = [p for p in positions if p.map and p.map != gm.id]
    positions = [p for p in positions if not (p.map and p.map != gm.id)]
    b = kb.Board.from_positions(g, gm, positions, options.get("improved_positions", []))
    report = SupplyReport(side=side)
    report.warnings += data.map_warnings(g, gm.id) + b.anomalies
    if elsewhere:
        report.warnings.append(f"{len(elsewhere)} unit(s) on another map than {gm.id} ignored: "
                               + ", ".join(p.unit for p in elsewhere[:8]))
    blocked = b.blocked_for(side)
    report.steps.append((f"Lines of {side} may not enter {hexes(sum(1 for r in blocked.values() if 'ZOC' in r))} of "
                         "unscreened enemy ZOC (6.1.2: no ZOC into/out of Rough or City nor across water hexsides; "
                         "6.1.1: none from battalions, cadres, HQs, Supply Centers, Improved Positions), nor enemy-occupied "
                         "or water hexes; friendly units screen enemy ZOC.", "9.0; 6.1"))
    if side == "communist":
        _trace_communist(g, scenario_id, b, blocked, options, report)
    else:
        _trace_un(g, scenario_id, b, blocked, options, report)
    _surprise(g, scenario_id, side, options.get("game_turn"), report)
    return report


# -- Communist ---------------------------------------------------------------------------------


def _trace_communist(g, scenario_id, b: kb.Board, blocked, options, report: SupplyReport) -> None:
    gm = b.gm
    reach = data.int_parameter(g, "communist_supply_to_center_max_hexes")
    center_leg_zoc = options.get("center_leg_zoc")
    if center_leg_zoc is None:  # the data's reading (tables/rule_parameters.csv communist_supply_zoc_applies_to)
        center_leg_zoc = data.parameter(g, "communist_supply_zoc_applies_to").strip() == "both legs"
    symbols = [h for h in source_hexes(g, scenario_id, "communist")]
    if center_leg_zoc:
        leg2_blocked = blocked
    else:
        leg2_blocked = {h: r for h, r in blocked.items() if "ZOC" not in r}
    leg2 = search(gm.grid, [h for h in symbols if h not in leg2_blocked],
                  lambda a, n: None if n in leg2_blocked else 1.0)
    centers = [p for p in b.units_of("communist") if data.is_supply_center(p.unit)]
    connected = [c for c in centers if leg2.reached(c.hex)]
    cut_off = [c for c in centers if not leg2.reached(c.hex)]
    report.steps.append((f"Supply Centers tracing a line of any length through any terrain to a supply-symbol hex "
                         f"({', '.join(_labels(gm, symbols))}): "
                         + (", ".join(f"{c.at.unit} ({c.at.hex})" for c in connected) or "none")
                         + (f"; cut off: {', '.join(f'{c.at.unit} ({c.at.hex})' for c in cut_off)}" if cut_off else "")
                         + (" (reading: the ZOC ban of 9.0 applies to this leg too; answer no to 'Center leg ZOC' to drop it)"
                            if center_leg_zoc else " (reading: enemy ZOC ignored on this leg)") + ".", RULE))
    leg1 = search(gm.grid, {c.hex: 0.0 for c in connected}, lambda a, n: None if n in blocked else 1.0, max_cost=reach)
    report.steps.append((f"One search of at most {reach} hexes from the connected Supply Centers reaches every unit "
                         "in supply.", RULE))

    emergency = _emergency_centers(b, options.get("emergency_supply_centers", []), cut_off, report)

    for p in b.units_of("communist"):
        entry = UnitSupply(unit=p.at.unit, hex=p.at.hex, in_supply=False)
        if data.is_supply_center(p.unit):
            if leg2.reached(p.hex):
                path = list(reversed(leg2.path_to(p.hex)))
                entry.in_supply, entry.path = True, _labels(gm, path)
                entry.source, entry.cost = entry.path[-1], leg2.cost[p.hex]
                entry.reason = f"Supply Center traces {hexes(int(leg2.cost[p.hex]))} to supply symbol {entry.source} (9.0)"
            else:
                entry.reason = "Supply Center cut off from every supply-symbol hex (9.0); it may give emergency supply once (9.1.1)"
        elif leg1.reached(p.hex):
            to_center = list(reversed(leg1.path_to(p.hex)))
            center_hex = leg1.origin[p.hex]
            to_edge = list(reversed(leg2.path_to(center_hex)))
            entry.in_supply = True
            entry.path = _labels(gm, to_center + to_edge[1:])
            entry.source = gm.grid.label(to_edge[-1])
            entry.cost = leg1.cost[p.hex]
            center = next(c.at.unit for c in connected if c.hex == center_hex)
            entry.reason = (f"{hexes(int(leg1.cost[p.hex]))} to Supply Center {center} ({gm.grid.label(center_hex)}), "
                            f"which traces to supply symbol {entry.source} (9.0)")
        elif p.hex in emergency:
            entry.in_supply, entry.source = True, f"emergency:{emergency[p.hex]}"
            entry.reason = f"draws emergency supply from cut-off Supply Center {emergency[p.hex]}, which is expended (9.1.1)"
        else:
            entry.reason = (f"no line of at most {reach} hexes to a Supply Center that traces to the map edge, free of "
                            "enemy units and unscreened enemy ZOC (9.0)")
            near = [c.at.unit for c in cut_off if gm.grid.distance(c.hex, p.hex) <= 1]
            if near:
                entry.reason += f"; emergency supply possible from {', '.join(near)} (9.1.1)"
        report.units.append(entry)


def _emergency_centers(b: kb.Board, names, cut_off, report: SupplyReport) -> dict[Hex, str]:
    """Hexes in or adjacent to each Supply Center declared for emergency supply (9.1.1) -> the Center."""
    out: dict[Hex, str] = {}
    cut = {c.at.unit: c for c in cut_off}
    for name in names:
        if name not in cut:
            report.warnings.append(f"{name} is not a cut-off Communist Supply Center on the map: emergency supply "
                                   "(9.1.1) is only for a Center cut off from every supply-symbol hex; ignored.")
            continue
        c = cut[name]
        for h in [c.hex] + b.gm.grid.neighbours(c.hex):
            out.setdefault(h, name)
        report.steps.append((f"Emergency supply from {name} ({c.at.hex}): units in or adjacent to it (plain adjacency) "
                             "are in supply; "
                             "the Supply Center is expended and placed in the deadpile.", "9.1.1"))
    return out


# -- UN ----------------------------------------------------------------------------------------


def road_net(b: kb.Board, sources: list[Hex], blocked: dict[Hex, str]) -> set[Hex]:
    """Road/trail hexes joined to the source hexes along road/trail hexsides through unblocked hexes
    (9.0 'a line of connected road and/or trail hexes that terminates at a supply source'); a Han
    hexside only where a division HQ or the 2SE engineer enables it (12.21)."""
    gm = b.gm
    todo = [h for h in sources if h not in blocked]
    net = set(todo)
    while todo:
        h = todo.pop()
        for n in gm.grid.neighbours(h):
            if n in net or n in blocked or not kb.road_between(gm, h, n):
                continue
            if kb.han_between(gm, h, n) and not b.han_enabled(h, n):
                continue
            net.add(n)
            todo.append(n)
    return net


def _trace_un(g, scenario_id, b: kb.Board, blocked, options, report: SupplyReport) -> None:
    gm = b.gm
    reach = data.int_parameter(g, "un_supply_to_road_max_hexes")
    sources = source_hexes(g, scenario_id, "un")
    net = road_net(b, sources, blocked)
    report.steps.append((f"Road/trail net reaching the UN supply source ({', '.join(_labels(gm, sources))}): "
                         f"{hexes(len(net))}, not through enemy units or unscreened enemy ZOC.", RULE))
    if not kb.road_hexes(gm):
        report.warnings.append(f"Map {gm.id} has no roads or trails yet: UN lines reach the source hexes only.")
    han = any(kb.han_between(gm, h, n) for h in gm.hexes() for n in gm.grid.neighbours(h))

    def step_cost(a: Hex, n: Hex) -> float | None:
        if n in blocked:
            return None
        if kb.han_between(gm, a, n) and not b.han_enabled(a, n):
            return None
        return 1.0

    def onward(h: Hex) -> list[Hex]:
        # A Rough hex may end a line (the unit's own hex) but the line never passes through one.
        if h not in net and kb.is_rough(gm, h):
            return []
        return gm.grid.neighbours(h)

    found = search(gm.grid, {h: 0.0 for h in net}, step_cost, max_cost=reach, neighbours=onward)
    report.steps.append((f"One search of at most {reach} hexes from every net hex, never through a Rough hex "
                         "(reading: the unit's own hex and the net hex may be Rough)"
                         + ("; across a Han River hexside only with a division HQ or the 2SE engineer in one of its "
                            "two hexes (12.21)" if han else "") + ".", RULE))

    air = {kb.parse(gm, x) for x in options.get("air_supply_hexes", [])}
    air_rule = f"{data.special(g, scenario_id, 'air_supply').get('source', '')} Air Supply".strip()
    if air:
        report.steps.append((f"Air Supply markers in {', '.join(sorted(_labels(gm, air)))}: every unit there is in supply "
                             "until the beginning of the UN's next player-turn.", air_rule))
    for p in b.units_of("un"):
        entry = UnitSupply(unit=p.at.unit, hex=p.at.hex, in_supply=False)
        if found.reached(p.hex):
            to_net = list(reversed(found.path_to(p.hex)))
            entry.in_supply, entry.path = True, _labels(gm, to_net)
            entry.cost = found.cost[p.hex]
            entry.source = ", ".join(_labels(gm, sources))
            entry.reason = (f"{hexes(int(found.cost[p.hex]))} to the road/trail net at {entry.path[-1]}, which reaches "
                            f"the supply source (9.0)")
        elif p.hex in air:
            entry.in_supply, entry.source = True, "air supply"
            entry.reason = f"Air Supply marker in its hex ({air_rule})"
        else:
            entry.reason = (f"no line of at most {reach} non-Rough hexes to the road/trail net reaching the supply "
                            "source, free of enemy units and unscreened enemy ZOC (9.0)")
        report.units.append(entry)


@register_supply_tracer("kwb")
def kwb_supply_tracer(game: Game, scenario_id: str, side: str, positions: list[UnitAt],
                      options: dict[str, Any]) -> SupplyReport:
    """The saved-game bridge's entry point (adjudicator.rules.positions)."""
    return trace_side(game, scenario_id, side, positions, options)


# -- the check ---------------------------------------------------------------------------------


class SupplyRequest(CheckRequest):
    """Supply status of every unit of one side at the instant it matters (9.0)."""

    scenario: ScenarioName = board("scenario",
                                   description="Scenario id: pusan, seoul or changjin (sources differ, 12.x).")
    side: SideName = board("side", description="The side whose units are checked.")
    positions: list[PositionModel] = board("positions", min_length=1, max_length=200, description=(
        "Every unit on the map, BOTH sides (enemy units project ZOC, friendly units screen it): unit id from "
        "units.csv, hex, and `step` ('' or 'full', or 'depleted')."))
    game_turn: int | None = board("turn", default=None, ge=1, le=21, description=(
        "The current game-turn: on a Surprise turn (Changjin 12.3: turns 1-2) the scenario's Surprise rule puts "
        "every unit of the sides it names in supply."))
    air_supply_hexes: list[str] = Field(default_factory=list, max_length=4, description=(
        "Changjin only: hexes holding an Air Supply marker (at most two on the map, 12.3)."))
    emergency_supply_centers: list[str] = Field(default_factory=list, max_length=8, description=(
        "Communist only: cut-off Supply Centers the player draws emergency supply from (9.1.1); each is expended."))
    improved_positions: list[str] = Field(default_factory=list, max_length=40, description=(
        "Hexes under an Improved Position marker: units there have no ZOC (6.1.1)."))
    center_leg_zoc: bool | None = Field(default=None, description=(
        "Reading of 9.0: enemy ZOC also blocks the Supply-Center-to-edge leg (True) or only the 3-hex leg (False). "
        "Null = the data's reading (rule_parameters communist_supply_zoc_applies_to: 'both legs')."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        gm = data.scenario_map(g, self.scenario)
        kb.Board.from_positions(g, gm, [UnitAt.from_model(p) for p in self.positions], self.improved_positions)
        if self.air_supply_hexes:
            rule = data.special(g, self.scenario, "air_supply")
            if not rule:
                raise ValueError(f"Air Supply markers exist only in Changjin (12.3), not in {self.scenario}")
            if self.side != "un":
                raise ValueError("Air Supply markers are UN markers (12.3)")
            if len(set(self.air_supply_hexes)) > int(rule.get("max_on_map", 2)):
                raise ValueError(f"at most {rule.get('max_on_map', 2)} Air Supply markers on the map at once (12.3)")
            for x in self.air_supply_hexes:
                kb.parse(gm, x)
        if self.emergency_supply_centers:
            if self.side != "communist":
                raise ValueError("emergency supply is drawn from Communist Supply Centers only (9.1.1)")
            on_map = {p.unit for p in self.positions}
            for c in self.emergency_supply_centers:
                if c not in on_map or not data.is_supply_center(data.unit(g, c)):
                    raise ValueError(f"emergency_supply_centers names {c!r}, which is not a Supply Center on the map")
        return self

    def options(self) -> dict[str, Any]:
        return {"game_turn": self.game_turn, "air_supply_hexes": self.air_supply_hexes,
                "emergency_supply_centers": self.emergency_supply_centers,
                "improved_positions": self.improved_positions, "center_leg_zoc": self.center_leg_zoc}


def run_supply(g: Game, req: SupplyRequest) -> CheckResult:
    report = trace_side(g, req.scenario, req.side, [UnitAt.from_model(p) for p in req.positions], req.options())
    steps = [Step(text, rule) for text, rule in report.steps]
    for u in report.units:
        steps.append(Step(f"{u.unit} in {u.hex}: {'in supply' if u.in_supply else 'OUT OF SUPPLY'} — {u.reason}"
                          + (f"; path {' '.join(u.path)}" if u.path else ""), RULE))
    outcome = report.to_json()
    outcome.pop("steps")
    outcome.pop("warnings")
    outcome["expended_supply_centers"] = sorted({u.source.split(":", 1)[1] for u in report.units
                                                 if u.source.startswith("emergency:")})
    if req.side == "un" and any(not u.in_supply for u in report.units):
        outcome["out_of_supply_effects"] = ("Attack Strength halved (round up), no replacements, mobile and US/CW leg "
                                            "units lose their Mobile Movement Phase movement (9.1)")
    return CheckResult(outcome=outcome, steps=steps, warnings=report.warnings)


@register_check(system="kwb", name="supply", request=SupplyRequest, random=False,
                summary="Supply of every unit of a side at once (paths, sources, emergency and air supply)",
                rule="9.0, 9.1, 9.1.1, 12.21, 12.3",
                actor=either_side(rule="9.0", why="a supply state both players may establish; no die"),
                example={"scenario": "pusan",
                         "side": "communist",
                         "game_turn": 1,
                         "positions": [{"unit": "nk-1-hq", "hex": "2501"}, {"unit": "nk-sc-2", "hex": "2501"},
                                       {"unit": "nk-3", "hex": "2104", "step": "depleted"},
                                       {"unit": "us-1c-hq", "hex": "2205"},
                                       {"unit": "us-5-1c", "hex": "2205", "step": "depleted"}]})
def supply(req: SupplyRequest, dice: Dice) -> CheckResult:
    return run_supply(data.game(), req)
