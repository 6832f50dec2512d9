"""Sampling profiles of live processes (py-spy) and in-process calls (cProfile).

A benchmark that misses its target attaches a short profile to its section so
the report says where the time goes, not just that it is slow.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Callable


def py_spy_binary() -> str | None:
    local = Path(sys.executable).with_name("py-spy")
    return str(local) if local.exists() else shutil.which("py-spy")


def start_py_spy(pid: int, seconds: int, out: Path) -> subprocess.Popen | None:
    """Start sampling `pid` for `seconds` into a collapsed-stack file (None if py-spy is missing)."""
    binary = py_spy_binary()
    if binary is None:
        return None
    return subprocess.Popen(
        [binary, "record", "--pid", str(pid), "--duration", str(seconds), "--rate", "250",
         "--format", "raw", "--nonblocking", "--output", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def summarise_collapsed(paths: list[Path], top: int = 25) -> str:
    """Top functions by inclusive and by self samples from py-spy raw (collapsed) output.

    Inclusive counts show which of our functions the time is spent under;
    self counts show the leaf work (JSON, hashing, SQLite, signing...).
    """
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text(errors="replace").splitlines():
            stack, _, count_text = line.rpartition(" ")
            if not stack or not count_text.isdigit():
                continue
            count = int(count_text)
            frames = [_short(f) for f in stack.split(";")]
            total += count
            for frame in set(frames):
                inclusive[frame] += count
            own[frames[-1]] += count
    if not total:
        return "(no samples: py-spy missing or not permitted)"
    lines = [f"{total} samples"]
    lines.append("inclusive (project code):")
    project = [(f, c) for f, c in inclusive.most_common() if _is_project(f)][:top]
    lines += [f"  {100 * c / total:5.1f}%  {f}" for f, c in project]
    lines.append("self (leaf frames):")
    lines += [f"  {100 * c / total:5.1f}%  {f}" for f, c in own.most_common(top)]
    return "\n".join(lines)


def _short(frame: str) -> str:
    # py-spy frames look like "function (path/to/file.py:123)"; keep function and file tail
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    file, _, _line = where.rpartition(":")
    parts = Path(file).parts
    tail = "/".join(parts[-2:]) if parts else file
    return f"{name} ({tail})"


def _is_project(frame: str) -> bool:
    return any(f"({pkg}/" in frame for pkg in ("adjudicator", "api", "rules", "holdfast", "scenarios", "bench")) \
        or any(f"({pkg}/" in frame for pkg in ("flask", "werkzeug", "sqlalchemy", "pydantic", "flask_limiter"))


def cprofile_call(function: Callable[[], object], top: int = 20) -> str:
    """Profile one call in-process; the top functions by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    function()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    text = out.getvalue()
    # drop pstats' header noise up to the column titles
    start = text.find("   ncalls")
    return text[start:] if start >= 0 else text
