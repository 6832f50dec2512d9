"""Every image of a game, content-addressed and deterministically encoded.

The module generator calls one function::

    from art.render import render_game_images
    images = render_game_images(game, scale=1, cache_dir=".art-cache")
    # {"kwb_nk-6_full.png": b"\\x89PNG...", "kwb_map_pusan.png": ..., ...}

Why a cache keyed by content: a maintainer fixes one unit's values and
rebuilds; only that unit's counter should be redrawn.  Each image's key is a
SHA-256 of exactly the data that draws it (the unit, its nationality and
type, the game's value layout...), the renderer version and the scale.  A
changed datum changes the key; an unchanged one finds its PNG on disk.

Why deterministic encoding: the same data must give byte-identical PNGs so
that rebuilt modules diff cleanly and the cache can be trusted.  We write no
metadata chunks (no time, no software name) and use fixed zlib settings.

Image names are VASSAL-safe (letters, digits, ``_ . -`` only) and stable:
``<game>_<unit id>_<step>.png``, ``<game>_marker_<id>_<face index>.png``,
``<game>_map_<map id>.png``, ``<game>_box_<box id>.png``,
``<game>_turns_<scenario id>.png``, ``<game>_chart_<table id>.png``, and for
block games (HoldFast) the back of each side's blocks ``<game>_block-back_<side>.png``
(``block_back_images``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import multiprocessing
import os
import pickle
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import PIL
from PIL import Image

from scenarios.model import Box, Game, GameMap, MarkerType, Scenario, Table, Unit

from art.charts import render_table
from art.counters import unit_faces
from art.decor import map_decor
from art.maps import render_box, render_map, render_turn_track, turn_piece_counts
from art.pools import render_pool_back
from art.markers import marker_faces
from art.styles import style_for
from art.styles.base import side_colour
from art.styles.holdfast import HoldFastStyle
from art.tracks import render_tracks_board

# Bump whenever a drawing change should invalidate every cached image.  The
# key also carries a fingerprint of the art code, the bundled fonts and the
# Pillow version (``renderer_fingerprint``), so an edited renderer never
# serves a stale PNG even if nobody remembers to bump this.
RENDERER_VERSION = "1"

# Fields that never change a picture (where the datum came from, notes).
NOT_DRAWN = frozenset({"source", "note"})
# Counters and markers print designations and faces, never long names or
# counts, so editing those must not redraw them.
NOT_ON_COUNTERS = NOT_DRAWN | {"name", "count"}


# -- names ---------------------------------------------------------------------------


def safe_part(text: str) -> str:
    """One part of an image name with anything VASSAL-unsafe replaced by "-"."""
    return re.sub(r"[^A-Za-z0-9.-]", "-", text.strip()) or "x"


def image_name(*parts: str) -> str:
    return "_".join(safe_part(p) for p in parts) + ".png"


def unit_image_name(game: Game, unit: Unit, step_name: str) -> str:
    return image_name(game.id, unit.id, step_name)


def marker_image_name(game: Game, marker: MarkerType, face_index: int) -> str:
    return image_name(game.id, "marker", marker.id, str(face_index))


def block_back_image_name(game: Game, side: str) -> str:
    return image_name(game.id, "block-back", side)


def map_image_name(game: Game, gmap: GameMap) -> str:
    return image_name(game.id, "map", gmap.id)


def box_image_name(game: Game, box: Box) -> str:
    return image_name(game.id, "box", box.id)


def turn_track_image_name(game: Game, scenario: Scenario) -> str:
    return image_name(game.id, "turns", scenario.id)


def pool_back_image_name(game: Game, box: Box) -> str:
    return image_name(game.id, "back", box.id)


def tracks_board_image_name(game: Game) -> str:
    return image_name(game.id, "tracks")


def chart_image_name(game: Game, table: Table) -> str:
    return image_name(game.id, "chart", table.id)


# -- encoding and keys -------------------------------------------------------------------


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes with no metadata and fixed compression: same pixels, same bytes."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6, optimize=False)
    return buf.getvalue()


def plain(obj: Any, skip: frozenset[str] = NOT_DRAWN) -> Any:
    """A JSON-able copy of model data, without the fields in ``skip``.

    Sets are sorted and mapping keys stringified, so equal data always
    serialises to the same text.  (The common types are tested by exact type
    first: every build computes the keys of every picture and ABC
    ``isinstance`` checks were most of that time.)
    """
    kind = type(obj)
    if kind in _SCALARS:
        return obj
    # Leaves (most values) are kept inline rather than through another call.
    if kind is dict:
        return {str(k): v if type(v) in _SCALARS else plain(v, skip) for k, v in obj.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else plain(v, skip) for v in obj]
    names = _field_names(kind)
    if names is not None:
        out = {}
        for name in names:
            if name not in skip:
                value = getattr(obj, name)
                out[name] = value if type(value) in _SCALARS else plain(value, skip)
        return out
    if isinstance(obj, Mapping):
        return {str(k): plain(v, skip) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        return sorted(plain(v, skip) for v in obj)
    if isinstance(obj, (list, tuple)):
        return [plain(v, skip) for v in obj]
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    return str(obj)


_SCALARS = frozenset({str, int, float, bool, type(None)})


@lru_cache(maxsize=None)
def _field_names(kind: type) -> tuple[str, ...] | None:
    """A dataclass type's field names in order (None for any other type)."""
    if not dataclasses.is_dataclass(kind):
        return None
    return tuple(f.name for f in dataclasses.fields(kind))


@lru_cache(maxsize=1)
def renderer_fingerprint() -> str:
    """A hash of everything besides the data that decides the pixels."""
    art_dir = Path(__file__).parent
    digest = hashlib.sha256(PIL.__version__.encode("ascii"))
    files = sorted(art_dir.rglob("*.py")) + sorted((art_dir / "fonts").glob("*.ttf"))
    for path in files:
        digest.update(path.relative_to(art_dir).as_posix().encode("utf-8"))
        digest.update(path.read_bytes())
    return digest.hexdigest()


def content_key(kind: str, data: Any, scale: int) -> str:
    text = json.dumps({"renderer": RENDERER_VERSION, "code": renderer_fingerprint(), "kind": kind,
                       "scale": scale, "data": data},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def unit_key_data(game: Game, unit: Unit) -> dict:
    """Everything a unit's counter is drawn from."""
    parent = game.units.get(unit.parent) if unit.parent else None
    parent_type = game.unit_types.get(parent.type) if parent else None
    return {
        "style": style_for(game).name,
        "value_fields": list(game.value_fields),
        "value_separator": game.value_separator,
        "unit": plain(unit, NOT_ON_COUNTERS),
        "nationality": plain(game.nationalities.get(unit.nationality), NOT_ON_COUNTERS),
        "unit_type": plain(game.unit_types.get(unit.type), NOT_ON_COUNTERS),
        # Fire and Ice division stripes depend on whether the parent is a cadre.
        "parent": {"flags": sorted(parent.flags), "symbol": parent_type.symbol if parent_type else ""}
        if parent else None,
        "printed": style_for(game).printed_extras(game, unit),
    }


def marker_key_data(game: Game, marker: MarkerType) -> dict:
    side = marker.side or ("un" if "un" in game.sides else "")
    return {
        "style": style_for(game).name,
        "marker": plain(marker, NOT_ON_COUNTERS),
        "side_colour": side_colour(game, side) if side else "",
    }


# -- the cache -------------------------------------------------------------------------------


@dataclass
class ImageCache:
    """PNG bytes by content key, kept in memory and (if given) in a directory.

    ``drawn`` and ``reused`` list the keys of this run, so a caller (and the
    tests) can see that a one-unit change redrew one counter.
    """

    directory: Path | None = None
    drawn: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    _memory: dict[str, list[bytes]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.directory is not None:
            self.directory = Path(self.directory)
            self.directory.mkdir(parents=True, exist_ok=True)

    def images(self, key: str, count: int, draw: Callable[[], list[Image.Image]]) -> list[bytes]:
        """The ``count`` PNGs stored under ``key``, drawing them if absent."""
        found = self._load(key, count)
        if found is not None:
            self.reused.append(key)
            return found
        pictures = draw()
        if len(pictures) != count:
            raise ValueError(f"renderer gave {len(pictures)} images, expected {count}")
        data = [encode_png(p) for p in pictures]
        self._store(key, data)
        self.drawn.append(key)
        return data

    def image(self, key: str, draw: Callable[[], Image.Image]) -> bytes:
        return self.images(key, 1, lambda: [draw()])[0]

    def _file_name(self, key: str, i: int) -> str:
        return _png_file(self.directory, key, i)

    def _load(self, key: str, count: int) -> list[bytes] | None:
        if key in self._memory:
            return self._memory[key]
        if self.directory is None:
            return None
        data = []
        try:
            for i in range(count):
                with open(self._file_name(key, i), "rb") as file:
                    data.append(file.read())
        except OSError:  # missing (or not a file): draw it
            return None
        self._memory[key] = data
        return data

    def _store(self, key: str, data: list[bytes]) -> None:
        self._memory[key] = data
        self._write_files(key, data)

    def _write_files(self, key: str, data: list[bytes]) -> None:
        if self.directory is not None:
            _write_pngs(str(self.directory), key, data)

    def fetch(self, jobs: list[ImageJob], workers: int | None = None) -> dict[str, bytes]:
        """Every job's PNGs by image name: reused where cached, the rest drawn.

        Why a batch rather than one ``images`` call at a time: the missing pictures can
        then be drawn in ``workers`` processes at once (default: one per available core),
        which is what brings a cold module build near the time it takes merely to encode
        its PNGs. Drawing is deterministic, so the bytes do not depend on ``workers``.
        """
        return self.start_fetch(jobs, workers).result()

    def start_fetch(self, jobs: list[ImageJob], workers: int | None = None) -> "PendingImages":
        """``fetch`` in two halves: the missing pictures start drawing in worker processes now,
        and ``result()`` waits for them, so the caller can work meanwhile (the module builder
        assembles the buildFile and setups, which need only the image names)."""
        missing: list[ImageJob] = []
        pending: set[str] = set()
        for job in jobs:
            if job.key in pending or self._load(job.key, job.count) is not None:
                self.reused.append(job.key)
            else:
                pending.add(job.key)
                missing.append(job)
        return PendingImages(self, jobs, missing, _start_drawing(missing, self, workers))


@dataclass
class PendingImages:
    """A batch of pictures being drawn (see ``ImageCache.start_fetch``)."""

    cache: ImageCache
    jobs: list[ImageJob]
    missing: list[ImageJob]
    drawing: "_Drawing"

    def cancel(self) -> None:
        """Stop drawing (the caller failed and will not ask for the result)."""
        self.drawing.cancel()

    def result(self, names: Iterable[str] | None = None) -> dict[str, bytes]:
        """The PNGs by image name of every job, or of the jobs that give ``names``, once those
        are drawn (a module builder writes each game's module as soon as its pictures are in,
        while the workers still draw the next game's)."""
        wanted = set(names) if names is not None else None
        jobs = [job for job in self.jobs if wanted is None or not wanted.isdisjoint(job.names)]
        waiting = {job.key for job in jobs if job.key not in self.cache._memory}
        if waiting:
            indices = [i for i, job in enumerate(self.missing) if job.key in waiting]
            for index, data in self.drawing.wait(indices).items():
                job = self.missing[index]
                self.cache._memory[job.key] = data
                self.cache.drawn.append(job.key)
        files: dict[str, bytes] = {}
        for job in jobs:
            files.update(zip(job.names, self.cache._memory[job.key]))
        return files


# -- drawing many images at once --------------------------------------------------------------

#: Fewer missing images than this are drawn in this process: starting workers would cost more.
MIN_JOBS_FOR_POOL = 8


@dataclass
class ImageJob:
    """The pictures stored under one content key and the image names they get.

    ``cost`` is a rough relative drawing time: the pool starts the dearest jobs (maps)
    first so that no worker is left with a big map at the end.
    """

    key: str
    names: list[str]
    draw: Callable[[], list[Image.Image]]
    cost: int = 1

    @property
    def count(self) -> int:
        return len(self.names)


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def draw_and_encode(job: ImageJob) -> list[bytes]:
    pictures = job.draw()
    if len(pictures) != job.count:
        raise ValueError(f"renderer gave {len(pictures)} images, expected {job.count}")
    return [encode_png(p) for p in pictures]


class _Drawing:
    """Jobs being drawn: here when ``wait()`` asks for them, or already in forked workers."""

    def __init__(self, jobs: list[ImageJob], cache: ImageCache, workers: "_Workers | None" = None) -> None:
        self.jobs, self.cache, self.workers = jobs, cache, workers
        self.taken: set[int] = set()  # jobs whose PNGs have been read back from the workers' files

    def wait(self, indices: list[int]) -> dict[int, list[bytes]]:
        """The encoded PNGs of the jobs numbered ``indices``, by number (each also written to the
        cache directory)."""
        if self.workers is None:
            results = {}
            for index in indices:
                job = self.jobs[index]
                results[index] = data = draw_and_encode(job)
                self.cache._write_files(job.key, data)
            return results
        try:
            self.workers.wait_for(indices)
            results = {}
            for index in indices:  # the workers wrote every PNG to a file
                job = self.jobs[index]
                data = _read_pngs(self.workers.directory, job)
                if data is None:
                    raise OSError(f"a drawing worker's PNGs for {job.names[0]} are missing")
                results[index] = data
        except BaseException:
            self.workers.close()
            raise
        self.taken.update(indices)
        # Not before every job has been read back: a private directory goes with the workers.
        if self.workers.finished and len(self.taken) == len(self.jobs):
            self.workers.close()
        return results

    def cancel(self) -> None:
        if self.workers is not None:
            self.workers.close()


class _Workers:
    """Forked processes that draw batches of jobs, dearest first, and write each job's PNGs to
    ``directory`` (the cache directory, or a private temporary one when the cache has none).

    Why not ``multiprocessing.Pool``: its worker-handler thread waits on the result pipe too, so
    it spins whenever a result is waiting for the result-handler thread, and both need the main
    process's GIL while it assembles the modules: 0.14 s of a cold build's CPU for nothing. Here
    each worker takes the next batch number from a shared counter (the dearest batches first,
    and no core idles while work is left) and reports it done on a pipe with a few bytes; the
    main process reads the pipe only when it waits for the pictures, and has no helper threads.
    """

    def __init__(self, jobs: list[ImageJob], batches: list[list[int]], count: int,
                 directory: str | None) -> None:
        context = multiprocessing.get_context("fork")
        self.owns_directory = directory is None
        self.directory = directory if directory is not None else tempfile.mkdtemp(prefix="art-drawing-")
        self.batches = batches
        self.batch_of = {job: number for number, batch in enumerate(batches) for job in batch}
        self.done: set[int] = set()
        self.next_batch = context.Value("i", 0)
        self.reader, writer = context.Pipe(duplex=False)
        send_lock = context.Lock()
        # Forked, so the jobs (closures over the game, which cannot be pickled) are inherited.
        self.processes = [context.Process(target=_drawing_worker, daemon=True,
                                          args=(jobs, batches, self.next_batch, writer, send_lock, self.directory))
                          for _ in range(count)]
        for process in self.processes:
            process.start()
        writer.close()  # only the workers write: the pipe ends when they have all gone

    @property
    def finished(self) -> bool:
        return len(self.done) == len(self.batches)

    def wait_for(self, jobs: list[int]) -> None:
        """Until the batches holding ``jobs`` are drawn; a worker's exception is raised here."""
        wanted = {self.batch_of[job] for job in jobs}
        while not wanted <= self.done:
            try:
                number, failure = self.reader.recv()
            except EOFError:  # every worker has gone without finishing
                codes = [process.exitcode for process in self.processes]
                raise RuntimeError(f"drawing workers ended with pictures missing (exit codes {codes})") from None
            if failure is not None:
                raise failure
            self.done.add(number)

    def close(self) -> None:
        """Stop the workers (finished ones have already exited) and drop a private directory."""
        for process in self.processes:
            if process.exitcode is None:
                process.terminate()
        for process in self.processes:
            process.join()
        self.reader.close()
        if self.owns_directory:
            shutil.rmtree(self.directory, ignore_errors=True)


def _drawing_worker(jobs: list[ImageJob], batches: list[list[int]], next_batch, writer, send_lock,
                    directory: str) -> None:
    """One worker: take batch numbers until none are left; report each batch's number with None
    (drawn) or the exception that stopped it."""
    while True:
        with next_batch.get_lock():
            number = next_batch.value
            next_batch.value += 1
        if number >= len(batches):
            return
        try:
            for index in batches[number]:
                job = jobs[index]
                _write_pngs(directory, job.key, draw_and_encode(job))
            report = None
        except BaseException as error:  # handed to the main process, which raises it
            report = error
        with send_lock:
            try:
                writer.send((number, report))
            except (pickle.PicklingError, TypeError, AttributeError):  # an exception that does not pickle
                writer.send((number, RuntimeError(f"drawing failed: {report!r}")))
        if report is not None:
            return


def _png_file(directory: str, key: str, i: int) -> str:
    # Plain strings, not Path objects: a rebuild looks up every picture of the module.
    return os.path.join(directory, key[:2], f"{key}-{i}.png")


def _write_pngs(directory: str, key: str, data: list[bytes]) -> None:
    for i, blob in enumerate(data):
        path = _png_file(directory, key, i)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{os.path.dirname(path)}/.{os.path.basename(path)}.{os.getpid()}.tmp"
        with open(tmp, "wb") as file:
            file.write(blob)
        os.replace(tmp, path)  # atomic: a reader never sees half a PNG


def _read_pngs(directory: str, job: ImageJob) -> list[bytes] | None:
    data = []
    try:
        for i in range(job.count):
            with open(_png_file(directory, job.key, i), "rb") as file:
                data.append(file.read())
    except OSError:  # missing (or not a file)
        return None
    return data


#: Jobs go to the workers in batches of about this cost (maps and charts alone, counters by
#: eights): each batch costs a message on the pipe and a look at the shared counter.
BATCH_COST = 8


def _batches(jobs: list[ImageJob]) -> list[list[int]]:
    """Job numbers in batches, dearest first (maps first: no worker is left with a big
    map at the end)."""
    batches: list[list[int]] = []
    current: list[int] = []
    weight = 0
    for index in sorted(range(len(jobs)), key=lambda i: -jobs[i].cost):
        current.append(index)
        weight += jobs[index].cost
        if weight >= BATCH_COST:
            batches.append(current)
            current, weight = [], 0
    return batches + [current] if current else batches


def _start_drawing(jobs: list[ImageJob], cache: ImageCache, workers: int | None) -> _Drawing:
    workers = available_cores() if workers is None else workers
    can_fork = "fork" in multiprocessing.get_all_start_methods()
    if workers <= 1 or len(jobs) < MIN_JOBS_FOR_POOL or not can_fork:
        return _Drawing(jobs, cache)
    # The workers are forked here and now, so the caller may go on (even start another batch)
    # meanwhile.
    directory = str(cache.directory) if cache.directory is not None else None
    return _Drawing(jobs, cache, _Workers(jobs, _batches(jobs), min(workers, len(jobs)), directory))


# -- what the module generator calls ----------------------------------------------------------


def counter_jobs(game: Game, scale: int = 1) -> list[ImageJob]:
    """One job per unit (all its steps) and per marker (all its faces)."""
    jobs = []
    for unit in game.units.values():
        jobs.append(ImageJob(content_key("unit", unit_key_data(game, unit), scale),
                             [unit_image_name(game, unit, step.name) for step in unit.steps],
                             lambda u=unit: [f.image for f in unit_faces(game, u, scale)]))
    for marker in game.markers.values():
        count = len(marker.faces) or 1
        jobs.append(ImageJob(content_key("marker", marker_key_data(game, marker), scale),
                             [marker_image_name(game, marker, i) for i in range(count)],
                             lambda m=marker: [f.image for f in marker_faces(game, m, scale)]))
    return jobs


def box_key_data(game: Game, box: Box) -> dict:
    """Everything an off-map box's picture is drawn from."""
    return {"box": plain(box), "colour": side_colour(game, box.side) if box.side else ""}


def board_jobs(game: Game, scale: int = 1, map_scale: int = 1, box_tiles: bool = True) -> list[ImageJob]:
    """Maps (at ``map_scale``), off-map boxes (unless not ``box_tiles``: the module generator
    draws them straight onto its boxes board) and the backs of pool pieces, the player-aid
    tracks, turn tracks and charts: one job each."""
    jobs = []
    for gmap in game.maps.values():
        decor = map_decor(game, gmap)
        jobs.append(ImageJob(content_key("map", {"map": plain(gmap), "decor": plain(decor)}, map_scale),
                             [map_image_name(game, gmap)],
                             lambda m=gmap, d=decor: [_quantised(render_map(m, map_scale, d))], cost=100))
    for box in game.boxes.values():
        data = box_key_data(game, box)
        if box_tiles:
            jobs.append(ImageJob(content_key("box", data, scale), [box_image_name(game, box)],
                                 lambda b=box: [render_box(game, b, scale)], cost=2))
        if box.draw:
            jobs.append(ImageJob(content_key("pool-back", data, scale), [pool_back_image_name(game, box)],
                                 lambda b=box: [render_pool_back(game, b, scale)], cost=1))
    if game.tracks:
        jobs.append(ImageJob(content_key("tracks", plain(game.tracks, skip=frozenset({"note"})), scale),
                             [tracks_board_image_name(game)], lambda: [render_tracks_board(game, scale)], cost=2))
    for scenario in game.scenarios.values():
        data = {"name": scenario.name, "turns": plain(scenario.turns),
                "pieces": sorted(turn_piece_counts(scenario).items())}
        jobs.append(ImageJob(content_key("turns", data, scale), [turn_track_image_name(game, scenario)],
                             lambda s=scenario: [render_turn_track(s, scale)], cost=2))
    for table in game.tables.values():
        jobs.append(ImageJob(content_key("chart", plain(table, skip=frozenset()), scale),
                             [chart_image_name(game, table)], lambda t=table: [render_table(t, scale)], cost=10))
    return jobs


def counter_images(game: Game, scale: int = 1, cache: ImageCache | None = None,
                   workers: int | None = None) -> dict[str, bytes]:
    """Every unit step and marker face of a game, by image name."""
    return (cache or ImageCache()).fetch(counter_jobs(game, scale), workers)


def block_back_jobs(game: Game, scale: int = 1) -> list[ImageJob]:
    """The back of each side's blocks; none for a game whose units are counters.  Only the
    HoldFast style draws blocks (the opponent sees a block's back until combat reveals it)."""
    style = style_for(game)
    if not isinstance(style, HoldFastStyle):
        return []
    jobs = []
    for side in game.sides:
        data = {"style": style.name, "side": side, "colour": side_colour(game, side)}
        jobs.append(ImageJob(content_key("block-back", data, scale), [block_back_image_name(game, side)],
                             lambda s=side: [style.block_back(game, s, scale)]))
    return jobs


def block_back_images(game: Game, scale: int = 1, cache: ImageCache | None = None) -> dict[str, bytes]:
    """The back of each side's blocks by image name (``block_back_jobs``)."""
    return (cache or ImageCache()).fetch(block_back_jobs(game, scale), workers=1)


def board_images(game: Game, scale: int = 1, map_scale: int = 1,
                 cache: ImageCache | None = None, workers: int | None = None) -> dict[str, bytes]:
    """Maps (at ``map_scale``: the image matches ``grid.scaled(map_scale)``),
    off-map boxes, turn tracks and charts, by image name."""
    return (cache or ImageCache()).fetch(board_jobs(game, scale, map_scale), workers)


def render_game_images(game: Game, scale: int = 1, cache_dir: str | Path | None = None,
                       map_scale: int = 1, cache: ImageCache | None = None,
                       workers: int | None = None) -> dict[str, bytes]:
    """Every image of a game by VASSAL-safe name: counters, markers, maps,
    boxes, turn tracks and charts.  ``cache_dir`` keeps PNGs between runs;
    missing images are drawn in ``workers`` processes (default: one per core)."""
    cache = cache or ImageCache(Path(cache_dir) if cache_dir is not None else None)
    return cache.fetch(counter_jobs(game, scale) + board_jobs(game, scale, map_scale), workers)


def _quantised(img: Image.Image) -> Image.Image:
    """Maps as 256-colour palette images: a fraction of the RGB size, which
    matters for VASSAL modules (the VASSAL wiki: colour depth is "a biggy")."""
    return img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
