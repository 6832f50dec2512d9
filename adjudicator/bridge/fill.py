"""A check's request filled from a saved game: the board roles say which fields the file knows.

Every check marks the request fields a board can fill (`x-board`, `CheckSpec.board`; docs/api.md
"Fields the board fills"). Given the positions read from a ``.vsav``/``.vlog`` and what the player
pointed at (the attacking units clicked, the hex attacked, the unit a check is about), this module
writes those fields into the request; the player's own fields (dice, weather, a unit's supply
state) are kept. The VASSAL extension does the same from live pieces; this is the saved-game half.

Items of a list the player gave keep their own properties (an attacker's ``in_supply``): the
board fills the roles of the item with the same unit, so "fill what the board cannot know" works
per unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.boardread import reader_for
from adjudicator.bridge.errors import BridgeError
from adjudicator.bridge.locate import BOX
from adjudicator.bridge.positions import PlacedUnit, Positions
from adjudicator.bridge.supply import resolve_scenario
from adjudicator.bridge.turn import TurnReading, month_of, read_turn, requested_turn
from adjudicator.checks import CheckSpec, canonical_side, track_marker
from adjudicator.words.forms import split_nullable
from scenarios.boxboard import counters_box


@dataclass
class Pointed:
    """What the player pointed at on the board: the context of a check."""

    attackers: list[str] = field(default_factory=list)  # unit ids (the selected units)
    target_hex: str | None = None  # the hex clicked: attacked, bombarded, struck
    target_map: str | None = None  # its map (games with several maps)
    unit: str | None = None  # the context unit (the unit a check is about)


@dataclass
class BoardFill:
    """The request built from a saved game, and what the board filled in it."""

    request: dict[str, Any]
    filled: dict[str, str]  # JSON pointer -> role, for every field the file filled
    scenario: str
    turn: TurnReading
    warnings: list[str] = field(default_factory=list)
    #: JSON pointer -> where on the board the value was seen, for what a check's board reader read
    #: (markers, track values, a counter's side).
    read: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"request": self.request, "filled": self.filled, "read": self.read, "scenario": self.scenario,
                "game_turn": self.turn.turn, "game_turn_from": self.turn.source,
                "warnings": list(self.warnings)}


def _placed(positions: Positions, unit_id: str) -> PlacedUnit:
    found = next((u for u in positions.on_map() if u.unit.id == unit_id), None)
    if found is None:
        known = any(u.unit.id == unit_id for u in positions.units)
        where = "is not on a map hex in this file" if known else "is not in this file"
        raise BridgeError(422, "Unit not on the board", f"Unit {unit_id!r} {where}.", "unit-not-on-board")
    return found


def _role_value(role: str, placed: PlacedUnit) -> Any:
    step = placed.unit.steps[placed.step_index] if placed.step_index is not None else placed.unit.full
    return {"unit": placed.unit.id, "hex": placed.location.hex, "step": placed.step,
            "sp": step.values.get("sp"), "map": placed.location.map}.get(role)


class _Shapes:
    """A check's request schema, asked about one field at a time."""

    def __init__(self, spec: CheckSpec):
        schema = spec.request.model_json_schema()
        self.defs = schema.get("$defs", {})
        self.properties = schema.get("properties", {})
        self.board = spec.board

    def kind(self, name: str) -> tuple[str, str]:
        """(the field's JSON type, its items' type) of a top-level field."""
        node, _ = split_nullable(self.properties.get(name, {}), self.defs)
        items, _ = split_nullable(node.get("items", {}), self.defs) if "items" in node else ({}, False)
        return node.get("type", ""), items.get("type", "")

    def choices(self, name: str) -> list[Any]:
        """A top-level field's choices (its enum), or []."""
        node, _ = split_nullable(self.properties.get(name, {}), self.defs)
        return list(node.get("enum") or [])

    def item_roles(self, name: str, in_list: bool) -> dict[str, str]:
        """property -> role of a unit object at field `name` (its items, for a list)."""
        prefix = f"/{name}/-/" if in_list else f"/{name}/"
        return {p[len(prefix):]: r for p, r in self.board
                if p.startswith(prefix) and "/" not in p[len(prefix):]}


def _unit_object(placed: PlacedUnit, roles: dict[str, str], given: dict | None) -> dict[str, Any]:
    out = dict(given or {})
    for prop, role in roles.items():
        value = _role_value(role, placed)
        if value is not None:
            out[prop] = value
    return out


def _units_value(shapes: _Shapes, name: str, units: list[PlacedUnit], given: Any,
                 warnings: list[str]) -> Any:
    """A list of units (objects or ids), or one unit object, as field `name` takes it."""
    kind, items = shapes.kind(name)
    if kind == "array":
        if items != "object":
            return [u.unit.id for u in units]
        roles = shapes.item_roles(name, in_list=True)
        by_unit = {g.get("unit"): g for g in given or () if isinstance(g, dict)}
        return [_unit_object(u, roles, by_unit.get(u.unit.id)) for u in units]
    if not units:
        return given
    if len(units) > 1:
        warnings.append(f"{name} takes one unit; {units[0].unit.id} was taken of "
                        f"{', '.join(u.unit.id for u in units)}")
    given_one = given if isinstance(given, dict) and given.get("unit") == units[0].unit.id else None
    return _unit_object(units[0], shapes.item_roles(name, in_list=False), given_one)


def fill_request(spec: CheckSpec, positions: Positions, pointed: Pointed, given: dict[str, Any],
                 scenario: str | None = None, side: str | None = None,
                 game_turn: str | None = None) -> BoardFill:
    """The request for `spec`: `given` (the player's fields) with every board field the file
    and `pointed` can fill written over it. Raises BridgeError when the file cannot fill a field
    the player pointed at (a unit not on the board, an empty hex)."""
    game = positions.game
    scenario_id, _ = resolve_scenario(game, positions, scenario)
    turn = (requested_turn(game.scenarios[scenario_id], game_turn) if game_turn
            else read_turn(game, scenario_id, positions.commands))
    attackers = [_placed(positions, unit) for unit in dict.fromkeys(pointed.attackers)]
    context = _placed(positions, pointed.unit) if pointed.unit else None
    defenders = [u for u in positions.on_map() if pointed.target_hex and u.location.hex == pointed.target_hex
                 and (not pointed.target_map or u.location.map == pointed.target_map)
                 and u not in attackers]
    if not side and attackers:
        side = attackers[0].unit.side
    shapes = _Shapes(spec)
    request = dict(given)
    filled: dict[str, str] = {}
    warnings: list[str] = []
    for pointer, role in spec.board:
        if pointer.count("/") != 1:
            continue  # item roles: filled with their unit
        name = pointer[1:]
        value: Any = None
        if role == "scenario":
            value = scenario_id
        elif role == "turn":
            value = turn.turn
        elif role == "month":
            value = month_of(game.scenarios[scenario_id], turn.turn) if turn.turn is not None else None
        elif role == "side":
            value = canonical_side(side) if side else None
        elif role == "positions":
            value = _units_value(shapes, name, positions.on_map(), None, warnings)
        elif role == "attackers" and attackers:
            value = _units_value(shapes, name, attackers, given.get(name), warnings)
        elif role == "defenders" and pointed.target_hex:
            if not defenders:
                raise BridgeError(422, "No unit in that hex",
                                  f"Hex {pointed.target_hex} holds no unit in this file.", "empty-hex")
            value = _units_value(shapes, name, defenders, given.get(name), warnings)
        elif role == "target_hex":
            value = pointed.target_hex
        elif role == "counters_not_in_play":
            boxes = {box.id for side in game.sides if (box := counters_box(game, side)) is not None}
            value = [u.unit.id for u in positions.units if u.location.kind == BOX and u.location.box in boxes]
        elif (marker := track_marker(role)) is not None:
            value = _track_value(positions, marker, shapes.choices(name), shapes.kind(name)[0])
        elif context is not None and role in ("unit", "hex", "step", "sp", "map"):
            kind, _ = shapes.kind(name)
            value = (_unit_object(context, shapes.item_roles(name, in_list=False), given.get(name))
                     if kind == "object" else _role_value(role, context))
        if value is not None:
            request[name] = value
            filled[pointer] = role
    read = read_from_board(spec, positions, request)
    return BoardFill(request, filled, scenario_id, turn, warnings, read)


def _track_value(positions: Positions, marker: str, choices: list[Any], kind: str = "") -> Any:
    """The cell a track's marker stands on, as the field takes it: its choice of that name (any
    case), or a number for a number field (a level on the Support Level Track); None when the
    marker is on no track, or its cell is none of the choices or no number."""
    cell = positions.view().track_cell(marker)
    if cell is None:
        return None
    if choices:
        return next((c for c in choices if str(c).lower() == cell.lower()), None)
    if kind == "integer":
        return int(cell) if cell.strip().lstrip("-").isdigit() else None
    return cell


def read_from_board(spec: CheckSpec, positions: Positions, request: dict[str, Any]) -> dict[str, str]:
    """Write what the check's board reader (`adjudicator.boardread`) sees into `request`:
    {JSON pointer: where it was seen}."""
    reader = reader_for(spec.system, spec.name)
    if reader is None:
        return {}
    seen = {}
    for pointer, read in reader(positions.view(), request).items():
        parts = pointer.strip("/").split("/")
        node = request
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                break
        else:
            node[parts[-1]] = read.value
            seen[pointer] = read.where
    return seen
