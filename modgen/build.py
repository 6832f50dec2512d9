"""Assembling one game's module: data -> images -> buildFile, setups, help -> .vmod.

Nothing is written until everything has been built in memory, and the
.vmod is written atomically, so a failed build never leaves a half-written
module in ``dist/``.  Entries are sorted and timestamps fixed, so the same
data gives the same bytes.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

from art.render import renderer_fingerprint

from modgen import buildfile as bf
from modgen import extension
from modgen.artwork import start_collecting
from modgen.help import help_html
from modgen.images import ModuleImages
from modgen.pieces import BOXES_MAP, TRACKS_MAP, build_prototypes, marker_piece, unit_piece
from modgen.pools import PoolPlan, deck_spec
from modgen.setups import build_setup
from modgen.view import start_view
from scenarios.model import Game, Scenario
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


def palette_entries(game: Game, images: ModuleImages, gpids: dict[str, str],
                    pools: PoolPlan) -> list[bf.PaletteEntry]:
    entries = []
    for unit in game.units.values():
        tab = f"{game.sides[unit.side].name} - {game.nationalities[unit.nationality].name}"
        piece = unit_piece(game, unit, images.unit_steps[unit.id], gpid=gpids[unit.id],
                           pool_traits=pools.traits(unit.id))
        entries.append(bf.PaletteEntry(tab, piece.basic.name, gpids[unit.id], piece))
    for marker in game.markers.values():
        gpid = gpids[f"marker:{marker.id}"]
        piece = marker_piece(game, marker, images.marker_faces[marker.id], gpid=gpid,
                             pool_traits=pools.traits(f"marker:{marker.id}"))
        entries.append(bf.PaletteEntry("Markers", marker.name, gpid, piece))
    entries.sort(key=lambda e: (e.tab == "Markers", e.tab))
    return entries


def turn_track_boards(game: Game, images: ModuleImages) -> list[bf.ZonedBoard]:
    """Each scenario's turn record track, a cell per turn; the default scenario's first (the one a
    game started without a setup shows)."""
    return [bf.ZonedBoard(bf.turn_track_board_name(scenario), images.turn_tracks[scenario.id].image,
                          {f"Turn {t}": cell for t, cell in sorted(images.turn_tracks[scenario.id].cells.items())})
            for scenario in default_first(game)]


def default_first(game: Game) -> list[Scenario]:
    """The scenarios in their order, the default one (game.toml ``default_scenario``) moved first."""
    default = game.default_scenario
    return [default] + [s for s in game.scenarios.values() if s is not default]


def main_map_description(game: Game) -> str:
    if len(game.maps) == 1:
        game_map = next(iter(game.maps.values()))
        return f"{game_map.name} ({game_map.scale} per hex)"
    names = [game.maps[m].name for m in main_map_order(game)]
    return f"The scenario's map: {', '.join(names[:-1])} or {names[-1]}"


def main_map_order(game: Game) -> list[str]:
    """Maps in the order their scenarios come, the default scenario's first: the main map's boards
    (the first is a game's started without a setup)."""
    ordered: list[str] = []
    for scenario in default_first(game):
        ordered += [m for m in scenario.maps if m not in ordered]
    return ordered + [m for m in game.maps if m not in ordered]


def build_entries(game: Game, images: ModuleImages, version: str, assembled: Assembled | None = None) -> BuildResult:
    """Every zip entry of the module, in memory (``assembled``: what ``assemble_entries``
    gave for the same game, images and version, if the caller has it already)."""
    started = time.perf_counter()
    if assembled is None:
        assembled = assemble_entries(game, images, version)
    entries = dict(assembled.entries)
    for name, data in images.files.items():
        entries[f"images/{name}"] = data
    entries.update(extension.class_entries(getattr(images, "cache_dir", None)))
    return BuildResult(path=None, entries=entries, pieces=assembled.pieces, prototypes=assembled.prototypes,
                       setups=assembled.setups, problems=list(assembled.problems),
                       seconds=time.perf_counter() - started)


@dataclass
class BuiltModule:
    game: Game
    images: ModuleImages
    result: BuildResult  # its path is the written .vmod


def build_modules(games: list[Game], out_dir: Path, version: str, scale: int = 1, cache_dir: Path | None = None,
                  progress: Callable[[str], None] | None = None, workers: int | None = None) -> Iterator[BuiltModule]:
    """Build and write each game's module, yielding each as it is written (what
    ``modgen build`` does).

    Every game's missing pictures are drawn in one pool of worker processes while this
    process assembles the buildFiles and setups (they need only the image names and
    positions); then each module waits for its pictures and is written. On a cold build
    that keeps the cores busy instead of drawing and assembling one after the other.
    """
    pending = start_collecting(games, scale, cache_dir, progress, workers)
    try:
        if progress:
            progress("assembling the modules while the pictures are drawn ...")
        assembled = [assemble_entries(game, p.images, version) for game, p in zip(games, pending)]
        for game, images, done in zip(games, pending, assembled):
            result = build_entries(game, images.result(), version, done)
            write_module(result, Path(out_dir), module_file_name(game, version))
            yield BuiltModule(game, images.images, result)
    finally:
        for images in pending:
            images.cancel()


@dataclass
class Assembled:
    """The module's entries other than images, and what building them counted and found."""

    entries: dict[str, bytes]
    pieces: int
    prototypes: int
    setups: int
    problems: list[str]


def assemble_entries(game: Game, images: ModuleImages, version: str) -> Assembled:
    """buildFile, setups, module metadata and help, built from the data."""
    gpids = assign_gpids(game)
    pools = PoolPlan.of(game, images.pool_backs)
    prototypes = build_prototypes(game, images.box_centres)
    root = bf.module_root(game, version, next_gpid=len(gpids) + 1)
    bf.add_basics(root, game, HELP_FILE)
    boards = [(game.maps[m], images.maps[m]) for m in main_map_order(game)]
    main_map = bf.add_main_map(root, bf.main_map_name(game), main_map_description(game), boards, images.scale)
    first_view = start_view(game, game.default_scenario, images)
    bf.add_start_view(root, main_map, first_view.x, first_view.y, first_view.zoom)
    if images.boxes_board:
        regions = {game.boxes[b].name: c for b, c in images.box_centres.items()}
        boxes = bf.add_plain_map(root, BOXES_MAP, images.boxes_board, "Dead piles, cups and off-map boxes",
                                 regions)
        bf.add_draw_piles(boxes, [(deck_spec(game, box, images.counter_size), *images.box_centres[box.id])
                                  for box in game.boxes.values() if box.draw])
    if images.tracks is not None:
        zones = {bf.track_cell_name(game.tracks[t], cell): c for (t, cell), c in images.tracks.cells.items()}
        bf.add_zoned_map(root, TRACKS_MAP, "Victory points and the other running values",
                         [bf.ZonedBoard(TRACKS_MAP, images.tracks.image, zones)])
    bf.add_zoned_map(root, bf.turn_track_map_name(game), "The scenario's turn record: reinforcements wait on "
                     "their turn", turn_track_boards(game, images))
    entries_palette = palette_entries(game, images, gpids, pools)
    bf.add_palette(root, entries_palette)
    bf.add_prototypes(root, prototypes)
    bf.add_dice(root, game)
    bf.add_turn_tracker(root, game)
    bf.add_charts(root, game, images)
    bf.add_inventory(root)
    bf.add_notes(root)
    module = ModuleData(name=game.name, version=version, description=game.description or game.name)
    setups, problems = [], []
    entries: dict[str, bytes] = {}
    for scenario in game.scenarios.values():
        file_name = f"setups/{scenario.id}.vsav"
        data, report = build_setup(game, scenario, images, gpids, module,
                                   prototypes={p.name: p.piece for p in prototypes}, pools=pools)
        entries[file_name] = data
        problems += report.problems
        setups.append((scenario, file_name))
    bf.add_setups(root, setups)
    bf.add_adjudicator(root, game)
    entries["buildFile.xml"] = bf.serialize(root)
    entries["moduledata"] = module.to_xml()
    entries[HELP_FILE] = help_html(game, version).encode("utf-8")
    return Assembled(entries, pieces=len(entries_palette), prototypes=len(prototypes), setups=len(setups),
                     problems=problems)


# -- what the code is (modgen.uptodate keys finished modules on it) ------------------------------

#: Packages whose code decides a module (``modgen.uptodate`` keys finished modules on it);
#: ``art`` is covered by its renderer fingerprint (image names and board layouts come from it).
CODE_PACKAGES = ("modgen", "vassalfmt", "scenarios")


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(renderer_fingerprint().encode("ascii"))
    for package in CODE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode("utf-8"))
            digest.update(path.read_bytes())
    return digest.hexdigest()


def write_module(result: BuildResult, out_dir: Path, file_name: str) -> Path:
    path = write_atomic(Path(out_dir) / file_name, build_zip(result.entries))
    result.path = path
    return path
