"""Traits and pieces (vassalfmt.traits, vassalfmt.piece).

The ENGINE_TYPES strings are what the real VASSAL 3.7.26 engine wrote back after decoding our
definitions (vassal-check round-trip report on a module generated with this package, one slot
holding every trait; 2026-11-22; ``macro;``/``restrict;``/``obs;`` in later runs). Reading each of them and writing it again must reproduce it
exactly; that is the same test the engine's checker applies to generated modules.
"""

import pytest

from vassalfmt.errors import VassalFormatError
from vassalfmt.keys import KeyStroke, key, named
from vassalfmt.piece import (
    Piece,
    add_piece_command,
    parse_add_piece_command,
    parse_piece,
    split_piece_type,
)
from vassalfmt.traits import (
    AreaOfEffect,
    BasicPiece,
    CalculatedProperty,
    Clone,
    Comment,
    Delete,
    DynamicKeyCommand,
    DynamicProperty,
    Embellishment,
    FreeRotator,
    Immobilized,
    Labeler,
    Marker,
    MenuSeparator,
    MovementMarkable,
    PropertyChanger,
    RawTrait,
    ReportState,
    SendToLocation,
    SubMenu,
    UsePrototype,
    java_percent_roundtrip,
    parse_trait,
)

ENGINE_TYPES = [
    ("prototype;UN", ""),
    ("mark;UnitId,Side,Type", "1-7,UN,Inf"),
    ("emb2;;128;;Flip;128;;;128;;;;1;false;0;0;inf.png,inf_r.png;,+ (reduced);true;Step;;;false;;1;1;"
     "true;;57346,0,Flip;57346,0,Flip;;1.0;;true", "1"),
    ("label;76,130;Change Label;10;;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;0;TextLabel;;false",
     "x"),
    ("delete;Delete;68,130;", ""),
    ("clone;Clone;67,130;", ""),
    ("report;57346\\,0\\,Flip,68\\,130;$location$: $newPieceName$ flipped;;;;false", "-1"),
    ("sendto;Eliminate;57345,0,Elim;Main Map;Korea;30;30;;;0;0;1;1;;L;;;;", ";;"),
    ("markmoved;/images/moved.gif;0;0;Mark Moved;77,130;;false;;;;", "false"),
    ("rotate;4;82,130;;Rotate;;;;;;;;;true", "0"),
    ("rotate;1;82,195;Rotate freely;;;;;;;;true", "45.5"),
    ("PROP;Steps;true,0,4,false;Lose step:57344\\,0\\,LoseStep:I\\,-1,Set:83\\,130:E\\,Pick\\,1\\\\,2,"
     "Prompt::R\\,Value?,Reset::P\\,{4};", "4"),
    ("calcProp;Att;{Steps*2};", ""),
    ("AreaOfEffect;255,0,0;52;1;true;Show Area;;;true;;;;;;;;true", "false"),
    ("AreaOfEffect;128,128,128;30;2;false;ZOC;90,130;;true;;;;;;;;true", "true"),
    ("immob;g;N;R;", ""),
    ("immob;iA;I;L;d", ""),
    ("cmt;a\\; comment, with\\ backslash", ""),
    ("submenu;More;Delete,Clone;", ""),
    ("menuSeparator;sep;", ""),
    ("macro;Elim;Eliminate;69,130;{Steps>0};69\\,520;82\\,130,68\\,130;false;;;counted;;;;false;;1;1",
     ""),
    ("macro;Loop;Loop;76,130;;;82\\,130;true;;;while;{Steps>1};;;true;i;1;1", ""),
    ("restrict;UN,US\\, Army;false;true;", ""),
    ("obs;72,130;dead.png;Mask;Ginf_r.png;Block;sides:UN:Communist;Peek;;true;;", "null;"),
    ("obs;74,130;dead.png;Mask;P80,130;?;side:;Peek;;true;;", "null;"),
    ("obs;75,130;dead.png;Mask;B;?;player:;Peek;;true;;", "null;"),
    # return; as the Korean War Battles module writes it; vassal-check --strict-roundtrip found the
    # engine's re-encoding identical (2026-11-25, issue 19).
    ("return;Return to Cup of SNAFU;85,130;Cup of SNAFU;Select destination;returns when it is not placed;2;"
     "false;Cup of SNAFU", ""),
    ("piece;;;inf.png;1/7 Cav", "null;0;0;;0"),
]


@pytest.mark.parametrize("type_string, state", ENGINE_TYPES)
def test_engine_written_traits_round_trip_exactly(type_string, state):
    trait = parse_trait(type_string, state)
    assert not isinstance(trait, RawTrait)
    assert trait.type_string() == type_string
    assert trait.state_string() == state


def test_every_modelled_trait_is_covered_by_the_engine_sample():
    from vassalfmt.traits import TRAIT_CLASSES

    sampled = {parse_trait(t, s).ID for t, s in ENGINE_TYPES}
    assert sampled == set(TRAIT_CLASSES)


def test_built_traits_match_engine_layout():
    """Constructing traits from Python gives the engine's strings (named-key codes aside)."""
    built = [
        (Marker.of(UnitId="1-7", Side="UN", Type="Inf"), "mark;UnitId,Side,Type", "1-7,UN,Inf"),
        (Embellishment(name="Step", image_names=["inf.png", "inf_r.png"],
                       level_names=["", "+ (reduced)"], up_command="Flip",
                       increase_keystroke=KeyStroke(57346, 0, "Flip"),
                       decrease_keystroke=KeyStroke(57346, 0, "Flip")), ENGINE_TYPES[2][0], "1"),
        (Delete(key=key("Ctrl+D")), "delete;Delete;68,130;", ""),
        (Immobilized(ignore_grid=True), "immob;g;N;R;", ""),
        (AreaOfEffect(radius=1, transparency=53, color=(255, 0, 0)), ENGINE_TYPES[13][0], "false"),
        (SendToLocation(command_name="Eliminate", key=KeyStroke(57345, 0, "Elim"),
                        map_id="Main Map", board_name="Korea", x="30", y="30"),
         ENGINE_TYPES[7][0], ";;"),
    ]
    for trait, type_string, state in built:
        assert trait.type_string() == type_string
        assert trait.state_string() == state


def test_immobilized_examples_from_format_notes():
    t = parse_trait("immob;g;N;R;")
    assert isinstance(t, Immobilized)
    assert (t.ignore_grid, t.movement, t.stacks) == (True, "N", False)
    # "never select" implies "never move" unless the movement letter says otherwise
    assert parse_trait("immob;n;;R;").type_string() == "immob;n;V;R;"
    assert parse_trait("immob;n;N;R;").type_string() == "immob;n;N;R;"
    # an old definition without the stacking field defaults to "never stacks"
    assert parse_trait("immob;;N").type_string() == "immob;;N;R;"


def test_area_of_effect_transparency_matches_java_float_rounding():
    assert java_percent_roundtrip(30) == 30
    assert java_percent_roundtrip(53) == 52     # what the engine writes back for 53
    assert all(java_percent_roundtrip(java_percent_roundtrip(p)) == java_percent_roundtrip(p)
               for p in range(101))


def test_missing_fields_take_engine_defaults():
    e = parse_trait("emb2;Activate;2;A;;;;;;;;;;;;;a.png;")
    assert isinstance(e, Embellishment)
    assert e.version == 0 and e.always_active is True and e.scale == 1.0
    assert e.image_names == ["a.png"] and e.level_names == [""]
    assert e.level == -1                           # no state: inactive
    label = parse_trait("label;")
    assert label.font_size == 10 and label.fg_color == (0, 0, 0) and label.property_name == "TextLabel"
    assert parse_trait("delete;Remove").key == KeyStroke(ord("D"), 128)
    rot = parse_trait("rotate;6", "9")
    assert rot.angle_index == 5                    # clamped to the number of facings


def test_embellishment_levels():
    layer = Embellishment(name="Step", image_names=["a.png", "b.png"], level=2)
    assert layer.current_image == "b.png" and layer.active
    back = parse_trait(layer.type_string(), "-2")
    assert not back.active and back.current_image == ""
    assert parse_trait(layer.type_string(), "7").level == 2      # clamped like the engine


def test_dynamic_property_commands_round_trip():
    prop = DynamicProperty(name="Steps", numeric=True, min_value=0, max_value=4, value="3", commands=[
        DynamicKeyCommand("Lose step", named("LoseStep"), PropertyChanger("I", "-1")),
        DynamicKeyCommand("Choose", key("Ctrl+S"), PropertyChanger("E", "Pick", ["a,b", "c"])),
    ])
    back = parse_trait(prop.type_string(), prop.state_string())
    assert back == prop


def test_labeler_colours_and_text():
    label = Labeler(label="  3-4-6  ", bg_color=(255, 255, 0), fg_color=None, font_size=12)
    back = parse_trait(label.type_string(), label.state_string())
    assert back.bg_color == (255, 255, 0) and back.fg_color is None
    assert back.label == "3-4-6"                   # the engine trims label text


def test_use_prototype_parameters():
    t = UsePrototype(name="Unit", parameters={"side": "UN", "x=y": "1"})
    back = parse_trait(t.type_string())
    assert back == t


def test_unknown_trait_kept_verbatim():
    t = parse_trait("hide;72,130;Hide;;;;;false", "null")
    assert isinstance(t, RawTrait) and t.trait_id == "hide;"
    assert (t.type_string(), t.state_string()) == ("hide;72,130;Hide;;;;;false", "null")


def test_bad_trait_text_raises_clear_error():
    with pytest.raises(VassalFormatError):
        parse_trait("rotate;many")
    with pytest.raises(VassalFormatError):
        Marker.parse("notmark;x")


# --- pieces --------------------------------------------------------------------------------------

def full_piece():
    return Piece([
        UsePrototype(name="UN Infantry"),
        Marker.of(UnitId="1-7", Side="UN"),
        Embellishment(name="Step", image_names=["a.png", "b.png"], level_names=["", "+ (reduced)"],
                      increase_keystroke=named("Flip"), decrease_keystroke=named("Flip"), level=2),
        Labeler(label="hi"), Delete(key=key("Ctrl+D")), Clone(key=key("Ctrl+C")),
        ReportState(keys=[named("Flip")], report_format="$location$: flipped/eliminated"),
        SendToLocation(command_name="Eliminate", key=named("Elim"), map_id="Dead Pile"),
        MovementMarkable(moved=True), FreeRotator(facings=4, angle_index=3),
        DynamicProperty(name="Steps", value="2"), CalculatedProperty(name="A", expression="{Steps*2}"),
        AreaOfEffect(always_active=False, active=True), Immobilized(ignore_grid=True),
        Comment(comment="tab\there; semi"), SubMenu(menu_name="More", commands=["Delete"]),
        MenuSeparator(),
        BasicPiece(image="inf.png", name="1/7 Cav", map_id="Main Map", x=150, y=232, gpid="12",
                   properties={"UniqueID": "u1"}),
    ])


def test_full_piece_round_trip():
    piece = full_piece()
    back = parse_piece(piece.type_string(), piece.state_string())
    assert back == piece
    assert back.type_string() == piece.type_string()
    assert back.state_string() == piece.state_string()


def test_piece_nesting_layout():
    piece = Piece([Marker.of(Side="UN"), Delete(), BasicPiece(image="i.png", name="n")])
    assert piece.type_string() == "mark;Side\tdelete;Delete;;\\\tpiece;;;i.png;n"
    assert piece.state_string() == "UN\t\\\tnull;0;0;;0"
    assert split_piece_type(piece.type_string()) == ["mark;Side", "delete;Delete;;", "piece;;;i.png;n"]


def test_add_piece_command_escapes_slashes():
    piece = full_piece()
    command = piece.add_piece_command()
    assert command.startswith("+/null/prototype;UN Infantry\t")
    assert "1\\/7 Cav" in command                   # '/' inside the type is escaped
    piece_id, back = parse_add_piece_command(command)
    assert piece_id is None and back == piece
    assert add_piece_command("42", "piece;;;a.png;A", "null;0;0;;0") == "+/42/piece;;;a.png;A/null;0;0;;0"


def test_piece_properties_outer_traits_win():
    piece = Piece([Marker.of(Side="Outer"), Marker.of(Side="Inner", Type="Inf"),
                   DynamicProperty(name="Steps", value="2"),
                   Embellishment(name="Step", image_names=["a", "b"], level=2),
                   BasicPiece(name="1 Cav", properties={"UniqueID": "u"})])
    props = piece.properties()
    assert props["Side"] == "Outer" and props["Type"] == "Inf" and props["Steps"] == "2"
    assert props["Step_Level"] == "2" and props["UniqueID"] == "u" and props["BasicName"] == "1 Cav"


def test_piece_structure_errors():
    with pytest.raises(ValueError):
        Piece([]).type_string()
    with pytest.raises(ValueError, match="tab"):
        Piece([Marker.of(A="1"), BasicPiece(name="a\tb")]).type_string()
    with pytest.raises(ValueError):
        Piece([BasicPiece(), Marker.of(A="1")]).type_string()
    with pytest.raises(VassalFormatError):
        parse_add_piece_command("-/x")


def test_missing_states_are_tolerated_when_reading():
    piece = parse_piece("mark;Side\tpiece;;;a.png;A", "")
    assert piece.traits[0].as_dict() == {"Side": ""}
    assert piece.basic.map_id is None


def test_basic_piece_state():
    basic = BasicPiece.parse("piece;;;a.png;A", "Main Map;10;20;gp7;2;UniqueID;u1;Hex;0203")
    assert (basic.map_id, basic.x, basic.y, basic.gpid) == ("Main Map", 10, 20, "gp7")
    assert basic.properties == {"UniqueID": "u1", "Hex": "0203"}
    assert basic.state_string() == "Main Map;10;20;gp7;2;UniqueID;u1;Hex;0203"
    assert BasicPiece().state_string() == "null;0;0;;0"


# --- prototypes and follow-property layers ------------------------------------------------------

def test_expand_prototypes_like_the_engine():
    from vassalfmt.piece import expand_prototypes

    prototypes = {
        "Unit": Piece([UsePrototype(name="Base"), DynamicProperty(name="Step", value="1"),
                       Comment(comment="dropped"), BasicPiece()]),
        "Base": Piece([Marker.of(Side="UN"), BasicPiece()]),
    }
    piece = Piece([UsePrototype(name="Unit"), UsePrototype(name="Missing"), Marker.of(UnitId="1"),
                   BasicPiece(image="a.png", name="A")])
    expanded = expand_prototypes(piece, prototypes)
    assert [type(t).__name__ for t in expanded.traits] == [
        "Marker", "DynamicProperty", "Marker", "BasicPiece"]
    assert expanded.properties()["Side"] == "UN" and expanded.properties()["Step"] == "1"
    assert piece.traits[0] == UsePrototype(name="Unit")           # the input is not changed
    expanded.traits[1].value = "2"
    assert prototypes["Unit"].traits[1].value == "1"              # copies, not shared traits


def test_expand_prototypes_refuses_loops():
    from vassalfmt.piece import expand_prototypes

    loop = {"A": Piece([UsePrototype(name="B"), BasicPiece()]),
            "B": Piece([UsePrototype(name="A"), BasicPiece()])}
    with pytest.raises(VassalFormatError, match="loop"):
        expand_prototypes(Piece([UsePrototype(name="A"), BasicPiece()]), loop)


def test_follow_property_layer_level():
    layer = Embellishment(name="StepLayer", image_names=["a", "b", "c"], follow_property=True,
                          property_name="Step", first_level_value=1, level=1)
    for value, level in [("2", "2"), ("9", "3"), ("0", "1"), ("", "1")]:
        piece = Piece([DynamicProperty(name="Step", value=value), layer, BasicPiece()])
        assert piece.properties()["StepLayer_Level"] == level
    odd = Piece([DynamicProperty(name="Step", value="x"), layer, BasicPiece()])
    assert odd.properties()["StepLayer_Level"] == "1"             # not a number: saved state


# --- property tests: any field values survive type/state encoding -----------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

field_text = st.text(alphabet=st.sampled_from(list("aZ9 ;,:=/\t\\'$|{}") + ["\x1b", "é"]),
                     max_size=10)
key_names = st.text(alphabet=st.sampled_from(list("aZ9 ;:=/\t\\'$")), min_size=1, max_size=6)
strokes = st.one_of(st.none(), st.builds(KeyStroke, st.integers(0, 0xF8FE),
                                         st.sampled_from([0, 65, 130, 520]),
                                         st.one_of(st.just(""), key_names)))


@settings(max_examples=150, deadline=None)
@given(keys=st.lists(field_text, min_size=1, max_size=5), values=st.lists(field_text, max_size=5))
def test_marker_round_trips_any_text(keys, values):
    marker = Marker(keys=keys, values=(values + [""] * len(keys))[: len(keys)])
    assert parse_trait(marker.type_string(), marker.state_string()) == marker


@settings(max_examples=150, deadline=None)
@given(name=field_text, value=field_text, description=field_text,
       commands=st.lists(st.builds(DynamicKeyCommand, field_text, strokes,
                                   st.one_of(st.builds(PropertyChanger, st.sampled_from("PIR"),
                                                       field_text),
                                             st.builds(PropertyChanger, st.just("E"), field_text,
                                                       st.lists(field_text, min_size=1,
                                                                max_size=3)))),
                         max_size=3))
def test_dynamic_property_round_trips_any_text(name, value, description, commands):
    prop = DynamicProperty(name=name or "name", commands=commands, description=description,
                           value=value)
    back = parse_trait(prop.type_string(), prop.state_string())
    assert back.type_string() == prop.type_string() and back.value == value
    assert [c.name for c in back.commands] == [c.name for c in commands]


@settings(max_examples=150, deadline=None)
@given(images=st.lists(field_text, min_size=1, max_size=4), name=field_text, prop=field_text,
       description=field_text, key_a=strokes, key_b=strokes)
def test_layer_round_trips_any_text(images, name, prop, description, key_a, key_b):
    layer = Embellishment(name=name, image_names=images, level_names=list(reversed(images)),
                          property_name=prop, description=description,
                          increase_keystroke=key_a, decrease_keystroke=key_b, level=1)
    assert parse_trait(layer.type_string(), layer.state_string()) == layer


@settings(max_examples=150, deadline=None)
@given(fmt=field_text, formats=st.lists(field_text, max_size=3), description=field_text,
       keys=st.lists(strokes.filter(lambda k: k is not None), max_size=3))
def test_report_state_round_trips_any_text(fmt, formats, description, keys):
    report = ReportState(keys=keys, report_format=fmt, cycle_report_formats=formats,
                         description=description)
    back = parse_trait(report.type_string(), report.state_string())
    if formats == [""]:             # one empty format is written like none at all (as in Java)
        report.cycle_report_formats = []
    assert back == report


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(texts=st.lists(field_text, min_size=6, max_size=6), key_a=strokes)
def test_send_to_and_label_round_trip_any_text(texts, key_a):
    send = SendToLocation(command_name=texts[0], key=key_a, map_id=texts[1], board_name=texts[2],
                          zone=texts[3], property_filter=texts[4], grid_location=texts[5],
                          back_map=texts[1])
    assert parse_trait(send.type_string(), send.state_string()) == send
    # the engine trims label text like Java's String.trim (characters up to U+0020)
    label = Labeler(label=texts[0].strip(" \t\x1b"), menu_command=texts[1],
                    name_format=texts[2] or "x",
                    property_name=texts[3], description=texts[4], label_key=key_a)
    assert parse_trait(label.type_string(), label.state_string()) == label


@settings(max_examples=100, deadline=None)
@given(marker_values=st.lists(field_text, min_size=2, max_size=2), comment=field_text,
       image=field_text, name=field_text)
def test_nested_piece_round_trips_any_text(marker_values, comment, image, name):
    piece = Piece([Marker(keys=["A", "B"], values=marker_values), Comment(comment=comment),
                   Embellishment(name=name, image_names=[image, name]),
                   BasicPiece(image=image.replace("\t", " "), name=name.replace("\t", " "),
                              map_id=name or None, gpid=comment)])
    command = piece.add_piece_command(name or None)
    piece_id, back = parse_add_piece_command(command)
    assert back == piece and piece_id == (name or None)


def test_mask_state_and_legacy_forms():
    from vassalfmt.traits import Obscurable, access_sides

    masked = Obscurable(image="back.png", access=access_sides(["UN"]), obscured_by="player1",
                        options="|0")
    back = parse_trait(masked.type_string(), masked.state_string())
    assert back == masked and back.obscured_by == "player1"
    assert access_sides([]) == "sides:"
    old = parse_trait("obs;72,130;back.png;Mask;PX")          # legacy one-letter peek key
    assert old.peek_key == KeyStroke(ord("X"), 128) and old.access == "player:"
    assert parse_trait("obs;;back.png").auto_peek_rollover is True   # no style field: new piece
