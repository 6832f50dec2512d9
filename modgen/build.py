"""Assembling one game's module: data -> images -> buildFile, setups, help -> .vmod.

Nothing is written until everything has been built in memory, and the
.vmod is written atomically, so a failed build never leaves a half-written
module in ``dist/``.  Entries are sorted and timestamps fixed, so the same
data gives the same bytes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from modgen import buildfile as bf
from modgen.help import help_html
from modgen.images import ModuleImages
from modgen.pieces import BOXES_MAP, build_prototypes, marker_piece, unit_piece
from modgen.setups import SetupCache, cached_setup, setup_inputs_digest
from scenarios.model import Game
from vassalfmt import ModuleData, build_zip
from vassalfmt.zipwriter import write_atomic

HELP_FILE = "help/index.html"


@dataclass
class BuildResult:
    path: Path | None
    entries: dict[str, bytes]
    pieces: int = 0
    prototypes: int = 0
    setups: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def size(self) -> int:
        return self.path.stat().st_size if self.path and self.path.exists() else 0


def module_file_name(game: Game, version: str) -> str:
    return f"{game.id}-{version}.vmod"


def assign_gpids(game: Game) -> dict[str, str]:
    """Stable palette ids: units then markers, in data order."""
    ids = [f"unit:{u}" for u in game.units] + [f"marker:{m}" for m in game.markers]
    return {key.split(":", 1)[1] if key.startswith("unit:") else key: str(n) for n, key in enumerate(ids, start=1)}


def palette_entries(game: Game, images: ModuleImages, gpids: dict[str, str]) -> list[bf.PaletteEntry]:
    entries = []
    for unit in game.units.values():
        tab = f"{game.sides[unit.side].name} - {game.nationalities[unit.nationality].name}"
        piece = unit_piece(game, unit, images.unit_steps[unit.id], gpid=gpids[unit.id])
        entries.append(bf.PaletteEntry(tab, piece.basic.name, gpids[unit.id], piece))
    for marker in game.markers.values():
        gpid = gpids[f"marker:{marker.id}"]
        piece = marker_piece(game, marker, images.marker_faces[marker.id], gpid=gpid)
        entries.append(bf.PaletteEntry("Markers", marker.name, gpid, piece))
    entries.sort(key=lambda e: (e.tab == "Markers", e.tab))
    return entries


def main_map_order(game: Game) -> list[str]:
    """Maps in the order their scenarios come in the rulebook; the first is the main window."""
    ordered: list[str] = []
    for scenario in game.scenarios.values():
        ordered += [m for m in scenario.maps if m not in ordered]
    return ordered + [m for m in game.maps if m not in ordered]


def build_entries(game: Game, images: ModuleImages, version: str) -> BuildResult:
    """Every zip entry of the module, in memory."""
    started = time.perf_counter()
    gpids = assign_gpids(game)
    prototypes = build_prototypes(game, images.box_centres)
    root = bf.module_root(game, version, next_gpid=len(gpids) + 1)
    bf.add_basics(root, game, HELP_FILE)
    map_ids = main_map_order(game)
    for index, map_id in enumerate(map_ids):
        bf.add_game_map(root, game.maps[map_id], images.maps[map_id], launch=index > 0, scale=images.scale)
    if images.boxes_board:
        regions = {game.boxes[b].name: c for b, c in images.box_centres.items()}
        bf.add_plain_map(root, BOXES_MAP, images.boxes_board, "Dead piles and off-map boxes", regions)
    track_names = []
    for scenario in game.scenarios.values():
        track = images.turn_tracks.get(scenario.id)
        if track is None:
            continue
        name = bf.turn_track_map_name(scenario)
        regions = {f"Turn {t}": c for t, c in sorted(track.centres.items())}
        bf.add_plain_map(root, name, track.image, f"{scenario.name}: reinforcements wait on their turn", regions)
        track_names.append(name)
    if len(track_names) > 1:
        bf.add_toolbar_menu(root, "Turn tracks", "Each scenario's turn record track", track_names)
    entries_palette = palette_entries(game, images, gpids)
    bf.add_palette(root, entries_palette)
    bf.add_prototypes(root, prototypes)
    bf.add_dice(root, game)
    bf.add_turn_trackers(root, game)
    bf.add_charts(root, game, images)
    bf.add_inventory(root)
    module = ModuleData(name=game.name, version=version, description=game.description or game.name)
    setups, problems = [], []
    entries: dict[str, bytes] = {}
    # Setups are kept beside the art cache (when the images came from one): see modgen.setups.
    cache_dir = getattr(images, "cache_dir", None)
    setup_cache = SetupCache(Path(cache_dir)) if cache_dir is not None else None
    prototype_pieces = {p.name: p.piece for p in prototypes}
    inputs = setup_inputs_digest(game, images, gpids, module, prototype_pieces) if setup_cache else ""
    for scenario in game.scenarios.values():
        file_name = f"setups/{scenario.id}.vsav"
        data, report = cached_setup(setup_cache, inputs, game, scenario, images, gpids, module,
                                    prototype_pieces)
        entries[file_name] = data
        problems += report.problems
        setups.append((scenario, file_name))
    bf.add_setups(root, setups)
    entries["buildFile.xml"] = bf.serialize(root)
    entries["moduledata"] = module.to_xml()
    entries[HELP_FILE] = help_html(game, version).encode("utf-8")
    for name, data in images.files.items():
        entries[f"images/{name}"] = data
    return BuildResult(path=None, entries=entries, pieces=len(entries_palette), prototypes=len(prototypes),
                       setups=len(setups), problems=problems, seconds=time.perf_counter() - started)


def write_module(result: BuildResult, out_dir: Path, file_name: str) -> Path:
    path = write_atomic(Path(out_dir) / file_name, build_zip(result.entries))
    result.path = path
    return path
