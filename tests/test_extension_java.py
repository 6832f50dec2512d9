"""The Adjudicator extension's Java: its unit tests (tests/extension/.../ExtensionTests.java: JSON,
schema to form, filling from the board, right-click entries, and every check the server
describes giving a form), and, with the engine jar, that it compiles against the real engine
(so the compile-only declarations in modgen/extension/engine-api match the engine's API)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from adjudicator.testing import make_app
from modgen import extension
from tests.engine.harness import class_path

TESTS = Path(__file__).resolve().parent / "extension" / "korea" / "adjudicator" / "ExtensionTests.java"


@pytest.mark.slow
def test_extension_unit_tests_pass_on_every_check_of_the_server(tmp_path):
    systems = make_app(tmp_path).test_client().get("/api/v1/systems").get_json()
    (tmp_path / "systems.json").write_text(json.dumps(systems), encoding="utf-8")
    classes = tmp_path / "classes"
    extension.compile_classes(classes, extra_sources=[TESTS])
    done = subprocess.run(["java", "-cp", str(classes), "korea.adjudicator.ExtensionTests", str(tmp_path / "systems.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 failed" in done.stdout


@pytest.mark.engine
def test_extension_compiles_against_the_real_engine(tmp_path):
    extension.compile_classes(tmp_path, class_path=class_path())
    assert sorted(p.name for p in (tmp_path / extension.PACKAGE_PATH).glob("*.class")) == \
        sorted(Path(n).name for n in extension.class_entries())
