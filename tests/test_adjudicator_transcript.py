"""Rulings as chat lines: rendering, the ?transcript=1 parameter, reading them back from texts."""

import pytest

from adjudicator.testing import a_side, bearer, make_app, new_game, probe_check
from adjudicator.logs.transcript import comparable_lines, parse_transcript
from adjudicator.words.transcript import (
    COMPUTE_TAG,
    RULING_MARK,
    RULING_MARK_V2,
    SHORT_LINES,
    WRAP,
    chat_lines,
    detail_lines,
    dice_text,
    headline,
    readable,
    stand_in_label,
    stand_ins,
)
from vassalfmt import SavedGame

ROLL = "/api/v1/games/{}/probe_roll"
COMPUTE = "/api/v1/systems/kwb/probe_roll"


@pytest.fixture(autouse=True)
def probe():
    with probe_check() as spec:
        yield spec


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


def test_nested_values_read_as_text_without_braces_quotes_or_reprs():
    value = {"attackers": [{"unit": "nkpa-1", "sp_before": 3, "hits": 0, "eliminated": False, "note": ""}],
             "defender": {"unit": "rok-1", "sp": 1}, "ratio": 1.5, "none": None, "tags": []}
    text = readable(value)
    assert text == "attackers nkpa-1 (eliminated no, hits 0, sp before 3), defender rok-1 (sp 1), ratio 1.5"
    assert readable([{"unit": "a", "hits": 1}, {"unit": "b"}]) == "a (hits 1); b"
    assert not set("{}'\"[]") & set(text)


def test_dice_are_grouped_by_purpose_in_rolling_order():
    dice = [{"sides": 6, "purpose": "attacker", "value": 5}, {"sides": 6, "purpose": "attacker", "value": 2},
            {"sides": 6, "purpose": "defender", "value": 1}, {"sides": 10, "purpose": "", "value": 10}]
    assert dice_text(dice) == "attacker d6 5 2; defender d6 1; d10 10"


def test_compute_ruling_lines_carry_the_compute_tag_and_no_control_characters():
    result = {"system": "kwb", "check": "probe_roll", "rule": "Probe 1", "outcome": {"hit": True, "total": 6},
              "steps": [{"text": "Rolled\n6\x1b", "rule": "P1"}], "warnings": ["stand-in", "a die was re-read"],
              "dice_used": [{"sides": 6, "purpose": "probe die", "value": 6}]}
    lines = chat_lines(result, system_name="Korean War Battles")
    assert lines == [
        "[ADJ compute] RULING » Probe roll: a hit, total 6",  # the result and the dice; the steps are details
        "[ADJ compute] dice: probe die d6 6",
        "[ADJ compute] not recorded: computed from the players' own dice",
    ]
    assert detail_lines(result) == ["RULING Probe roll: a hit, total 6", "1. Rolled 6 [P1]", "= hit: yes; total: 6",
                                    "dice: probe die d6 6", "warning: a die was re-read"]
    assert all(COMPUTE_TAG in line for line in lines)
    lines = chat_lines(result, system_name="Korean War Battles", version=2)
    assert lines == [
        "[ADJ compute] RULING Probe roll: a hit, total 6",
        "[ADJ compute] 1. Rolled 6 [P1]",
        "[ADJ compute] = hit: yes; total: 6",
        "[ADJ compute] dice: probe die d6 6",
        "[ADJ compute] warning: a die was re-read",  # a stand-in is stated once per game, not here
        "[ADJ compute] not recorded: computed from the players' own dice",
    ]
    assert all(COMPUTE_TAG in line for line in lines)
    assert stand_ins(result) == ["stand-in"]


def test_a_headlines_yes_no_facts_read_as_outcomes_and_older_logs_still_verify():
    """Issue 51: "Roc intervention: success no", "intervenes no" read as a form's fields; a headline
    says the outcome ("no intervention", "the Chinese do not intervene"), a side by its name, a roll of
    units' dice its hits. A log written before still compares equal (`written_lines`)."""
    from adjudicator.logs.transcript import written_lines

    def said(system: str, check: str, outcome: dict) -> str:
        return chat_lines({"system": system, "check": check, "outcome": outcome, "steps": [], "dice_used": []})[0]

    assert said("fireandice", "roc_intervention", {"success": False, "roll": 5}) == \
        "[ADJ compute] RULING » Roc intervention: no intervention, roll 5"
    assert said("holdfast", "chinese_intervention", {"intervenes": False, "roll": 2}) == \
        "[ADJ compute] RULING » Chinese intervention: the Chinese do not intervene, roll 2"
    assert said("spi", "victory", {"winner": "un"}) == "[ADJ compute] RULING » Victory: winner UN"
    assert said("fireandice", "supply_cost", {"doubled": False}) == "[ADJ compute] RULING » Supply cost: not doubled"
    fight = {"attacker_rolls": [3, 3, 3], "defender_rolls": [2, 1], "defender": {"unit": "un-2", "hits": 0},
             "attackers": [{"unit": "nkpa-1", "hits": 0}]}  # HoldFast: "rolled 3 3 3 against 2 1" had no result
    assert said("holdfast", "combat", fight) == \
        "[ADJ compute] RULING » Combat: NKPA 1 attacks UN 2, rolled 3 3 3 against 2 1: no hits"
    fight["defender"]["hits"], fight["attackers"] = 2, [{"unit": "nkpa-1", "hits": 1}, {"unit": "nkpa-6", "hits": 0}]
    assert said("holdfast", "combat", fight) == ("[ADJ compute] RULING » Combat: NKPA 1, NKPA 6 attack UN 2, rolled "
                                                 "3 3 3 against 2 1: 2 hits on the defender, 1 hit on the attackers")
    result = {"system": "holdfast", "check": "chinese_intervention", "outcome": {"intervenes": False, "roll": 2},
              "steps": [], "dice_used": [{"sides": 6, "purpose": "intervention", "value": 2}]}
    assert ["RULING » Chinese intervention: intervenes no, roll 2", "dice: intervention d6 2",
            "not recorded: computed from the players' own dice"] in written_lines(result)


def test_the_rendering_before_version_2_is_kept_for_older_logs():
    result = {"system": "kwb", "check": "probe_roll", "rule": "Probe 1", "outcome": {"hit": True},
              "steps": [{"text": "Rolled\n6\x1b", "rule": "P1"}], "warnings": ["stand-in"],
              "dice_used": [{"sides": 6, "purpose": "probe die", "value": 6}]}
    lines = chat_lines(result, system_name="Korean War Battles", version=1)
    assert lines == [
        "[ADJ compute] Korean War Battles: probe roll (Probe 1)",
        "[ADJ compute] = hit: yes",
        "[ADJ compute] dice: probe die d6 6",
        "[ADJ compute] 1. Rolled 6 [P1]",
        "[ADJ compute] warning: stand-in",
        "[ADJ compute] not recorded: computed from the players' own dice",
    ]
    assert all(COMPUTE_TAG in line for line in lines)


def test_compute_mode_answers_with_a_transcript_only_when_asked(client):
    plain = client.post(COMPUTE, json={"target": 3, "dice": [4]}).get_json()
    assert "transcript" not in plain
    asked = client.post(COMPUTE + "?transcript=1", json={"target": 3, "dice": [4]}).get_json()
    assert asked["transcript"] == ["[ADJ compute] RULING » Probe roll: a hit, total 4", "[ADJ compute] dice: probe die d6 4",
                                   "[ADJ compute] not recorded: computed from the players' own dice"]
    assert "= hit: yes; total: 4" in asked["details"]  # the whole ruling, for the asker's ruling window
    assert asked["stand_ins"] == [] and "piece_changes" not in asked


def test_a_recorded_ruling_is_tagged_with_game_and_record_and_matches_the_ledger(client):
    game = new_game(client)
    headers = bearer(a_side(game))
    body = client.post(ROLL.format(game["game_id"]) + "?transcript=1", json={"target": 4},
                       headers=headers).get_json()
    tag = f"[ADJ {game['game_id']}#1]"
    assert all(line.startswith(tag + " ") for line in body["transcript"])
    assert body["transcript"][0].startswith(f"{tag} {RULING_MARK}Probe roll for "
                                            f"{body['side'].title() if body['side'] != 'un' else 'UN'}: ")
    assert f"receipt: record 1 hash {body['hash'][:16]} signed {body['receipt']['kid']}" in \
        " ".join(body["transcript"])
    assert body["transcript"][-1].endswith(f"/games/{game['game_id']}#record-1")

    # Read back from chat texts (with a prefix VASSAL or a player might add), it is one ruling
    # whose lines are what the ledger record renders to.
    texts = ["<alice> hello"] + [f"* {line}" for line in body["transcript"]] + ["bye"]
    (entry,) = parse_transcript(texts)
    assert (entry.game_id, entry.seq, entry.hash_prefix) == (game["game_id"], 1, body["hash"][:16])
    record = ledger_document_record(client, game, headers, 1)
    assert entry.comparable() == comparable_lines(record, system_name="Korean War Battles")


def ledger_document_record(client, game, headers, seq):
    """The game-mode response as rebuilt from the ledger alone (what a verifier has)."""
    from adjudicator.rulings import recorded_response as game_check_response
    from adjudicator.ledger.records import Record

    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers).get_json()
    raw = next(r for r in ledger["records"] if r["seq"] == seq)
    with client.application.app_context():
        return game_check_response(Record(game_id=ledger["game"]["id"], **{
            k: raw[k] for k in ("seq", "prev_hash", "body", "hash", "receipt")}))


def test_consecutive_rulings_with_one_tag_are_told_apart():
    result = {"system": "kwb", "check": "c", "rule": "", "outcome": {"x": 1}, "steps": [], "warnings": [],
              "dice_used": []}
    lines = chat_lines(result) + chat_lines({**result, "outcome": {"x": 2}})
    first, second = parse_transcript(lines)
    assert first.lines[0].endswith("x 1") and second.lines[0].endswith("x 2")
    assert not first.recorded and first.seq is None


# -- a ruling that reads like one ------------------------------------------------------------------

KWB_COMBAT = {
    "system": "kwb", "check": "combat", "rule": "7.0", "side": "communist",
    "outcome": {"result": "AD", "meaning": "attacker depleted", "odds": "1:3", "column": "1:3", "roll": 2,
                "attackers": [{"unit": "nk-83-mot", "step": "depleted", "history": ["AD: flipped to depleted"]}],
                "defenders": [{"unit": "us-27-25", "step": "full", "history": []}],
                "attack_strength": 3, "defence_strength": 9},
    "steps": [{"text": "nk-83-mot (1105, full) attacks us-27-25 with 3.", "rule": "7.1"},
              {"text": "Rolled 2 on column 1:3: AD.", "rule": "stand-in tables/crt.csv"}],
    "warnings": ["Stand-in table crt (kwb/tables.toml:34): the combat results table is in the Standard Rules.",
                 "Stand-in values for nk-83-mot (3-4-8 / 1-2-8): depleted side not printed"],
    "dice_used": [{"sides": 6, "purpose": "combat (CRT)", "value": 2}],
}


def test_a_combat_leads_with_what_happened_naming_units_as_their_counters_read():
    assert headline(KWB_COMBAT) == ("Combat for Communist: NK 83 attacks US 27/25 at 1:3, rolled 2: "
                                    "AD (attacker depleted) — NK 83 depleted")
    lines = chat_lines(KWB_COMBAT)
    assert lines == ["[ADJ compute] " + RULING_MARK + "Combat for Communist: NK 83 attacks US 27/25 at 1:3, rolled 2: "
                     "AD (attacker depleted)", "[ADJ compute] NK 83 depleted", "[ADJ compute] dice: combat (CRT) d6 2",
                     "[ADJ compute] not recorded: computed from the players' own dice"]
    whole = chat_lines(KWB_COMBAT, version=2)
    assert whole[0] == "[ADJ compute] " + RULING_MARK_V2 + headline(KWB_COMBAT)
    assert whole[1:3] == ["[ADJ compute] 1. NK 83 (1105, full) attacks US 27/25 with 3. [7.1]",
                          "[ADJ compute] 2. Rolled 2 on column 1:3: AD. [stand-in tables/crt.csv]"]
    assert not any("nk-83-mot" in line or "Stand-in" in line for line in lines + whole)
    assert stand_ins(KWB_COMBAT) == ["table crt (kwb/tables.toml:34)", "values for NK 83 (3-4-8 / 1-2-8)"]


def test_a_unit_left_at_the_step_it_stood_at_is_no_news():
    asked = {**KWB_COMBAT, "request": {"defenders": [{"unit": "us-27-25", "step": "depleted"}]},
             "outcome": {**KWB_COMBAT["outcome"], "defenders": [{"unit": "us-27-25", "step": "depleted"}]}}
    assert headline(asked).endswith("— NK 83 depleted")
    fresh = {**asked, "request": {"defenders": [{"unit": "us-27-25", "step": ""}]}}
    assert headline(fresh).endswith("— NK 83 depleted, US 27/25 depleted")


def test_the_headline_reads_the_same_from_a_live_answer_and_from_the_ledgers_sorted_keys():
    import json

    ledger_order = json.loads(json.dumps(KWB_COMBAT, sort_keys=True))
    assert chat_lines(ledger_order) == chat_lines(KWB_COMBAT)


def test_a_block_game_states_strength_changes_and_leaves_out_untouched_units():
    result = {"system": "holdfast", "check": "combat", "side": "communist",
              "outcome": {"attackers": [{"unit": "nkpa-1", "sp_before": 3, "sp": 3, "eliminated": False}],
                          "defender": {"unit": "un-2", "sp_before": 4, "sp": 2, "eliminated": False},
                          "attacker_rolls": [5, 6], "defender_rolls": [2], "hits_on_defender": 2, "hits_on_attackers": 0}}
    assert headline(result) == ("Combat for Communist: NKPA 1 attacks UN 2, rolled 5 6 against 2: hits on defender 2, "
                                "hits on attackers 0 — UN 2 to 2 SP")


def test_other_checks_lead_with_their_deciding_facts():
    weather = {"system": "holdfast", "check": "weather", "outcome": {"weather": "snow", "roll": 5, "month": "Dec"}}
    assert headline(weather) == "Weather: weather snow, roll 5"
    supply = {"system": "kwb", "check": "supply", "side": "un", "outcome": {"side": "un", "in_supply": 20, "out_of_supply": 1}}
    assert headline(supply) == "Supply for UN: in supply 20, out of supply 1"
    calculated = {"system": "kwb", "check": "supply", "outcome": {"side": "communist", "in_supply": 3, "out_of_supply": 0}}
    assert headline(calculated) == "Supply for Communist: in supply 3, out of supply 0"  # the side reported on


def test_a_supply_report_is_its_totals_and_the_units_out_of_supply_within_the_chat_panes_lines():
    units = [{"unit": f"us-{n}", "hex": f"{n:04d}", "in_supply": n >= 12} for n in range(40)]
    result = {"system": "probe", "check": "supply", "side": "un",
              "outcome": {"units": units, "in_supply": 28, "out_of_supply": 12}, "steps": [],
              "warnings": [], "dice_used": [], "game_id": "g1", "seq": 3, "hash": "ab" * 32}
    lines = chat_lines(result, verify_url="https://x.test/games/g1#record-3")
    assert len(lines) == SHORT_LINES and lines[0] == "[ADJ g1#3] RULING » Supply for UN: in supply 28, out of supply 12"
    assert lines[1:5] == [f"[ADJ g1#3] us-{n} ({n:04d}) out of supply" for n in range(4)]
    assert lines[5] == "[ADJ g1#3] and 8 more units out of supply"  # never a line per unit in supply
    assert lines[6].startswith("[ADJ g1#3] receipt: record 3 hash abab") and lines[7].startswith("[ADJ g1#3] verify: ")
    (entry,) = parse_transcript(lines)
    assert entry.version == 3 and entry.comparable() == comparable_lines(result)
    few = {**result, "outcome": {"units": units[10:], "in_supply": 28, "out_of_supply": 2}}
    assert chat_lines(few)[1:3] == ["[ADJ g1#3] us-10 (0010) out of supply", "[ADJ g1#3] us-11 (0011) out of supply"]
    assert len(chat_lines(few)) == 4


def test_notices_stay_in_the_lines_everyone_sees_and_the_units_make_room():
    result = {**KWB_COMBAT, "notices": [{"text": "US 27/25 was eliminated by record #3"},
                                        {"hidden": "x", "side": "un", "hex": "0518"}],
              "game_id": "g1", "seq": 4, "hash": "cd" * 32}
    lines = chat_lines(result, verify_url="https://x.test/games/g1#record-4")
    assert lines[1:3] == ["[ADJ g1#4] notice: US 27/25 was eliminated by record #3",  # a sealed one: whose and where
                          "[ADJ g1#4] notice: about a UN unit in 0518: sealed until the game closes (its owner reads it)"]
    assert lines[3] == "[ADJ g1#4] NK 83 depleted" and len(lines) <= SHORT_LINES


def test_long_lists_are_wrapped_in_the_whole_ruling_and_still_read_back_as_one_ruling():
    units = [{"unit": f"us-{n}", "hex": f"{n:04d}", "in_supply": True} for n in range(40)]
    result = {"system": "probe", "check": "supply", "outcome": {"units": units, "in_supply": 40}, "steps": [],
              "warnings": [], "dice_used": [], "game_id": "g1", "seq": 3, "hash": "ab" * 32}
    lines = chat_lines(result, version=2)
    assert all(len(line) <= len("[ADJ g1#3] ") + WRAP for line in lines)
    continued = [line for line in lines if line.startswith("[ADJ g1#3] … ")]
    assert len(continued) >= 5
    (entry,) = parse_transcript(lines)
    assert entry.version == 2 and entry.comparable() == comparable_lines(result, version=2)


def test_stand_in_labels_name_what_and_where():
    assert stand_in_label("Uses a stand-in (table aircraft, fireandice/tables.toml:117): the ratings") == \
        "table aircraft (fireandice/tables.toml:117)"
    assert stand_in_label("Stand-in used (holdfast/tables.toml:53): table weather: the die ranges") == \
        "table weather (holdfast/tables.toml:53)"
    assert stand_in_label("Stand-in Support Fire marker values (not printed: the rules are absent)") == \
        "Support Fire marker values (not printed: the rules are absent)"


@pytest.mark.slow
def test_logs_of_every_rendering_still_verify_and_their_alterations_are_found(client):
    """A log recorded with an older rendering is compared with that rendering (the log check reads
    each ruling's version), a new one with the new; an altered line of any of them is caught."""
    from adjudicator.logs.check import check_log
    from adjudicator.services import services

    game = new_game(client)
    headers = bearer(a_side(game))
    body = client.post(ROLL.format(game["game_id"]), json={"target": 4, "request_id": "r1"}, headers=headers).get_json()
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers).get_json()
    old = chat_lines(body, system_name="Korean War Battles", version=1)
    whole = chat_lines(body, system_name="Korean War Battles", version=2)
    new = chat_lines(body, system_name="Korean War Battles")
    assert [parse_transcript(lines)[0].version for lines in (old, whole, new)] == [1, 2, 3]
    roll = body["dice_used"][0]["value"]
    with client.application.app_context():
        keys = services().verification_keys()
        for lines in (old, whole, new):
            report = check_log(as_log(lines), None, ledger, keys)
            assert [r.status for r in report.rulings] == ["verified"] and report.ok
        altered_old = [line.replace("= hit: ", "= hit: no, ") for line in old]
        altered_die = [line.replace(f"d6 {roll}", f"d6 {roll % 6 + 1}") for line in new]
        altered_result = [line.replace(f"total {roll}", f"total {roll % 6 + 1}") for line in new]
        assert altered_die != new and altered_result != new
        for altered in (altered_old, altered_die, altered_result):
            (ruling,) = check_log(as_log(altered), None, ledger, keys).rulings
            assert ruling.status == "altered", altered
        (ruling,) = check_log(as_log(new[:1] + new[2:]), None, ledger, keys).rulings  # the dice left out
        assert ruling.status == "altered" and "the ledger says 'dice: probe die d6" in ruling.why


def as_log(lines: list[str]) -> SavedGame:
    """A log holding these chat lines (what the log check reads of it without the game's units)."""
    return SavedGame(other_commands=[f"CHAT{line}" for line in lines], is_log=True)


def test_a_check_answers_the_units_new_states_when_asked(client):
    from adjudicator.checks import get_check

    example = get_check("kwb", "combat").example  # an exchange: the doubled attacker is replaced
    body = client.post("/api/v1/systems/kwb/combat?transcript=1&changes=1", json=example).get_json()
    assert body["piece_changes"] == [  # the regiment drawn is part of the division's replacement
        {"kind": "replaced", "unit": "nk-6", "eliminated": True, "step": None, "sp": None, "applied_by": "communist",
         "dead_pile": "deadpile-communist", "replaced_by": "nk-reg-7",
         "replacements": [{"unit": "nk-reg-7", "step": "full", "sp": None, "shows": "full"}], "name": "NK 6",
         "actions": [{"does": "eliminate", "unit": "nk-6", "applied_by": "communist", "box": "deadpile-communist",
                      "box_name": "Communist deadpile", "command": "Eliminate", "name": "NK 6"},
                     {"does": "place", "unit": "nk-reg-7", "applied_by": "communist", "step": "full", "beside": "nk-6",
                      "name": "NK unnumbered infantry regiment", "beside_name": "NK 6"}]},
        {"kind": "step", "unit": "us-5-1m", "eliminated": False, "step": "depleted", "sp": None, "applied_by": "un",
         "shows": "depleted", "name": "US 5/1M",
         "actions": [{"does": "show_step", "unit": "us-5-1m", "applied_by": "un", "step": "depleted", "name": "US 5/1M"}]},
    ]  # a calculation asked by no side: each change is its unit's owner's to make; the actions say what each takes,
    # each unit named as its counter reads (the extension lists a unit with no piece on the board by it)
    asked = client.post("/api/v1/systems/kwb/combat?transcript=1&changes=1&side=communist", json=example).get_json()
    assert [c["applied_by"] for c in asked["piece_changes"]] == ["communist", "communist"]  # nothing is hidden here
    assert "piece_changes" not in client.post("/api/v1/systems/kwb/combat?transcript=1", json=example).get_json()


def test_a_part_of_a_broken_down_unit_is_named_by_its_counter_and_version_2_reads_as_it_did():
    """SPI breaks a division down into parts ("rok-d6/3-3"): the short ruling names the part by its
    counter ("3-3 of S 6"), never by the internal id; a version-2 log keeps its own words, so it
    still compares equal."""
    result = {"system": "spi", "check": "combat", "outcome": {"result": "A1", "eliminated": ["rok-d6/3-3"]},
              "steps": [{"text": "rok-d6 (10-3) broken down into 3 x 3-3", "rule": "Combat (J)"}], "dice_used": []}
    lines = chat_lines(result)
    assert lines[1] == "[ADJ compute] 3-3 of S 6 eliminated" and "rok-d6" not in "\n".join(lines)
    assert chat_lines(result, version=2)[:2] == ["[ADJ compute] RULING Combat: result A1 — rok-d6/3-3 eliminated",
                                                 "[ADJ compute] 1. S 6 (10-3) broken down into 3 x 3-3 [Combat (J)]"]


def test_identical_counters_are_named_as_they_read_and_logs_naming_them_by_id_still_verify(client):
    """Issue 44: KWB's four supply centres read "NK SC", SPI's Chinese regiments "Chinese regiment":
    a ruling names them so, never by an id no counter prints ("(nk-sc-1)"). A log written when
    rulings still named them with their ids verifies as it did; an altered line of it does not."""
    from adjudicator.logs.check import check_log
    from adjudicator.services import services
    from adjudicator.words.names import UnitNames

    names = UnitNames.of("kwb")
    assert names.name("nk-sc-1") == names.name("nk-sc-2") == "NK SC"
    assert UnitNames.of("spi").name("cpv-r-1") == "Chinese regiment"
    assert not [n for system in ("kwb", "holdfast", "spi", "fireandice")
                for unit, n in UnitNames.of(system).names.items() if f"({unit})" in n]
    assert names.with_ids_of_identical_counters().name("nk-sc-1") == "NK SC (nk-sc-1)"

    game = new_game(client, "kwb", "pusan")
    headers = bearer(game["tokens"]["communist"])
    body = client.post(f"/api/v1/games/{game['game_id']}/supply_center_move?transcript=1",
                       json={"supply_center": "nk-sc-1", "from_hex": "2501"}, headers=headers).get_json()
    whole = chat_lines(body, system_name="Korean War Battles", version=2)  # its steps name the centre
    assert "NK SC" in "\n".join(whole) and "nk-sc-1" not in "\n".join(whole)
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers).get_json()
    as_first_written = chat_lines(body, system_name="Korean War Battles", version=2,
                                  names=names.with_ids_of_identical_counters())
    assert "attempts to move NK SC (nk-sc-1) in 2501" in "\n".join(as_first_written)  # its first step, whatever the roll
    with client.application.app_context():
        keys = services().verification_keys()
        for lines in (whole, as_first_written):
            report = check_log(as_log(lines), None, ledger, keys)
            assert [r.status for r in report.rulings] == ["verified"], report.rulings
        altered = [line.replace("NK SC", "NK SC (nk-sc-2)") for line in whole]
        assert [r.status for r in check_log(as_log(altered), None, ledger, keys).rulings] == ["altered"]


def test_a_headlines_facts_name_units_as_counters_read_and_older_logs_still_verify(client):
    """Issue 51: "Rebuild: rebuilt nk-1" named the unit by an id no counter prints; it reads
    "rebuilt NK 1" now. A log written when the facts still named ids verifies as it did (both
    versions 2 and 3); an altered line of it does not."""
    from adjudicator.checks import get_check
    from adjudicator.examples import situation
    from adjudicator.logs.check import check_log
    from adjudicator.services import services
    from adjudicator.words.names import UnitNames

    game = new_game(client, "fireandice")
    headers = bearer(game["tokens"]["communist"])
    body = client.post(f"/api/v1/games/{game['game_id']}/rebuild?transcript=1",
                       json=situation(get_check("fireandice", "rebuild")), headers=headers).get_json()
    assert body["transcript"][0].endswith("RULING » Rebuild for Communist: rebuilt NK 1")
    ledger = client.get(f"/api/v1/games/{game['game_id']}/ledger", headers=headers).get_json()
    older = UnitNames.of("fireandice").as_written_before_players_words()
    with client.application.app_context():
        keys = services().verification_keys()
        for version in (2, 3):
            as_first_written = chat_lines(body, system_name="Korea: Fire and Ice", version=version, names=older)
            assert "rebuilt nk-1" in as_first_written[0]
            for lines in (chat_lines(body, system_name="Korea: Fire and Ice", version=version), as_first_written):
                report = check_log(as_log(lines), None, ledger, keys)
                assert [r.status for r in report.rulings] == ["verified"], (version, report.rulings)
            altered = [line.replace("rebuilt nk-1", "rebuilt nk-2") for line in as_first_written]
            assert [r.status for r in check_log(as_log(altered), None, ledger, keys).rulings] == ["altered"]


def test_a_saved_games_supply_reads_by_its_totals_and_older_logs_by_their_words():
    """Issue 51: a saved game's supply headline read "game turn 1, game turn from the module's turn
    tracker, scenario campaign", no result; it reads its totals now. A log written before still
    compares against the wording it was written in (`written_lines`)."""
    from adjudicator.logs.transcript import written_lines
    from adjudicator.words.names import UnitNames

    result = {"system": "holdfast", "check": "savedgame_supply", "side": "un", "game_id": "g", "seq": 3,
              "hash": "ab" * 32, "outcome": {
                  "game_turn": 1, "game_turn_from": "the module's turn tracker", "scenario": "campaign",
                  "sides": [{"side": "un", "in_supply": 41, "out_of_supply": 2, "units": [], "steps": []}]}}
    assert headline(result) == "Savedgame supply for UN: in supply 41, out of supply 2"
    both = {**result, "outcome": {**result["outcome"], "sides": result["outcome"]["sides"] + [
        {"side": "communist", "in_supply": 30, "out_of_supply": 0, "units": [], "steps": []}]}}
    assert headline(both).endswith(": UN: in supply 41, out of supply 2; Communist: in supply 30, out of supply 0")
    older = UnitNames.of("holdfast").as_written_before_players_words()
    assert headline(result, older) == ("Savedgame supply for UN: game turn 1, game turn from the module's turn "
                                       "tracker, scenario campaign")
    assert comparable_lines(result, names=older) in written_lines(result)
    assert comparable_lines(result) == written_lines(result)[0] != comparable_lines(result, names=older)


def test_a_sealed_unit_out_of_supply_reads_as_the_fog_allows_and_older_logs_as_they_were_written():
    """Issue 51: the opponent's chat named a sealed block "a hidden UN unit at 0520"; it reads as
    every other surface names it now, "a UN block in 0520". Older logs keep their words."""
    from adjudicator.logs.transcript import written_lines
    from adjudicator.words.names import UnitNames
    from adjudicator.words.transcript import affected_units

    result = {"system": "holdfast", "check": "supply", "side": "un", "game_id": "g", "seq": 2, "hash": "cd" * 32,
              "outcome": {"in_supply": 0, "out_of_supply": 1, "units": [
                  {"hidden": "ef" * 32, "side": "un", "hex": "0520", "in_supply": False}]}}
    names = UnitNames.of("holdfast")
    assert affected_units(result, names) == ["a UN block in 0520 out of supply"]
    older = names.as_written_before_players_words()
    assert affected_units(result, older) == ["a hidden UN unit at 0520 out of supply"]
    assert comparable_lines(result, names=older) in written_lines(result)
    # the whole ruling (the asker's ruling window; a version-2 log) words it so too, older logs as written
    assert any("a UN block in 0520" in line for line in detail_lines(result))
    whole_before = comparable_lines(result, version=2, names=older)
    assert any("a hidden UN unit at 0520" in line for line in whole_before)
    assert whole_before in written_lines(result, version=2)


def test_a_sealed_die_reads_hidden_and_older_logs_keep_its_commitment():
    """Issue 51: a die nobody may see yet (a secret draw) showed its 64-digit commitment in the chat;
    it reads "hidden". A log written before still compares against the commitment it shows."""
    from adjudicator.logs.transcript import written_lines
    from adjudicator.words.names import UnitNames

    commitment = "ab" * 32
    result = {"system": "fireandice", "check": "objective_draw", "side": "un", "game_id": "g", "seq": 5,
              "hash": "cd" * 32, "outcome": {"drawn": {"hidden": "ef" * 32}},
              "dice_used": [{"purpose": "Objective marker draw 1 (12 in the pool)", "sides": 12,
                             "value": f"hidden:{commitment}"}]}
    now = comparable_lines(result)
    assert "dice: Objective marker draw 1 (12 in the pool) d12 hidden" in now and commitment not in "\n".join(now)
    before = comparable_lines(result, names=UnitNames.of("fireandice").as_written_before_players_words())
    assert commitment in "\n".join(before) and before in written_lines(result)
