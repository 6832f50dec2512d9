"""The chances before the roll (adjudicator.odds): exact distributions of every check with dice.

- for every check with dice (its example and the books' worked examples) the probabilities sum to
  exactly 1, as fractions, and the book's own roll gives an outcome the odds list;
- every declaration's shortcut (faces grouped by what they do, pools counted not ordered, draws
  kept as sets) gives exactly the distribution that trying every face gives;
- a property test draws dice, runs the check and finds its outcome among the odds;
- a CRT column (or the game's own table) counted by hand, per game, equals the odds.
"""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.canonical import canonical_bytes
from adjudicator.checks import DieUsed, all_checks, get_check_by_key, run_check
from adjudicator.odds import faces, odds
from adjudicator.odds.answer import estimate
from adjudicator.odds.book import book_examples
from adjudicator.odds.declare import chances_of, declared, without_dice_echo
from adjudicator.odds.explore import Explorer
from adjudicator.ledger.dice import SuppliedDice
from adjudicator.rulings import validate

EXAMPLES = book_examples()
DATA = Path(__file__).resolve().parents[1] / "scenarios" / "data"


def request_of(key: str, body: dict):
    spec = get_check_by_key(key)
    return spec, validate(spec.request, body)


def tally_of(key: str, body: dict, **how):
    spec, req = request_of(key, body)
    chances = replace(chances_of(spec), **how)
    return Explorer(spec, req, chances, b"test").explore(), chances


def distribution(key: str, body: dict, **how) -> dict[bytes, Fraction]:
    tally, _ = tally_of(key, body, **how)
    assert tally.exact, f"{key}: not enumerated exactly"
    return {k: seen.exact for k, seen in tally.outcomes.items()}


def every_face(key: str, body: dict) -> dict[bytes, Fraction]:
    """The distribution with no shortcut: every face of every die tried."""
    return distribution(key, body, options=None, exact_runs=10 ** 6)


# -- every check with dice ---------------------------------------------------------------------------


def test_every_check_with_dice_has_an_example_here():
    random_checks = {spec.key for spec in all_checks() if spec.random and not spec.key.endswith("probe_roll")}
    assert {e.check for e in EXAMPLES} == random_checks


def test_every_declaration_names_a_check_with_dice():
    for key in declared():
        spec = get_check_by_key(key)
        assert spec is not None and spec.random, key


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.check}: {e.name[:40]}")
def test_probabilities_sum_to_exactly_one(example):
    tally, _ = tally_of(example.check, example.request)
    total = sum((estimate(seen, tally) for seen in tally.outcomes.values()), start=Fraction(0))
    assert total == 1
    answer = odds(*request_of(example.check, example.request))
    if answer["exact"]:
        assert sum(Fraction(o["fraction"]) for o in answer["outcomes"]) == 1
        assert all(o["probability"] > 0 for o in answer["outcomes"])
    else:  # said so, with its sample and intervals
        assert answer["sampling"]["samples"] > 0 and "sampled" in answer["method"].lower()
        assert all(o["fraction"] is None and o["interval"][0] <= o["probability"] <= o["interval"][1]
                   for o in answer["outcomes"])
    labels = [o["label"] for o in answer["outcomes"]]
    assert len(labels) == len(set(labels)), f"two outcomes read the same: {labels}"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.book_dice], ids=lambda e: f"{e.check}: {e.name[:40]}")
def test_the_books_roll_is_among_the_odds(example):
    spec, req = request_of(example.check, example.request)
    dice = SuppliedDice(list(example.book_dice))
    result = run_check(spec, req, dice)
    dice.finish()
    answer = odds(spec, req)
    wanted = chances_of(spec).distinct(result.outcome)
    found = [o for o in answer["outcomes"] if {k: o[k] for k in wanted} == wanted]
    assert len(found) == 1 and found[0]["probability"] > 0, (example.name, wanted)


# -- the shortcuts give what every face gives ------------------------------------------------------


SHORTCUTS = [
    ("kwb.bombardment", {"scenario": "pusan", "side": "un", "markers": ["sf-un-3"],
                         "targets": [{"unit": "nk-6", "hex": "0201", "step": "depleted"}]}),
    ("kwb.division_breakdown", {"division": "prc-58",
                                "generic_pool": ["prc-reg-1", "prc-reg-2", "prc-reg-3", "prc-reg-4", "prc-reg-5"]}),
    ("holdfast.combat", {"turn": 14, "weather": "clear",
                         "attackers": [{"unit": "rok-1", "sp": 3, "across_river": True}],
                         "defender": {"unit": "nkpa-1", "sp": 3}, "defender_terrain": "clear"}),
    ("fireandice.air_combat", {"box": "mig_alley", "aircraft": [{"unit": "un-air-4fi"}, {"unit": "com-air-3ad"}]}),
    ("fireandice.strategic_strike", {"kind": "infrastructure", "enemy_infrastructure": 12,
                                     "aircraft": [{"unit": "un-air-19bomb"}, {"unit": "un-air-3bomb"}]}),
    ("fireandice.aircraft_repair", {"aircraft": ["com-air-3ad", "com-air-5ad"]}),
    ("fireandice.amphibious_invasion", {"box": "invasion-inchon", "fleet_station": "Yellow Sea",
                                        "units": ["us-1mar-1", "un-hq-x"], "amphibious_points": 8,
                                        "bombardment_level": 4, "enemy_units": ["nk-18"]}),
    ("fireandice.random_event", {"table": "B", "attacker": "communist"}),
    ("fireandice.snafu_draw", {"placer": "un", "count": 2}),
    ("fireandice.objective_draw", {"side": "communist", "count": 3, "out_of_pool": {"1": 4, "3": 2}}),
]


@pytest.mark.slow
@pytest.mark.parametrize("key, body", SHORTCUTS, ids=[k for k, _ in SHORTCUTS])
def test_a_declarations_shortcut_gives_what_every_face_gives(key, body):
    shortcut, tally_runs = distribution(key, body), tally_of(key, body)[0].runs
    assert shortcut == every_face(key, body)
    assert sum(shortcut.values()) == 1
    assert tally_runs < tally_of(key, body, options=None, exact_runs=10 ** 6)[0].runs  # it does save runs


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(attackers=st.lists(st.sampled_from([("usmc-1", 6), ("un-2", 4), ("rok-1", 3)]), min_size=1, max_size=3,
                          unique=True),
       rolls=st.lists(st.integers(1, 6), min_size=1, max_size=8), order=st.lists(st.sampled_from(
           ["usmc-1", "un-2", "rok-1"]), max_size=4))
def test_a_pools_dice_do_only_what_their_kind_says(attackers, rolls, order):
    """The claim behind the HoldFast pools: replacing each die by the lowest face of its kind changes no
    block's hits (mixed stacks read in order, a single hit number in any order)."""
    from adjudicator.odds.holdfast import die_kinds
    from adjudicator.rules.holdfast import combat, data
    from adjudicator.rules.holdfast.schemas import Block
    g = data.game()
    targets = [combat.fighter(g, Block(unit=u, sp=sp)) for u, sp in attackers]
    order = [u for u in order if u in {t.unit for t in targets}]
    kind = die_kinds({t.target for t in targets}, any(t.marines for t in targets))
    lowest = {kind(f): f for f in range(6, 0, -1)}
    same_kinds = [lowest[kind(r)] for r in rolls]
    if len({t.target for t in targets}) == 1:
        same_kinds = sorted(same_kinds)  # one hit number: the order does not matter either
    before = combat.allocate_hits(rolls, targets, "communist", order)
    after = combat.allocate_hits(same_kinds, targets, "communist", order)
    assert (before.hits, before.marine_sixes, before.lost_hits) == (after.hits, after.marine_sixes, after.lost_hits)


# -- a property: any roll's outcome is among the odds ---------------------------------------------


class DrawnDice:
    """Dice hypothesis draws one at a time, as the check asks for them."""

    def __init__(self, data):
        self.data = data
        self.used: list[DieUsed] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "") -> list[int]:
        values = [self.data.draw(st.integers(1, sides), label=purpose) for _ in range(count)]
        self.used += [DieUsed(sides, purpose, v) for v in values]
        return values


ANSWERS: dict[int, dict] = {}


def answer_of(index: int) -> dict:
    if index not in ANSWERS:
        ANSWERS[index] = odds(*request_of(EXAMPLES[index].check, EXAMPLES[index].request))
    return ANSWERS[index]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(index=st.integers(0, len(EXAMPLES) - 1), data=st.data())
def test_any_roll_gives_an_outcome_the_odds_list(index, data):
    example = EXAMPLES[index]
    spec, req = request_of(example.check, example.request)
    result = run_check(spec, req, DrawnDice(data))
    wanted = canonical_bytes(chances_of(spec).distinct(result.outcome))
    answer = answer_of(index)
    listed = {canonical_bytes({k: o[k] for k in chances_of(spec).distinct(result.outcome)}): o
              for o in answer["outcomes"]}
    if answer["exact"]:
        assert wanted in listed and listed[wanted]["probability"] > 0, example.name
    else:  # a sampled part may miss a rare outcome: its total chance is stated
        assert wanted in listed or answer["sampling"]["unseen_at_most"] > 0


# -- tables counted by hand ------------------------------------------------------------------------


def by(answer: dict, field: str) -> dict:
    """The odds summed by one outcome field (e.g. the CRT result)."""
    found: dict = {}
    for o in answer["outcomes"]:
        found[o[field]] = found.get(o[field], Fraction(0)) + Fraction(o["fraction"])
    return found


def table_column(path: Path, column: str) -> list[str]:
    text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#"))
    return [row[column] for row in csv.DictReader(io.StringIO(text))]


@pytest.mark.parametrize("check,given,value,table,by_hand", [
    # tables/crt.csv column 3:1, die 1-6: NE, EX, DR, DD, DD, DDR - two DD, one of each of the others.
    ("kwb.combat", "column", "3:1", "kwb/tables/crt.csv",
     {"NE": Fraction(1, 6), "EX": Fraction(1, 6), "DR": Fraction(1, 6), "DD": Fraction(2, 6), "DDR": Fraction(1, 6)}),
    # tables/crt_meeting.csv column 1-1, die 1-6: E2, E1, E1, A1, A2, A3.
    ("spi.combat", "odds", "1-1", "spi/tables/crt_meeting.csv",
     {"E2": Fraction(1, 6), "E1": Fraction(2, 6), "A1": Fraction(1, 6), "A2": Fraction(1, 6), "A3": Fraction(1, 6)}),
])
def test_a_crt_column_counted_by_hand(check, given, value, table, by_hand):
    """The chances of a combat's results are its CRT column's codes counted, one die face each."""
    example = next(e for e in EXAMPLES if e.check == check)
    answer = odds(*request_of(check, example.request))
    assert answer["given"][given] == value
    assert by(answer, "result") == by_hand
    column = table_column(DATA / table, value)
    assert {code: Fraction(column.count(code), 6) for code in column} == by_hand


def test_holdfast_combat_chart_by_hand_three_cpa_dice_against_the_marines():
    """4 Combat Chart: the Marines' Target Hit # is 6. Three CPA dice: k hits with C(3,k) (1/6)^k (5/6)^(3-k):
    125, 75, 15 and 1 in 216 - whatever the Marines roll back."""
    example = next(e for e in EXAMPLES if e.check == "holdfast.combat" and "CPA" in e.name)
    answer = odds(*request_of("holdfast.combat", example.request))
    hits: dict[int, Fraction] = {}
    for o in answer["outcomes"]:
        hits[o["defender"]["hits"]] = hits.get(o["defender"]["hits"], Fraction(0)) + Fraction(o["fraction"])
    assert hits == {0: Fraction(125, 216), 1: Fraction(75, 216), 2: Fraction(15, 216), 3: Fraction(1, 216)}


def test_fireandice_random_event_table_b_counted_by_hand():
    """tables/random_events.csv column B: each event's rows out of 10 (SNAFU rows split by the marker drawn)."""
    answer = odds(*request_of("fireandice.random_event", {"table": "B", "attacker": "communist"}))
    column = table_column(DATA / "fireandice" / "tables" / "random_events.csv", "B")
    assert len(column) == 10
    by_hand = {text: Fraction(column.count(text), 10) for text in column}
    assert by(answer, "event") == by_hand


# -- how the answer reads --------------------------------------------------------------------------


def test_single_die_outcomes_name_their_faces_and_the_steps_shared_once():
    answer = odds(*request_of("kwb.un_supply_shortage_end", {"game_turn": 3}))
    assert [(o["label"], o["faces"], o["fraction"]) for o in answer["outcomes"]] == [
        ("the shortage continues", [3, 4, 5, 6], "2/3"), ("the shortage ends", [1, 2], "1/3")]
    assert [s["text"] for s in answer["steps"]] == [
        "End of game-turn 3: the UN player, still under supply shortage, rolls one die to end it."]
    assert answer["summary"] == "the shortage continues 67 %, the shortage ends 33 %"


def test_expected_losses_per_side_are_exact():
    example = next(e for e in EXAMPLES if e.check == "kwb.combat")
    answer = odds(*request_of("kwb.combat", example.request))
    # the doubled attacker always loses its step (7.1); NE, DR: no more; EX: one more - 7/6 steps
    assert {(x["side"], x["fraction"], x["unit"]) for x in answer["expected_losses"]} == {
        ("communist", "7/6", "steps"), ("un", "2/3", "steps")}
    assert answer["headline"] == "3:1 odds, column 3:1"


def test_a_situation_without_dice_has_one_certain_outcome():
    answer = odds(*request_of("holdfast.naval_assault", next(e for e in EXAMPLES
                                                              if e.check == "holdfast.naval_assault").request))
    assert answer["exact"] and [o["fraction"] for o in answer["outcomes"]] == ["1/1"]


@pytest.mark.slow
def test_too_many_combinations_are_sampled_and_said_so():
    """A Fire and Ice combat whose chit is still to be drawn: 16 chits, each a combat of its own."""
    example = next(e for e in EXAMPLES if e.check == "fireandice.combat")
    body = {k: v for k, v in example.request.items() if k != "chit"}
    answer = odds(*request_of("fireandice.combat", body))
    assert not answer["exact"] and answer["sampling"]["samples"] >= 100
    assert answer["space"]["first_roll"]["options"] == 16 and "combat chit" in answer["space"]["first_roll"]["purpose"]
    assert answer["method"].startswith("Partly sampled") or answer["method"].startswith("Sampled")
    assert answer["summary"].startswith("≈ ") and answer["summary"].endswith("(sampled)")
    assert abs(sum(o["probability"] for o in answer["outcomes"]) - 1) < 1e-9
    assert all(o["fraction"] is None and len(o["interval"]) == 2 for o in answer["outcomes"])
    again = odds(*request_of("fireandice.combat", body))
    assert again == answer  # seeded by the request: the same question, the same answer


def test_the_dice_echo_is_not_an_outcome():
    assert without_dice_echo({"roll": 3, "rolls": [1, 2], "attacker_roll": 5, "roll_allowed": True,
                              "intervention_rolls": [{"roll": 2, "success": True}]}) == {
        "roll_allowed": True, "intervention_rolls": [{"success": True}]}


def test_unordered_draws_weigh_each_set_by_its_orders():
    # two draws from [a, a, b]: {a, a} 1/3, {a, b} 2/3 - the canonical order, weighted j/t at each draw
    first = faces.draw(["a", "a", "b"], [], unordered=True, still_to_draw=1)
    assert first == [((1,), Fraction(2, 3))]  # b cannot come first: nothing sorts after it for the second draw
    after_a = faces.draw(["a", "b"], ["a"], unordered=True, still_to_draw=0)
    assert after_a == [((1,), Fraction(1, 2) * Fraction(2, 2)), ((2,), Fraction(1, 2) * Fraction(2, 1))]


@pytest.mark.slow
def test_docs_odds_shows_every_example_with_its_chances():
    from adjudicator.odds.book import book_table
    text = (Path(__file__).resolve().parents[1] / "docs" / "odds.md").read_text(encoding="utf-8")
    block = text.split("<!-- odds-table: generated by `adjudicator odds-table` -->\n", 1)[1].split("<!-- /odds-table -->")[0]
    assert block == book_table(), "docs/odds.md is out of date: paste `adjudicator odds-table` between the markers"


def test_a_first_roll_of_many_deep_options_is_sampled_as_one_group():
    """More sampled options than the sample could share: drawn by their probability, one group."""
    example = next(e for e in EXAMPLES if e.check == "fireandice.combat")
    body = {k: v for k, v in example.request.items() if k != "chit"}
    tally, chances = tally_of("fireandice.combat", body, exact_runs=40, samples=60)
    groups = [s for s in tally.strata if s.group]
    assert len(groups) == 1 and len(groups[0].group) * 8 > 60 and groups[0].samples >= 60
    assert sum((estimate(seen, tally) for seen in tally.outcomes.values()), start=Fraction(0)) == 1
    assert tally.runs <= 40 + 16 * 4 + 60  # the budget, the least per option, the sample
