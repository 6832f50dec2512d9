"""Predefined setups: each scenario as a saved game with every unit in place.

Starting units stand on their setup hex (or off-map box) showing their
starting step; reinforcements wait on the turn track in the cell of the turn
they arrive.  The save ends with VASSAL's "not a new game" marker so that the
engine does not place at-start stacks on top.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from art.render import plain, renderer_fingerprint
from modgen.buildfile import turn_track_map_name
from modgen.images import ModuleImages
from modgen.pieces import BOXES_MAP, marker_piece, unit_piece
from scenarios.model import Game, GameMap, Scenario
from vassalfmt import ModuleData, Piece, SavedGameWriter


@dataclass
class SetupReport:
    placed: int = 0
    waiting: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Spot:
    map_name: str
    x: int
    y: int


def locate(game: Game, scenario: Scenario, location: str, images: ModuleImages) -> Spot | None:
    """A data-file location ("0216", "0216@pusan", "box:dead-un") -> map and pixel."""
    if location.startswith("box:"):
        centre = images.box_centres.get(location[4:])
        return Spot(BOXES_MAP, *centre) if centre else None
    if ":" in location:
        return None  # a rule-described place (edge:, any:) has no pixel of its own
    label, _, map_hint = location.partition("@")
    for map_id in scenario.maps:
        if map_hint and map_id != map_hint:
            continue
        game_map: GameMap = game.maps[map_id]
        try:
            hex = game_map.grid.parse(label)
        except ValueError:
            return None
        if game_map.grid.is_on_map(hex):
            return Spot(game_map.name, *game_map.grid.scaled(images.scale).center(hex))
    return None


def step_index(game: Game, unit_id: str, step: str) -> int:
    unit = game.units[unit_id]
    if not step:
        return 0
    return [s.name for s in unit.steps].index(step)


def build_setup(game: Game, scenario: Scenario, images: ModuleImages, gpids: dict[str, str],
                module: ModuleData, prototypes: dict[str, Piece]) -> tuple[bytes, SetupReport]:
    """The .vsav bytes of one scenario and what was placed.

    Pieces are written with their prototypes expanded, as the engine itself
    saves pieces: a ``prototype;`` trait keeps no state, so unexpanded pieces
    would lose their moved flags and ZOC toggles in play.
    """
    writer = SavedGameWriter(prototypes=prototypes)
    report = SetupReport()
    for number, placement in enumerate(scenario.setup, start=1):
        spot = locate(game, scenario, placement.location, images)
        if spot is None:
            report.problems.append(f"{scenario.id}: {placement.unit} at {placement.location!r} has no map position")
            continue
        if placement.is_marker:
            marker = game.markers[placement.marker_id]
            face = marker.faces.index(placement.step) if placement.step else 0
            piece = marker_piece(game, marker, images.marker_faces[marker.id], face=face,
                                 gpid=gpids.get(f"marker:{marker.id}", ""), map_id=spot.map_name, x=spot.x, y=spot.y)
            writer.add_piece(f"{placement.unit}#{number}", piece)
            report.placed += 1
            continue
        unit = game.units[placement.unit]
        piece = unit_piece(game, unit, images.unit_steps[unit.id], step=step_index(game, unit.id, placement.step),
                           gpid=gpids.get(unit.id, ""), map_id=spot.map_name, x=spot.x, y=spot.y)
        writer.add_piece(unit.id, piece)
        report.placed += 1
    placed = {p.unit for p in scenario.setup}
    for arrival in scenario.schedule:
        if arrival.action != "arrive" or arrival.unit in placed:
            continue
        track = images.turn_tracks.get(scenario.id)
        centre = track.centres.get(arrival.turn) if track else None
        if centre is None:
            report.problems.append(f"{scenario.id}: no turn-track cell for turn {arrival.turn}")
            continue
        unit = game.units[arrival.unit]
        piece = unit_piece(game, unit, images.unit_steps[unit.id], step=step_index(game, unit.id, arrival.step),
                           gpid=gpids.get(unit.id, ""), map_id=turn_track_map_name(scenario), x=centre[0], y=centre[1])
        writer.add_piece(unit.id, piece)
        placed.add(unit.id)
        report.waiting += 1
    return writer.to_bytes(module), report


# -- the setup cache ------------------------------------------------------------------------------
#
# Why: writing a scenario's pieces (prototypes expanded, every trait escaped once per nesting
# level) was half of a module rebuild, yet a setup changes only when its inputs do. The key is
# a hash of all of them -- the whole game's data, the image names and board positions, the
# palette ids, the module's metadata, the prototypes -- and of the code that writes setups, so
# a stale setup cannot be served; a missing or damaged entry is simply built again.

#: Packages whose code decides a setup's bytes (an edit to any of them changes every key);
#: ``art`` is covered by its own renderer fingerprint (image names come from there).
SETUP_CODE_PACKAGES = ("modgen", "vassalfmt", "scenarios")


@lru_cache(maxsize=1)
def setup_code_fingerprint() -> str:
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(renderer_fingerprint().encode("ascii"))
    for package in SETUP_CODE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode("utf-8"))
            digest.update(path.read_bytes())
    return digest.hexdigest()


def setup_inputs_digest(game: Game, images: ModuleImages, gpids: dict[str, str], module: ModuleData,
                        prototypes: dict[str, Piece]) -> str:
    """A hash of everything ``build_setup`` reads besides the scenario (the same for all of a
    module's setups, so it is computed once per module)."""
    image_layout = {f.name: plain(getattr(images, f.name)) for f in dataclasses.fields(images)
                    if f.name not in ("files", "cache_dir")}
    data = {
        "code": setup_code_fingerprint(),
        "game": plain(game, skip=frozenset()),  # every field: a setup may read any of them
        "images": image_layout,
        "gpids": gpids,
        "module": module.to_xml().decode("utf-8"),
        "prototypes": {name: [p.type_string(), p.state_string()] for name, p in prototypes.items()},
    }
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def setup_key(inputs_digest: str, scenario: Scenario) -> str:
    """The content key of one scenario's setup."""
    return hashlib.sha256(f"{inputs_digest}\n{scenario.id}".encode("utf-8")).hexdigest()


@dataclass
class SetupCache:
    """Built setups (``.vsav`` bytes and their report) by content key, in a directory.

    Each entry is two files, written atomically, report first: a ``.vsav`` on disk
    always has its report beside it.
    """

    directory: Path

    def get(self, key: str) -> tuple[bytes, SetupReport] | None:
        vsav, report = self._paths(key)
        try:
            data = vsav.read_bytes()
            fields = json.loads(report.read_text(encoding="utf-8"))
            return data, SetupReport(**fields)
        except (OSError, ValueError, TypeError):
            return None

    def put(self, key: str, data: bytes, report: SetupReport) -> None:
        vsav, report_path = self._paths(key)
        vsav.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(report_path, json.dumps(dataclasses.asdict(report)).encode("utf-8"))
        _write_atomic(vsav, data)

    def _paths(self, key: str) -> tuple[Path, Path]:
        folder = self.directory / "setups" / key[:2]
        return folder / f"{key}.vsav", folder / f"{key}.json"


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def cached_setup(cache: SetupCache | None, inputs_digest: str, game: Game, scenario: Scenario,
                 images: ModuleImages, gpids: dict[str, str], module: ModuleData,
                 prototypes: dict[str, Piece]) -> tuple[bytes, SetupReport]:
    """``build_setup``, or its stored result when nothing it reads has changed
    (``inputs_digest`` from :func:`setup_inputs_digest`)."""
    if cache is None:
        return build_setup(game, scenario, images, gpids, module, prototypes)
    key = setup_key(inputs_digest, scenario)
    found = cache.get(key)
    if found is not None:
        return found
    data, report = build_setup(game, scenario, images, gpids, module, prototypes)
    cache.put(key, data, report)
    return data, report
