"""The dice record of a game: every server roll, and whether each die type's faces look fair.

Players who lose three combats in a row ask whether the server's dice are loaded. The ledger
answers: every recorded ruling lists the dice it used (`result.dice_used`: sides, purpose, value),
and anyone can recompute them from the seed once the game is closed (`adjudicator.ledger.verify`). This
module counts them — by check and side, and per die type the count of each face — and runs
Pearson's chi-square test of those counts against a fair die (every face 1/sides): the statistic
X² = Σ (observed − expected)² / expected, with sides − 1 degrees of freedom, and its p-value, the
chance that a fair die gives faces at least this uneven. The p-value is said in plain words: above
`ALPHA`, "nothing unusual"; below, "unlikely by chance". With fewer than `MIN_EXPECTED` rolls per
face expected the test says too little, and the record says so instead of a verdict.

A die whose value the fog of war seals (a face-down draw, `adjudicator.fog`) counts once the
viewer may see its value (its owner at once where the rules allow, everyone after the close);
until then it is counted as sealed, not rolled. Used by the game's dice page and API, the replay,
and offline by ``adjudicator verify --dice-stats LEDGER.json``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from adjudicator.fog import HIDDEN

#: Below this p-value the faces are called "unlikely by chance". Several die types are tested at
#: once (a d6 and a d10 ...), so the threshold is stricter than the usual 0.05.
ALPHA = 0.01
#: The chi-square approximation needs this many rolls expected per face (the usual rule of thumb).
MIN_EXPECTED = 5


@dataclass(frozen=True)
class Roll:
    seq: int
    check: str
    side: str
    time: str
    purpose: str
    sides: int
    value: int | None  # None: sealed (fog of war), not yet seen by this viewer

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "check": self.check, "side": self.side, "time": self.time, "purpose": self.purpose,
                "sides": self.sides, "value": self.value}


@dataclass
class DieStats:
    """One die type: how often each face came up, against a fair die."""

    sides: int
    counts: list[int]  # counts[face - 1]
    chi_square: float = 0.0
    p_value: float | None = None  # None: too few rolls to test

    @property
    def rolls(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> float:
        return self.rolls / self.sides

    @property
    def degrees_of_freedom(self) -> int:
        return self.sides - 1

    @property
    def unusual(self) -> bool:
        return self.p_value is not None and self.p_value < ALPHA

    @property
    def verdict(self) -> str:
        """The test's answer in plain words."""
        if self.p_value is None:
            need = MIN_EXPECTED * self.sides
            return (f"too few rolls to judge: {self.rolls} d{self.sides} roll{'s' if self.rolls != 1 else ''}, "
                    f"at least {need} needed ({MIN_EXPECTED} per face)")
        chance = _chance_words(self.p_value)
        if self.unusual:
            return (f"unlikely by chance: p = {format_p(self.p_value)} — a fair d{self.sides} comes up this unevenly "
                    f"{chance}")
        return f"nothing unusual: p = {format_p(self.p_value)} — a fair d{self.sides} comes up this unevenly {chance}"

    def to_json(self) -> dict[str, Any]:
        return {"sides": self.sides, "rolls": self.rolls, "counts": {str(face): n for face, n in
                                                                      enumerate(self.counts, start=1)},
                "expected_per_face": self.expected, "chi_square": self.chi_square,
                "degrees_of_freedom": self.degrees_of_freedom, "p_value": self.p_value, "unusual": self.unusual,
                "verdict": self.verdict}


@dataclass
class CheckTally:
    check: str
    side: str
    rulings: int = 0
    dice: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"check": self.check, "side": self.side, "rulings": self.rulings, "dice": self.dice}


@dataclass
class DiceRecord:
    rolls: list[Roll] = field(default_factory=list)
    by_check: list[CheckTally] = field(default_factory=list)
    dice: list[DieStats] = field(default_factory=list)

    @property
    def sealed(self) -> int:
        return sum(1 for r in self.rolls if r.value is None)

    @property
    def unusual(self) -> list[DieStats]:
        return [d for d in self.dice if d.unusual]

    @property
    def summary(self) -> str:
        seen = len(self.rolls) - self.sealed
        if not seen:
            return "No server roll yet."
        tested = [d for d in self.dice if d.p_value is not None]
        if self.unusual:
            kinds = ", ".join(f"d{d.sides}" for d in self.unusual)
            return f"{seen} dice rolled by the server: the {kinds} faces are unlikely by chance (see below)."
        if not tested:
            return f"{seen} dice rolled by the server: too few yet to judge whether any die type is fair."
        return f"{seen} dice rolled by the server: nothing unusual in any die type tested."

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary, "rolls": [r.to_json() for r in self.rolls], "sealed": self.sealed,
                "by_check": [t.to_json() for t in self.by_check], "dice": [d.to_json() for d in self.dice],
                "alpha": ALPHA, "test": "Pearson's chi-square against a fair die (every face 1/sides)"}


def dice_record(records: list[dict[str, Any]], seen: dict[str, Any] | None = None) -> DiceRecord:
    """The dice record of a ledger's `records` (`ledger_document`'s); `seen` maps the commitments
    of sealed values the viewer may see to their values."""
    seen = seen or {}
    result = DiceRecord()
    tallies: dict[tuple[str, str], CheckTally] = {}
    for record in records:
        body = record.get("body") if isinstance(record.get("body"), dict) else {}
        check = str(body.get("check", ""))
        if check.startswith("game.") or not isinstance(body.get("result"), dict):
            continue
        dice = body["result"].get("dice_used")
        if not isinstance(dice, list):
            continue
        side = str(body.get("side") or "")
        tally = tallies.setdefault((check, side), CheckTally(check, side))
        tally.rulings += 1
        for die in dice:
            if not isinstance(die, dict) or not isinstance(die.get("sides"), int):
                continue
            tally.dice += 1
            result.rolls.append(Roll(record.get("seq", -1), check, side, str(body.get("time", "")),
                                     str(die.get("purpose", "")), die["sides"], _value(die.get("value"), seen)))
    result.by_check = sorted(tallies.values(), key=lambda t: (t.check, t.side))
    faces: dict[int, Counter] = {}
    for roll in result.rolls:
        if roll.value is not None and 1 <= roll.value <= roll.sides:
            faces.setdefault(roll.sides, Counter())[roll.value] += 1
    result.dice = [die_stats(sides, [faces[sides][face] for face in range(1, sides + 1)]) for sides in sorted(faces)]
    return result


def _value(value: Any, seen: dict[str, Any]) -> int | None:
    if isinstance(value, str) and value.startswith(f"{HIDDEN}:"):
        value = seen.get(value[len(HIDDEN) + 1:])
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def die_stats(sides: int, counts: list[int]) -> DieStats:
    """The chi-square test of one die type's face counts against a fair die."""
    stats = DieStats(sides, list(counts))
    expected = stats.expected
    if expected <= 0:
        return stats
    stats.chi_square = sum((n - expected) ** 2 / expected for n in counts)
    if expected >= MIN_EXPECTED and sides >= 2:
        stats.p_value = chi_square_p(stats.chi_square, sides - 1)
    return stats


def chi_square_p(statistic: float, degrees_of_freedom: int) -> float:
    """P(X² ≥ statistic) for a chi-square variable: the regularised upper incomplete gamma
    Q(k/2, x/2), by its series below a + 1 and its continued fraction above (Numerical Recipes
    6.2; both converge to double precision within a few hundred terms for the dice here)."""
    if statistic <= 0:
        return 1.0
    a, x = degrees_of_freedom / 2.0, statistic / 2.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return min(1.0, _upper_fraction(a, x))


def _lower_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    n = a
    for _ in range(1000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def format_p(p: float) -> str:
    if p >= 0.001:
        return f"{p:.3f}".rstrip("0").rstrip(".") if p < 1 else "1"
    return f"{p:.1e}"


def _chance_words(p: float) -> str:
    if p >= 0.5:
        return "more often than not"
    if p >= 0.01:
        return f"about {round(p * 100)}% of the time"
    if p < 1e-6:
        return "practically never (less than once in a million sets of this many rolls)"
    return f"about once in {_round_number(1 / p)} sets of this many rolls"


def _round_number(n: float) -> str:
    if n < 1000:
        return f"{round(n):,}"
    digits = 10 ** (len(str(int(n))) - 2)
    return f"{round(n / digits) * digits:,}"


def report_lines(record: DiceRecord) -> list[str]:
    """The dice record in words: what `adjudicator verify --dice-stats` prints."""
    lines = [record.summary]
    if record.sealed:
        lines.append(f"{record.sealed} sealed dice (face-down draws) are not counted until their values are revealed.")
    lines.append("")
    lines.append("Rolls by check and side:")
    for tally in record.by_check:
        lines.append(f"  {tally.check:<36} {tally.side or '-':<12} {tally.rulings:>5} rulings {tally.dice:>6} dice")
    for die in record.dice:
        lines.append("")
        lines.append(f"d{die.sides}: {die.rolls} rolls, {die.expected:.2f} expected per face")
        for face, count in enumerate(die.counts, start=1):
            lines.append(f"  {face:>3}: {count:>6}  {'#' * round(40 * count / max(max(die.counts), 1))}")
        lines.append(f"  chi-square {die.chi_square:.2f} with {die.degrees_of_freedom} degrees of freedom")
        lines.append(f"  {die.verdict}")
    return lines
