"""What a ruling orders, resolved once (issue 49): every documented example of the four games
(`CheckSpec.example`, docs/examples), rolled with many dice so its outcomes come in every kind the
check gives, goes through the resolver (`adjudicator.unit_changes.ruled_changes`), and each reader
agrees with the piece actions it resolves:

* the resolver itself: every change takes actions (a step its counter does not have: none), each
  step named is one of its counter's steps, each action is made by its change's side;
* the headline's unit lines (the chat and the ruling's page) name every unit a change orders;
* the ledger's board leaves each unit as the actions leave it;
* the log check finds a board where a player made every action applied (nothing missing), and a
  board left as it was missing every change that asks for something;
* the web write-back makes every action on the board, or leaves it to the players saying why
  (a retreat, a marker, a choice, another side's piece);
* and no step of a ruling orders a retreat, a marker on a unit or a hex, or a track marker's move
  that no change carries (issue 49: orders on hexes and tracks are changes too).
"""

from __future__ import annotations

import itertools
import json
import re
import typing
from functools import lru_cache

import pytest

from adjudicator.bridge.locate import BOX, HEX, TRACK, TRACKS_MAP, Location
from adjudicator.bridge.positions import OtherPiece, PlacedUnit, Positions
from adjudicator.bridge.writeback import (
    LEFT, MOVE, PLACE, REMOVE, SHOW_FACE, SHOW_STEP, TO_BOX, TO_DEAD_PILE, piece_changes,
)
from adjudicator.checks import all_checks, run_check
from adjudicator.ledger.board import LedgerBoard
from adjudicator.ledger.dice import LedgerDice
from adjudicator.logs.board import MARKER_KEY, Shown, checked_actions, marker_key, missing_changes, ordered_changes
from adjudicator.piece_actions import (
    CHOOSE, DELETE, ELIMINATE, MOVE as MOVE_ACTION, MOVE_MARKER, PLACE as PLACE_ACTION, PLACE_MARKER, REMOVE_MARKER,
    RETREAT_ORDER, SET_ASIDE, SHOW_STEP as SHOW_STEP_ACTION, marker_cell, step_name,
)
from adjudicator.testing import candidate_seeds
from adjudicator.unit_changes import (
    BOARD_TARGETS, BROKEN_DOWN, ELIMINATED, MARKED, MOVED, ON_HEX, REPLACED, RETREAT, RETURNED, REVEALED, STEP, TRACK,
    canonical_outcome, changing, ruled_changes,
)
from adjudicator.unit_owners import owners_of
from adjudicator.words.names import UnitNames
from adjudicator.words.transcript import affected_units
from scenarios import load_game

SYSTEMS = ("kwb", "spi", "holdfast", "fireandice")
#: Rolls per random example: enough that a check's outcomes come in each kind it gives.
ROLLS = 24
#: What a step of a ruling orders a unit in words, and the change kinds that carry the order.
ORDERS = {
    "retreat": (re.compile(r"\b(?<!may )(?<!cannot )(?<!not )retreats? (\d) hex"), {RETREAT, MOVED}),
    "marker": (re.compile(r"\bplace an? (Elite|Poor|Guards|Penal|Disrupted|Routed|Bug Out)\b", re.I), {MARKED}),
    "marker on a hex": (re.compile(r"\bplace a revealed \w+ Objective marker\b", re.I), {ON_HEX}),
    "track move": (re.compile(r"tank support level (drops )?by [1-9]|replacements (drop )?by [1-9]|\btank -[1-9]|"
                              r"\bartillery -[1-9]|\b[1-9] replacement points? spent", re.I), {TRACK}),
}
#: The cell a track marker stands on before a ruling (one it moves down from, and no cell a ruling orders).
BEFORE_CELL = "5"


def specs():
    return [s for s in all_checks() if s.system in SYSTEMS and s.example is not None]


@lru_cache(maxsize=None)
def game(system: str):
    return load_game(system)


@lru_cache(maxsize=None)
def _rulings(key: str) -> tuple[tuple[dict, dict, str], ...]:
    spec = next(s for s in specs() if s.key == key)
    out, seen = [], set()
    for body in situations(spec):
        try:
            request = spec.request.model_validate_json(json.dumps(body))
        except ValueError:
            continue  # a choice the rules refuse in this situation
        sides = spec.actor.sides(request)
        side = sorted(sides)[0] if sides else ""
        for seed in itertools.islice(candidate_seeds(), ROLLS if spec.random else 1):
            result = run_check(spec, request, LedgerDice(seed, 1)).to_json()
            key_ = json.dumps(result["outcome"], sort_keys=True)
            if key_ not in seen:
                seen.add(key_)
                out.append((body, {"system": spec.system, "check": spec.name, "request": body, "side": side, **result},
                            side))
    return tuple(out)


def rulings(spec) -> tuple[tuple[dict, dict, str], ...]:
    """(request, result, side asking) of the example, and of it with each other value of each of its
    choices among fixed values (SPI's Combat Results Table: meeting, position, pursuit), rolled with
    each of ROLLS dice (once if no die)."""
    return _rulings(spec.key)


def situations(spec) -> list[dict]:
    body = {k: v for k, v in spec.example.items() if k != "dice"}
    out = [body]
    for name, field in spec.request.model_fields.items():
        values = typing.get_args(field.annotation) if typing.get_origin(field.annotation) is typing.Literal else ()
        out += [{**body, name: value} for value in values if name in body and value != body[name]]
    return out


# -- a board before the ruling, and the board a player who made every action leaves ---------------------

def board_before(system: str, changes) -> dict[str, Shown]:
    """Every unit the changes name on one hex of the game's first map (showing its first step), the
    counters a change places lying in a box."""
    g = game(system)
    map_id = next(iter(g.maps))
    hexes = g.maps[map_id].hexes()
    middle = g.maps[map_id].grid.label(hexes[len(hexes) // 2])
    units = {}
    for change in changes:
        for action in change.actions:
            for unit in (action.unit, action.beside):
                if unit and unit in g.units and unit not in units:
                    units[unit] = Shown(_first_step(g, unit), map_id, middle)
    for change in changes:
        for action in change.actions:
            if action.does == PLACE_ACTION and action.unit in g.units and not action.hex:
                units[action.unit] = Shown(_first_step(g, action.unit), box=action.box or _a_box(g))
            if action.does == MOVE_MARKER and action.marker:  # the track's marker, on a cell it is not ordered to
                cell = BEFORE_CELL if action.cell != BEFORE_CELL else "0"
                units[marker_key(action.marker, "on-track")] = Shown(g.markers[action.marker].faces[0], track=action.track,
                                                                    cell=cell)
    return units


def _first_step(g, unit: str) -> str:
    steps = g.units[unit].steps
    return steps[0].name if steps else ""


def _a_box(g) -> str:
    return next(iter(g.boxes), "")


def made(system: str, changes, before: dict[str, Shown]) -> dict[str, Shown]:
    """The board after a player made every action of the changes, in order."""
    g = game(system)
    now = dict(before)
    for change in changes:
        for action in change.actions:
            was = now.get(action.unit, Shown())
            if action.does == SHOW_STEP_ACTION:
                now[action.unit] = Shown(action.step, was.map, was.hex, was.box)
            elif action.does in (ELIMINATE, SET_ASIDE):
                now[action.unit] = Shown(was.step, box=action.box) if action.box else Shown(deleted=True)
            elif action.does == DELETE:
                now[action.unit] = Shown(deleted=True)
            elif action.does in (PLACE_ACTION, MOVE_ACTION):
                spot = before.get(action.beside) if action.beside and not action.hex else None
                map_id = spot.map if spot is not None else next(iter(g.maps))
                hex_ = spot.hex if spot is not None else action.hex
                now[action.unit] = Shown(action.step if action.step is not None else was.step, map_id, hex_)
            elif action.does == PLACE_MARKER and not action.unit:  # one drawn from its pool onto the hex ordered
                if action.hex:
                    drawn = next(m.id for m in g.markers.values() if m.kind == g.boxes[action.box].holds
                                 and m.side == g.boxes[action.box].side)
                    now[marker_key(drawn, f"drawn-{len(now)}")] = Shown("", next(iter(g.maps)), action.hex)
            elif action.does == PLACE_MARKER:  # a marker piece onto the unit's hex, showing its face
                now[marker_key(action.marker, f"placed-{len(now)}")] = Shown(action.marker_name, was.map, was.hex)
            elif action.does == MOVE_MARKER and action.marker:
                key = marker_key(action.marker, "on-track")
                cell = action.cell or str(max(0, int(now[key].cell) + action.by))
                now[key] = Shown(action.marker_name if action.face else now[key].step, track=action.track, cell=cell)
            elif action.does == RETREAT_ORDER:
                grid = g.maps[was.map].grid
                start = grid.parse(was.hex)
                target = next(h for h in g.maps[was.map].hexes() if grid.distance(start, h) == action.hexes)
                now[action.unit] = Shown(was.step, was.map, grid.label(target))
    return now


def positions_of(system: str, before: dict[str, Shown]) -> Positions:
    """The board `before` as the saved-game reader gives it (one piece per unit, and the markers
    standing on a track)."""
    g = game(system)
    placed = []
    markers = []
    for number, (unit, shown) in enumerate(sorted(before.items())):
        if unit.startswith(MARKER_KEY) and shown.track:
            marker = unit[len(MARKER_KEY):].rpartition("#")[0]
            markers.append(OtherPiece(f"p{number}", marker, Location(TRACK, TRACKS_MAP, 10 * number, 10, track=shown.track,
                                                                     cell=shown.cell), marker=marker, face=shown.step))
        if unit not in g.units:
            continue  # a marker: no unit piece
        names = [s.name for s in g.units[unit].steps]
        kind = HEX if shown.hex else BOX
        location = Location(kind, "Map" if shown.hex else "Boxes", 10 * number, 10, map=shown.map, hex=shown.hex,
                            box=shown.box)
        placed.append(PlacedUnit(f"p{number}", g.units[unit], location, names.index(shown.step) if shown.step in names
                                 else None, "UnitId", unit))
    return Positions(g, placed, markers)


# -- the contract ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", specs(), ids=lambda s: s.key)
def test_every_reader_reads_the_resolved_actions(spec):
    owners = owners_of(spec.system)
    g = game(spec.system)
    names = UnitNames.of(spec.system)
    for request, result, side in rulings(spec):
        changes = ruled_changes(canonical_outcome(result), owners, side)
        the_resolver_resolves_every_change(g, changes, side)
        the_headline_names_every_change(spec.system, result, changing(changes, request), names)
        the_ledger_leaves_the_units_as_the_actions(spec, request, result, side, changes)
        the_log_check_reads_the_actions(spec.system, changes)
        the_write_back_makes_every_action(spec.system, result, changes, side)
        no_order_is_left_without_a_change(result, changes)


def the_resolver_resolves_every_change(g, changes, side: str) -> None:
    for change in changes:
        if change.kind == STEP:
            assert bool(change.actions) == (change.shows is not None), change
        else:
            assert change.actions, change
        for action in change.actions:
            assert action.applied_by == change.applied_by
            assert not side or action.applied_by, change
            if action.step is not None and action.unit in g.units:
                assert action.step in [s.name for s in g.units[action.unit].steps], (action, change)


def the_headline_names_every_change(system: str, result: dict, live, names: UnitNames) -> None:
    said = " | ".join(affected_units(result, names))
    for change in live:
        if change.kind in (RETURNED, REVEALED) or (change.kind == STEP and not change.actions):
            continue  # the check's facts say a unit back in play; a reveal has its own words
        if change.kind == REPLACED and all(p.sp is not None for p in change.replacements):
            continue  # a block swapped at the strength the request gave it: the strength it shows is unchanged
        if change.kind == STEP and _same_as_asked(result, change):
            continue
        if change.kind in BOARD_TARGETS:  # a marker on a hex or a track: named, and the rule that orders it
            assert change.markers[0] in said and change.rule and change.rule in said, (change, said)
            continue
        wanted = names.name(change.unit) if change.unit else change.markers[0].title()  # a marker its owner places
        assert wanted in said, (change, said)


def _same_as_asked(result: dict, change) -> bool:
    """A strength the outcome names as it was (a block's SP before and after the same)."""
    for item in _objects(result.get("outcome")):
        if (item.get("unit") or item.get("block")) == change.unit and item.get("sp_before") == change.sp:
            return True
    return False


def _objects(value):
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from _objects(v)


def the_ledger_leaves_the_units_as_the_actions(spec, request: dict, result: dict, side: str, changes) -> None:
    board = LedgerBoard(spec.system)
    derived = board.derive(1, spec.key, request, side or None)
    board.fold(1, {"check": spec.key, "request": request, "result": result, "side": side or None}, derived)
    g = game(spec.system)
    final = {}
    for change in changes:
        for action in change.actions:
            if action.does in (SHOW_STEP_ACTION, ELIMINATE, SET_ASIDE, PLACE_ACTION, MOVE_ACTION):
                final[action.unit] = action
    for unit, action in final.items():
        state = board.units.get(unit)
        if state is None or unit not in g.units:
            continue  # an echo of the request's own state, or a unit the game does not know
        if action.does in (ELIMINATE, SET_ASIDE):
            assert state.eliminated, (unit, action, state)
        else:
            assert not state.eliminated, (unit, action, state)
            if action.step is not None and (state.step is not None or state.sp is not None):
                assert step_name(g.units[unit].steps, state.step, state.sp) == action.step, (unit, action, state)


def the_log_check_reads_the_actions(system: str, changes) -> None:
    g = game(system)
    before = board_before(system, changes)
    ordered = ordered_changes(g, changes, before)
    after = made(system, changes, before)
    assert missing_changes(g, ordered, after) == [], changes
    for change in ordered:
        assert change.actions and set(change.actions) <= set(checked_actions(change.change))
        assert missing_changes(g, [change], before), change  # left as it was: named


def the_write_back_makes_every_action(system: str, result: dict, changes, side: str) -> None:
    before = board_before(system, changes)
    positions = positions_of(system, before)
    written = piece_changes(positions, result["outcome"], side)
    does = {(c.unit, c.does) for c in written}
    for change in changes:
        if side and change.applied_by != side:
            if change.unit in before and change.kind not in (RETREAT, MARKED):
                assert (change.unit, LEFT) in does, (change, written)  # his piece: left to him, said so
            continue
        for action in change.actions:
            if action.unit not in before and action.does not in (PLACE_ACTION, MOVE_MARKER):
                continue  # a unit not on the board: left alone
            expected = _written_as(action, before)
            if expected is not None:
                assert any((action.unit, d) in does for d in expected), (action, written)


def _written_as(action, before: dict[str, Shown]) -> tuple[str, ...] | None:
    """What the write-back does for an action (None: nothing, the piece is already so)."""
    was = before.get(action.unit)
    if action.does == SHOW_STEP_ACTION:
        return None if was is not None and was.step == action.step else (SHOW_STEP,)
    if action.does == ELIMINATE:
        return None if was is not None and was.box and was.box == action.box else (TO_DEAD_PILE, REMOVE)
    if action.does == SET_ASIDE:
        return None if was is not None and was.box == action.box else (TO_BOX, LEFT)
    if action.does == PLACE_ACTION:
        return (PLACE, LEFT)
    if action.does == MOVE_ACTION:
        return None if was is not None and was.hex == action.hex else (MOVE, LEFT)
    if action.does == DELETE:
        return (REMOVE,)
    if action.does == MOVE_MARKER and action.marker:  # the track's marker, as `board_before` stands it
        was = before[marker_key(action.marker, "on-track")]
        moves = marker_cell(action, was.cell) != was.cell
        flips = bool(action.face) and was.step != action.marker_name
        return None if not (moves or flips) else (MOVE,) if moves else (SHOW_FACE,)
    if action.does in (RETREAT_ORDER, CHOOSE, PLACE_MARKER, REMOVE_MARKER, MOVE_MARKER):
        return (LEFT,)
    raise AssertionError(f"an action no reader knows: {action}")


def no_order_is_left_without_a_change(result: dict, changes) -> None:
    kinds = {c.kind for c in changes}
    for step in result.get("steps") or []:
        for name, (pattern, carried_by) in ORDERS.items():
            if pattern.search(step.get("text", "")):
                assert kinds & carried_by, f"the step '{step['text']}' orders a {name}, no change carries it"


def test_the_contract_covers_the_kinds_of_every_game():
    """The examples, rolled, reach the kinds each game's rulings give (or the contract would prove little)."""
    seen = {}
    for spec in specs():
        owners = owners_of(spec.system)
        for _, result, side in rulings(spec):
            for change in ruled_changes(canonical_outcome(result), owners, side):
                seen.setdefault(spec.system, set()).add(change.kind)
    assert {STEP, REPLACED, RETREAT, TRACK} <= seen["kwb"], seen["kwb"]  # TRACK: the VP markers (11.0)
    assert {BROKEN_DOWN, RETREAT} <= seen["spi"], seen["spi"]
    assert {STEP, ELIMINATED, TRACK} <= seen["holdfast"], seen["holdfast"]  # TRACK: the Weather block (7)
    assert {MARKED, RETREAT, ON_HEX, TRACK} <= seen["fireandice"], seen["fireandice"]


def test_a_log_written_before_the_orders_were_changes_still_compares_equal():
    """KWB's CRT retreat has a unit line now ("NK 83 retreats 1 hex"); a log written before (no such
    line) is one of the ways the ruling may rightly be written, and the new lines are the first."""
    from adjudicator.logs.transcript import comparable_lines, written_lines
    from adjudicator.words.transcript import RULING_MARK

    spec = next(s for s in specs() if s.key == "kwb.combat")
    retreat = next(result for _, result, _ in rulings(spec) if result["outcome"]["attacker_retreat_hexes"]
                   or result["outcome"]["defender_retreat_hexes"])
    names = UnitNames.of("kwb")
    now = comparable_lines(retreat)
    before = comparable_lines(retreat, names=names.as_written_before_every_order_was_a_change())
    assert now[0].startswith(RULING_MARK) and now != before
    assert [line for line in now if line not in before] and all(" retreats " in line for line in now if line not in before)
    assert written_lines(retreat, version=3)[0] == now and before in written_lines(retreat, version=3)


def test_an_objective_marker_on_the_combat_hex_is_a_change_the_log_check_reads_on_that_hex():
    """Fire and Ice 5.5, News reporters: "place a revealed Objective marker of the attacker's color on
    the combat hex". A combat asked with its hex orders it onto that hex (a change ``on_hex``, made by
    the side whose pool it is drawn from, the rule cited); the log check finds a marker of that pool
    there, whichever value was drawn, and names it when there is none, or only the other colour's."""
    from adjudicator.testing import seed_where

    spec = next(s for s in specs() if s.key == "fireandice.combat")
    request = {**{k: v for k, v in spec.example.items() if k != "dice"}, "combat_hex": "2542"}
    seed = seed_where(spec, request, lambda o: bool(o["markers_on_hexes"]))
    result = run_check(spec, spec.request.model_validate_json(json.dumps(request)), LedgerDice(seed, 1)).to_json()
    result = {"system": "fireandice", "check": "combat", "request": request, "side": request["attacker"], **result}
    changes = ruled_changes(canonical_outcome(result), owners_of("fireandice"), request["attacker"])
    (on_hex,) = [c for c in changes if c.kind == ON_HEX]
    colour = result["outcome"]["random_event"]["objective_marker"]
    assert on_hex.hex == "2542" and on_hex.applied_by == colour and on_hex.rule.startswith("5.5")
    (action,) = on_hex.actions
    assert (action.does, action.hex, action.box) == (PLACE_MARKER, "2542", f"{'un' if colour == 'un' else 'com'}-objectives")
    said = affected_units(result, UnitNames.of("fireandice"))
    assert any(line.startswith(f"{'UN' if colour == 'un' else 'Communist'} Objective marker on 2542, drawn at random, "
                               "face up (5.5 News reporters; 12.1.3)") for line in said), said
    g = game("fireandice")
    ordered = ordered_changes(g, [on_hex], {})
    assert [o.change for o in ordered] == [on_hex]
    for value in ("1", "3", "5"):  # any value of the pool: it is drawn at random
        mine = f"{'un' if colour == 'un' else 'com'}-objective-{value}"
        assert missing_changes(g, ordered, {marker_key(mine, "p1"): Shown("", "main", "2542")}) == []
    theirs = f"{'com' if colour == 'un' else 'un'}-objective-3"
    (missing,) = missing_changes(g, ordered, {marker_key(theirs, "p2"): Shown("", "main", "2542")})
    assert "Objective marker on 2542 (5.5 News reporters; 12.1.3): the log does not show it" in missing
    assert missing_changes(g, ordered, {marker_key(mine, "p3"): Shown("", "main", "2543")})  # on another hex


def test_a_track_marker_moved_down_is_checked_from_the_cell_it_stood_on():
    """The road option lowers the attacker's Tank Support level by 1 after the combat (5.3.1): the
    marker must stand one cell below where it stood when the ruling was asked, not two, not none."""
    spec = next(s for s in specs() if s.key == "fireandice.combat")
    request = {**{k: v for k, v in spec.example.items() if k != "dice"}, "road_bonus": True}
    result = run_check(spec, spec.request.model_validate_json(json.dumps(request)),
                       LedgerDice(next(iter(candidate_seeds())), 1)).to_json()
    changes = ruled_changes(canonical_outcome(result), owners_of("fireandice"), request["attacker"])
    tank = next(c for c in changes if c.kind == TRACK and c.track == "support")
    assert tank.marker == ("com-tank" if request["attacker"] == "communist" else "un-tank") and tank.by <= -1
    g = game("fireandice")
    key = marker_key(tank.marker, "p1")
    before = {key: Shown("Tank Support", track="support", cell="6")}
    ordered = ordered_changes(g, [tank], before)
    target = str(6 + tank.by)
    assert missing_changes(g, ordered, {key: Shown("Tank Support", track="support", cell=target)}) == []
    for wrong in ("6", str(5 + tank.by)):
        (missing,) = missing_changes(g, ordered, {key: Shown("Tank Support", track="support", cell=wrong)})
        assert f"the {tank.markers[0]} marker down {-tank.by}" in missing
