"""Which unit a piece is: by the properties ``modgen`` writes, else by its name.

Every unit piece of a generated module carries Marker properties (``Game``, ``UnitId``,
``StepNames`` ...) and a layer named "Step" whose level (1-based) is the step showing
(``modgen/pieces.py``). Those identify a unit exactly. Pieces of other modules are matched by
name against the game's units (long name with or without the nationality letter, designation,
designation with size, unit id); a name that fits no unit or several is reported, not guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scenarios.model import Game, Unit
from vassalfmt import Embellishment, Piece

STEP_LAYER = "Step"
FACE_LAYER = "Face"

BY_PROPERTIES = "properties"
BY_NAME = "name"


@dataclass
class Identity:
    """What a piece turned out to be. ``unit`` is None for markers and unidentified pieces."""

    unit: Unit | None = None
    by: str = ""
    step_index: int | None = None  # 0-based; None when the piece does not say
    marker: str = ""  # MarkerId of a generated marker piece
    face: str = ""  # the marker face showing, as printed
    reason: str = ""  # why a piece could not be identified
    notes: list[str] = field(default_factory=list)


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


class NameIndex:
    """The names a unit may carry on a counter of some other module, normalised."""

    def __init__(self, game: Game):
        self._units: dict[str, set[str]] = {}
        for unit in game.units.values():
            nat = game.nationalities.get(unit.nationality)
            letter = (nat.letter or nat.id.upper()) if nat else ""
            names = {unit.id}
            if unit.name:
                names |= {unit.name, f"{letter} {unit.name}"}
            if unit.designation:
                names |= {unit.designation, f"{unit.designation} {unit.size}",
                          f"{letter} {unit.designation}"}
                arm = game.unit_types[unit.type].name if unit.type in game.unit_types else ""
                names.add(" ".join(p for p in (letter, unit.designation, arm, unit.size) if p))
            for name in names:
                if name.strip():
                    self._units.setdefault(_normal(name), set()).add(unit.id)

    def find(self, name: str) -> set[str]:
        return set(self._units.get(_normal(name), ()))


def step_layer(piece: Piece) -> Embellishment | None:
    return next((t for t in piece.find(Embellishment) if t.name == STEP_LAYER), None)


def identify(game: Game, piece: Piece, names: NameIndex) -> Identity:
    props = piece.properties()
    unit_id = props.get("UnitId", "")
    if unit_id:
        return _by_properties(game, piece, props, unit_id)
    if props.get("MarkerId"):
        return _marker(game, piece, props["MarkerId"])
    return _by_name(game, piece, names)


def _marker(game: Game, piece: Piece, marker_id: str) -> Identity:
    identity = Identity(by=BY_PROPERTIES, marker=marker_id)
    marker = game.markers.get(marker_id)
    layer = next((t for t in piece.find(Embellishment) if t.name == FACE_LAYER), None)
    if marker is not None and layer is not None and 1 <= abs(layer.level) <= len(marker.faces):
        identity.face = marker.faces[abs(layer.level) - 1]
    return identity


def _by_properties(game: Game, piece: Piece, props: dict[str, str], unit_id: str) -> Identity:
    if props.get("Game") and props["Game"] != game.id:
        return Identity(reason=f"the piece belongs to the module of game {props['Game']!r}, "
                               f"not {game.id!r}")
    unit = game.units.get(unit_id)
    if unit is None:
        return Identity(reason=f"UnitId {unit_id!r} is not a unit of {game.name}")
    identity = Identity(unit=unit, by=BY_PROPERTIES)
    layer = step_layer(piece)
    if layer is None:
        identity.notes.append("no Step layer; step assumed full")
        identity.step_index = 0
        return identity
    level = abs(layer.level)
    if not 1 <= level <= len(unit.steps):
        identity.notes.append(f"Step layer at level {level}, but the unit has {len(unit.steps)} "
                              "steps; step unknown")
        return identity
    identity.step_index = level - 1
    printed = props.get("StepNames", "")
    if printed and printed.split("|") != [s.name for s in unit.steps]:
        identity.notes.append(f"the piece's steps ({printed}) differ from the game data's; "
                              "the module is from another data version")
    return identity


def _by_name(game: Game, piece: Piece, names: NameIndex) -> Identity:
    name = piece.name
    if not name.strip():
        return Identity(reason="the piece has no name and no UnitId property")
    found = names.find(name)
    if not found:
        return Identity(reason=f"no unit of {game.name} is called {name!r}")
    if len(found) > 1:
        return Identity(reason=f"the name {name!r} fits several units: {', '.join(sorted(found))}")
    unit = game.units[found.pop()]
    identity = Identity(unit=unit, by=BY_NAME)
    layer = step_layer(piece)
    if layer is not None and 1 <= abs(layer.level) <= len(unit.steps):
        identity.step_index = abs(layer.level) - 1
    else:
        identity.notes.append("identified by name; the step showing is unknown")
    return identity
