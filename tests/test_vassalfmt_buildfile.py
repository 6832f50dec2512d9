"""buildFile.xml helpers and validator (vassalfmt.buildfile)."""

import pytest
from lxml import etree

from vassalfmt.buildfile import (
    attribute_value,
    check_piece_definition,
    component,
    image_names_in_zip,
    new_module,
    plain,
    resolve_class,
    schema,
    to_bytes,
    validate,
)
from vassalfmt.keys import key
from vassalfmt.piece import Piece
from vassalfmt.traits import BasicPiece, Embellishment, Marker, UsePrototype

MAP_PARTS = ["map.BoardPicker", "map.StackMetrics", "map.ForwardToKeyBuffer", "map.Scroller",
             "map.ForwardToChatter", "map.MenuDisplayer", "map.MapCenterer", "map.StackExpander",
             "map.PieceMover", "map.KeyBufferer", "map.ImageSaver", "map.CounterDetailViewer",
             "map.Flare", "map.Zoomer", "properties.GlobalProperties", "map.SelectionHighlighters",
             "map.HighlightLastMoved"]


def small_module():
    root = new_module("Test", version="0.1", next_piece_slot_id=10)
    component(root, "BasicCommandEncoder")
    roster = component(root, "PlayerRoster")
    plain(roster, "entry", "UN")
    plain(roster, "entry", "Communist")
    options = component(root, "GlobalOptions", storeLeadingZeroIntegersAsStrings=True)
    plain(options, "option", "Always", {"name": "autoReport"})
    game_map = component(root, "Map", mapName="Main Map", markMoved="Always")
    for part in MAP_PARTS:
        component(game_map, part)
    picker = game_map[0]
    board = component(picker, "Board", name="Korea", image="map.png")
    grid = component(board, "HexGrid", dx=55.42562584220407, dy=64.0, x0=40, y0=40)
    component(grid, "HexGridNumbering", first="H", sep="", hLeading=1, vLeading=1, stagger=True)
    stack = component(game_map, "SetupStack", name="start", useGridLocation=True, location="0203",
                      owningBoard="Korea")
    component(stack, "PieceSlot", Piece([BasicPiece(image="inf.png", name="A")]).add_piece_command(),
              entryName="A", gpid=1, width=60, height=60)
    protos = component(root, "PrototypesContainer")
    component(protos, "PrototypeDefinition",
              Piece([Marker.of(Side="UN"), BasicPiece()]).add_piece_command(), name="UN")
    window = component(root, "PieceWindow", name="Units", hotkey=key("Ctrl+U"))
    tab = component(window, "TabWidget", entryName="UN")
    panel = component(tab, "PanelWidget", entryName="Infantry", nColumns=4)
    layer = Embellishment(name="Step", image_names=["inf.png", "inf_r.png"])
    component(panel, "PieceSlot", Piece([UsePrototype(name="UN"), layer,
                                         BasicPiece(image="inf.png", name="B")]).add_piece_command(),
              entryName="B", gpid=2, width=60, height=60)
    turn = component(root, "turn.TurnTracker", name="Turn")
    component(turn, "turn.ListTurnLevel", property="Phase", list=["Move", "Combat"])
    setup = component(root, "PredefinedSetup", name="Scenarios", isMenu=True)
    component(setup, "PredefinedSetup", name="S1", useFile=True, file="s1.vsav")
    component(root, "Chatter")
    return root


IMAGES = {"map.png", "inf.png", "inf_r.png"}


def test_schema_table_is_present():
    table = schema()
    assert len(table) == 157
    assert "nextPieceSlotId" in table["VASSAL.build.GameModule"]["attributes"]


@pytest.mark.parametrize("short, full", [
    ("Map", "VASSAL.build.module.Map"),
    ("PieceSlot", "VASSAL.build.widget.PieceSlot"),
    ("map.PieceMover", "VASSAL.build.module.map.PieceMover"),
    ("HexGridNumbering", "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering"),
    ("VASSAL.build.GameModule", "VASSAL.build.GameModule"),
])
def test_resolve_class(short, full):
    assert resolve_class(short) == full


def test_resolve_class_errors():
    with pytest.raises(ValueError, match="no VASSAL"):
        resolve_class("NoSuchThing")


def test_attribute_values():
    assert attribute_value(True) == "true"
    assert attribute_value(64.0) == "64.0"
    assert attribute_value(7) == "7"
    assert attribute_value((0, 0, 255)) == "0,0,255"
    assert attribute_value(["Move", "Combat, Supply"]) == "Move,Combat\\, Supply"
    assert attribute_value(key("Ctrl+U")) == "85,130"


def test_valid_module_has_no_problems():
    root = small_module()
    assert validate(root, image_names=IMAGES) == []
    assert validate(to_bytes(root), image_names=IMAGES) == []


def test_to_bytes_keeps_piece_text_and_is_stable():
    root = small_module()
    data = to_bytes(root)
    assert data.startswith(b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n')
    assert data == to_bytes(small_module())
    reparsed = etree.fromstring(data)
    slots = reparsed.findall(".//VASSAL.build.widget.PieceSlot")
    assert slots[1].text == small_module().findall(".//VASSAL.build.widget.PieceSlot")[1].text
    assert "\t" in slots[1].text


def problems_of(mutate):
    root = small_module()
    mutate(root)
    return [str(p) for p in validate(root, image_names=IMAGES)]


def test_unknown_class_reported():
    def add(root):
        etree.SubElement(root, "VASSAL.build.module.NoSuchComponent")
    assert any("unknown class" in p for p in problems_of(add))


def test_unknown_attribute_reported():
    def add(root):
        root.find("VASSAL.build.module.Map").set("mapname", "typo")
    assert any("'mapname' is not read by Map" in p for p in problems_of(add))


def test_text_keyword_is_the_button_label_attribute():
    root = small_module()
    dice = component(root, "DiceButton", name="1d6", text="1d6", nDice=1, nSides=6)
    assert dice.get("text") == "1d6" and dice.text is None
    assert validate(root, image_names=IMAGES) == []


def test_element_text_a_component_ignores_is_reported():
    def add(root):
        component(root, "DiceButton", "1d6", name="1d6")
    assert any("text '1d6' is ignored by DiceButton" in p for p in problems_of(add))


def test_child_in_wrong_place_reported():
    def add(root):
        component(root.find("VASSAL.build.module.Map"), "PieceWindow", name="x")
    assert any("PieceWindow is not allowed inside Map" in p for p in problems_of(add))


def test_missing_prototype_image_and_gpid_problems_reported():
    def add(root):
        window = root.find("VASSAL.build.module.PieceWindow")
        component(window, "ListWidget", entryName="L")
        lst = window[-1]
        component(lst, "PieceSlot", Piece([UsePrototype(name="Nope"),
                                           BasicPiece(image="gone.png", name="C")]).add_piece_command(),
                  entryName="C", gpid=2)
        component(lst, "PieceSlot", Piece([BasicPiece(name="D")]).add_piece_command(),
                  entryName="D", gpid=50)
    found = problems_of(add)
    assert any("prototype 'Nope' does not exist" in p for p in found)
    assert any("image 'gone.png'" in p for p in found)
    assert any("gpid 2 also used" in p for p in found)
    assert any("not below nextPieceSlotId" in p for p in found)


def test_board_image_checked():
    def change(root):
        root.find(".//VASSAL.build.module.map.boardPicker.Board").set("image", "other.png")
    assert any("image 'other.png' (image)" in p for p in problems_of(change))


@pytest.mark.parametrize("text, message", [
    ("+/null/notatrait;x\tpiece;;;a.png;A/\tnull;0;0;;0", "unknown to the engine"),
    ("+/null/emb2;Activate;2;;;;;;;;;;1;xx;yy;a.png,;;\tpiece;;;a.png;A/1\tnull;0;0;;0",
     "re-encode"),
    ("+/null/mark;A/x", "BasicPiece"),
    ("nonsense", "does not decode"),
])
def test_piece_definition_checks(text, message):
    assert any(message in p for p in check_piece_definition(text))


def test_good_piece_definition_passes():
    piece = Piece([Marker.of(Side="UN"), BasicPiece(image="a.png", name="A")])
    assert check_piece_definition(piece.add_piece_command(), set(), {"a.png"}) == []


def test_image_names_in_zip():
    assert image_names_in_zip(["images/a.png", "buildFile.xml", "images/sub/b.png"]) == \
        {"a.png", "sub/b.png"}


def test_named_keys_in_slots_are_reported_but_not_in_prototypes():
    from vassalfmt.keys import KeyStroke, named
    from vassalfmt.traits import Delete, ReportState

    def add(root):
        window = root.find("VASSAL.build.module.PieceWindow")
        lst = component(window, "ListWidget", entryName="L")
        piece = Piece([ReportState(keys=[named("Flip"), named("Flip")]),
                       Delete(key=KeyStroke(57344, 0, "Elim")),    # an engine-assigned code: fine
                       BasicPiece(image="inf.png", name="C")])
        component(lst, "PieceSlot", piece.add_piece_command(), entryName="C", gpid=3)
        protos = root.find("VASSAL.build.module.PrototypesContainer")
        component(protos, "PrototypeDefinition",
                  Piece([Delete(key=named("Elim")), BasicPiece()]).add_piece_command(), name="P")
    found = [p for p in problems_of(add) if "named key" in p]
    assert len(found) == 1 and "'Flip' in a report; trait" in found[0]


def test_prototypes_from_buildfile():
    from vassalfmt.buildfile import prototypes_from_buildfile

    root = small_module()
    protos = prototypes_from_buildfile(to_bytes(root))
    assert list(protos) == ["UN"]
    assert protos["UN"].traits[0].as_dict() == {"Side": "UN"}
