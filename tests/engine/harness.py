"""Driving the real VASSAL engine from tests: a JSON script in, a JSON report out.

The driver (``tests/engine/java/kwharness``, our own Java) is compiled on first use against the
engine jar named by ``VASSAL_ENGINE_JAR`` and the Debian jars the engine needs, into a cache
directory keyed by the sources and the jar, and run under a private Xvfb display. Nothing of the
engine is in the project: without the jar every engine test skips with the reason
``skip_reason()`` gives. See docs/engine-harness.md for the steps a script may use.

    run = run_engine(module_path, [{"do": "setup", "name": "Battle of the Ridge"},
                                   {"do": "pieces", "properties": ["UnitId"]}])
    run.result(1)["pieces"]          # every piece with its map, location and properties
    run.problems()                   # warnings, errors, bugs and dialogs, from any step
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ENGINE_ENV = "VASSAL_ENGINE_JAR"
HERE = Path(__file__).resolve().parent
JAVA_SOURCES = HERE / "java"
LOGBACK_CONFIG = HERE / "logback-harness.xml"
REPO = HERE.parent.parent
#: The extension's JSON reader and writer: the harness compiles this same source into its own package
#: (one parser to keep right; the harness reads its script and writes its report with it).
EXTENSION_JSON = REPO / "modgen" / "extension" / "java" / "korea" / "adjudicator" / "Json.java"
CACHE_DIR = Path(os.environ.get("KW_ENGINE_CACHE", REPO / ".cache" / "engine-harness"))

#: The Debian jars the engine runs with (/usr/share/java; the apt packages are listed in
#: scripts/system-packages.sh), the same list as ../shared/tools/vassal-check.
DEBIAN_JARS = (
    "commons-lang3", "commons-io", "commons-codec", "slf4j-api", "logback-classic", "logback-core",
    "miglayout-core", "miglayout-swing", "jsoup", "batik-all", "xmlgraphics-commons", "xml-apis",
    "xml-apis-ext", "swingx", "TimingFramework", "gnu-getopt", "jl", "asm", "httpclient5", "httpcore5",
    "maven-artifact-3.x",
)
DEBIAN_JAVA = Path("/usr/share/java")


class EngineUnavailable(RuntimeError):
    """The engine cannot run here (no jar, no Java, no Xvfb); the message says what is missing."""


class EngineError(RuntimeError):
    """The engine run ended without a report (the JVM crashed or was killed)."""


def engine_jar() -> Path:
    """The engine jar from ``VASSAL_ENGINE_JAR``; EngineUnavailable when unset or missing."""
    value = os.environ.get(ENGINE_ENV, "")
    if not value:
        raise EngineUnavailable(f"{ENGINE_ENV} is not set (a VASSAL 3.7.26 engine jar; "
                                "see docs/engine-harness.md)")
    jar = Path(value)
    if not jar.is_file():
        raise EngineUnavailable(f"{ENGINE_ENV}={value} is not a file")
    return jar


def class_path() -> list[Path]:
    """The engine jar and the Debian jars it needs; EngineUnavailable naming what is missing."""
    jars = [engine_jar()] + [DEBIAN_JAVA / f"{name}.jar" for name in DEBIAN_JARS]
    missing = [str(j) for j in jars[1:] if not j.is_file()]
    if missing:
        raise EngineUnavailable("Java libraries missing (bash scripts/system-packages.sh installs them): "
                                + ", ".join(missing))
    return jars


def skip_reason() -> str | None:
    """Why engine tests cannot run here, or None when they can."""
    try:
        class_path()
    except EngineUnavailable as err:
        return str(err)
    for tool in ("java", "javac", "Xvfb"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (bash scripts/system-packages.sh installs it)"
    return None


_compile_lock = threading.Lock()


def driver_classes() -> Path:
    """The compiled driver, built once per (sources, engine jar) into the cache directory."""
    jars = class_path()
    sources = sorted(JAVA_SOURCES.rglob("*.java"))
    json_source = _harness_json()
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.relative_to(JAVA_SOURCES).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update(json_source.encode())
    stat = jars[0].stat()
    digest.update(f"{jars[0].resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    target = CACHE_DIR / digest.hexdigest()[:16]
    with _compile_lock:
        if (target / "kwharness" / "Driver.class").is_file():
            return target
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(dir=CACHE_DIR, prefix=".build-"))
        generated = building / "src" / "kwharness" / "Json.java"
        generated.parent.mkdir(parents=True)
        generated.write_text(json_source, encoding="utf-8")
        done = subprocess.run(
            ["javac", "-nowarn", "-encoding", "UTF-8", "--release", "17", "-proc:none",
             "-cp", os.pathsep.join(map(str, jars)), "-d", str(building), *map(str, sources), str(generated)],
            capture_output=True, text=True)
        shutil.rmtree(building / "src", ignore_errors=True)
        if done.returncode != 0:
            shutil.rmtree(building, ignore_errors=True)
            raise EngineError(f"the engine harness driver does not compile:\n{done.stderr}")
        try:
            building.rename(target)
        except OSError:  # another process built it meanwhile
            shutil.rmtree(building, ignore_errors=True)
    return target


def _harness_json() -> str:
    """The extension's Json.java as a class of the harness's package."""
    text = EXTENSION_JSON.read_text(encoding="utf-8")
    if not text.startswith("package korea.adjudicator;\n"):
        raise EngineError(f"{EXTENSION_JSON.name} does not start with its package line")
    return "package kwharness;\n" + text[len("package korea.adjudicator;\n"):]


class _Display:
    """One private Xvfb server, started on first use (``-displayfd`` picks a free display number,
    so parallel runs by other people on the machine never collide). A process has one per engine
    run it makes at the same time (`run_engines`): each Player its own screen, mouse and keyboard."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.name = ""
        self.lock = threading.Lock()

    def get(self) -> str:
        with self.lock:
            if self.process is not None and self.process.poll() is None:
                return self.name
            read, write = os.pipe()
            self.process = subprocess.Popen(
                ["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1200x24", "-nolisten", "tcp"],
                pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.close(write)
            with os.fdopen(read) as pipe:
                number = pipe.readline().strip()
            if not number:
                raise EngineUnavailable("Xvfb did not start")
            self.name = f":{number}"
            atexit.register(self.stop)
            return self.name

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


_displays: dict[int, _Display] = {}
_displays_lock = threading.Lock()


def _display(slot: int = 0) -> str:
    """The X display of one of the engine runs a process makes at the same time (slot 0, 1, ...)."""
    with _displays_lock:
        display = _displays.setdefault(slot, _Display())
    return display.get()


@dataclass
class EngineRun:
    """What one engine run reported (``report`` is the driver's JSON, see docs/engine-harness.md)."""

    report: dict[str, Any]
    exit_code: int
    stderr: str = field(repr=False, default="")

    @property
    def steps(self) -> list[dict[str, Any]]:
        return self.report.get("steps", [])

    @property
    def ok(self) -> bool:
        """The module opened and every step ran."""
        return self.exit_code == 0

    def step(self, index: int) -> dict[str, Any]:
        """A step's entry (``ok``, ``result``, ``chat``, ``dialogs``, ``log``, ``bugs``); raises
        AssertionError with the step's error when it failed or did not run."""
        if index >= len(self.steps):
            raise AssertionError(f"step {index} did not run: {self.failure()}")
        entry = self.steps[index]
        if not entry.get("ok"):
            raise AssertionError(f"step {index} ({entry.get('do')}) failed: {entry.get('error')}")
        return entry

    def result(self, index: int) -> Any:
        return self.step(index)["result"]

    def chat(self) -> list[str]:
        """Every line the chat window showed, in order."""
        return [line["text"] for line in self.report.get("chat", [])]

    def problems(self) -> list[dict[str, Any]]:
        """Everything a person would have been shown or warned about: log warnings and errors,
        bug reports and dialogs, each with the step it happened in (-1: opening the module)."""
        found = []
        for kind in ("log", "bugs", "dialogs"):
            found += [{"kind": kind, **entry} for entry in self.report.get(kind, [])]
        return found

    def failure(self) -> str:
        """A one-paragraph account of why the run did not succeed (for assertion messages)."""
        if self.report.get("timeout"):
            return f"the engine run timed out at step {self.report.get('running_step')}"
        if self.report.get("partner_failed"):
            return (f"stopped at step {self.report.get('running_step')}: another Player run with it "
                    f"{self.report['partner_failed']}")
        if not self.report.get("module_opened"):
            return f"the module did not open: {self.report.get('bugs')}"
        failed = self.report.get("failed_step")
        if failed is not None:
            entry = self.steps[failed]
            return f"step {failed} ({entry.get('do')}) failed: {entry.get('error')}"
        return "ok"


def run_engine(module_path: str | os.PathLike, steps: list[dict[str, Any]], timeout: float = 300, *,
               prefs_dir: str | os.PathLike | None = None, java_options: tuple[str, ...] = (),
               slot: int = 0, signals: str | os.PathLike | None = None) -> EngineRun:
    """Open ``module_path`` in the real engine, run ``steps`` in order (stopping at the first that
    fails) and return the report. ``prefs_dir`` keeps the engine's preferences between runs (a new
    empty one otherwise); ``slot`` picks the X display (one per run made at the same time) and
    ``signals`` the folder runs made together signal each other in (`run_engines`). Raises
    EngineUnavailable when the engine cannot run here."""
    classes = driver_classes()
    jars = class_path()
    with tempfile.TemporaryDirectory(prefix="kw-engine-") as work:
        work_dir = Path(work)
        conf = Path(prefs_dir) if prefs_dir else work_dir / "conf"
        conf.mkdir(parents=True, exist_ok=True)
        script = work_dir / "steps.json"
        script.write_text(json.dumps(steps), encoding="utf-8")
        report_file = work_dir / "report.json"
        # The AWT toolkit's X event thread sleeps in poll() up to 250 ms when idle, and a Robot's
        # waitForIdle (after every click and key) waits on it several times over: 3-10 s a step.
        # Woken every 10 ms instead, a person's step takes what the engine needs.
        env = {"_AWT_MAX_POLL_TIMEOUT": "10", **os.environ, "DISPLAY": _display(slot)}
        command = [
            "java", "-Xmx1g", "-Djava.awt.headless=false", f"-Dlogback.configurationFile={LOGBACK_CONFIG}",
            f"-DVASSAL.conf={conf}", f"-DVASSAL.cache={work_dir / 'cache'}",
            "-Dkorea.adjudicator.browser=off",  # the Adjudicator extension shows an address instead of opening a browser
            *([f"-Dkwharness.signals={Path(signals).resolve()}", f"-Dkwharness.player={slot}"] if signals else []),
            *java_options,
            "-cp", os.pathsep.join(map(str, [classes, *jars])), "kwharness.Driver",
            "--module", str(Path(module_path).resolve()), "--script", str(script),
            "--report", str(report_file), "--timeout", str(int(timeout)),
        ]
        try:
            done = subprocess.run(command, env=env, cwd=work_dir, capture_output=True, text=True,
                                  timeout=timeout + 60)
        except subprocess.TimeoutExpired as err:
            raise EngineError(f"the engine did not stop {timeout + 60:.0f} s after starting") from err
        if not report_file.is_file():
            raise EngineError(f"the engine ended (exit {done.returncode}) without a report:\n{done.stderr[-4000:]}")
        report = json.loads(report_file.read_text(encoding="utf-8"))
    return EngineRun(report=report, exit_code=done.returncode, stderr=done.stderr)


@dataclass
class Player:
    """One of the Players `run_engines` runs at the same time: its module, its script, its own
    preferences folder (a computer of its own) and how long it may take."""

    module: str | os.PathLike
    steps: list[dict[str, Any]]
    prefs_dir: str | os.PathLike
    timeout: float = 600


def run_engines(players: list[Player], signals: str | os.PathLike) -> list[EngineRun]:
    """Several Players at once, as several people at their computers (live play in a room of a
    VASSAL server): each run is its own JVM on its own X display (slot), and they wait for one
    another with steps that wait for a condition (wait_signal on a file in ``signals``, which every
    run is given; wait_room, wait_chat, wait_piece), never a sleep. Returns their reports in the
    order given, once every run ended."""
    Path(signals).mkdir(parents=True, exist_ok=True)
    results: list[EngineRun | BaseException | None] = [None] * len(players)

    def play(number: int, player: Player) -> None:
        try:
            results[number] = run_engine(player.module, player.steps, player.timeout, prefs_dir=player.prefs_dir,
                                         slot=number, signals=signals)
        except BaseException as err:  # reported to the caller below
            results[number] = err

    threads = [threading.Thread(target=play, args=(n, p), name=f"engine-{n}") for n, p in enumerate(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results  # type: ignore[return-value]
