"""Chances before the roll: the exact distribution of a check's outcomes, explained like a ruling.

    odds(spec, request)      the answer for a check's own request (no dice): every distinct
                             outcome with its exact probability, the expected losses per side, the
                             steps every outcome shares (modifiers, shifts, columns) with their rules

How (one module each):

- `faces`     the options a roll call offers: every face, or the faces grouped by what they do
- `declare`   per check: which outcome fields tell outcomes apart, their labels, losses, options
- `explore`   runs the check once per combination of dice (depth first, stage by stage) within a
              budget of runs; strata over their share are sampled, seeded by the request
- `answer`    the JSON answer: fractions, intervals for sampled parts, the one-line summary
- `kwb`, `spi`, `holdfast`, `fireandice`  the declarations of each game's checks with dice
- `asked_again`  the other thing a player learns before the roll: the same situation was asked as
              record #N already (the ledger's board), so asking again rolls again for both to see

The check is never changed for the odds: it is the same pure function the rulings call, given
dice that answer each roll call with the values to try (`explore.BranchDice`).
"""

from __future__ import annotations

from typing import Any

from adjudicator.canonical import canonical_bytes
from adjudicator.checks import CheckSpec, narrow_request
from adjudicator.odds.answer import build_answer
from adjudicator.odds.declare import chances_of
from adjudicator.odds.explore import Explorer


class NoDice(ValueError):
    """The check rolls no dice: it has a ruling, not chances."""


def odds(spec: CheckSpec, request: Any) -> dict[str, Any]:
    """The odds of `request` (the check's own request model, or one of its derived models).

    A rules function's ValueError (a situation the rules refuse) propagates, as it does for a
    ruling; the caller answers it the same way."""
    if not spec.random:
        raise NoDice(f"{spec.key} rolls no dice: resolve it for its ruling")
    own = narrow_request(spec, request)
    chances = chances_of(spec)
    seed = canonical_bytes({"check": spec.key, "request": own.model_dump(mode="json")})
    tally = Explorer(spec, own, chances, seed).explore()
    return build_answer(spec, chances, tally)
