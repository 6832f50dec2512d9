"""Whole modules (vassalfmt.module): write validated and reproducible, read back, check."""

import pytest

from vassalfmt.buildfile import component, new_module, plain
from vassalfmt.keys import key, named
from vassalfmt.module import ModuleInvalid, check_vmod, read_vmod, write_vmod
from vassalfmt.moduledata import ModuleData
from vassalfmt.piece import Piece
from vassalfmt.savedgame import SavedGameWriter
from vassalfmt.traits import (
    BasicPiece,
    Delete,
    DynamicKeyCommand,
    DynamicProperty,
    Embellishment,
    Marker,
    PropertyChanger,
    UsePrototype,
)

MODULE = ModuleData(name="Test Korea", version="0.1")
IMAGES = {"map.png": b"\x89PNG map", "inf.png": b"\x89PNG inf", "inf_r.png": b"\x89PNG inf_r"}
PROTOTYPE = Piece([DynamicProperty(name="Step", numeric=True, min_value=1, max_value=2, value="1",
                                   commands=[DynamicKeyCommand("Lose step", named("LoseStep"),
                                                               PropertyChanger("I", "1"))]),
                   Delete(key=key("Ctrl+D")), BasicPiece()])


def unit(name, map_id=None, x=0, y=0):
    return Piece([UsePrototype(name="Unit"), Marker.of(UnitId=name, Side="UN"),
                  Embellishment(name="StepLayer", image_names=["inf.png", "inf_r.png"],
                                follow_property=True, property_name="Step"),
                  BasicPiece(image="inf.png", name=name, map_id=map_id, x=x, y=y)])


def build(setup_file="s1.vsav"):
    root = new_module(MODULE.name, version=MODULE.version, next_piece_slot_id=10)
    component(root, "BasicCommandEncoder")
    plain(component(root, "PlayerRoster"), "entry", "UN")
    game_map = component(root, "Map", mapName="Main Map")
    board = component(component(game_map, "map.BoardPicker"), "Board", name="Korea",
                      image="map.png")
    component(board, "HexGrid", dx=55.4, dy=64.0)
    component(game_map, "map.PieceMover")
    protos = component(root, "PrototypesContainer")
    component(protos, "PrototypeDefinition", PROTOTYPE.add_piece_command(), name="Unit")
    window = component(root, "PieceWindow", name="Units")
    panel = component(window, "ListWidget", entryName="UN")
    component(panel, "PieceSlot", unit("1Cav").add_piece_command(), entryName="1Cav", gpid=1)
    component(root, "PredefinedSetup", name="Scenario 1", useFile=True, file=setup_file)
    writer = SavedGameWriter(prototypes={"Unit": PROTOTYPE})
    writer.add_piece("u1", unit("1Cav", "Main Map", 150, 232))
    writer.add_piece("u2", unit("2ID", "Main Map", 150, 232))
    return root, {"s1.vsav": writer.to_bytes(MODULE)}


def test_write_read_and_check(tmp_path):
    root, files = build()
    path = tmp_path / "test.vmod"
    data = write_vmod(path, root, MODULE, IMAGES, files)
    assert path.read_bytes() == data
    assert write_vmod(tmp_path / "again.vmod", *build()[:1], MODULE, IMAGES, build()[1]) == data
    assert check_vmod(path) == []
    contents = read_vmod(path)
    assert contents.moduledata == MODULE
    assert contents.image_names == set(IMAGES)
    assert list(contents.prototypes) == ["Unit"]
    game = contents.setups["Scenario 1"]
    assert {p.piece_id: (p.x, p.y) for p in game.pieces} == {"u1": (150, 232), "u2": (150, 232)}
    assert game.pieces[0].properties["Step"] == "1"       # written with the prototype expanded
    assert game.pieces[0].piece.prototypes() == []


def test_invalid_module_is_not_written(tmp_path):
    root, files = build(setup_file="missing.vsav")
    path = tmp_path / "bad.vmod"
    with pytest.raises(ModuleInvalid) as info:
        write_vmod(path, root, MODULE, {"inf.png": b"x"}, files)
    messages = [str(p) for p in info.value.problems]
    assert any("map.png" in m for m in messages)
    assert any("missing.vsav" in m for m in messages)
    assert not path.exists() and list(tmp_path.iterdir()) == []


def test_check_reports_setup_problems(tmp_path):
    root, _ = build()
    writer = SavedGameWriter(prototypes={"Unit": PROTOTYPE})
    writer.add_piece("u1", unit("1Cav", "Main Map", 1, 1))
    other = ModuleData(name="Another Module")
    files = {"s1.vsav": writer.to_bytes(other)}
    path = tmp_path / "m.vmod"
    write_vmod(path, root, MODULE, IMAGES, files)
    messages = [str(p) for p in check_vmod(path)]
    assert any("saved for module 'Another Module'" in m for m in messages)
    assert check_vmod(b"not a zip")[0].message.startswith("the module is not a zip")


def test_command_line_tool(tmp_path, capsys):
    from vassalfmt.__main__ import main

    root, files = build()
    module_path = tmp_path / "m.vmod"
    write_vmod(module_path, root, MODULE, IMAGES, files)
    save_path = tmp_path / "s1.vsav"
    save_path.write_bytes(files["s1.vsav"])

    assert main(["check", str(module_path)]) == 0
    assert "0 problem(s)" in capsys.readouterr().out
    assert main(["pieces", str(save_path)]) == 0
    out = capsys.readouterr().out
    assert "2 pieces" in out and "u1: '1Cav' on Main Map at (150, 232)" in out
    assert main(["pieces", "--json", str(save_path)]) == 0
    assert '"UnitId": "2ID"' in capsys.readouterr().out
    assert main(["commands", str(save_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == ["SETUP_STACK\\t", "end_save"]
    garbage = tmp_path / "x.vsav"
    garbage.write_bytes(b"nonsense")
    assert main(["pieces", str(garbage)]) == 2
    assert "not a zip" in capsys.readouterr().err
