"""HoldFast Korea supply (10), traced for every unit of a side at once.

10: "For a UN unit to be in supply it must be able to trace a supply chain up to 3 hexes between the
unit and a rail line that runs to Pusan, or a UN controlled port. Communist units are in supply if
they can trace a supply chain up to 3 hexes to a rail line that runs to a hex adjacent to the north
map edge (yellow highlighted hex lines), or the unit itself be within 3 hexes of the north map edge.
Supply chains may not be traced through enemy zones of control or across red hex lines. Friendly
units negate enemy zone of control in hexes they occupy, but friendly zone of control does not
negate enemy zone of control. At the end of each of the player's turns the player checks all of
their units supply. A unit that is out of supply is reduced by 1 SP. Units at 1 SP are eliminated
if they are out of supply."

How the tracer works (one search for the whole side, from the sources outward):
1. Blocked hexes: open water, enemy-occupied hexes, and enemy-ZOC hexes no friendly unit occupies
   (ZOC does not extend across red hex lines, 4).
2. The live rail net: rail hexes joined along rail hexsides to Pusan (UN) or to a yellow map-edge
   hex (Communist), through hexes that are not blocked.
3. One multi-source Dijkstra (scenarios.hexgrid.search) from every live rail hex and (UN) every
   UN-controlled port, 1 per hex, never into a blocked hex or across a red hex line, at most 3.
   Every unit reached is in supply, with its path and source.
4. Communist units within 3 hexes of a yellow map-edge hex are in supply without a chain.
5. A unit making a naval assault this turn is in supply for the turn (9.1).

Readings (book silent or ambiguous; alternatives noted):
- "up to 3 hexes" = at most 3 steps from the unit's hex to the rail/port hex (a unit on the rail
  traces 0). Alternative: 3 hexes between them (4 steps).
- The rail line itself must not run through enemy units or enemy ZOC (the designer's notes, 15:
  the Inch'on landing "virtually cuts all North Korean supply lines south of there"). Alternative:
  any rail hex connected to the terminus on the map, whatever stands on it (option
  `rail_cut_by_enemy=false`).
- "within 3 hexes of the north map edge" = within 3 hexes of a yellow (map_edge) hex, counted as
  plain distance (not a traced chain). Alternative: within 2 of those hexes (they are themselves
  adjacent to the edge).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board as board_field, either_side, register_check
from adjudicator.rules.holdfast import board, control, data
from adjudicator.rules.holdfast.schemas import SideName
from adjudicator.rules.positions import PositionModel, SupplyReport, UnitAt, UnitSupply, register_supply_tracer
from scenarios.hexgrid import Hex, search
from scenarios.model import Game

RULE = "10 Supply"


def positions_board(g: Game, gm, positions: list[UnitAt]) -> board.Board:
    """Put every position on a Board; ValueError for unknown blocks, hexes or two units in a hex."""
    b = board.Board(gm)
    for p in positions:
        u = data.unit(g, p.unit)
        try:
            h = board.parse(gm, p.hex)
        except ValueError as err:
            raise ValueError(f"{p.unit}: {err}") from None
        if h in b.unit_at:
            raise ValueError(f"{p.unit} and {b.unit_at[h]} both stand in {p.hex}: one unit per hex (9.1)")
        b.side_of[h] = u.side
        b.unit_at[h] = p.unit
    return b


def blocked_hexes(b: board.Board, side: str) -> set[Hex]:
    """Hexes a supply chain of `side` may not enter (10; 4)."""
    enemy = data.other_side(side)
    blocked = {h for h in b.gm.hexes() if board.is_water(b.gm, h)}
    blocked |= {h for h, s in b.side_of.items() if s == enemy}
    blocked |= {h for h in b.zoc_of(enemy) if not b.occupied_by(h, side)}
    return blocked


def _sources(g: Game, scenario_id: str, gm, side: str, changed: dict[str, str]) -> tuple[set[Hex], set[Hex], list[str]]:
    """(rail anchors, controlled ports, warnings): where the side's supply lines start (10)."""
    warnings: list[str] = []
    if side == "un":
        anchors = set()
        for text in data.scenario(g, scenario_id).supply_sources.get("un", []):
            if text[:1].isdigit():
                try:
                    anchors.add(board.parse(gm, text))
                except ValueError as err:
                    warnings.append(f"UN rail terminus {text} (campaign.toml [supply_sources]) ignored: {err}")
        anchors |= {f.hex for f in gm.features if f.kind == "supply_source" and f.side in ("", "un")}
        ports = set()
        for p in control.ports(gm):
            who, w = control.controller(g, gm, scenario_id, p, changed)
            warnings += w
            if who == "un":
                ports.add(p)
        return anchors, ports, warnings
    return set(gm.hexes_with("map_edge")), set(), warnings


def trace_side(g: Game, scenario_id: str, side: str, positions: list[UnitAt], options: dict[str, Any]) -> SupplyReport:
    """Supply status of every unit of `side` among `positions` (10), one search for them all."""
    sc = data.scenario(g, scenario_id)
    gm = g.maps[sc.maps[0]]
    rules = data.special(g, scenario_id, "supply")
    reach = int(options.get("trace_hexes", rules.get("trace_hexes", 3)))
    edge_range = int(rules.get("communist_within_hexes_of_north_edge", 3))
    changed = {h: "un" for h in options.get("un_controlled_ports", [])}
    changed.update({h: "communist" for h in options.get("communist_controlled_ports", [])})
    assaulting = set(options.get("naval_assault_units", []))
    rail_cut = bool(options.get("rail_cut_by_enemy", True))

    b = positions_board(g, gm, positions)
    blocked = blocked_hexes(b, side)
    anchors, ports, warnings = _sources(g, scenario_id, gm, side, changed)
    report = SupplyReport(side=side, warnings=list(dict.fromkeys(warnings)))
    report.warnings += data.map_stand_in_warning(g, gm.id)

    live_rail = board.rail_network(gm, anchors, (lambda h: h not in blocked) if rail_cut else (lambda h: not board.is_water(gm, h)))
    sources = {h for h in live_rail | ports if h not in blocked}
    terminus = "Pusan" if side == "un" else "a yellow hex on the north map edge"
    report.steps.append((f"Live rail net: {len(live_rail)} rail hexes joined to {terminus} without passing enemy units "
                         f"or unnegated enemy ZOC" + (f"; plus {len(ports & sources)} UN-controlled ports" if side == 'un' else "")
                         + f". One search from them, at most {reach} hexes, never into enemy ZOC that no friendly "
                         "unit occupies nor across a red hex line.", RULE))
    if not board.rail_hexes(gm):
        report.warnings.append("The map has no rail lines yet: supply traces to ports (UN) and the north-edge range "
                               "(Communist) only.")

    def step_cost(a: Hex, n: Hex) -> float | None:
        if n in blocked or board.red_line_between(gm, a, n):
            return None
        return 1.0

    found = search(gm.grid, sources, step_cost, max_cost=reach)
    near_edge = None
    if side == "communist":
        near_edge = search(gm.grid, set(gm.hexes_with("map_edge")), lambda a, n: 1.0, max_cost=edge_range)
        report.steps.append((f"Communist units within {edge_range} hexes of a yellow north-edge hex are in supply "
                             "without a chain.", RULE))

    for p in positions:
        u = data.unit(g, p.unit)
        if u.side != side:
            continue
        h = board.parse(gm, p.hex)
        entry = UnitSupply(unit=p.unit, hex=p.hex, in_supply=False)
        if p.unit in assaulting:
            entry.in_supply, entry.source = True, "naval assault"
            entry.reason = "making a naval assault this turn: in supply for the whole turn (9.1)"
        elif found.reached(h):
            path = list(reversed(found.path_to(h)))
            src = found.origin[h]
            what = "rail line" if src in live_rail else "UN-controlled port"
            entry.in_supply = True
            entry.path = [gm.grid.label(x) for x in path]
            entry.source = gm.grid.label(src)
            entry.cost = found.cost[h]
            entry.reason = f"traces {int(found.cost[h])} hex(es) to a {what} at {entry.source} (10)"
        elif near_edge is not None and near_edge.reached(h):
            path = list(reversed(near_edge.path_to(h)))
            entry.in_supply = True
            entry.path = [gm.grid.label(x) for x in path]
            entry.source = "edge:north"
            entry.cost = near_edge.cost[h]
            entry.reason = f"within {int(near_edge.cost[h])} hex(es) of the north map edge (yellow hex {entry.path[-1]}) (10)"
        else:
            entry.reason = _why_not(b, side, h, blocked, reach, gm)
        report.units.append(entry)
    return report


def _why_not(b: board.Board, side: str, h: Hex, blocked: set[Hex], reach: int, gm) -> str:
    zoc_neighbours = [n for n in gm.grid.neighbours(h) if n in blocked and not board.is_water(gm, n)]
    text = f"no chain of at most {reach} hexes to a rail line or port of its side"
    if side == "communist":
        text = f"no chain of at most {reach} hexes to a rail line running to the north edge, and not within range of it"
    if zoc_neighbours:
        sources = sorted({b.unit_at[s] for n in zoc_neighbours for s in b.enemy_zoc_sources(n, side)} |
                         {b.unit_at[n] for n in zoc_neighbours if n in b.unit_at})
        text += f"; adjacent hexes blocked by enemy units/ZOC ({', '.join(sources)})"
    return text + " (10)"


@register_supply_tracer("holdfast")
def holdfast_supply_tracer(game: Game, scenario_id: str, side: str, positions: list[UnitAt],
                           options: dict[str, Any]) -> SupplyReport:
    """The saved-game bridge's entry point (adjudicator.rules.positions)."""
    return trace_side(game, scenario_id, side, positions, options)


# -- attrition -------------------------------------------------------------------------------


def current_sp(g: Game, p: UnitAt) -> int:
    """SP on the block's top edge: the position's step, '' = the block's highest edge."""
    u = data.unit(g, p.unit)
    if not p.step:
        return data.block_edges(u)[0]
    sp = int(p.step)
    msg = data.check_block_sp(g, p.unit, sp)
    if msg:
        raise ValueError(msg)
    return sp


def attrition(g: Game, scenario_id: str, report: SupplyReport, positions: list[UnitAt]) -> list[dict]:
    """End-of-turn losses (10): each unit out of supply loses 1 SP; at 1 SP it is eliminated."""
    rules = data.special(g, scenario_id, "supply")
    loss = int(rules.get("out_of_supply_sp_loss", 1))
    by_unit = {p.unit: p for p in positions}
    out = []
    for entry in report.out_of_supply:
        p = by_unit[entry.unit]
        after = data.lose_sp(g, scenario_id, p.unit, current_sp(g, p), loss)
        out.append(after.to_json())
    return out


# -- the check -------------------------------------------------------------------------------


class SupplyRequest(CheckRequest):
    """Supply status of every unit of one side (10), with the end-of-turn attrition it causes."""

    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, description="Scenario id.")
    side: SideName = board_field("side",
                                 description="The side whose units are checked (its own end-of-turn check, 5 "
                                             "steps 7/11).")
    positions: list[PositionModel] = board_field("positions", min_length=1, max_length=80, description=(
        "Every block on the map, BOTH sides (enemy units project ZOC): unit id, hex, and `step` = the SP on "
        "its top edge ('' = the block's highest edge)."))
    un_controlled_ports: list[str] = Field(default_factory=list, max_length=40, description=(
        "Ports that changed to UN control since the start (12); others keep their starting control."))
    communist_controlled_ports: list[str] = Field(default_factory=list, max_length=40,
                                                  description="Ports that changed to Communist control since the start.")
    naval_assault_units: list[str] = Field(default_factory=list, max_length=2, description=(
        "Units making a naval assault this turn: in supply for the whole turn (9.1)."))
    rail_cut_by_enemy: bool = Field(default=True, description=(
        "Reading: enemy units and unnegated enemy ZOC cut the rail line itself (designer's notes 15). False = any "
        "rail hex connected to the terminus counts."))
    apply_attrition: bool = Field(default=True, description="Report the end-of-turn SP losses of out-of-supply units.")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        gm = g.maps[data.scenario(g, self.scenario).maps[0]]
        positions = [UnitAt.from_model(p) for p in self.positions]
        positions_board(g, gm, positions)
        for p in positions:
            current_sp(g, p)
        for unit in self.naval_assault_units:
            if unit not in {p.unit for p in positions}:
                raise ValueError(f"naval_assault_units names {unit!r}, which has no position")
        return self

    def options(self) -> dict[str, Any]:
        return {"un_controlled_ports": self.un_controlled_ports,
                "communist_controlled_ports": self.communist_controlled_ports,
                "naval_assault_units": self.naval_assault_units, "rail_cut_by_enemy": self.rail_cut_by_enemy}


def run_supply(g: Game, req: SupplyRequest) -> CheckResult:
    positions = [UnitAt.from_model(p) for p in req.positions]
    report = trace_side(g, req.scenario, req.side, positions, req.options())
    steps = [Step(text, rule) for text, rule in report.steps]
    for u in report.units:
        steps.append(Step(f"{u.unit} in {u.hex}: {'in supply' if u.in_supply else 'OUT OF SUPPLY'} — {u.reason}"
                          + (f"; path {' '.join(u.path)}" if u.path else ""), RULE))
    outcome = report.to_json()
    outcome.pop("steps")
    outcome.pop("warnings")
    if req.apply_attrition:
        losses = attrition(g, req.scenario, report, positions)
        outcome["attrition"] = losses
        steps += [Step(attrition_text(a), RULE) for a in losses]
    return CheckResult(outcome=outcome, steps=steps, warnings=report.warnings)


def attrition_text(loss: dict) -> str:
    """One block's end-of-turn loss in words. Its strengths stand in brackets right after the
    block's id ("rok-1 (2 SP)"), where the fog of war's redaction (`adjudicator.fog.redact`) seals
    them with the block: the opponent reads "a UN block is out of supply and loses 1 SP: now a UN block", never the
    strength the rules hide (Fog of War); what is public is the loss itself (10) and an elimination
    (the block leaves the board)."""
    before = f"{loss['unit']} ({loss['sp_before']} SP)"
    if loss["eliminated"]:
        return f"End of turn: {before} is out of supply and loses {loss['hits']} SP: eliminated."
    after = f"{loss['block']} ({loss['sp']} SP)"
    return f"End of turn: {before} is out of supply and loses {loss['hits']} SP: now {after}" + (
        " (its reduced block)." if loss["swapped"] else ".")


@register_check(system="holdfast", name="supply", request=SupplyRequest, random=False,
                summary="Supply of every unit of a side at once, with paths and end-of-turn attrition", rule="10",
                actor=either_side(rule="10", why="a supply state both players may establish; no die"),
                example={"side": "communist",
                         "positions": [{"unit": "nkpa-1", "hex": "0818", "step": "3"},
                                       {"unit": "rok-1", "hex": "0920", "step": "2"}]})
def supply(req: SupplyRequest, dice: Dice) -> CheckResult:
    return run_supply(data.game(), req)
