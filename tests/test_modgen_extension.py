"""Every module carries the Adjudicator extension: its buildFile element and its own classes
(and nothing of the engine), compiled for Java 17, the same bytes on every build; a build
without a Java compiler fails and says how to get one, writing nothing."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from lxml import etree

from modgen import extension
from modgen.artwork import collect_images
from modgen.build import build_entries
from modgen.cli import main as modgen_main
from scenarios import load_game_dir

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "example"


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    game = load_game_dir(EXAMPLE)
    return game, build_entries(game, collect_images(game, cache_dir=tmp_path_factory.mktemp("art")), "1.0").entries


def test_module_carries_the_extension_element_and_its_classes_only(example):
    game, entries = example
    root = etree.fromstring(entries["buildFile.xml"])
    (element,) = root.findall(extension.COMPONENT_CLASS)
    assert element.get("game") == "example"
    assert json.loads(element.get("sides")) == {"red": "Red", "blue": "Blue"}
    assert element.get("server") == extension.DEFAULT_SERVER
    classes = sorted(name for name in entries if name.endswith(".class"))
    assert f"{extension.COMPONENT_CLASS.replace('.', '/')}.class" in classes
    assert all(name.startswith(extension.PACKAGE_PATH + "/") for name in classes)  # no engine declaration packed
    for name in classes:
        magic, _, major = struct.unpack(">IHH", entries[name][:8])
        assert magic == 0xCAFEBABE and major == 61, name  # Java 17 class files: load in the engine's Java


@pytest.mark.slow
def test_classes_are_cached_by_fingerprint_and_compile_to_the_same_bytes(tmp_path, monkeypatch):
    cached = extension.class_entries(tmp_path)
    assert (tmp_path / "extension" / extension.fingerprint()[:24] / extension.PACKAGE_PATH).is_dir()
    assert extension.class_entries(tmp_path) == cached  # read back
    monkeypatch.setattr(extension, "fingerprint", lambda: "0" * 64)  # as if the sources had changed
    fresh = extension.class_entries(tmp_path)
    assert (tmp_path / "extension" / ("0" * 24)).is_dir()
    assert fresh == cached  # compiled again (a new key), from the same sources: the same bytes


def test_a_compile_started_early_hands_over_the_same_classes_and_its_errors(tmp_path, monkeypatch):
    extension.start_compiling(tmp_path / "a")
    extension.start_compiling(tmp_path / "a")  # a second start for the same cache waits on the first
    assert extension.class_entries(tmp_path / "a") == extension.class_entries(tmp_path / "b")

    def broken(out_dir, *args, **kwargs):
        raise extension.ExtensionBuildError("the Adjudicator extension does not compile: test")

    monkeypatch.setattr(extension, "fingerprint", lambda: "1" * 64)  # not compiled in this process yet
    monkeypatch.setattr(extension, "compile_classes", broken)
    extension.start_compiling(tmp_path / "c")
    with pytest.raises(extension.ExtensionBuildError, match="does not compile"):
        extension.class_entries(tmp_path / "c")


def test_build_without_a_java_compiler_fails_clearly_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(extension.shutil, "which", lambda name: None)
    extension.javac_version.cache_clear()
    try:
        status = modgen_main(["build", "kwb", "--out", str(tmp_path / "dist"), "--cache", str(tmp_path / "art")])
    finally:
        extension.javac_version.cache_clear()
    assert status == 1
    err = capsys.readouterr().err
    assert "Java compiler" in err and "default-jdk-headless" in err and "nothing written" in err
    assert not (tmp_path / "dist").exists() and not (tmp_path / "art").exists()


def test_a_built_module_checks_clean_with_its_own_classes(example, tmp_path):
    """vassalfmt's module check takes the classes a module packs as its own (the engine loads
    them); without the class, the element is an unknown class."""
    from vassalfmt import build_zip
    from vassalfmt.module import check_vmod

    _, entries = example
    path = tmp_path / "example.vmod"
    path.write_bytes(build_zip(entries))
    assert check_vmod(path) == []
    component = f"{extension.COMPONENT_CLASS.replace('.', '/')}.class"
    path.write_bytes(build_zip({k: v for k, v in entries.items() if k != component}))
    assert [p.message for p in check_vmod(path)] == \
        [f"unknown class {extension.COMPONENT_CLASS!r} (the engine would fail to load it)"]


def test_compiler_identity_comes_from_the_jdk_release_file_else_from_javac(tmp_path, monkeypatch):
    """The cache key names the compiler without starting a JVM when the JDK has a release file."""
    jdk = tmp_path / "jdk"
    (jdk / "bin").mkdir(parents=True)
    javac = jdk / "bin" / "javac"
    javac.write_text("#!/bin/sh\necho javac 99.0.1\n")
    javac.chmod(0o755)
    monkeypatch.setattr(extension.shutil, "which", lambda name: str(javac))
    extension.javac_version.cache_clear()
    try:
        assert extension.javac_version() == "javac 99.0.1"  # no release file: asks javac
        (jdk / "release").write_text('IMPLEMENTOR="X"\nJAVA_VERSION="99.0.1"\nOS_NAME="Linux"\n'
                                     'JAVA_RUNTIME_VERSION="99.0.1+7"\n')
        extension.javac_version.cache_clear()
        assert extension.javac_version() == (f'{javac.resolve()}\nIMPLEMENTOR="X"\nJAVA_VERSION="99.0.1"\n'
                                             'JAVA_RUNTIME_VERSION="99.0.1+7"')
    finally:
        extension.javac_version.cache_clear()
