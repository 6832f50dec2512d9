"""The Korean War Battles depletion ladder (7.6, 2.3.1) and the random generic-regiment draw.

7.6 "NK, ROK and PRC divisions are represented by two counters, to show the unit at varying strength
levels. A full-strength division that is depleted in combat will first be flipped to show its
depleted side; the next time it takes a loss it will be replaced by a randomly selected, unnumbered
full-strength infantry regiment of the appropriate nationality (and the depleted division is then
placed in the deadpile). The next time the regiment will be flipped to show its depleted side, then
finally it will be removed to the deadpile."

Every other counter: full -> depleted -> deadpile; a one-step counter (HQ, Supply Center, Scratch
Unit: "like any other unit with only one strength level", 12.21) goes to the deadpile at its first loss.

The regiment is drawn with one die of as many sides as regiments remain in the pool (one per
counter), so the draw is recorded and verifiable like every other roll. With an empty pool the
depleted division goes to the deadpile with no regiment (reading: the counter mix is the limit).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.checks import Dice
from adjudicator.rules.kwb import data
from scenarios.model import Game

LADDER_NATIONALITIES = ("nk", "rok", "prc")
DEADPILE = "deadpile"


@dataclass
class UnitState:
    """A counter during loss resolution: its id and the side showing ('full', 'depleted' or 'deadpile')."""

    unit: str
    step: str
    replaced_by: str = ""  # the generic regiment that replaced a depleted division
    history: list[str] = field(default_factory=list)

    @property
    def alive(self) -> bool:
        return self.step != DEADPILE

    def to_json(self) -> dict:
        return {"unit": self.unit, "step": self.step, "replaced_by": self.replaced_by, "history": self.history}


@dataclass
class GenericPool:
    """The unnumbered regiments still available for the random draw, per nationality."""

    available: dict[str, list[str]]

    @classmethod
    def for_game(cls, g: Game, exclude: set[str], given: list[str] | None = None) -> "GenericPool":
        """`given`: the regiment ids the player says are available; default every generic regiment not in `exclude`."""
        pools: dict[str, list[str]] = {}
        for nat in LADDER_NATIONALITIES:
            ids = [u.id for u in data.generic_regiments(g, nat)]
            if given is not None:
                ids = [i for i in ids if i in given]
            pools[nat] = [i for i in ids if i not in exclude]
        return cls(pools)

    def draw(self, nationality: str, dice: Dice, purpose: str) -> str | None:
        pool = self.available.get(nationality, [])
        if not pool:
            return None
        index = dice.roll(len(pool), purpose=purpose)[0] - 1 if len(pool) > 1 else 0
        return pool.pop(index)


def take_step(g: Game, state: UnitState, pool: GenericPool, dice: Dice, why: str) -> tuple[list[UnitState], str]:
    """One loss step on `state` (changed in place). Returns (new counters entering play, text)."""
    u = data.unit(g, state.unit)
    step = data.step_name(u, state.step if state.step != "full" else "")
    names = [s.name for s in u.steps]
    if step != names[-1]:
        nxt = names[names.index(step) + 1]
        state.step = nxt
        state.history.append(f"{why}: flipped to {nxt}")
        return [], f"{state.unit} flipped to its {nxt} side ({u.steps[names.index(nxt)].text}) ({why})"
    if data.is_division(u) and u.nationality in LADDER_NATIONALITIES:
        state.step = DEADPILE
        regiment = pool.draw(u.nationality, dice, f"random unnumbered {u.nationality.upper()} regiment for {u.id}")
        if regiment is None:
            state.history.append(f"{why}: deadpile, no unnumbered regiment left")
            return [], (f"{state.unit} (depleted division) to the deadpile; no unnumbered {u.nationality.upper()} "
                        f"regiment is left to replace it ({why})")
        state.replaced_by = regiment
        state.history.append(f"{why}: deadpile, replaced by {regiment}")
        r = data.unit(g, regiment)
        return [UnitState(regiment, r.steps[0].name, history=[f"replaces {state.unit}"])], (
            f"{state.unit} (depleted division) to the deadpile, replaced by the randomly drawn full-strength "
            f"regiment {regiment} ({r.steps[0].text}) ({why})")
    state.step = DEADPILE
    state.history.append(f"{why}: deadpile")
    return [], f"{state.unit} removed to the deadpile ({why})"


def eliminate(state: UnitState, why: str) -> str:
    state.step = DEADPILE
    state.history.append(f"{why}: deadpile")
    return f"{state.unit} eliminated: to the deadpile ({why})"
