"""What a location in a scenario's files names (a hex, a box, a track cell, a turn, a place the rules
describe), and whether the unit or marker placed there is one the game has, in a step or face it has."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scenarios import facts
from scenarios.hexgrid import Hex
from scenarios.model import Box, Fact, GameMap, MarkerType, Source, Track, Unit
from scenarios.reading.context import Reading


@dataclass
class PlaceContext:
    """What a scenario's locations may name: the game's units, markers, boxes and tracks, the
    scenario's maps and its number of turns."""

    units: dict[str, Unit]
    markers: dict[str, MarkerType]
    boxes: dict[str, Box]
    maps: list[GameMap]
    turns: int
    tracks: dict[str, Track]


def check_location(r: Reading, text: str, ctx: PlaceContext, path: Path, line: int, what: str) -> None:
    if text.startswith("box:"):
        if text[4:] not in ctx.boxes:
            r.p.add(path, line, f"{what}: unknown box {text[4:]!r}")
        return
    if text.startswith("track:"):
        track_id, _, cell = text[len("track:"):].partition(":")
        track = ctx.tracks.get(track_id)
        if track is None:
            r.p.add(path, line, f"{what}: unknown track {track_id!r}")
        elif cell not in track.cells:
            r.p.add(path, line, f"{what}: track {track_id} has no cell {cell!r}")
        return
    if text.startswith("turn:"):
        turn = text[len("turn:"):]
        if not turn.isdigit() or not 1 <= int(turn) <= ctx.turns:
            r.p.add(path, line, f"{what}: {text!r} is not a turn of this scenario (1-{ctx.turns})")
        return
    if text.startswith("edge:") or text.startswith("any:"):
        return  # a rule-described place; the choice column explains it
    label = text.split("@", 1)[0]
    map_hint = text.split("@", 1)[1] if "@" in text else ""
    candidates = [m for m in ctx.maps if not map_hint or m.id == map_hint]
    if not candidates:
        r.p.add(path, line, f"{what}: no map {map_hint!r} in this scenario")
        return
    for m in candidates:
        try:
            if m.grid.is_on_map(m.grid.parse(label)):
                return
        except ValueError:
            r.p.add(path, line, f"{what}: {text!r} is not a hex label, box:<id>, track:<id>:<cell>, "
                                "turn:<n>, edge:<name> or any:<kind>")
            return
    r.p.add(path, line, f"{what}: hex {label} is not on map {', '.join(m.id for m in candidates)}")


def locate(text: str, ctx: PlaceContext) -> tuple[GameMap, Hex] | None:
    """The map and hex a location names (None for boxes, rule-described places and bad labels)."""
    if text.startswith(("box:", "edge:", "any:")):
        return None
    label, _, map_hint = text.partition("@")
    for m in ctx.maps:
        if map_hint and m.id != map_hint:
            continue
        try:
            hex = m.grid.parse(label)
        except ValueError:
            return None
        if m.grid.is_on_map(hex):
            return m, hex
    return None


def stand_fact(r: Reading, unit_id: str, location: str, ctx: PlaceContext, source: Source, where: str,
               what: str) -> None:
    """A unit placed on a map hex: that hex must be terrain the unit may stand on (scenarios.facts)."""
    found = locate(location, ctx)
    unit = ctx.units.get(unit_id)
    if found is None or unit is None:
        return
    gm, hex = found
    name = f" ({unit.name})" if unit.name else ""
    r.hex_facts.append(Fact(gm.id, hex, (facts.STAND,), f"{what}{name} in {gm.grid.label(hex)}",
                            source, where, unit))


def check_unit_step(r: Reading, unit_id: str, step: str, ctx: PlaceContext, path: Path, line: int, what: str) -> bool:
    unit = ctx.units.get(unit_id)
    if unit is None:
        r.p.add(path, line, f"{what}: unknown unit {unit_id!r}")
        return False
    if step and step not in {s.name for s in unit.steps}:
        r.p.add(path, line, f"{what}: unit {unit_id} has no step {step!r} "
                            f"(it has {', '.join(s.name for s in unit.steps)})")
    return True


def check_marker_face(r: Reading, marker_id: str, face: str, ctx: PlaceContext, path: Path, line: int,
                      what: str) -> bool:
    marker = ctx.markers.get(marker_id)
    if marker is None:
        r.p.add(path, line, f"{what}: unknown marker {marker_id!r}")
        return False
    if face and face not in marker.faces:
        r.p.add(path, line, f"{what}: marker {marker_id} has no face {face!r} "
                            f"(it has {', '.join(marker.faces)})")
    return True
