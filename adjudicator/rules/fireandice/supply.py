"""Lines of Communications (14.5), traced for every unit of a side at once.

14.5: "A unit has a LoC if it can trace a line of no more than 10 MP (8 in winter for the UN) to an
HQ that also has a LoC. Or it has an LoC if it can trace an LoC as an HQ traces its LoC.  An HQ has
a LoC if it can trace no more than 3 hexes (not movement points) to a road, railroad or city hex -
and that hex can trace a line back to a supply source of unlimited length through road, railroad or
city hexes. This trace may not be into hexes with enemy ZoCs or enemy units. ... for a US unit to
use tank or artillery support, it must also trace a LoC to its parent cadre unit no further than 6
MP. Tracing is done as a unit moves using normal movement costs (remember that friendly units
negate ZoCs ...). The trace may not be made through hexes that have enemy units in them."

How the tracer works (three multi-source searches from the sources outward, not one per unit):
1. Blocked hexes: all-sea, enemy units, enemy ZoC that no friendly unit occupies (board.Board).
2. The live net: road, railroad and city hexes joined to a supply source (along a road/railroad
   hexside, or into/out of a city hex) through unblocked hexes - one search from every source.
3. HQ-style trace: one search from the whole live net, 1 per hex, at most 3 hexes.  Every HQ (and
   every unit, the "or" of 14.5) reached has an LoC.
4. Unit trace: one search from every HQ with an LoC, by movement cost (Terrain Effects Chart; road
   rate along roads; river hexsides), at most 10 MP (8 for the UN in winter).
5. US units: one search per division cadre on the map, at most 6 MP, for tank/artillery support.
What depends only on the map (the sea, the net's hexes and steps, every step's movement cost) is
worked out once per map (board.MapFacts); each trace adds its units as flags by hex number and runs
the searches on hex numbers (scenarios.hexgrid.search_indexed) - 2 to 5 ms for a whole side on the
full map.
Searches run from the source outward but price each step as the unit would move (toward the
source); the hex a trace starts in is never "entered", so a unit standing in an enemy ZoC may still
trace out of it.  The 187 RCT always has an LoC (14.3); units listed as in an Invasion box have
one (11.3.1).

Sources (1.0, 11.3.1, 16.0): UN - the port hexes of the Invasion boxes that are supply sources (the
box holds a UN unit, or its port is UN-controlled; every port starts UN-controlled, being in South
Korea); Communist - map features `supply_source` (the marked North Korean hexes; the text does not
give them: labelled stand-ins in maps/korea.features.csv), plus hexes given in the options; in the
Invasion (16.0, Maps B and C) the marked hexes on those maps and the roads leaving map B's north
edge (its row is `special_rules.map_b_north_edge`, a stand-in).

Readings: the unit's MP trace may not enter enemy ZoC either (the digest's reading of "this trace
may not be into hexes with enemy ZoCs"; alternative: ZoC costs +1 MP for units).  The trace may
end in the HQ's hex even if an enemy ZoC covers it.  "Winter" = a winter month on the Game Turn
Record Track (option `winter`, or from `month`).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board as board_field, either_side, register_check
from adjudicator.rules.fireandice import board, data
from adjudicator.rules.gamedata import hexes
from adjudicator.rules.fireandice.schemas import InvasionBox, InvasionPort, Month, SideId
from adjudicator.rules.positions import PositionModel, SupplyReport, UnitAt, UnitSupply, register_supply_tracer
from scenarios.hexgrid import Hex, breadth_first_indexed, search_indexed
from scenarios.model import Game, GameMap

RULE = "14.5 Lines of Communications"
OPTION_KEYS = {"winter", "month", "supply_sources", "port_control", "boxes_with_units", "no_zoc_units",
               "interdicted_units", "in_invasion_boxes", "atomic_hexes", "map_b_north_row"}


def _allowance(g: Game, movement: str) -> int:
    t = data.table(g, "movement_allowances")
    text = t.cell(movement, "mp")
    m = re.match(r"\d+", text.strip())
    if not m:
        raise ValueError(f"movement_allowances: {movement} is {text!r}")
    return int(m.group(0))


def loc_range(g: Game, side: str, winter: bool) -> int:
    """10 MP to an HQ (14.5, table movement_allowances 'command range'); 8 for the UN in winter (14.1)."""
    if side == "un" and winter:
        text = data.table(g, "weather_effects").cell("Winter", "effect")
        m = re.search(r"(\d+)\s*MPs? to an HQ", text)
        if m:
            return int(m.group(1))
    return _allowance(g, "command range")


def _board(g: Game, gm: GameMap, positions: list[UnitAt], no_zoc: set[str]) -> tuple[board.Board, dict[str, Hex]]:
    b = board.Board(gm, no_zoc=set(no_zoc))
    where: dict[str, Hex] = {}
    for p in positions:
        u = data.unit(g, p.unit)
        if u.type == "aircraft":
            continue
        try:
            h = board.parse(gm, p.hex)
        except ValueError as err:
            raise ValueError(f"{p.unit}: {err}") from None
        if p.unit in where:
            raise ValueError(f"{p.unit} is listed twice")
        where[p.unit] = h
        if u.type != "hq":  # an HQ is not a unit (1.0): it neither blocks nor exerts a ZoC
            b.place(p.unit, u.side, h)
        if board.is_sea(gm, h):
            raise ValueError(f"{p.unit} stands in the all-sea hex {p.hex}")
    return b, where


def sources(g: Game, scenario_id: str, gm: GameMap, side: str, options: dict[str, Any]) -> tuple[set[Hex], list[str], list[str]]:
    """(source hexes, steps, warnings) of `side` (1.0, 11.3.1)."""
    warnings: list[str] = []
    given = {board.parse(gm, h) for h in options.get("supply_sources", [])}
    if side == "un":
        control = {h: s for h, s in options.get("port_control", {}).items()}
        with_units = set(options.get("boxes_with_units", []))
        boxes = data.table(g, "invasion_boxes")
        listed = [s[4:] for s in data.scenario(g, scenario_id).supply_sources.get("un", []) if s.startswith("box:")]
        found = set()
        for r in boxes.rows:
            if listed and r["box"] not in listed:
                continue
            port = r["port_hex"]
            try:
                port_hex = board.parse(gm, port)
            except ValueError:
                warnings.append(f"The port {port} of {r['box']} is not on map {gm.id}: not a source here.")
                continue
            if r["box"] in with_units or control.get(port, "un") == "un":
                found.add(port_hex)
        text = f"UN supply sources: the ports of the Invasion boxes that are sources ({', '.join(sorted(board.label(gm, h) for h in found)) or 'none'})"
        return found | given, [text + (f", plus {len(given)} given" if given else "") + "."], warnings
    marked = {f.hex for f in gm.features if f.kind == "supply_source" and f.side in ("", "communist")}
    steps = [f"Communist supply sources marked on the map (1.0): {hexes(len(marked))}"
             + (", a stand-in (maps/korea.features.csv)" if _stand_in_sources(gm) else "") + "."]
    listed = data.scenario(g, scenario_id).supply_sources.get("communist", [])
    if any(s.startswith("edge:") and "map B" in s for s in listed):
        edge = data.special(g, scenario_id, "map_b_north_edge")
        row = int(options.get("map_b_north_row", edge.get("row", 0)))
        if not row:
            raise ValueError(f"scenario {scenario_id}: special_rules.map_b_north_edge.row is missing (16.0 special rule 4)")
        marked = {h for h in marked if h.row >= row}  # 16.0 plays on Maps B and C only
        roads = map_b_edge_roads(gm, row)
        steps = [f"Communist supply sources marked on Maps B and C (1.0): {hexes(len(marked))}; road hexes leaving "
                 f"the north edge of map B (16.0 special rule 4): {hexes(len(roads))}."]
        marked |= roads
        if "map_b_north_row" not in options:
            warnings.append(f"16.0 special rule 4: map B's north edge is taken as row {row} "
                            f"({edge.get('source', 'special_rules.map_b_north_edge')}).")
    found = marked | given
    if given:
        steps.append(f"Plus {hexes(len(given))} given in options.supply_sources.")
    if not found:
        warnings.append("No Communist supply source on the map (1.0 marked hexes) and none given: nothing traces. "
                        "Give options.supply_sources, or mark them in maps/korea.features.csv (kind supply_source).")
    return found, steps, warnings


def _stand_in_sources(gm: GameMap) -> bool:
    return any(f.kind == "supply_source" and f.side in ("", "communist") and f.source.is_stand_in for f in gm.features)


def map_b_edge_roads(gm: GameMap, row: int) -> set[Hex]:
    """Road hexes of `row` whose road leaves northward (to a hex of a lower row) - 16.0 special rule 4."""
    found = set()
    for h in gm.hexes():
        if h.row != row:
            continue
        for n in gm.grid.neighbours(h):
            if n.row < row and "road" in gm.hexside_kinds(h, n):
                found.add(h)
    return found


def _net_closed(facts: board.MapFacts, cut: set[Hex], src: set[Hex], by_units: set[Hex]) -> bytearray:
    """Flags of the hexes the live-net search may not enter: off the road/railroad/city net (the
    sources count as net hexes; atomic-struck hexes lose their roads, 10.3.4), all-sea, or blocked
    by units.  Starts from the map's own flags and changes only the few hexes this trace adds."""
    number = facts.index.number
    closed = bytearray(facts.off_net_or_sea_flags)
    for h in cut - facts.cities:
        if h in number:
            closed[number[h]] = 1
    for h in src - facts.sea:
        closed[number[h]] = 0
    for h in by_units:
        if h in number:
            closed[number[h]] = 1
    return closed


def _blocked_flags(facts: board.MapFacts, by_units: set[Hex]) -> bytearray:
    """Flags of the hexes a trace may not enter (`board.Board.blocked_for`): all-sea or blocked by units."""
    flags = bytearray(facts.sea_flags)
    for h in by_units:
        i = facts.index.number.get(h)
        if i is not None:
            flags[i] = 1
    return flags


def _except(flags: bytearray, numbers: list[int]) -> bytearray:
    """A copy of `flags` with the given hex numbers cleared."""
    copy = bytearray(flags)
    for i in numbers:
        copy[i] = 0
    return copy


def trace_side(g: Game, scenario_id: str, side: str, positions: list[UnitAt], options: dict[str, Any]) -> SupplyReport:
    """LoC status of every unit and HQ of `side` among `positions` (14.5), searches shared by all."""
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise ValueError(f"unknown LoC options {sorted(unknown)}; known: {sorted(OPTION_KEYS)}")
    sc = data.scenario(g, scenario_id)
    gm = g.maps[sc.maps[0]]
    winter = bool(options.get("winter", False))
    if options.get("month"):
        winter = winter or data.is_winter_month(g, options["month"])
    b, where = _board(g, gm, positions, set(options.get("no_zoc_units", [])))
    by_units = b.blocked_by_units(side)  # with the all-sea hexes: what a trace may not enter (board.blocked_for)
    src, src_steps, warnings = sources(g, scenario_id, gm, side, options)
    report = SupplyReport(side=side, warnings=warnings + data.stand_in_warnings(g, f"map {gm.id}", "table terrain_effects"))
    missing = board.unknown_terrain(g, gm)
    if missing:
        report.warnings.append(f"Terrain not on the Terrain Effects Chart, priced as clear: {', '.join(sorted(missing))}.")
    for text in src_steps:
        report.steps.append((text, "1.0 Supply source; 11.3.1"))

    cut = {board.parse(gm, h) for h in options.get("atomic_hexes", [])}
    facts = board.facts(gm)
    index = facts.index
    blocked_flags = _blocked_flags(facts, by_units)
    net_search = search_indexed(index, [i for i in (index.number[h] for h in src) if not blocked_flags[i]],
                                facts.net_edges, blocked=_net_closed(facts, cut, src, by_units))
    live = net_search.order  # the net hexes joined to a source, nearest first
    report.steps.append((f"Live net: {len(live)} road/railroad/city hexes joined to a source without entering enemy "
                         "units or enemy ZoC no friendly unit negates.", RULE))

    hq_reach = _allowance(g, "HQ LoC")
    hq_search = breadth_first_indexed(index, live, hq_reach, ends=blocked_flags)  # counts hexes, not MP
    mp = loc_range(g, side, winter)
    report.steps.append((f"HQ trace: at most {hq_reach} hexes to the live net. Unit trace: at most {mp} MP to an HQ "
                         f"with an LoC{' (UN in winter)' if side == 'un' and winter else ''}, or the HQ trace itself.", RULE))

    mine = [p for p in positions if p.unit in where and data.unit(g, p.unit).side == side]
    hqs = {p.unit: where[p.unit] for p in mine if data.unit(g, p.unit).type == "hq"}
    interdicted = set(options.get("interdicted_units", []))

    def net_path(h: Hex) -> list[str]:
        tail = hq_search.path_to(index.number[h])  # from a net hex to h
        start = tail[0] if tail else index.number[h]
        head = net_search.path_to(start)  # from a source to the net hex
        full = head + tail[1:]
        return [facts.labels[i] for i in reversed(full)]

    hq_ok: dict[str, Hex] = {}
    for unit_id, h in hqs.items():
        if unit_id not in interdicted and hq_search.reached(index.number[h]):
            hq_ok[unit_id] = h
    hq_at = {h: u for u, h in hq_ok.items()}
    toward = facts.toward_edges(g)
    unit_search = None
    if hq_ok:
        # The trace may leave an HQ's hex even under enemy ZoC (it ends there), but no other blocked hex.
        unit_search = search_indexed(index, {index.number[h]: 0.0 for h in hq_ok.values()}, toward, max_cost=mp,
                                     ends=_except(blocked_flags, [index.number[h] for h in hq_ok.values()]))

    cadre_searches: dict[str, Any] = {}
    for p in mine:
        u = data.unit(g, p.unit)
        if u.nationality == "us" and u.parent and u.parent in where and u.parent not in cadre_searches:
            ch = index.number[where[u.parent]]
            cadre_searches[u.parent] = search_indexed(index, {ch: 0.0}, toward, max_cost=_allowance(g, "cadre support range"),
                                                      ends=_except(blocked_flags, [ch]))

    in_boxes = set(options.get("in_invasion_boxes", []))
    for p in mine:
        u = data.unit(g, p.unit)
        h = where[p.unit]
        label = board.label(gm, h)
        if p.unit in interdicted:
            report.units.append(UnitSupply(p.unit, label, False, reason="interdicted: no LoC for this one action (10.4.2)"))
            continue
        if u.has("always_loc"):
            report.units.append(UnitSupply(p.unit, label, True, reason="the 187 RCT always has an LoC (14.3)"))
            continue
        if p.unit in in_boxes:
            report.units.append(UnitSupply(p.unit, label, True, source="invasion box",
                                           reason="units in an Invasion box have an LoC (11.3.1)"))
            continue
        if u.type == "hq":
            if hq_search.reached(index.number[h]):
                cost = hq_search.cost[index.number[h]]
                report.units.append(UnitSupply(p.unit, label, True, net_path(h), "net", cost=cost,
                                               reason=f"HQ: {int(cost)} hex(es) to a road/railroad/city net "
                                                      "reaching a supply source (14.5)"))
            else:
                report.units.append(UnitSupply(p.unit, label, False,
                                               reason="HQ: no road/railroad/city hex joined to a supply source within 3 "
                                                      "hexes without entering enemy units or enemy ZoC (14.5)"))
            continue
        entry = _unit_entry(p.unit, h, u, gm, hq_search, unit_search, hq_at, net_path, mp)
        if u.nationality == "us" and u.parent and u.type != "cadre":
            cs = cadre_searches.get(u.parent)
            if cs is not None and cs.reached(index.number[h]):
                entry.reason += (f"; within {cs.cost[index.number[h]]:g} MP of its cadre {u.parent}: may use "
                                 "tank/artillery (and air, 5.3.1) support (9.4)")
            else:
                entry.reason += (f"; NOT within 6 MP of its cadre {u.parent}: no tank/artillery (nor air, 5.3.1) "
                                 "support (9.4, 14.5)")
        report.units.append(entry)
    return report


def _unit_entry(unit_id, h, u, gm, hq_search, unit_search, hq_at, net_path, mp) -> UnitSupply:
    label = board.label(gm, h)
    index = hq_search.index
    i = index.number[h]
    via_hq = unit_search is not None and unit_search.reached(i)
    via_net = hq_search.reached(i)
    if via_hq:
        to_hq = unit_search.path_to(i)  # HQ ... unit
        hq_hex = index.hexes[to_hq[0]]
        hq = hq_at[hq_hex]
        labels = board.facts(gm).labels
        path = [labels[j] for j in reversed(to_hq)] + net_path(hq_hex)[1:]
        return UnitSupply(unit_id, label, True, path, hq, cost=unit_search.cost[i],
                          reason=f"{unit_search.cost[i]:g} MP to HQ {hq}, which has an LoC (14.5)")
    if via_net:
        return UnitSupply(unit_id, label, True, net_path(h), "net", cost=hq_search.cost[i],
                          reason=f"traces as an HQ: {int(hq_search.cost[i])} hex(es) to the road/railroad/city net (14.5)")
    return UnitSupply(unit_id, label, False,
                      reason=f"no HQ with an LoC within {mp} MP and no road/railroad/city net within 3 hexes, without "
                             "entering enemy units or enemy ZoC (14.5)")


register_supply_tracer("fireandice")(trace_side)


class SupplyRequest(CheckRequest):
    """Every unit of a side: does it have an LoC (14.5)?"""

    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, max_length=40, description="Scenario id.")
    side: SideId = board_field("side", description="The side whose units are checked.")
    positions: list[PositionModel] = board_field("positions", max_length=300,
                                                 description="Units and HQs of BOTH sides on the map.")
    winter: bool = Field(default=False, description="A winter turn: UN LoC to an HQ is only 8 MP (14.1).")
    month: Month | None = board_field("month", default=None,
                                    description="Month (YYYY-MM); a winter month on the Game Turn Record Track "
                                                "sets winter.")
    supply_sources: list[str] = Field(default_factory=list, max_length=100,
                                      description="Extra supply-source hexes (the Communist's marked hexes, 1.0; 16.0 "
                                                  "map B north-edge roads).")
    port_control: dict[InvasionPort, SideId] = Field(default_factory=dict,
                                                     description="Invasion port hex -> controlling side (default: UN).")
    boxes_with_units: list[InvasionBox] = Field(default_factory=list, max_length=4,
                                        description="Invasion boxes holding a UN unit (always supply sources, 11.3.1).")
    in_invasion_boxes: list[str] = Field(default_factory=list, max_length=50,
                                         description="Units standing in an Invasion box (they have an LoC, 11.3.1).")
    no_zoc_units: list[str] = Field(default_factory=list, max_length=100,
                                    description="Units without a ZoC: Routed, Bug Out, RoK units on the first turn (4.3).")
    interdicted_units: list[str] = Field(default_factory=list, max_length=100,
                                         description="Units/HQs whose LoC trace was interdicted for this action (10.4.2).")
    atomic_hexes: list[str] = Field(default_factory=list, max_length=5,
                                    description="Hexes hit by an Atomic Strike: no roads or railroads (10.3.4).")

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo):
        g = data.game_in(info)
        sc = data.scenario(g, self.scenario)
        gm = g.maps[sc.maps[0]]
        for h in self.supply_sources + list(self.port_control) + self.atomic_hexes:
            board.parse(gm, h)
        for u in self.in_invasion_boxes + self.no_zoc_units + self.interdicted_units:
            data.unit(g, u)
        if self.month:
            data.month_row(g, self.month)
        _board(g, gm, [UnitAt.from_model(p) for p in self.positions], set())
        return self

    def options(self) -> dict[str, Any]:
        return {"winter": self.winter, "month": self.month, "supply_sources": self.supply_sources,
                "port_control": self.port_control, "boxes_with_units": self.boxes_with_units,
                "in_invasion_boxes": self.in_invasion_boxes, "no_zoc_units": self.no_zoc_units,
                "interdicted_units": self.interdicted_units, "atomic_hexes": self.atomic_hexes}


@register_check(system="fireandice", name="supply", request=SupplyRequest, random=False,
                summary="Lines of communications of every unit of a side (with paths)", rule="14.5",
                actor=either_side(rule="14.5", why="a supply state both players may establish; no die"),
                example={"side": "un",
                         "positions": [{"unit": "rok-1", "hex": "1944"}, {"unit": "rok-hq-i", "hex": "2550"},
                                       {"unit": "nk-1", "hex": "1943"}]})
def supply(req: SupplyRequest, dice: Dice) -> CheckResult:
    g = data.game()
    report = trace_side(g, req.scenario, req.side, [UnitAt.from_model(p) for p in req.positions], req.options())
    body = report.to_json()
    steps = [Step(text, rule) for text, rule in report.steps]
    for u in report.units:
        steps.append(Step(f"{u.unit} in {u.hex}: {'LoC' if u.in_supply else 'no LoC'} - {u.reason}.", RULE))
    return CheckResult(outcome={"side": body["side"], "units": body["units"], "with_loc": body["in_supply"],
                                "without_loc": body["out_of_supply"]},
                       steps=steps, warnings=report.warnings)
