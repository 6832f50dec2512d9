"""Saved games and logs (vassalfmt.savedgame, vassalfmt.commands, vassalfmt.zipreader)."""

import io
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vassalfmt.commands import (
    SETUP_STACK,
    AddPiece,
    ChangePiece,
    MovePiece,
    OtherCommand,
    RemovePiece,
    parse_command,
    split_commands,
)
from vassalfmt.errors import VassalFormatError
from vassalfmt.keys import named
from vassalfmt.moduledata import ModuleData, SaveData
from vassalfmt.piece import Piece
from vassalfmt.savedgame import (
    SavedGameWriter,
    deobfuscate,
    obfuscate,
    read_command_text,
    read_saved_game,
    write_saved_game,
)
from vassalfmt.sequence import ESC, encode
from vassalfmt.traits import BasicPiece, Embellishment, Immobilized, Marker
from vassalfmt.zipreader import ZipLimits
from vassalfmt.zipwriter import build_zip

MODULE = ModuleData(name="Korea: The Mobile War", version="0.3")


def unit(name, x, y, map_id="Main Map", side="UN", step=1):
    return Piece([
        Marker.of(UnitId=name, Side=side),
        Embellishment(name="Step", image_names=[f"{name}.png", f"{name}_r.png"],
                      increase_keystroke=named("Flip"), level=step),
        BasicPiece(image=f"{name}.png", name=name, map_id=map_id, x=x, y=y, gpid="3"),
    ])


def vsav(commands, savedgame_entry=None, extra=None):
    text = encode(commands, ESC)
    entries = {"savedGame": savedgame_entry if savedgame_entry is not None else obfuscate(text),
               "savedata": SaveData().to_xml(), "moduledata": MODULE.to_xml()}
    entries.update(extra or {})
    return build_zip(entries)


# --- obfuscation ----------------------------------------------------------------------------------

def test_obfuscation_known_values():
    # 'a' = 0x61 ^ 0x12 = 0x73, 'b' = 0x62 ^ 0x12 = 0x70
    assert obfuscate("ab", key=0x12) == b"!VCSK127370"
    assert deobfuscate(b"!VCSK127370") == "ab"
    assert deobfuscate(b"!VCSK12737A") == "ah"          # upper-case hex is accepted too
    assert deobfuscate(b"begin_save") == "begin_save"   # no header: plain text


def test_obfuscation_round_trip_unicode():
    text = "begin_save\x1b+/1/piece;;;a.png;Hwach'ŏn 화천/null;0;0;;0\x1bend_save"
    assert deobfuscate(obfuscate(text)) == text
    assert obfuscate(text) == obfuscate(text)           # fixed key: reproducible


@pytest.mark.parametrize("data", [b"!VCSK5azz", b"!VCSK5a123", b"!VCSK", b"!VCSK00ff", b"\xff\xfe"])
def test_obfuscation_damage_is_reported(data):
    with pytest.raises(VassalFormatError):
        deobfuscate(data)


# --- command stream -------------------------------------------------------------------------------

def test_split_commands_handles_engine_nesting_and_logs():
    add1 = unit("A", 10, 20).add_piece_command("p1")
    add2 = unit("B", 30, 40).add_piece_command("p2")
    # The engine writes the pieces as one compound command (a NullCommand with appended
    # AddPieces) nested inside begin_save, so its ESCs get escaped once more.
    pieces = encode(["", add1, add2], ESC)
    move = MovePiece("p1", "Main Map", 50, 60, None, "Main Map", 10, 20, None, "player").encode()
    logged = "LOG\t" + encode([move, ChangePiece("p2", "x").encode()], ESC)
    text = encode(["begin_save", pieces, SETUP_STACK, "end_save", logged, "UNDO\ttrue"], ESC)
    leaves = split_commands(text)
    assert [c.text for c in leaves] == ["begin_save", add1, add2, SETUP_STACK, "end_save", move,
                                        "D/p2/x"]
    assert [c.logged for c in leaves] == [False] * 5 + [True, True]


def test_split_commands_refuses_runaway_nesting():
    deep = "x"
    for _ in range(60):
        deep = encode([deep, "y"], ESC)
    with pytest.raises(VassalFormatError):
        split_commands(deep)
    with pytest.raises(VassalFormatError):
        split_commands("'" * 200 + "x" + "'" * 200)


def test_parse_command_forms():
    assert parse_command("+/id/piece;;;a.png;A/null;0;0;;0") == AddPiece(
        "id", "piece;;;a.png;A", "null;0;0;;0")
    assert parse_command("-/id") == RemovePiece("id")
    assert parse_command("D/id/new/old") == ChangePiece("id", "new", "old")
    assert parse_command("D/id/new") == ChangePiece("id", "new", None)
    move = parse_command("M/id/Main Map/1/2/null/null/0/0/null/me")
    assert move == MovePiece("id", "Main Map", 1, 2, None, None, 0, 0, None, "me")
    assert parse_command(move.encode()) == move
    assert parse_command("SETUP_STACK\t") == OtherCommand("SETUP_STACK\t")
    with pytest.raises(VassalFormatError):
        parse_command("M/id/Main Map/x/2/null/null/0/0/null/me")


# --- writing and reading back ---------------------------------------------------------------------

def test_written_save_reads_back_every_piece():
    writer = SavedGameWriter()
    writer.add_piece("u1", unit("1Cav", 150, 232))
    writer.add_piece("u2", unit("2ID", 150, 232, step=2))
    writer.add_piece("u3", unit("NK4", 95, 168, side="KPA"))
    writer.add_piece("m1", Piece([Immobilized(), BasicPiece(name="marker", map_id="Main Map",
                                                            x=150, y=232)]))
    writer.add_piece("off", unit("Reserve", 0, 0, map_id=None))
    data = writer.to_bytes(MODULE)

    game = read_saved_game(data)
    assert game.module_name == "Korea: The Mobile War"
    assert game.has_setup_stack_marker and not game.is_log and game.warnings == []
    by_id = game.by_id()
    assert set(by_id) == {"u1", "u2", "u3", "m1", "off"}
    assert (by_id["u1"].map_id, by_id["u1"].x, by_id["u1"].y) == ("Main Map", 150, 232)
    assert by_id["u3"].properties["Side"] == "KPA"
    assert by_id["u2"].properties["Step_Level"] == "2"
    assert by_id["u1"].stack_id == by_id["u2"].stack_id is not None   # same hex: one stack
    assert by_id["m1"].stack_id is None                                # never stacks
    assert by_id["off"].map_id is None
    assert by_id["u3"].piece == unit("NK4", 95, 168, side="KPA")


def test_writer_output_is_deterministic_and_valid_zip(tmp_path):
    def build():
        w = SavedGameWriter()
        w.add_piece("u1", unit("A", 1, 2))
        return w.to_bytes(MODULE)

    assert build() == build()
    with zipfile.ZipFile(io.BytesIO(build())) as z:
        assert z.namelist() == ["moduledata", "savedGame", "savedata"]
        assert z.read("savedGame").startswith(b"!VCSK")
    path = tmp_path / "setup.vsav"
    write_saved_game(path, [("u1", unit("A", 1, 2))], MODULE)
    assert path.read_bytes() == build()
    assert list(tmp_path.iterdir()) == [path]           # no temporary file left behind


def test_writer_rejects_bad_ids():
    w = SavedGameWriter()
    w.add_piece("a", unit("A", 0, 0))
    with pytest.raises(ValueError):
        w.add_piece("a", unit("B", 0, 0))
    with pytest.raises(ValueError):
        w.add_piece("null", unit("B", 0, 0))


def test_explicit_stack_and_log_moves():
    commands = [
        "begin_save",
        unit("A", 10, 10).add_piece_command("a"),
        unit("B", 10, 10).add_piece_command("b"),
        unit("C", 99, 99).add_piece_command("c"),
        AddPiece("s1", "stack", "Main Map;10;10;a;b;@@0").encode(),
        SETUP_STACK, "end_save",
        # logged steps: the whole stack moves, then C joins it, then A leaves for another map
        "LOG\t" + MovePiece("s1", "Main Map", 200, 300, None, "Main Map", 10, 10, None, "p").encode(),
        "LOG\t" + MovePiece("c", "Main Map", 200, 300, "b", "Main Map", 99, 99, None, "p").encode(),
        "LOG\t" + MovePiece("a", "Dead Pile", 5, 5, None, "Main Map", 200, 300, None, "p").encode(),
        "LOG\t" + ChangePiece("b", unit("B", 200, 300, step=2).state_string()).encode(),
        "LOG\t" + RemovePiece("c").encode(),
    ]
    game = read_saved_game(vsav(commands))
    assert game.is_log
    by_id = game.by_id()
    assert set(by_id) == {"a", "b"}
    assert (by_id["b"].map_id, by_id["b"].x, by_id["b"].y) == ("Main Map", 200, 300)
    assert by_id["b"].properties["Step_Level"] == "2"
    assert (by_id["a"].map_id, by_id["a"].x, by_id["a"].y) == ("Dead Pile", 5, 5)
    assert by_id["a"].stack_id is None


def test_unknown_references_become_warnings():
    commands = ["begin_save", unit("A", 1, 1).add_piece_command("a"),
                AddPiece("s", "stack", "Main Map;1;1;a;ghost").encode(), "-/nobody",
                "M/ghost/Main Map/1/1/null/null/0/0/null/p", "D/ghost/x", "end_save"]
    game = read_saved_game(vsav(commands))
    assert len(game.pieces) == 1
    assert len(game.warnings) == 4 and any("ghost" in w for w in game.warnings)


def test_unreadable_piece_definition_is_kept_raw():
    commands = ["begin_save", "+/x/rotate;lots\tpiece;;;a.png;A/0\tMain Map;5;6;;0", "end_save"]
    game = read_saved_game(vsav(commands))
    assert game.pieces[0].x == 5 and game.warnings
    assert game.pieces[0].piece.traits[0].type.startswith("rotate;lots")


def test_other_commands_are_kept_in_order():
    game = read_command_text(encode(["begin_save", "TURN\t3", "GlobalProperty\tx", "end_save"], ESC))
    assert game.other_commands == ["TURN\t3", "GlobalProperty\tx"]
    assert not game.has_setup_stack_marker


def test_plain_and_xz_savedgame_entries():
    text = encode(["begin_save", unit("A", 1, 2).add_piece_command("a"), "end_save"], ESC)
    assert read_saved_game(vsav([], savedgame_entry=text.encode())).pieces[0].x == 1
    import lzma
    packed = lzma.compress(obfuscate(text))
    assert read_saved_game(vsav([], savedgame_entry=packed)).pieces[0].y == 2


# --- untrusted input ------------------------------------------------------------------------------

def zip_of(entries, compression=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as z:
        for name, data in entries:
            z.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("data, message", [
    (b"", "not a zip"),
    (b"hello world", "not a zip"),
    (b"PK\x03\x04garbage" * 10, "damaged"),
    (zip_of([("notes.txt", b"x")]), "no 'savedGame'"),
    (zip_of([("buildFile.xml", b"<x/>")]), "module"),
    (zip_of([("../../etc/passwd", b"x"), ("savedGame", b"begin_save")]), "unsafe"),
    (zip_of([("/abs", b"x"), ("savedGame", b"begin_save")]), "unsafe"),
    (zip_of([("a\\..\\..\\b", b"x"), ("savedGame", b"begin_save")]), "unsafe"),
    (zip_of([("savedGame", b"!VCSK5axyz")]), "damaged"),
])
def test_bad_uploads_raise_clear_errors(data, message):
    with pytest.raises(VassalFormatError, match=message):
        read_saved_game(data)


def test_zip_bomb_refused():
    bomb = zip_of([("savedGame", b"\0" * (8 * 1024 * 1024))])
    assert len(bomb) < 20_000
    limits = ZipLimits(max_entry_bytes=1024 * 1024)
    with pytest.raises(VassalFormatError, match="too large|more than allowed"):
        read_saved_game(bomb, limits)
    many = zip_of([(f"f{i}", b"x") for i in range(30)] + [("savedGame", b"begin_save")])
    with pytest.raises(VassalFormatError, match="entries"):
        read_saved_game(many, ZipLimits(max_entries=20))
    with pytest.raises(VassalFormatError, match="larger than"):
        read_saved_game(b"PK" + b"\0" * 5000, ZipLimits(max_archive_bytes=1000))
    total = zip_of([("savedGame", b"begin_save"), ("savedata", b"\0" * 600_000),
                    ("moduledata", b"\0" * 600_000)])
    game = read_saved_game(total, ZipLimits(max_total_bytes=1_000_000))
    assert any(w.startswith("moduledata ignored") and "too large" in w for w in game.warnings)


def test_duplicate_entries_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("savedGame", b"begin_save")
        with pytest.warns(UserWarning):
            z.writestr("savedGame", b"end_save")
    with pytest.raises(VassalFormatError, match="twice"):
        read_saved_game(buffer.getvalue())


def test_metadata_with_entities_is_ignored_not_expanded():
    evil = (b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b"<data><name>&x;</name></data>")
    game = read_saved_game(vsav(["begin_save", "end_save"], extra={"moduledata": evil}))
    assert game.moduledata is None and any("DOCTYPE" in w for w in game.warnings)


def test_reading_from_path(tmp_path):
    path = tmp_path / "g.vsav"
    path.write_bytes(vsav(["begin_save", unit("A", 1, 2).add_piece_command("a"), "end_save"]))
    assert read_saved_game(path).pieces[0].name == "A"
    assert read_saved_game(str(path)).pieces[0].name == "A"
    with pytest.raises(VassalFormatError, match="cannot read"):
        read_saved_game(tmp_path / "missing.vsav")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=400))
def test_random_bytes_only_raise_vassal_format_error(data):
    for candidate in (data, b"PK\x03\x04" + data):
        try:
            read_saved_game(candidate)
        except VassalFormatError:
            pass


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("+-DM/;\t\\'x0123 ") + [ESC]), max_size=80))
def test_random_command_text_only_raises_vassal_format_error(text):
    try:
        read_command_text(text)
    except VassalFormatError:
        pass


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=300))
def test_random_savedgame_entry_only_raises_vassal_format_error(data):
    try:
        read_saved_game(vsav([], savedgame_entry=b"!VCSK00" + data.hex().encode()))
    except VassalFormatError:
        pass


def test_decks_are_not_reported_as_units():
    commands = ["begin_save", unit("A", 1, 1).add_piece_command("a"),
                "+/d1/deck;false;true;false;true;false;1;1;false;0;;;;/Main Map;0;0", "end_save"]
    game = read_saved_game(vsav(commands))
    assert [p.piece_id for p in game.pieces] == ["a"]


id_text = st.text(alphabet=st.sampled_from(list("aZ9-_ ;/,\\'#") + ["\t"]), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(placements=st.lists(st.tuples(id_text, st.sampled_from(["Main Map", "Dead; Pile", None]),
                                     st.integers(0, 3), st.integers(0, 3)),
                           max_size=8, unique_by=lambda t: t[0]))
def test_any_written_setup_reads_back(placements):
    placements = [p for p in placements if p[0] != "null"]
    writer = SavedGameWriter()
    for piece_id, map_id, x, y in placements:
        writer.add_piece(piece_id, unit("U" + piece_id.replace("\t", " "), x * 10, y * 10,
                                        map_id=map_id))
    game = read_saved_game(writer.to_bytes(MODULE))
    assert game.warnings == []
    got = {p.piece_id: (p.map_id, p.x, p.y) for p in game.pieces}
    want = {pid: (m, x * 10, y * 10) if m else (None, x * 10, y * 10)
            for pid, m, x, y in placements}
    assert got == want


def test_writer_warns_once_about_unexpanded_prototypes():
    from vassalfmt.traits import UsePrototype

    def proto_unit(name):
        return Piece([UsePrototype(name="Unit"), BasicPiece(name=name, map_id="Main Map")])

    writer = SavedGameWriter()
    with pytest.warns(UserWarning, match="prototypes"):
        writer.add_piece("a", proto_unit("A"))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        writer.add_piece("b", proto_unit("B"))                  # only warned once
        expanding = SavedGameWriter(prototypes={"Unit": Piece([Marker.of(Side="UN"), BasicPiece()])})
        expanding.add_piece("a", proto_unit("A"))
    game = read_saved_game(expanding.to_bytes(MODULE))
    assert game.pieces[0].piece.prototypes() == [] and game.pieces[0].properties["Side"] == "UN"


def test_a_move_reads_the_same_whether_its_fields_need_decoding_or_not():
    """A move with nothing escaped or quoted is split as it stands (issue 53: most of a long log);
    one with an escaped or quoted field is decoded: both read back what was written."""
    from vassalfmt.commands import parse_command

    plain = MovePiece("p1", "Main Map", 50, -60, None, "Main Map", 10, 20, "p2", "player")
    escaped = MovePiece("a/b", "Main Map", 50, 60, None, "'quoted'", 10, 20, None, "")
    assert "\\" not in plain.encode() and parse_command(plain.encode()) == plain
    assert "\\" in escaped.encode() and parse_command(escaped.encode()) == escaped
    for text in ("M/p1/Map/1/2", "M/p1/Map/x/2/null/Map/3/4/null/", "M/p1/Map/1/2/null/Map/3/4'/null/"):
        with pytest.raises(VassalFormatError, match="move command with a bad"):
            parse_command(text)
