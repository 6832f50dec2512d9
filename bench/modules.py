"""Module-build benchmark: cold, no-change and one-unit rebuilds against the PNG floor.

Every phase does what ``modgen build --all`` does for each game — load the
data, collect (draw or reuse) the images, assemble the buildFile and write
the .vmod, or copy the module when none of its inputs changed
(``modgen.uptodate``) — so the phases compare like with like.  The cache
directory is fresh for the cold build and kept for the rebuilds.

The floor is the time merely to PNG-encode the same images at the same
settings (``art.render.encode_png``), measured in the same run: the pictures
of the cold build are decoded beforehand (not timed) and re-encoded.  A cold
build cannot be faster than encoding its output, so "cold / floor" says how
much the drawing and assembling add on top.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from art.render import encode_png
from bench.config import TARGETS
from bench.profiling import cprofile_call
from bench.results import Section
from modgen.uptodate import build_or_copy
from scenarios import game_ids
from scenarios.loader import DATA_ROOT

VERSION = "bench"
CHANGED_GAME = "spi"  # the game whose one unit the one-unit rebuild changes


@dataclass
class BuildRun:
    """One pass over every game: seconds per game and the images built."""

    seconds: dict[str, float] = field(default_factory=dict)  # wall-clock
    # CPU time of this process and of its finished children (the drawing workers, javac): less noisy
    # under load than wall-clock, and on two cores the honest measure of the work done
    cpu: dict[str, float] = field(default_factory=dict)
    images: dict[str, dict[str, bytes]] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return sum(self.seconds.values())

    @property
    def cpu_total(self) -> float:
        return sum(self.cpu.values())


def build_all(cache_dir: Path, out_dir: Path, data_dirs: dict[str, Path] | None = None) -> BuildRun:
    """Load, draw and write every game's module (or copy those whose inputs are unchanged), as
    `modgen build --all` does; ``data_dirs`` replaces some games' data directories."""
    run = BuildRun()
    with warnings.catch_warnings():
        # modgen's own warnings (e.g. about setups) are the build's business, not the benchmark's
        warnings.simplefilter("ignore", UserWarning)
        _build_each(run, cache_dir, out_dir, data_dirs or {})
    return run


def _build_each(run: BuildRun, cache_dir: Path, out_dir: Path, data_dirs: dict[str, Path]) -> None:
    """As `modgen build --all` (``modgen.uptodate.build_or_copy``: one drawing pool for all games
    while the modules are assembled). A game's seconds run from the previous module written (or
    the start) to its own, so they add up to the whole build. Every `modgen build` is a new process,
    so the data files are read every time (load_game's per-process cache is not used)."""
    last, cpu_last = time.perf_counter(), cpu_seconds()
    sources = {game_id: data_dirs.get(game_id, DATA_ROOT / game_id) for game_id in game_ids()}
    for module in build_or_copy(sources, out_dir, VERSION, scale=1, cache_dir=cache_dir):
        now, cpu_now = time.perf_counter(), cpu_seconds()
        run.seconds[module.game_id], run.cpu[module.game_id] = now - last, cpu_now - cpu_last
        last, cpu_last = now, cpu_now
        run.images[module.game_id] = module.images or {}


def cpu_seconds() -> float:
    """CPU time of this process and of the child processes it has waited for."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def png_floor(images: dict[str, dict[str, bytes]]) -> tuple[float, float]:
    """Wall and CPU seconds to PNG-encode every image again at the art package's settings."""
    decoded = []
    for files in images.values():
        for blob in files.values():
            picture = Image.open(io.BytesIO(blob))
            picture.load()
            decoded.append(picture)
    started, cpu_started = time.perf_counter(), time.process_time()
    for picture in decoded:
        encode_png(picture)
    return time.perf_counter() - started, time.process_time() - cpu_started


def changed_copy(game_id: str, workdir: Path) -> tuple[Path, str]:
    """A copy of a game's data dir with one unit's first printed value raised by one."""
    target = workdir / game_id
    shutil.copytree(DATA_ROOT / game_id, target)
    units = target / "units.csv"
    lines = units.read_text(encoding="utf-8").splitlines(keepends=True)
    header = next(i for i, ln in enumerate(lines) if ln.strip() and not ln.startswith("#"))
    columns = lines[header].strip().split(",")
    steps_col = columns.index("steps")
    for i in range(header + 1, len(lines)):
        if lines[i].startswith("#") or not lines[i].strip():
            continue
        cells = lines[i].split(",")
        match = re.match(r"^(\d+)(-.*)$", cells[steps_col])
        if match:
            cells[steps_col] = f"{int(match.group(1)) + 1}{match.group(2)}"
            lines[i] = ",".join(cells)
            units.write_text("".join(lines), encoding="utf-8")
            return target, cells[0]
    raise ValueError(f"{game_id}: no unit with numeric values to change")


def run_modules(profile_on_miss: bool = True) -> Section:
    section = Section("modules")
    with tempfile.TemporaryDirectory(prefix="bench-modules-") as tmp:
        tmp_path = Path(tmp)
        cache, out = tmp_path / "cache", tmp_path / "out"
        out.mkdir()
        cold = build_all(cache, out)
        floor = png_floor(cold.images)
        unchanged = build_all(cache, out)
        data_dir, unit_id = changed_copy(CHANGED_GAME, tmp_path / "data")
        one_unit = build_all(cache, out, {CHANGED_GAME: data_dir})
        changed = _differing_images(cold.images[CHANGED_GAME], one_unit.images[CHANGED_GAME])
        report(section, cold, floor, unchanged, one_unit, unit_id, changed)
        if profile_on_miss and not all(t.passed for t in section.targets):
            section.profile = _profile_misses(section, tmp_path)
    return section


def _differing_images(before: dict[str, bytes], after: dict[str, bytes]) -> int:
    return sum(1 for name in after if before.get(name) != after[name])


def report(section: Section, cold: BuildRun, floor: tuple[float, float], unchanged: BuildRun, one_unit: BuildRun,
           unit_id: str, changed: int) -> None:
    """The targets judge wall-clock time (what a user waits for); CPU-time ratios are shown
    beside them because other processes on a shared machine disturb them less."""
    floor_wall, floor_cpu = floor
    images = sum(len(files) for files in cold.images.values())
    per_game = ", ".join(f"{g} {s:.1f}" for g, s in cold.seconds.items())

    def shown(run: BuildRun) -> str:
        return f"{run.total:7.2f} s wall, {run.cpu_total:6.2f} s CPU"

    section.row("cold, all four games", f"{shown(cold)}  ({per_game} s wall)")
    section.row("PNG-encode floor", f"{floor_wall:7.2f} s wall, {floor_cpu:6.2f} s CPU  ({images} images)")
    section.row("no-change rebuild", f"{shown(unchanged)}  ({100 * unchanged.total / cold.total:.1f}% of cold)")
    section.row("one-unit rebuild", f"{shown(one_unit)}  ({100 * one_unit.total / cold.total:.1f}% of cold; "
                                    f"{CHANGED_GAME} unit {unit_id}, {changed} image(s) differ)")
    section.numbers.update({"cold_s": cold.total, "cold_cpu_s": cold.cpu_total, "floor_s": floor_wall,
                            "floor_cpu_s": floor_cpu, "no_change_s": unchanged.total,
                            "no_change_cpu_s": unchanged.cpu_total, "one_unit_s": one_unit.total,
                            "one_unit_cpu_s": one_unit.cpu_total, "images": images,
                            **{f"cold_{g}_s": s for g, s in cold.seconds.items()},
                            **{f"no_change_{g}_s": s for g, s in unchanged.seconds.items()}})
    section.notes.append("the same ratios in CPU time: cold/floor "
                         f"{cold.cpu_total / floor_cpu:.2f}x, no-change {unchanged.cpu_total / cold.cpu_total:.3f}, "
                         f"one-unit {one_unit.cpu_total / cold.cpu_total:.3f} (CPU of this process, the drawing "
                         "workers and javac; the floor is one process)")
    section.target("cold over PNG floor", cold.total / floor_wall, TARGETS.cold_over_floor, "x", at_most=True)
    section.target("no-change rebuild over cold", unchanged.total / cold.total, TARGETS.no_change_over_cold, "x",
                   at_most=True)
    section.target("one-unit rebuild over cold", one_unit.total / cold.total, TARGETS.one_unit_over_cold, "x",
                   at_most=True)
    if changed == 0:
        section.notes.append("WARNING: the one-unit change did not change any image")


def _profile_misses(section: Section, tmp_path: Path) -> str:
    """cProfile of the phases that missed: a cold build of one game and a no-change rebuild."""
    parts = []
    missed = {t.name for t in section.targets if not t.passed}
    cache = tmp_path / "profile-cache"
    out = tmp_path / "profile-out"
    out.mkdir(exist_ok=True)
    if "cold over PNG floor" in missed:
        parts.append("cold build, all games:\n" + cprofile_call(lambda: build_all(cache, out), top=25))
    if missed & {"no-change rebuild over cold", "one-unit rebuild over cold"}:
        build_all(cache, out)
        parts.append("no-change rebuild, all games:\n" + cprofile_call(lambda: build_all(cache, out), top=25))
    return "\n".join(parts)
