"""The component commands a setup carries, byte for byte as VASSAL 3.7.26 saves them (the
expected strings were written by the engine saving a game the KWB module's Battle for Seoul setup
had opened)."""

from __future__ import annotations

from vassalfmt.state import ListLevelState, global_property_command, scenario_notes_command, turn_tracker_command

PHASES = 13


def test_turn_tracker_command_as_the_engine_saves_it():
    levels = [ListLevelState(21, active=False, sub_levels=(ListLevelState(PHASES),)),
              ListLevelState(14, sub_levels=(ListLevelState(PHASES),)),
              ListLevelState(14, active=False, sub_levels=(ListLevelState(PHASES),))]
    phases = ",".join(["true"] * PHASES)
    engine = ("TURNTurnTracker0\t1|0;0;0;" + ",".join(["false"] * 21) + ";0\\;0\\;0\\;" + phases
              + "|0;0;0;" + ",".join(["true"] * 14) + ";0\\;0\\;0\\;" + phases
              + "|0;0;0;" + ",".join(["false"] * 14) + ";0\\;0\\;0\\;" + phases)
    assert turn_tracker_command("TurnTracker0", 1, levels) == engine


def test_global_property_command_as_the_engine_saves_it():
    assert global_property_command("StartViewZoom", "0.75") == "GlobalProperty\t;StartViewZoom;0.75;Module"


def test_scenario_notes_keep_blank_lines_and_escape_bars():
    text = "Battle for Seoul (Korean War Battles, rules 12.2)\n\nSets up first: United Nations.\nA | B"
    assert scenario_notes_command(text) == (
        "NOTES\tBattle for Seoul (Korean War Battles, rules 12.2)||Sets up first: United Nations.|A \\| B")
