"""A module whose inputs are all unchanged is copied from the cache, and only then.

`modgen build` copies a cached module when the hash of its inputs (data files, geography, code,
extension, version, scale) matches (modgen/uptodate.py). These tests hold the copy to the built
bytes, and check that each kind of input change builds again, and that a data error in one game
writes nothing at all.
"""

from __future__ import annotations

import shutil
import warnings

import pytest

from modgen.uptodate import DataErrors, FinishedModules, build_or_copy, inputs_key
from scenarios.loader import DATA_ROOT

GAME = "holdfast"  # the smallest game


def build(sources, out, cache):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return list(build_or_copy(sources, out, "1.0", cache_dir=cache, workers=1))


@pytest.fixture(scope="module")
def first_build(tmp_path_factory):
    """A copy of the game's data, built once into a cache."""
    root = tmp_path_factory.mktemp("uptodate")
    data = root / "data" / GAME
    shutil.copytree(DATA_ROOT / GAME, data)
    (written,) = build({GAME: data}, root / "out1", root / "cache")
    return root, data, written


@pytest.mark.slow
def test_a_rebuild_with_unchanged_inputs_copies_the_built_bytes(first_build):
    root, data, written = first_build
    assert not written.copied and written.images
    (again,) = build({GAME: data}, root / "out2", root / "cache")
    assert again.copied and again.images is None
    assert again.path.read_bytes() == written.path.read_bytes()
    assert again.path.name == written.path.name
    assert again.report == written.report  # counts and warnings said again


def test_a_changed_data_file_builds_again(first_build, tmp_path):
    root, data, written = first_build
    changed = tmp_path / GAME
    shutil.copytree(data, changed)
    units = changed / "units.csv"
    units.write_text(units.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # one byte more
    assert inputs_key(changed, "1.0", 1) != inputs_key(data, "1.0", 1)
    cache = tmp_path / "cache"
    shutil.copytree(root / "cache", cache)
    (rebuilt,) = build({GAME: changed}, tmp_path / "out", cache)
    assert not rebuilt.copied
    assert rebuilt.path.read_bytes() == written.path.read_bytes()  # a blank line changes no output


def test_version_scale_and_file_names_are_inputs(first_build):
    _, data, _ = first_build
    key = inputs_key(data, "1.0", 1)
    assert inputs_key(data, "1.1", 1) != key
    assert inputs_key(data, "1.0", 2) != key
    renamed = data.parent / "renamed-file"
    shutil.copytree(data, renamed)
    (renamed / "units.csv").rename(renamed / "units2.csv")
    assert inputs_key(renamed, "1.0", 1) != key


def test_a_cached_module_that_is_gone_is_built_again(first_build, tmp_path):
    root, data, _ = first_build
    cache = tmp_path / "cache"
    shutil.copytree(root / "cache", cache)
    key = inputs_key(data, "1.0", 1)
    assert FinishedModules(cache).report(key) is not None
    next(cache.rglob(f"{key}.vmod")).unlink()
    assert FinishedModules(cache).report(key) is None
    (rebuilt,) = build({GAME: data}, tmp_path / "out", cache)
    assert not rebuilt.copied


def test_a_data_error_in_one_game_writes_nothing(first_build, tmp_path):
    root, data, _ = first_build
    broken = tmp_path / "kwb"
    shutil.copytree(DATA_ROOT / "kwb", broken)
    with (broken / "game.toml").open("a", encoding="utf-8") as toml:
        toml.write("\n[[not valid toml\n")
    out = tmp_path / "out"
    with pytest.raises(DataErrors) as raised:
        build({GAME: data, "kwb": broken}, out, root / "cache")
    assert list(raised.value.errors) == ["kwb"]
    assert not out.exists() or not any(out.iterdir())  # not even the unchanged game's copy


@pytest.mark.slow
def test_modgen_build_says_which_modules_it_copied(tmp_path, capsys):
    from modgen.cli import main as modgen_main

    args = ["build", GAME, "--out", str(tmp_path / "dist"), "--cache", str(tmp_path / "cache"), "--version", "1.0"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert modgen_main(args) == 0
        first = capsys.readouterr()
        built = (tmp_path / "dist" / f"{GAME}-1.0.vmod").read_bytes()
        assert modgen_main(args) == 0
    second = capsys.readouterr()
    assert "written after" in first.err and "copied" not in first.err
    assert "inputs unchanged" in second.err and "copied after" in second.err
    assert first.out == second.out  # the module's path, printed either way
    assert (tmp_path / "dist" / f"{GAME}-1.0.vmod").read_bytes() == built


def test_only_the_newest_module_of_a_file_name_is_kept(first_build, tmp_path):
    root, data, written = first_build
    cache = tmp_path / "cache"
    shutil.copytree(root / "cache", cache)
    changed = tmp_path / GAME
    shutil.copytree(data, changed)
    (changed / "units.csv").write_text((data / "units.csv").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    build({GAME: changed}, tmp_path / "out", cache)
    finished = FinishedModules(cache)
    assert finished.report(inputs_key(changed, "1.0", 1)) is not None
    assert finished.report(inputs_key(data, "1.0", 1)) is None  # the older module of the same name is gone
    assert len(list((cache / "finished").rglob("*.vmod"))) == 1
