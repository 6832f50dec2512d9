"""Every combination of dice a check can roll: the check is run once per combination.

A check is a pure function of its request and its dice, and every die comes from
`dice.roll(sides, count, purpose)`. So the odds run the check with dice that answer a given
prefix of roll calls and then, at the first call past the prefix, take the call's first option
and note the others (`BranchDice`). Each noted option, with the values before it, is a prefix
still to run: depth first, that visits every combination once, and a combination's probability is
the product of its options' probabilities (exact fractions). A check that rolls in stages (a
combat die, then a regiment drawn only on some results) is enumerated stage by stage: each stage
is asked for only where the rules ask for it.

The first roll call's options are the first stage, its strata. Each stratum gets a share of
`exact_runs` (by its probability; what a cheap stratum leaves over goes to the later ones). A
stratum enumerated within its share is exact. A stratum that needs more, or whose options cannot
be listed at all (a pool of 13 dice, face by face), is sampled instead: `samples` runs with real
random dice, shared among the sampled strata by probability, from a generator seeded by the
request, so the same request always gets the same answer. When the first stage itself cannot be
listed, or its options are not a partition of the dice (an unordered draw), the strata cannot be
told apart: the check is then enumerated whole within `exact_runs`, or sampled whole.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from math import prod
from typing import Any, Callable

from adjudicator.canonical import canonical_bytes
from adjudicator.checks import CheckResult, CheckSpec, DieUsed, run_check
from adjudicator.ledger.dice import check_roll_call
from adjudicator.odds.declare import Chances
from adjudicator.odds.faces import Option, RollCall, every_face

#: The fewest runs a stratum gets for its enumeration, and for its sample.
MIN_STRATUM_RUNS = 4
MIN_STRATUM_SAMPLES = 8


class TooManyOptions(Exception):
    """A roll call whose options cannot be listed (see `faces.MAX_OPTIONS`)."""

    def __init__(self, call: RollCall):
        super().__init__(f"{call.count} d{call.sides}, {call.purpose}" if call.count > 1 else
                         f"a d{call.sides}, {call.purpose}")
        self.call = call
        self.branches: list[tuple[int, list[Option]]] = []  # the options noted before it


class BranchDice:
    """Dice that answer a prefix of roll calls, then the first option of each later call (noting
    the others in `branches`), or, given `rng`, real random dice."""

    def __init__(self, prefix: tuple[Option, ...], options: Callable[[RollCall], list[Option] | None],
                 rng: random.Random | None = None):
        self.prefix = prefix
        self.options = options
        self.rng = rng
        self.calls: list[Option] = []
        self.branches: list[tuple[int, list[Option]]] = []
        self.used: list[DieUsed] = []

    def roll(self, sides: int, count: int = 1, purpose: str = "") -> list[int]:
        check_roll_call(sides, count)
        index = len(self.calls)
        if index < len(self.prefix):
            chosen = self.prefix[index]
        elif self.rng is not None:
            chosen = (tuple(self.rng.randint(1, sides) for _ in range(count)), Fraction(1, sides ** count))
        else:
            options = self.options(RollCall(sides, count, purpose, tuple(values for values, _ in self.calls)))
            if options is None:
                raise TooManyOptions(RollCall(sides, count, purpose))
            if not options:
                raise RuntimeError(f"the odds have no option for the roll {purpose!r}")
            chosen = options[0]
            self.branches.append((index, options))
        values = chosen[0]
        if len(values) != count or not all(1 <= v <= sides for v in values):
            raise RuntimeError(f"the odds tried {values} for {count} d{sides} ({purpose!r})")
        self.calls.append(chosen)
        self.used.extend(DieUsed(sides, purpose, v) for v in values)
        return list(values)


@dataclass
class Run:
    """One run of the check: its result and the options its roll calls took."""

    result: CheckResult
    calls: tuple[Option, ...]
    branches: list[tuple[int, list[Option]]]

    @property
    def probability(self) -> Fraction:
        return prod((p for _, p in self.calls), start=Fraction(1))

    @property
    def dice(self) -> list[int]:
        return [v for values, _ in self.calls for v in values]


@dataclass
class Seen:
    """One distinct outcome: its fields, its exact probability so far, how often it was sampled."""

    distinct: dict
    exact: Fraction = Fraction(0)
    sampled: Counter = field(default_factory=Counter)  # stratum -> runs that gave it
    dice: list[int] = field(default_factory=list)  # one combination that gives it
    faces: list[int] = field(default_factory=list)  # single-die checks: every face that gives it


@dataclass
class Stratum:
    """One option of the first roll call (or the whole space, when the strata cannot be told apart)."""

    option: Option | None
    weight: Fraction
    #: A stratum sampled for several options of the first roll at once (too many to sample each):
    #: each run draws one of them by its probability.
    group: list[Option] | None = None
    runs: int = 0
    cap: int = 0
    exact: bool = False
    samples: int = 0
    losses: Counter = field(default_factory=Counter)  # sampled: side -> sum of losses


@dataclass
class Tally:
    """What the runs found, for `adjudicator.odds.answer`."""

    outcomes: dict[bytes, Seen] = field(default_factory=dict)
    strata: list[Stratum] = field(default_factory=list)
    first_call: RollCall | None = None
    #: Whole-space fallbacks: why the first stage is not exact, if it is not.
    first_stage_note: str = ""
    too_large: list[str] = field(default_factory=list)  # roll calls that could not be listed
    expected_losses: Counter = field(default_factory=Counter)  # exact part: side -> sum of p x losses
    loss_sides: list[str] = field(default_factory=list)
    combinations: int = 0  # combinations enumerated exactly (committed)
    runs: int = 0
    common_steps: set | None = None  # (text, rule) of the steps every run took
    step_order: list = field(default_factory=list)  # the first run's steps, in order
    warnings: dict = field(default_factory=dict)
    given: dict | None = None
    single_die: bool = True
    grouped: bool = False  # a declaration's options took faces together

    @property
    def exact(self) -> bool:
        return all(s.exact for s in self.strata)


class Explorer:
    """Runs one check's request through every combination of its dice, within its budget."""

    def __init__(self, spec: CheckSpec, request: Any, chances: Chances, seed: bytes):
        self.spec = spec
        self.request = request
        self.chances = chances
        self.seed = seed
        self.tally = Tally()

    # -- one run ---------------------------------------------------------------------------------

    def options(self, call: RollCall) -> list[Option] | None:
        declared = self.chances.options(self.request, call) if self.chances.options else None
        if declared is None:
            return every_face(call)
        self.tally.grouped = True
        return declared

    def run(self, prefix: tuple[Option, ...], rng: random.Random | None = None) -> Run:
        dice = BranchDice(prefix, self.options, rng)
        try:
            result = run_check(self.spec, self.request, dice)
        except TooManyOptions as error:
            error.branches = dice.branches
            raise
        finally:
            self.tally.runs += 1
            self._note_first_call(dice)
        self._observe(result, dice)
        return Run(result, tuple(dice.calls), dice.branches)

    def _note_first_call(self, dice: BranchDice) -> None:
        if self.tally.first_call is None and dice.used:
            first = dice.used[0]
            count = len(dice.calls[0][0]) if dice.calls else 1
            self.tally.first_call = RollCall(first.sides, count, first.purpose)

    def _observe(self, result: CheckResult, dice: BranchDice) -> None:
        """What every run shares: the steps taken in all of them, the fields equal in all of them."""
        t = self.tally
        if t.common_steps is None:
            t.step_order = [(s.text, s.rule) for s in result.steps]
            t.common_steps = set(t.step_order)
            t.given = dict(result.outcome)
        else:
            if t.common_steps:
                t.common_steps.intersection_update((s.text, s.rule) for s in result.steps)
            t.given = {k: v for k, v in t.given.items() if k in result.outcome and result.outcome[k] == v}
        t.warnings.update(dict.fromkeys(result.warnings))
        if len(dice.used) > 1:
            t.single_die = False

    # -- counting --------------------------------------------------------------------------------

    def distinct_of(self, result: CheckResult) -> tuple[bytes, dict]:
        distinct = self.chances.distinct(result.outcome)
        return canonical_bytes(distinct), distinct

    def losses_of(self, result: CheckResult) -> dict:
        if self.chances.losses is None:
            return {}
        found = self.chances.losses(self.request, result.outcome)
        for side in found:
            if side not in self.tally.loss_sides:
                self.tally.loss_sides.append(side)
        return found

    def commit(self, runs: list[Run]) -> None:
        """Count a stratum's runs, now that every combination of it has run."""
        t = self.tally
        for r in runs:
            key, distinct = self.distinct_of(r.result)
            seen = t.outcomes.get(key)
            if seen is None:
                seen = t.outcomes[key] = Seen(distinct, dice=r.dice)
            p = r.probability
            seen.exact += p
            if len(r.calls) == 1 and len(r.dice) == 1:
                seen.faces.append(r.dice[0])
            for side, lost in self.losses_of(r.result).items():
                t.expected_losses[side] += p * lost
            t.combinations += 1

    def count_sample(self, stratum_index: int, r: Run) -> None:
        t = self.tally
        key, distinct = self.distinct_of(r.result)
        seen = t.outcomes.get(key)
        if seen is None:
            seen = t.outcomes[key] = Seen(distinct, dice=r.dice)
        seen.sampled[stratum_index] += 1
        stratum = t.strata[stratum_index]
        for side, lost in self.losses_of(r.result).items():
            stratum.losses[side] += lost

    # -- the search ------------------------------------------------------------------------------

    def explore(self) -> Tally:
        t = self.tally
        budget = self.chances.exact_runs
        try:
            first: Run | None = self.run(())
            branches = first.branches
        except TooManyOptions as error:
            t.too_large.append(str(error))
            first, branches = None, error.branches
        if first is not None and not branches:  # no dice in this situation: one outcome
            t.strata = [Stratum(None, Fraction(1), runs=1, exact=True)]
            self.commit([first])
            return t
        if not branches or branches[0][0] != 0:  # the first roll itself cannot be listed
            t.first_stage_note = f"the first roll ({t.too_large[-1]}) has too many combinations to list"
            return self.sample_whole()
        options = branches[0][1]
        if len(options) > budget:
            t.first_stage_note = f"the first roll alone has {len(options)} combinations"
            return self.sample_whole()
        if sum((p for _, p in options), start=Fraction(0)) != 1:
            t.first_stage_note = "the first roll is one draw of an unordered series, not a stage of its own"
            return (first is not None and self.enumerate_whole(first, budget)) or self.sample_whole()
        t.strata = [Stratum(option, option[1]) for option in options]
        self.enumerate_strata(first, options, budget)
        failed = [s for s in t.strata if not s.exact]
        if failed:
            self.sample_strata(failed)
        face_by_face = t.first_call is not None and t.first_call.count == 1 and len(options) == t.first_call.sides
        if not (t.single_die and t.exact and face_by_face):
            for seen in t.outcomes.values():
                seen.faces = []
        return t

    def enumerate_strata(self, first: Run | None, options: list[Option], budget: int) -> None:
        """Depth first, stratum by stratum; a stratum over its share of the budget is given up
        (left to sampling), and what a stratum leaves of its share goes to the later ones."""
        t = self.tally
        stack: list[tuple[tuple[Option, ...], int]] = [((options[j],), j) for j in range(len(options) - 1, 0, -1)]
        t.strata[0].cap = max(MIN_STRATUM_RUNS, int(budget * t.strata[0].weight))
        runs: list[Run] | None = None
        if first is not None:
            self._push(stack, first, 0, deeper_only=True)
            runs = [first]
            t.strata[0].runs = 1
        current = 0
        while True:
            item = stack.pop() if stack else None
            if item is None or item[1] != current:  # the current stratum is done, or was given up
                if runs is not None:
                    t.strata[current].exact = True
                    self.commit(runs)
                if item is None:
                    return
                current, runs = item[1], []
                left = budget - t.runs
                rest = sum((s.weight for s in t.strata[current:]), start=Fraction(0))
                share = int(left * t.strata[current].weight / rest)
                t.strata[current].cap = max(MIN_STRATUM_RUNS, share) if left >= MIN_STRATUM_RUNS else 0
            if runs is None:
                continue
            stratum = t.strata[current]
            if stratum.runs >= stratum.cap:
                runs = None
                continue
            try:
                r = self.run(item[0])
            except TooManyOptions as error:
                t.too_large.append(str(error))
                runs = None
                continue
            stratum.runs += 1
            runs.append(r)
            self._push(stack, r, current)

    def _push(self, stack: list, r: Run, stratum: int, deeper_only: bool = False) -> None:
        """The other options of each of a run's roll calls, as prefixes still to run. The deepest
        go on top (popped first), so the search is depth first; the first roll call's other options
        are the other strata (`deeper_only`: already on the stack)."""
        for index, options in r.branches:
            if index == 0 and deeper_only:
                continue
            for j in range(len(options) - 1, 0, -1):
                stack.append((r.calls[:index] + (options[j],), stratum if index > 0 else j))

    def enumerate_whole(self, first: Run, budget: int) -> Tally | None:
        """Every combination, when the strata cannot be told apart; None if over the budget."""
        t = self.tally
        stack: list = []
        self._push(stack, first, 0)
        runs = [first]
        while stack:
            if t.runs >= budget:
                return None
            prefix, _ = stack.pop()
            try:
                r = self.run(prefix)
            except TooManyOptions as error:
                t.too_large.append(str(error))
                return None
            runs.append(r)
            self._push(stack, r, 0)
        t.strata = [Stratum(None, Fraction(1), runs=len(runs), exact=True)]
        t.first_stage_note = ""
        self.commit(runs)
        return t

    # -- sampling --------------------------------------------------------------------------------

    def rng(self) -> random.Random:
        return random.Random(self.seed)

    def sample_whole(self) -> Tally:
        t = self.tally
        t.strata = [Stratum(None, Fraction(1))]
        rng = self.rng()
        for _ in range(self.chances.samples):
            self.count_sample(0, self.run((), rng))
        t.strata[0].samples = self.chances.samples
        return t

    def sample_strata(self, failed: list[Stratum]) -> None:
        """Each stratum left over sampled on its own, its share of `samples` by probability; when
        there are too many for that, all of them as one group (each run draws its first roll)."""
        t = self.tally
        rng = self.rng()
        total = sum((s.weight for s in failed), start=Fraction(0))
        if len(failed) * MIN_STRATUM_SAMPLES > self.chances.samples:
            group = Stratum(None, total, group=[s.option for s in failed])
            t.strata.append(group)
            failed = [group]
        for stratum in failed:
            n = max(MIN_STRATUM_SAMPLES, round(self.chances.samples * stratum.weight / total))
            h = t.strata.index(stratum)
            for _ in range(n):
                option = stratum.option if stratum.group is None else drawn(rng, stratum.group)
                self.count_sample(h, self.run((option,), rng))
            stratum.samples = n


def drawn(rng: random.Random, options: list[Option]) -> Option:
    """One of `options`, each as likely as its probability says."""
    x = rng.random() * float(sum((p for _, p in options), start=Fraction(0)))
    for option in options:
        x -= float(option[1])
        if x < 0:
            return option
    return options[-1]
