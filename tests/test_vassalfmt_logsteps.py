"""A log's steps from the commands its reader kept are the steps read from its text (issue 53).

The replay and the log check step through a log after the saved-game reader has split and parsed
it; reading it once means their steps come from the reader's parse (`SavedGame.kept_commands`). They
must be exactly what `log_steps` reads from the text: the same start, the same steps, the same
commands, for the engine's own log and for the nestings it writes.
"""

from __future__ import annotations

import pytest

from test_vassalfmt_engine_saves import ENGINE_VLOG_TEXT, engine_vlog_bytes
from vassalfmt import VassalLimitError
from vassalfmt.commands import join_commands
from vassalfmt.logsteps import log_steps, saved_log_steps, stream_steps
from vassalfmt.savedgame import WorkLimits, read_command_text, read_saved_game
from vassalfmt.sequence import ESC, decode, encode

KEEP = WorkLimits(keep_commands=True)
START = join_commands(["begin_save", "+/p1/type/state", "end_save"])
#: A drag as the engine logs it: one entry of nulls, nested entries, the change, the move, its report.
DRAG = "LOG\t" + join_commands(["null", "LOG\tnull", "LOG\tD/p1/new", "LOG\tM/p1/Map/1/2/null/Map/3/4/null/",
                                "LOG\tCHAT* p1 moves *"])
#: A plain command after the log began, a top-level field holding a nested entry, a chat line.
NESTED = encode(list(decode(START, ESC)) + [DRAG, "CHATtyped", join_commands(["null", "LOG\t-/p1"]),
                                            "LOG\tCHAThello"], ESC)


@pytest.mark.parametrize("text", [ENGINE_VLOG_TEXT, NESTED, START, ""], ids=["engine", "nested", "saved", "empty"])
def test_the_kept_commands_give_the_steps_the_text_gives(text):
    kept = read_command_text(text, work=KEEP).kept_commands
    assert kept is not None and kept.text is text
    from_text = log_steps(text)
    assert stream_steps(kept) == from_text
    assert stream_steps(kept).command_count == from_text.command_count


def test_a_file_read_keeps_its_commands_only_when_asked_and_for_its_own_text():
    data = engine_vlog_bytes()
    assert read_saved_game(data).parsed_commands() is None
    saved = read_saved_game(data, work=KEEP)
    assert saved.parsed_commands() is saved.kept_commands
    assert saved_log_steps(saved) == log_steps(ENGINE_VLOG_TEXT)
    saved.command_text = START  # a text changed since it was read: its own steps, not the kept ones
    assert saved.parsed_commands() is None
    assert saved_log_steps(saved) == log_steps(START)


def test_a_stream_that_is_one_log_entry_is_not_kept():
    """`log_steps` splits such a stream (no engine writes one) at its top level first: the reader's
    parse, which reads it as one entry, would group it otherwise."""
    assert read_command_text("LOG\t" + START, work=KEEP).kept_commands is None


def test_the_kept_commands_are_bounded_as_the_text_is():
    kept = read_command_text(ENGINE_VLOG_TEXT, work=KEEP).kept_commands
    bound = log_steps(ENGINE_VLOG_TEXT).command_count
    with pytest.raises(VassalLimitError):
        log_steps(ENGINE_VLOG_TEXT, max_commands=len(kept.leaves) - 1)
    with pytest.raises(VassalLimitError):
        stream_steps(kept, max_commands=len(kept.leaves) - 1)
    assert stream_steps(kept, max_commands=len(kept.leaves)).command_count == bound
