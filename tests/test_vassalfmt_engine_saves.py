"""Reading saved games and logs written by the real VASSAL 3.7.26 engine.

ENGINE_VLOG_TEXT is the decoded ``savedGame`` stream of a log file written by the engine
(2026-11-22, engine built from tag 3.7.26) after loading a predefined setup generated with this
package (three units with prototypes expanded, two sharing a hex) and recording four steps:
unit p2 moved to (206, 104) (the engine created a new stack for it), p2 lost a step (a
ChangePiece from a Dynamic Property defined in a prototype, followed by the chat report), p0 was
removed, and p1 moved onto p2. It shows the engine's real layout: the pieces nested as one
compound command inside ``begin_save`` (escaped ESCs), named keys re-encoded with the engine's
own codes, ``UniqueID`` persistent properties, ``@@layer`` stack markers and ``LOG\\t`` steps.
"""

from vassalfmt.commands import split_commands
from vassalfmt.moduledata import ModuleData, SaveData
from vassalfmt.piece import parse_piece
from vassalfmt.savedgame import deobfuscate, obfuscate, read_command_text, read_saved_game
from vassalfmt.traits import DynamicProperty, Embellishment, ReportState
from vassalfmt.zipwriter import build_zip

ENGINE_VLOG_TEXT = (
    "begin_save\x1b\x1b\\\x1b+/p0/report;57344\\,0\\,LoseStep,57346\\,0\\,Elim;$location$: $n"
    "ewPieceName$;;;;false\tsendto;Eliminate;57346,0,Elim;Main Map;Korea;30;30;;;0;0;1;1;;L;;"
    ";;\\\tPROP;Step;true,1,2,false;Lose step:57344\\,0\\,LoseStep:I\\,1,Restore:57345\\,0\\,"
    "Restore:P\\,1;\\\\\tdelete;Delete;68,130;\\\\\\\tmark;UnitId,Side\\\\\\\\\temb2;;128;;;1"
    "28;;;128;;;;1;false;0;0;inf.png,inf_r.png;,;true;StepLayer;;;true;Step;1;1;true;;;;;1.0;"
    ";true\\\\\\\\\\\temb2;Flag;128;;;128;;;128;;;;1;false;0;0;inf_r.png;;true;Flag;;;false;;"
    "1;1;false;70,130;;;;1.0;;true\\\\\\\\\\\\\tpiece;;;inf.png;u0/-1\t;;\\\t1\\\\\t\\\\\\\tu"
    "0,UN\\\\\\\\\t1\\\\\\\\\\\t-1\\\\\\\\\\\\\tMain Map;150;232;;1;UniqueID;p0\\\x1b+/p1/rep"
    "ort;57344\\,0\\,LoseStep,57346\\,0\\,Elim;$location$: $newPieceName$;;;;false\tsendto;El"
    "iminate;57346,0,Elim;Main Map;Korea;30;30;;;0;0;1;1;;L;;;;\\\tPROP;Step;true,1,2,false;L"
    "ose step:57344\\,0\\,LoseStep:I\\,1,Restore:57345\\,0\\,Restore:P\\,1;\\\\\tdelete;Delet"
    "e;68,130;\\\\\\\tmark;UnitId,Side\\\\\\\\\temb2;;128;;;128;;;128;;;;1;false;0;0;inf.png,"
    "inf_r.png;,;true;StepLayer;;;true;Step;1;1;true;;;;;1.0;;true\\\\\\\\\\\temb2;Flag;128;;"
    ";128;;;128;;;;1;false;0;0;inf_r.png;;true;Flag;;;false;;1;1;false;70,130;;;;1.0;;true\\"
    "\\\\\\\\\\\tpiece;;;inf.png;u1/-1\t;;\\\t1\\\\\t\\\\\\\tu1,UN\\\\\\\\\t1\\\\\\\\\\\t-1\\"
    "\\\\\\\\\\\tMain Map;150;232;;1;UniqueID;p1\\\x1b+/p2/report;57344\\,0\\,LoseStep,57346"
    "\\,0\\,Elim;$location$: $newPieceName$;;;;false\tsendto;Eliminate;57346,0,Elim;Main Map;"
    "Korea;30;30;;;0;0;1;1;;L;;;;\\\tPROP;Step;true,1,2,false;Lose step:57344\\,0\\,LoseStep:"
    "I\\,1,Restore:57345\\,0\\,Restore:P\\,1;\\\\\tdelete;Delete;68,130;\\\\\\\tmark;UnitId,S"
    "ide\\\\\\\\\temb2;;128;;;128;;;128;;;;1;false;0;0;inf.png,inf_r.png;,;true;StepLayer;;;t"
    "rue;Step;1;1;true;;;;;1.0;;true\\\\\\\\\\\temb2;Flag;128;;;128;;;128;;;;1;false;0;0;inf_"
    "r.png;;true;Flag;;;false;;1;1;false;70,130;;;;1.0;;true\\\\\\\\\\\\\tpiece;;;inf.png;u2/"
    "-1\t;;\\\t1\\\\\t\\\\\\\tu2,UN\\\\\\\\\t1\\\\\\\\\\\t-1\\\\\\\\\\\\\tMain Map;95;168;;1;"
    "UniqueID;p2\\\x1b+/stack1/stack/Main Map;150;232;p0;p1;@@-1\\\x1b+/stack2/stack/Main Map"
    ";95;168;p2;@@-1\x1bMain MapBoardPicker\tKorea\t0\t0\x1bSETUP_STACK\t\x1bend_save\x1bLOG"
    "\tM/p2/Main Map/206/104/null/Main Map/95/168/null/\\\x1bLOG\t+/1795317490685/stack/Main "
    "Map;206;104;p2;@@1\x1bLOG\tD/p2/-1\t;;\\\t2\\\\\t\\\\\\\tu2,UN\\\\\\\\\t1\\\\\\\\\\\t-1"
    "\\\\\\\\\\\\\tMain Map;206;104;;1;UniqueID;p2/-1\t;;\\\t1\\\\\t\\\\\\\tu2,UN\\\\\\\\\t1"
    "\\\\\\\\\\\t-1\\\\\\\\\\\\\tMain Map;206;104;;1;UniqueID;p2\\\x1bLOG\tCHAT* 0302: u2\x1b"
    "LOG\t-/p0\x1bLOG\tM/p1/Main Map/206/104/p2/Main Map/150/232/null/"
)

# Where the log begins (the saved game inside it) ends with these commands.
END_OF_SAVE = "end_save"


def engine_vlog_bytes(key=0x36):
    return build_zip({"savedGame": obfuscate(ENGINE_VLOG_TEXT, key),
                      "savedata": SaveData(game_version="1.0").to_xml(),
                      "moduledata": ModuleData(name="VF Test2").to_xml()})


def test_obfuscated_with_the_engine_key_reads_back():
    data = obfuscate(ENGINE_VLOG_TEXT, 0x36)
    assert data.startswith(b"!VCSK36") and deobfuscate(data) == ENGINE_VLOG_TEXT


def test_command_structure():
    leaves = split_commands(ENGINE_VLOG_TEXT)
    texts = [c.text for c in leaves]
    assert texts[0] == "begin_save"
    assert texts.index(END_OF_SAVE) == 8
    assert sum(t.startswith("+/p") for t in texts) == 3
    assert "SETUP_STACK\t" in texts
    logged = [c.text for c in leaves if c.logged]
    assert [t[:2] for t in logged] == ["M/", "+/", "D/", "CH", "-/", "M/"]


def test_final_positions_of_the_log():
    game = read_saved_game(engine_vlog_bytes())
    assert game.is_log and game.has_setup_stack_marker and game.warnings == []
    assert game.module_name == "VF Test2"
    by_id = game.by_id()
    assert set(by_id) == {"p1", "p2"}                       # p0 was removed
    for piece_id in ("p1", "p2"):
        assert (by_id[piece_id].map_id, by_id[piece_id].x, by_id[piece_id].y) == ("Main Map", 206, 104)
    assert by_id["p1"].stack_id == by_id["p2"].stack_id      # p1 was moved onto p2's stack
    assert by_id["p2"].properties["Step"] == "2"            # the logged step loss
    assert by_id["p2"].properties["StepLayer_Level"] == "2"  # the layer follows Step
    assert by_id["p1"].properties["Step"] == "1"
    assert by_id["p2"].properties["UniqueID"] == "p2"
    assert any(c.startswith("CHAT") for c in game.other_commands)


def test_position_before_the_logged_steps():
    beginning = ENGINE_VLOG_TEXT.split("\x1bLOG\t", 1)[0]
    game = read_command_text(beginning)
    assert not game.is_log
    positions = {p.piece_id: (p.x, p.y) for p in game.pieces}
    assert positions == {"p0": (150, 232), "p1": (150, 232), "p2": (95, 168)}


def test_engine_written_piece_definitions_round_trip():
    """Every piece the engine wrote re-encodes to exactly the engine's text."""
    from vassalfmt.commands import AddPiece, parse_command

    count = 0
    for leaf in split_commands(ENGINE_VLOG_TEXT):
        command = parse_command(leaf.text)
        if isinstance(command, AddPiece) and command.type != "stack":
            piece = parse_piece(command.type, command.state)
            assert piece.type_string() == command.type
            assert piece.state_string() == command.state
            assert piece.find(ReportState) and piece.find(DynamicProperty)
            assert len(piece.find(Embellishment)) == 2
            count += 1
    assert count == 3


def test_board_layout_command():
    from vassalfmt.commands import BoardPlacement, board_command, parse_board_command

    game = read_command_text(ENGINE_VLOG_TEXT)
    assert game.boards == {"Main Map": [BoardPlacement("Korea", 0, 0, False)]}
    # what the engine wrote, rebuilt
    assert board_command("Main Map", [BoardPlacement("Korea")]) == "Main MapBoardPicker\tKorea\t0\t0"
    layout = [BoardPlacement("North", 0, 0), BoardPlacement("South/East", 0, 1, reversed=True)]
    assert parse_board_command(board_command("Map", layout)) == ("Map", layout)
    assert parse_board_command("CHAT hello") is None
