"""Modules whose inputs are all unchanged are copied from the cache instead of built again.

A module is a pure function of its inputs: the game's data files, the shared geography its maps
are decorated from (``scenarios/geodata``), the code that loads, draws and writes it (with the
Pillow, lxml and Python it runs on), the Adjudicator extension's sources and compiler, the version
and the art scale. ``modgen build`` hashes all of them per game; when a module was built from the
same hash before, its ``.vmod`` is copied from the cache, and only the games whose inputs changed
are loaded, drawn and assembled. A maintainer who fixed one game's data waits for that game only
(issue 17: a no-change rebuild of all four games had become a tenth of a cold build, most of it
loading and hashing data that had not changed).

Nothing that could come out differently is skipped: the data were validated when the cached module
was built, the same files read by the same code validate the same way, and the warnings that build
gave are kept with it and said again.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

import lxml.etree

from modgen import extension
from modgen.build import build_modules, code_fingerprint
from scenarios import DataError, load_game_dir
from scenarios.geodata import DATA_DIR as GEODATA_DIR

#: Bump to retire every cached module at once (e.g. if what is stored beside them changes).
FORMAT = 1


@dataclass
class FinishedReport:
    """What building a module found, kept beside it so that a copy reports the same."""

    file_name: str
    pieces: int
    prototypes: int
    setups: int
    images: int
    problems: list[str] = field(default_factory=list)


def inputs_key(data_dir: Path, version: str, scale: int) -> str:
    """The hash of everything a game's module is made from (see the module docstring)."""
    digest = hashlib.sha256(json.dumps({
        "format": FORMAT, "version": version, "scale": scale, "code": code_fingerprint(),
        "extension": extension.fingerprint(), "geodata": _geodata_fingerprint(),
        "platform": [platform.python_version(), lxml.etree.__version__],
    }, sort_keys=True).encode("utf-8"))
    _hash_tree(digest, Path(data_dir))
    return digest.hexdigest()


def _hash_tree(digest, root: Path) -> None:
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name = path.relative_to(root).as_posix().encode("utf-8")
        data = path.read_bytes()
        digest.update(len(name).to_bytes(4, "big") + name + len(data).to_bytes(8, "big"))
        digest.update(data)


@lru_cache(maxsize=1)
def _geodata_fingerprint() -> str:
    digest = hashlib.sha256()
    _hash_tree(digest, GEODATA_DIR)
    return digest.hexdigest()


@dataclass
class FinishedModules:
    """Built modules by inputs key, beside the art cache: ``finished/<key>.vmod`` and ``.json``."""

    directory: Path

    def report(self, key: str) -> FinishedReport | None:
        """What the module built from ``key`` reported, or None if there is no such module."""
        try:
            report = FinishedReport(**json.loads(self._path(key, ".json").read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return None
        return report if self._path(key, ".vmod").is_file() else None

    def copy_to(self, key: str, out_dir: Path, report: FinishedReport) -> Path:
        """Copy the cached module into ``out_dir`` (via a temporary file: never half-written)."""
        target = Path(out_dir) / report.file_name
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        shutil.copyfile(self._path(key, ".vmod"), tmp)
        os.replace(tmp, target)
        return target

    def put(self, key: str, module: Path, report: FinishedReport) -> None:
        """Keep a module just written; the report goes last, so a reader never finds half of one.

        Only the newest module of each file name is kept (a maintainer editing data would
        otherwise pile up a copy per edit); an older one is only ever reused by going back to
        exactly its inputs, and then it is built again.
        """
        self._forget_others_named(report.file_name, key)
        vmod, meta = self._path(key, ".vmod"), self._path(key, ".json")
        vmod.parent.mkdir(parents=True, exist_ok=True)
        for target, write in ((vmod, lambda tmp: shutil.copyfile(module, tmp)),
                              (meta, lambda tmp: tmp.write_text(json.dumps(asdict(report)), encoding="utf-8"))):
            tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            write(tmp)
            os.replace(tmp, target)

    def _forget_others_named(self, file_name: str, key: str) -> None:
        for meta in (self.directory / "finished").glob("*/*.json"):
            if meta.stem == key:
                continue
            report = self.report(meta.stem)
            if report is not None and report.file_name == file_name:
                for suffix in (".json", ".vmod"):  # the report first: no reader finds it without its module
                    self._path(meta.stem, suffix).unlink(missing_ok=True)

    def _path(self, key: str, suffix: str) -> Path:
        return self.directory / "finished" / key[:2] / f"{key}{suffix}"


@dataclass
class WrittenModule:
    """One module ``build_or_copy`` wrote: built, or copied because its inputs had not changed."""

    game_id: str
    path: Path
    report: FinishedReport
    copied: bool
    #: the module's pictures by name when it was built (None when it was copied)
    images: dict[str, bytes] | None = None


class DataErrors(Exception):
    """Some games' data do not load: nothing was written. ``errors`` maps game id to its DataError."""

    def __init__(self, errors: dict[str, DataError]):
        self.errors = errors
        super().__init__("\n".join(f"{game_id}: {error}" for game_id, error in errors.items()))


def build_or_copy(sources: dict[str, Path], out_dir: Path, version: str, scale: int = 1,
                  cache_dir: Path | None = None, progress: Callable[[str], None] | None = None,
                  workers: int | None = None) -> Iterator[WrittenModule]:
    """Write the module of every game in ``sources`` (game id -> data directory), as ``modgen build``.

    Games whose inputs are unchanged since a module was built into ``cache_dir`` are copied; the
    others are loaded (all of them before anything is written: a data error raises DataErrors and
    writes nothing) and built together (``modgen.build.build_modules``). Without a cache directory
    everything is built.
    """
    finished = FinishedModules(Path(cache_dir)) if cache_dir is not None else None
    keys = {game_id: inputs_key(data_dir, version, scale) for game_id, data_dir in sources.items()} if finished else {}
    reports = {game_id: finished.report(key) for game_id, key in keys.items()} if finished else {}
    stale = [game_id for game_id in sources if reports.get(game_id) is None]
    if stale:
        extension.start_compiling(cache_dir)  # javac works while the data load and the art is drawn
    games, errors = [], {}
    for game_id in stale:
        try:
            games.append(load_game_dir(sources[game_id]))
        except DataError as error:
            errors[game_id] = error
    if errors:
        raise DataErrors(errors)
    for game_id, report in reports.items():
        if report is not None:
            if progress:
                progress(f"{game_id}: inputs unchanged since the module in the cache was built; copied")
            yield WrittenModule(game_id, finished.copy_to(keys[game_id], out_dir, report), report, copied=True)
    if not games:
        return
    for game_id, built in zip(stale, build_modules(games, out_dir, version, scale, cache_dir, progress, workers)):
        result = built.result
        report = FinishedReport(file_name=result.path.name, pieces=result.pieces, prototypes=result.prototypes,
                                setups=result.setups, images=len(built.images.files), problems=list(result.problems))
        if finished is not None:
            finished.put(keys[game_id], result.path, report)
        yield WrittenModule(game_id, result.path, report, copied=False, images=built.images.files)
