"""The Adjudicator extension's Java: its unit tests (tests/extension/.../ExtensionTests.java: JSON,
schema to form, filling from the board, right-click entries, and every check the server
describes giving a form), that the session line it writes is the one the server reads
(adjudicator.logs.session_line), and, with the engine jar, that it compiles against the real engine
(so the compile-only declarations in modgen/extension/engine-api match the engine's API)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from adjudicator.logs.session_line import SessionLine, parse_session_line
from adjudicator.testing import make_app
from modgen import extension
from tests.engine.harness import class_path
from tests.session_lines import session_line

JAVA_TESTS = Path(__file__).resolve().parent / "extension" / "korea" / "adjudicator"
TESTS = JAVA_TESTS / "ExtensionTests.java"
SESSION_LINES = JAVA_TESTS / "SessionLines.java"

LONGEST = "a-" * 31 + "_Z"  # 64 characters, every kind the ids take
#: Session lines as the extension writes them: (game id, the log session, the sessions before it, side).
SESSION_CASES = [
    ("g1", {"id": "s1", "file": 1, "start": "ab" * 16}, [], None),
    ("g1", {"id": "s3", "parent": "s2", "file": 3, "start": "ef" * 16}, ["s1", "s2"], "un"),
    ("g1", {"id": "s9", "file": 1, "start": "ab" * 16, "live": "l1"}, [], "communist"),
    ("g-2_x", {"id": "k3f9x2q0m1ab", "file": 12, "start": "0123456789abcdef" * 4, "live": "m4n5p6"},
     ["k1a2b3", "k2c4d5"], "un"),
    (LONGEST, {"id": LONGEST, "file": 999999, "start": "f" * 64}, [LONGEST, "b" * 64, "c"], "nkpa_cpa"),
    ("g1", {"id": "s2", "parent": "s1", "file": 2}, ["s1"], "un"),  # a position never digested
]


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    """The extension and its Java tests, compiled once for this module."""
    out = tmp_path_factory.mktemp("classes")
    extension.compile_classes(out, extra_sources=[TESTS, SESSION_LINES])
    return out


@pytest.mark.slow
def test_extension_unit_tests_pass_on_every_check_of_the_server(tmp_path, classes):
    systems = make_app(tmp_path).test_client().get("/api/v1/systems").get_json()
    (tmp_path / "systems.json").write_text(json.dumps(systems), encoding="utf-8")
    done = subprocess.run(["java", "-cp", str(classes), "korea.adjudicator.ExtensionTests", str(tmp_path / "systems.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 failed" in done.stdout


def extension_session_lines(classes: Path, tmp_path: Path) -> list[str]:
    """What the extension's `LogSessions.line` writes for each of SESSION_CASES."""
    cases = [{"game_id": game, "session": session, "chain": chain, "side": side}
             for game, session, chain, side in SESSION_CASES]
    (tmp_path / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    done = subprocess.run(["java", "-cp", str(classes), "korea.adjudicator.SessionLines", str(tmp_path / "cases.json")],
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    return json.loads(done.stdout.decode("utf-8"))


@pytest.mark.slow  # javac and a JVM
def test_the_session_line_the_extension_writes_is_the_one_the_server_reads(tmp_path, classes):
    lines = extension_session_lines(classes, tmp_path)
    assert [parse_session_line(line) for line in lines] == [
        SessionLine(session["id"], game, session["file"], session.get("start"), tuple(chain), side, session.get("live"))
        for game, session, chain, side in SESSION_CASES]
    # the tests' own writer (the logs they build) writes exactly what the extension writes
    assert lines == [session_line(game, {**session, "side": side}, chain) for game, session, chain, side in SESSION_CASES]


@pytest.mark.engine
def test_extension_compiles_against_the_real_engine(tmp_path):
    extension.compile_classes(tmp_path, class_path=class_path())
    assert sorted(p.name for p in (tmp_path / extension.PACKAGE_PATH).glob("*.class")) == \
        sorted(Path(n).name for n in extension.class_entries())
