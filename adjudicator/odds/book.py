"""The situations whose odds are measured and shown: every check's own example and the rulebooks'
worked examples that roll dice.

`make bench` times the odds of each (bench/odds.py); the tests check that the book's own roll gives
an outcome the odds list with a positive probability; docs/odds.md shows their odds (a test keeps
it equal to `adjudicator odds-examples`). A worked example is the book's situation put on the
game's real map and data; where a rules test needs a small test map instead, the situation here is
the same fight on the real map (the hex or port the book names).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.checks import CheckSpec, all_checks


@dataclass(frozen=True)
class BookExample:
    """A check's situation (its own request, no dice) and the dice the book rolls, if it rolls."""

    check: str  # "holdfast.combat"
    name: str
    request: dict
    book_dice: tuple[int, ...] | None = None


WORKED: tuple[BookExample, ...] = (
    BookExample(
        "holdfast.combat", "9.2 example: CPA 8 SP attacks the Marines (6 SP) in clear terrain, 3 dice against 5",
        {"turn": 14, "weather": "clear", "attackers": [{"unit": "cpa-50", "sp": 8, "across_river": False}],
         "defender": {"unit": "usmc-1", "sp": 6}, "defender_terrain": "clear"},
        (6, 5, 5, 5, 6, 1, 2, 3)),
    BookExample(
        "holdfast.combat", "4 example: Communist armor against a UN unit with air and naval support",
        {"turn": 6, "weather": "clear", "attackers": [{"unit": "nkpa-2", "sp": 3, "across_river": False}],
         "defender": {"unit": "un-24", "sp": 4}, "defender_terrain": "clear", "coastal": True,
         "attacker_support": ["armor"], "defender_support": ["air", "naval"]},
        (1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1, 1, 1)),
    BookExample(
        "holdfast.naval_assault", "Amphibious Assault example: the Marines with air, armor and naval support "
        "against the NKPA 2-SP unit in Inch'on, 11 dice against 4",
        {"turn": 6, "weather": "clear", "attacker": {"unit": "usmc-1", "sp": 6}, "from_port": "fec",
         "target_port": "1021", "defender": {"unit": "nkpa-1", "sp": 2},
         "attacker_support": ["air", "armor", "naval"], "communist_controlled_ports": ["1021"]},
        (5, 4, 4, 4, 3, 3, 2, 1, 1, 1, 1, 6, 6, 5, 1, 5, 4, 4, 4, 3, 3, 2, 1, 1, 1, 1, 5, 4, 3, 1)),
    BookExample(
        "fireandice.air_combat", "10.3.1 example: MiG Alley, 324 IAD, F-86, MiG-15, F-84 and MiG-9",
        {"box": "mig_alley", "aircraft": [
            {"unit": "com-air-324iad", "targets": ["un-air-4fi"]},
            {"unit": "un-air-4fi", "targets": ["com-air-324iad"]},
            {"unit": "com-air-3ad", "targets": ["un-air-27fe"]},
            {"unit": "un-air-27fe", "targets": ["com-air-5ad"]},
            {"unit": "com-air-5ad", "targets": ["un-air-4fi"]}]},
        (8, 4, 2, 7)),
    BookExample(
        "fireandice.strategic_strike", "10.3 example: a B-29 and a B-26 strike the Communist Infrastructure (12)",
        {"kind": "infrastructure", "aircraft": [{"unit": "un-air-19bomb"}, {"unit": "un-air-3bomb"}],
         "enemy_infrastructure": 12},
        (1, 6)),
    BookExample(
        "fireandice.strategic_strike", "7.0 example: two B-29s strike the Communist Infrastructure (12)",
        {"kind": "infrastructure", "aircraft": [{"unit": "un-air-19bomb"}, {"unit": "un-air-92bomb"}],
         "enemy_infrastructure": 12},
        (1, 1)),
    BookExample(
        "fireandice.air_attack", "10.4.1 example, later: the MiG-15 from China at long range hits the F-51",
        {"kind": "top_cover_vs_mission", "attacker": {"unit": "com-air-4ad", "long_range": True},
         "target": {"unit": "un-air-18fb"}},
        (2, 6)),
)


def form_example(spec: CheckSpec) -> BookExample:
    """A check's registered example (the one its form starts from), with its dice as the roll."""
    example = dict(spec.example or {})
    dice = example.pop("dice", None)
    return BookExample(spec.key, "the check's example (its form starts from it)", example,
                       tuple(dice) if dice is not None else None)


def book_examples() -> list[BookExample]:
    """Every random check's own example, then the worked examples, in the registry's order."""
    random_checks = [spec for spec in all_checks() if spec.random and spec.example is not None]
    found = []
    for spec in random_checks:
        found.append(form_example(spec))
        found += [w for w in WORKED if w.check == spec.key]
    return found


def book_table() -> str:
    """docs/odds.md's table of every example with its chances (a test keeps the document equal to it)."""
    from adjudicator.checks import get_check_by_key
    from adjudicator.odds import odds
    from adjudicator.rulings import validate

    lines = ["| check | situation | chances | how |", "|---|---|---|---|"]
    for example in book_examples():
        spec = get_check_by_key(example.check)
        answer = odds(spec, validate(spec.request, example.request))
        n = answer["space"]["combinations"]
        how = (f"exact, {n} combination{'s' if n != 1 else ''}" if answer["exact"] else
               f"{answer['sampling']['strata'] - answer['sampling']['strata_sampled']} of "
               f"{answer['sampling']['strata']} first-roll options exact, {answer['sampling']['samples']} samples")
        lines.append(f"| `{example.check}` | {example.name} | {answer['summary'].replace('|', '/')} | {how} |")
    return "\n".join(lines) + "\n"
