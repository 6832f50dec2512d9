"""What a check's odds compare and count: one small declaration per check with dice.

The odds run a check once per combination of dice and merge the runs whose outcomes are the same.
"The same" is the check's to say: a combat's outcome echoes the dice it rolled and names the
random regiment that replaced a division, but two runs that differ only there are one outcome to
a player deciding whether to attack. A declaration says

- `distinct`: the outcome fields that tell outcomes apart (result, losses, retreats, steps, hits),
  as a function of the outcome; the default is the whole outcome less the fields that echo dice
  (`without_dice_echo`);
- `label`: the short name of an outcome for a chart and a chat line ("EX", "defender -2 SP");
- `headline`: what all outcomes share, in a few words ("3:1"), for the one-line summary;
- `losses`: the losses each side takes in an outcome, counted in `loss_unit`, for the expected
  losses per side;
- `options`: which faces of a roll call do the same thing (`adjudicator.odds.faces`), so one of
  them is run for all; the default runs every face, which is always right but can be slow;
- `exact_runs`, `samples`: how many runs of the check the odds may spend enumerating, and
  sampling where enumerating would take more (see `adjudicator.odds.explore`).

Declarations live beside each other, one module per game (`adjudicator.odds.kwb` ...), keyed by
the check's key ("kwb.combat"); `chances_of` gives a check's declaration or the default. The tests
check that every declaration names a registered check with dice, that the `options` give exactly
the distribution every face gives (on situations small enough to try every face), and, drawing
dice, that any roll's outcome is among the odds (tests/test_odds.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from adjudicator.checks import CheckSpec
from adjudicator.words.forms import humanize
from adjudicator.odds.faces import Option, RollCall
from adjudicator.words.results import plain

Outcome = dict[str, Any]
#: side id -> losses of that side in one outcome (in the declaration's `loss_unit`).
SideLosses = dict[str, int | Fraction]

#: Names of outcome fields that echo the dice rather than say what happened ("roll", "attacker_rolls").
DICE_ECHO = re.compile(r"^(?:.*_)?rolls?$")


def _echoes_dice(key: str, value: Any) -> bool:
    """A field named like a roll whose value is a number or a list of numbers (not a list of results)."""
    numbers = isinstance(value, int) or (isinstance(value, list) and all(isinstance(v, int) for v in value))
    return numbers and bool(DICE_ECHO.match(key))


def without_dice_echo(outcome: Any) -> Any:
    """The outcome less every field, at any depth, that echoes a die (see `DICE_ECHO`)."""
    if isinstance(outcome, dict):
        return {k: without_dice_echo(v) for k, v in outcome.items() if not _echoes_dice(k, v)}
    if isinstance(outcome, list):
        return [without_dice_echo(v) for v in outcome]
    return outcome


def fields(*names: str) -> Callable[[Outcome], Outcome]:
    """A `distinct` that keeps the named top-level fields (a missing one counts as null)."""
    def distinct(outcome: Outcome) -> Outcome:
        return {name: outcome.get(name) for name in names}
    return distinct


def plain_label(distinct: Outcome) -> str:
    """The default label: every distinct field as "Name: value"."""
    return " · ".join(f"{humanize(k)}: {plain(v)}" for k, v in distinct.items()) or "the only outcome"


@dataclass(frozen=True)
class Chances:
    """How the odds of one check compare, name and count its outcomes (see the module docstring)."""

    distinct: Callable[[Outcome], Outcome] = without_dice_echo
    label: Callable[[Outcome], str] = plain_label
    headline: Callable[[Outcome], str] | None = None
    losses: Callable[[Any, Outcome], SideLosses] | None = None
    loss_unit: str = ""
    options: Callable[[Any, RollCall], list[Option] | None] | None = None
    exact_runs: int = 1500
    samples: int = 400


_DECLARED: dict[str, Chances] = {}
DEFAULT = Chances()


def declare(key: str, **how: Any) -> Chances:
    """Declare the odds of check `key` ("kwb.combat"); the arguments are `Chances` fields."""
    if key in _DECLARED:
        raise ValueError(f"the odds of {key} are declared twice")
    declared = _DECLARED[key] = Chances(**how)
    return declared


def declared() -> dict[str, Chances]:
    """Every declaration, by check key (after the per-game modules are imported)."""
    _load()
    return dict(_DECLARED)


def chances_of(spec: CheckSpec) -> Chances:
    """The check's declaration, or the default (every field but the dice, every face tried)."""
    _load()
    return _DECLARED.get(spec.key, DEFAULT)


def _load() -> None:
    from adjudicator.odds import fireandice, holdfast, kwb, spi  # noqa: F401  (they declare on import)
