"""The Adjudicator extension: our own Java classes that every module carries (docs/vassal-extension.md).

``java/`` holds the extension's source (package ``korea.adjudicator``); ``engine-api/`` holds
compile-only declarations of the few VASSAL engine classes it calls, so a module builds without
the engine. ``javac`` compiles the source with those declarations on its source path only
(``-implicit:none``: no class is made from them), and :func:`class_entries` hands the classes to
the module build, which packs them at their package path, where the engine's class loader finds
them. The buildFile element :data:`COMPONENT_CLASS` installs the extension.

Compiled classes are cached (in the process, and beside the art cache) by a hash of the sources,
the declarations and the compiler's version, so a rebuild with unchanged sources reads the same
bytes back (javac's output depends only on those). Building without a JDK fails with :class:`ExtensionBuildError`, never silently
without the extension.

javac takes a few seconds (a JVM start), so a build calls :func:`start_compiling` before it draws the
art: the compiler runs in its own process while the drawing pool works, and :func:`class_entries`
waits for that result instead of compiling again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import Future
from functools import lru_cache
from pathlib import Path

from scenarios.boxboard import counters_box
from scenarios.model import Game

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "java"
ENGINE_API = HERE / "engine-api"
PACKAGE_PATH = "korea/adjudicator"
COMPONENT_CLASS = "korea.adjudicator.Adjudicator"
DEFAULT_SERVER = "http://127.0.0.1:8000"
JAVA_RELEASE = "17"  # the engine's own target: classes load in any Java that runs VASSAL 3.7

#: The compiler's own JVM tuned for one short run: the quick (C1) JIT only and the serial collector halve
#: javac's CPU here (5.2 -> 2.6 s user on 2 cores); the classes it writes are byte-identical (checked).
#: Unknown options are ignored, so a JVM other than HotSpot still compiles.
QUICK_JVM = ("-J-XX:+IgnoreUnrecognizedVMOptions", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC")

NO_JAVAC = ("building a module needs a Java compiler (javac, JDK 17 or newer) for the Adjudicator "
            "extension every module carries: `make modules` installs Debian's default-jdk-headless, "
            "or run `apt-get install default-jdk-headless`")


class ExtensionBuildError(RuntimeError):
    """The extension cannot be compiled here (no JDK, or the source does not compile)."""


def sources() -> list[Path]:
    return sorted(SOURCES.rglob("*.java"))


def component_attributes(game: Game) -> dict[str, str]:
    """The buildFile attributes of the extension's element: the game's id on the server, each
    side's roster name by side id (the module's PlayerRoster lists the names), the default server,
    each track's name by track id (a marker on the cell "<track name> <cell>" shows that track's
    value), each arm's id by the name its counters carry (the UnitType property), each scenario's
    name by its id (the menu names the game's scenario before a server is reached) and each box of
    counters not in play by its name (a unit lying there is one of the board role
    `counters_not_in_play`)."""
    sides = {side.id: side.name for side in game.sides.values()}
    tracks = {track.id: track.name for track in game.tracks.values()}
    types = {utype.name: utype.id for utype in game.unit_types.values()}
    scenarios = {scenario.id: scenario.name for scenario in game.scenarios.values()}
    attributes = {"game": game.id, "sides": json.dumps(sides, ensure_ascii=False), "server": DEFAULT_SERVER,
                  "scenarios": json.dumps(scenarios, ensure_ascii=False)}
    if tracks:
        attributes["tracks"] = json.dumps(tracks, ensure_ascii=False)
    if types:
        attributes["types"] = json.dumps(types, ensure_ascii=False)
    aside = {box.name: box.id for side in game.sides if (box := counters_box(game, side)) is not None}
    if aside:  # the boxes of counters not in play (SPI's breakdowns), by the name the Boxes map gives their region
        attributes["aside"] = json.dumps(aside, ensure_ascii=False)
    return attributes


#: The command that carries what a VASSAL game says it is (korea.adjudicator.PlayedGame).
GAME_STATE_PREFIX = "korea.adjudicator.game\t"


def game_state_command(scenario_id: str) -> str:
    """The command a predefined setup carries so the game says which scenario it is: the
    extension reads it when the setup starts, and writes it into every save and log after."""
    state = {"scenario": scenario_id, "game_id": "", "stand_ins_stated": []}
    return GAME_STATE_PREFIX + json.dumps(state, ensure_ascii=False, separators=(",", ":"))


#: The lines of a JDK's ``release`` file that name the compiler's build.
RELEASE_FIELDS = ("IMPLEMENTOR", "JAVA_VERSION", "JAVA_RUNTIME_VERSION")


@lru_cache(maxsize=1)
def javac_version() -> str:
    """Which compiler this is, for the cache key: the JDK's ``release`` file beside its ``bin/``
    where there is one (reading it spares a JVM start, ~0.3 s of CPU per build), else what
    ``javac -version`` prints."""
    javac = shutil.which("javac")
    if javac is None:
        raise ExtensionBuildError(NO_JAVAC)
    real = Path(javac).resolve()
    try:
        release = (real.parent.parent / "release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        release = ""
    fields = [line for line in release.splitlines() if line.split("=", 1)[0] in RELEASE_FIELDS]
    if len(fields) == len(RELEASE_FIELDS):
        return "\n".join([str(real), *fields])
    done = subprocess.run([javac, *QUICK_JVM, "-version"], capture_output=True, text=True)
    return (done.stdout + done.stderr).strip()


def fingerprint() -> str:
    """What the compiled classes depend on: sources, engine declarations, compiler version."""
    digest = hashlib.sha256(javac_version().encode())
    for root in (SOURCES, ENGINE_API):
        for path in sorted(root.rglob("*.java")):
            digest.update(path.relative_to(HERE).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def compile_classes(out_dir: Path, class_path: list[Path] | None = None, extra_sources: list[Path] = ()) -> None:
    """Compile the extension (and ``extra_sources``) into ``out_dir``: against the engine
    declarations, or against ``class_path`` (e.g. the real engine jar) when given."""
    javac_version()
    command = ["javac", *QUICK_JVM, "-nowarn", "-encoding", "UTF-8", "--release", JAVA_RELEASE, "-proc:none",
               "-g:source,lines", "-d", str(out_dir)]
    if class_path is None:
        command += ["-implicit:none", "-sourcepath", str(ENGINE_API)]
    else:
        command += ["-cp", os.pathsep.join(map(str, class_path))]
    done = subprocess.run([*command, *map(str, sources()), *map(str, extra_sources)], capture_output=True, text=True)
    if done.returncode != 0:
        raise ExtensionBuildError(f"the Adjudicator extension does not compile:\n{done.stdout}{done.stderr}")


#: Background compilations started by `start_compiling`, by cache directory.
_pending: dict[str, Future] = {}
_pending_lock = threading.Lock()


def start_compiling(cache_dir: Path | None = None) -> None:
    """Get the classes ready in a background thread (javac is a separate process, so it overlaps the
    drawing); the next :func:`class_entries` for the same cache directory takes its result."""
    with _pending_lock:
        if str(cache_dir) in _pending:
            return
        future: Future = Future()
        _pending[str(cache_dir)] = future

    def compile_now() -> None:
        try:
            future.set_result(_class_entries(cache_dir))
        except BaseException as err:  # handed to the caller of class_entries
            future.set_exception(err)

    threading.Thread(target=compile_now, name="javac", daemon=True).start()


def class_entries(cache_dir: Path | None = None) -> dict[str, bytes]:
    """The extension's classes as module zip entries (``korea/adjudicator/X.class``): compiled
    once per process and fingerprint, and kept in ``cache_dir/extension`` for later processes."""
    with _pending_lock:
        future = _pending.pop(str(cache_dir), None)
    if future is not None:
        return future.result()
    return _class_entries(cache_dir)


def _class_entries(cache_dir: Path | None) -> dict[str, bytes]:
    key = fingerprint()
    target = Path(cache_dir) / "extension" / key[:24] if cache_dir is not None else None
    if target is not None and (target / PACKAGE_PATH).is_dir():
        return _read_classes(target)
    entries = dict(_compiled(key))
    if target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(dir=target.parent, prefix=".build-"))
        try:
            for name, data in entries.items():
                (building / name).parent.mkdir(parents=True, exist_ok=True)
                (building / name).write_bytes(data)
            os.replace(building, target)  # atomic: a reader never sees half of it
        except OSError:  # stored meanwhile by another process
            pass
        finally:
            shutil.rmtree(building, ignore_errors=True)
    return entries


@lru_cache(maxsize=2)
def _compiled(key: str) -> tuple[tuple[str, bytes], ...]:
    """The classes compiled for a fingerprint ``key`` (the argument is the cache key)."""
    with tempfile.TemporaryDirectory(prefix="kw-extension-") as out:
        compile_classes(Path(out))
        return tuple(sorted(_read_classes(Path(out)).items()))


def _read_classes(root: Path) -> dict[str, bytes]:
    entries = {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted((root / PACKAGE_PATH).rglob("*.class"))}
    if not entries:
        raise ExtensionBuildError(f"no extension classes under {root}")
    return entries
