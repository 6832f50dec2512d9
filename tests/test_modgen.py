"""Modules built from data, parsed back: every class and attribute known to
the engine, every image present, every prototype defined, every piece
decoding to what we encoded, every setup placing the right units on the
right hexes; builds are byte-reproducible and fail cleanly."""

from __future__ import annotations

import io
import zipfile
from html import escape
from pathlib import Path

import pytest
from lxml import etree

from modgen.artwork import collect_images
from modgen.build import build_entries, module_file_name, write_module
from modgen.buildfile import main_map_name, turn_track_board_name, turn_track_map_name
from modgen.cli import main as modgen_main
from modgen.pieces import STEP_LAYER
from scenarios import game_ids, load_game, load_game_dir
from vassalfmt import Embellishment, parse_add_piece_command, read_saved_game
from vassalfmt.buildfile import class_names_in_zip, image_names_in_zip, validate

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "example"
GAMES = ["example", *game_ids()]


def load(game_id: str):
    return load_game_dir(EXAMPLE) if game_id == "example" else load_game(game_id)


@pytest.fixture(scope="module")
def art_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("art-cache")


class Built(dict):
    """Each game's module entries, built on first use and kept for the other tests."""

    def __init__(self, cache: Path):
        super().__init__()
        self.cache = cache

    def __missing__(self, game_id: str):
        game = load(game_id)
        self[game_id] = (game, build_entries(game, collect_images(game, cache_dir=self.cache), "9.9.9"))
        return self[game_id]


@pytest.fixture(scope="module")
def built(art_cache) -> Built:
    return Built(art_cache)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_buildfile_matches_the_engine_name_table(built, game_id):
    game, result = built[game_id]
    problems = validate(result.entries["buildFile.xml"], image_names_in_zip(result.entries),
                        module_classes=class_names_in_zip(result.entries))
    assert not [str(p) for p in problems]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_piece_decodes_to_what_was_encoded(built, game_id):
    game, result = built[game_id]
    root = etree.fromstring(result.entries["buildFile.xml"])
    prototypes = {e.get("name") for e in root.iter("VASSAL.build.module.PrototypeDefinition")}
    slots = list(root.iter("VASSAL.build.widget.PieceSlot"))
    assert len(slots) == len(game.units) + len(game.markers)
    for slot in slots:
        _, piece = parse_add_piece_command(slot.text)
        assert piece.add_piece_command(None) == slot.text
        assert set(piece.prototypes()) <= prototypes
        for trait in piece.traits:
            if isinstance(trait, Embellishment):
                for image in trait.image_names:
                    assert f"images/{image}" in result.entries


@pytest.mark.parametrize("game_id", GAMES)
def test_units_carry_identifying_properties(built, game_id):
    game, result = built[game_id]
    root = etree.fromstring(result.entries["buildFile.xml"])
    found = {}
    for slot in root.iter("VASSAL.build.widget.PieceSlot"):
        _, piece = parse_add_piece_command(slot.text)
        props = piece.properties()
        if props.get("UnitId"):
            found[props["UnitId"]] = props
    assert set(found) == set(game.units)
    for unit in game.units.values():
        props = found[unit.id]
        assert props["StepValues"].split("|") == [s.text for s in unit.steps]
        assert props["Size"] == unit.size
        assert props["StepCommands"] == "|".join(unit.step_commands)  # what the extension issues


def test_a_fresh_counter_flips_to_spent_and_a_step_is_lost_by_name(built):
    """issue 51: Fire and Ice's fresh/spent counters offered "Step loss" for what the rules call a flip to
    spent; the Step layer's commands are named as the counter's sides are (its aircraft, KWB's units: steps)."""
    menus = {}
    for game_id in ("fireandice", "kwb"):
        game, result = built[game_id]
        for slot in etree.fromstring(result.entries["buildFile.xml"]).iter("VASSAL.build.widget.PieceSlot"):
            _, piece = parse_add_piece_command(slot.text)
            unit = piece.properties().get("UnitId")
            if unit and len(game.units[unit].steps) > 1:
                menus[game_id, unit] = [n for n in ("Flip to spent", "Flip to fresh", "Step loss", "Restore step") if n in slot.text]
    assert menus["fireandice", "rok-1"] == ["Flip to spent", "Flip to fresh"]  # 1st RoK Infantry Division: fresh|spent
    fireandice = built["fireandice"][0]
    aircraft = next(u.id for u in fireandice.units.values() if [s.name for s in u.steps] == ["ready", "reduced"])
    assert menus["fireandice", aircraft] == ["Step loss", "Restore step"]
    assert menus["kwb", "nk-83-mot"] == ["Step loss", "Restore step"]


@pytest.mark.parametrize("game_id", GAMES)
def test_setups_place_every_unit_on_its_hex(built, game_id):
    game, result = built[game_id]
    main_map, turn_track = main_map_name(game), turn_track_map_name(game)
    for scenario in game.scenarios.values():
        saved = read_saved_game(result.entries[f"setups/{scenario.id}.vsav"])
        assert saved.has_setup_stack_marker
        # The main map and the turn track show the scenario's own boards.
        assert [b.name for b in saved.boards.get(main_map, [])] in ([], [game.maps[scenario.maps[0]].name])
        assert [b.name for b in saved.boards.get(turn_track, [])] in ([], [turn_track_board_name(scenario)])
        assert (main_map in saved.boards) == (len(game.maps) > 1)
        assert (turn_track in saved.boards) == (len(game.scenarios) > 1)
        pieces = saved.by_id()
        for number, placement in enumerate(scenario.setup, start=1):
            if not placement.is_on_map:
                continue
            if placement.is_marker:
                piece = pieces[f"{placement.unit}#{number}"]
                assert piece.properties["MarkerId"] == placement.marker_id
                label, _, map_hint = placement.location.partition("@")
                game_map = game.maps[map_hint or scenario.maps[0]]
                assert game_map.grid.label(game_map.grid.hex_at(piece.x, piece.y)) == label
                continue
            piece = pieces[placement.unit]
            label, _, map_hint = placement.location.partition("@")
            game_map = game.maps[map_hint or scenario.maps[0]]
            assert piece.map_id == main_map
            assert game_map.grid.label(game_map.grid.hex_at(piece.x, piece.y)) == label
            layer = next(t for t in piece.piece.traits if isinstance(t, Embellishment) and t.name == STEP_LAYER)
            expected = [s.name for s in game.units[placement.unit].steps].index(placement.step) + 1 \
                if placement.step else 1
            assert layer.level == expected
        arriving = {a.unit for a in scenario.schedule if a.action == "arrive"} - {p.unit for p in scenario.setup}
        for unit_id in arriving:
            assert pieces[unit_id].map_id == turn_track


def test_builds_are_byte_reproducible(art_cache, tmp_path):
    game = load("example")
    first = write_module(build_entries(game, collect_images(game, cache_dir=art_cache), "1.0"), tmp_path / "a", "m.vmod")
    second = write_module(build_entries(game, collect_images(game, cache_dir=art_cache), "1.0"), tmp_path / "b", "m.vmod")
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {"buildFile.xml", "moduledata", "help/index.html"} <= set(names)


def test_help_page_lists_stand_ins(built):
    game, result = built["example"]
    page = result.entries["help/index.html"].decode()
    for stand_in in game.stand_ins:
        assert stand_in.reason in page


@pytest.mark.parametrize("game_id", GAMES)
def test_help_page_says_what_each_dice_button_rolls(built, game_id):
    game, result = built[game_id]
    page = result.entries["help/index.html"].decode()
    for roll in game.rolls:
        assert f"<b>{escape(roll.name)}</b>" in page and escape(roll.uses) in page


def test_cli_refuses_bad_data_and_writes_nothing(tmp_path, monkeypatch, capsys):
    assert modgen_main(["build", "no-such-game", "--out", str(tmp_path)]) == 2
    assert not list(tmp_path.iterdir())
    assert "unknown game" in capsys.readouterr().err


def test_module_file_name():
    assert module_file_name(load("example"), "1.2.3") == "example-1.2.3.vmod"


def test_double_size_art_scales_grid_and_positions(tmp_path):
    game = load("example")
    result = build_entries(game, collect_images(game, scale=2, cache_dir=tmp_path), "1.0")
    root = etree.fromstring(result.entries["buildFile.xml"])
    grid_el = next(root.iter("VASSAL.build.module.map.boardPicker.board.HexGrid"))
    grid = game.maps["ridge"].grid.scaled(2)
    assert float(grid_el.get("dy")) == grid.dy and int(grid_el.get("x0")) == grid.x0
    saved = read_saved_game(result.entries["setups/battle.vsav"]).by_id()
    assert grid.label(grid.hex_at(saved["rd-1"].x, saved["rd-1"].y)) == "0102"
