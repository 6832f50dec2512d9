"""Random events (5.5) and the Cup of SNAFU (6.1).

5.5: when both combat dice show the same natural number, either player rolls a D10 on the Random
Event Table the chit names (table `random_events`, columns A/B/C).  The row's text is classified by
what it says (news reporters / anti-tank ambush / ambush / radio failure / SNAFU draw and who places)
so a corrected table changes the result without code.

6.1: a SNAFU marker belongs to one side and goes on that side's unit; the placing player chooses the
face.  Reading (6.1 example): a player placing his own side's marker shows the mild face (Great
Leader, Shortage); placing the enemy's, the harsh face (Incompetent Leader, Out), on the enemy's
declaring/defending unit, where it counts for the support the combat gets (8.3).  A mild Ammo/Fuel
Shortage goes on a supporting unit when the owner has one (no effect on support), otherwise on the
lead unit.  The cup holds the `snafu` markers of the counter list (markers.csv, their `count`); a
draw is one die over the markers in the cup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, named_side, register_check
from adjudicator.rules.fireandice import board_orders, data
from adjudicator.rules.fireandice.schemas import SideId
from scenarios.model import Game


@dataclass(frozen=True)
class RandomEvent:
    roll: int
    table: str
    text: str
    kind: str  # news_reporters, antitank_ambush, ambush, radio_failure, snafu
    who: str  # for news reporters: whose colour; for snafu: who places ("attacker"/"defender")


def classify(text: str) -> tuple[str, str]:
    low = text.lower()
    if "news reporters" in low:
        return "news_reporters", "defender" if "defender's color" in low else "attacker"
    if "anti-tank" in low:
        return "antitank_ambush", "attacker"
    if "ambush" in low:
        return "ambush", "attacker"
    if "radio failure" in low:
        return "radio_failure", "defender"
    if "snafu" in low:
        return "snafu", "defender" if "defender places" in low else "attacker"
    raise ValueError(f"Random Event Table: cannot read the event {text!r}")


def roll_random_event(g: Game, table_letter: str, dice: Dice) -> RandomEvent:
    t = data.table(g, "random_events")
    if table_letter not in t.columns:
        raise ValueError(f"there is no Random Event Table {table_letter!r}")
    (roll,) = dice.roll(10, purpose=f"Random Event Table {table_letter}")
    text = t.cell(roll, table_letter)
    kind, who = classify(text)
    return RandomEvent(roll, table_letter, text, kind, who)


@dataclass(frozen=True)
class SnafuDraw:
    marker: str  # marker id, e.g. snafu-ammo-com
    kind: str  # leader, ammo, fuel
    side: str  # the side whose unit must carry it
    face: str  # the face the placing player chose
    harsh: bool

    def to_json(self) -> dict:
        return {"marker": self.marker, "kind": self.kind, "side": self.side, "face": self.face, "harsh": self.harsh}


def snafu_cup(g: Game) -> list[str]:
    cup = []
    for m in g.markers.values():
        if m.kind == "snafu":
            cup.extend([m.id] * max(1, m.count))
    if not cup:
        raise ValueError("the Fire and Ice data lists no SNAFU markers (markers.csv kind 'snafu')")
    return cup


def draw_snafu(g: Game, placer_side: str, dice: Dice, purpose: str = "Cup of SNAFU draw",
               cup: list[str] | None = None) -> SnafuDraw:
    """One marker drawn at random from `cup` (default: the full cup); the caller removes it to draw
    another without putting the first back (6.2 f: two markers drawn for a Routed unit)."""
    cup = snafu_cup(g) if cup is None else cup
    (n,) = dice.roll(len(cup), purpose=f"{purpose} (1 of {len(cup)} markers: {', '.join(cup)})")
    marker = g.markers[cup[n - 1]]
    kind = next((k for k in ("leader", "ammo", "fuel") if k in marker.id), marker.id)
    harsh = marker.side != placer_side
    face = marker.faces[1] if harsh and len(marker.faces) > 1 else marker.faces[0]
    return SnafuDraw(marker.id, kind, marker.side, face, harsh)


def combine_supply_marker(existing: set[str], kind: str, out: bool) -> set[str]:
    """6.1 b, c: Shortage + another Shortage or Out = Out; an Out unit keeps Out."""
    markers = set(existing)
    if f"{kind}_out" in markers:
        return markers
    if f"{kind}_shortage" in markers or out:
        markers.discard(f"{kind}_shortage")
        markers.add(f"{kind}_out")
    else:
        markers.add(f"{kind}_shortage")
    return markers


def describe_snafu(d: SnafuDraw) -> Step:
    return Step(f"Drew {d.marker}: {data.SIDE_NAMES[d.side]} marker; the placing player shows "
                f"'{d.face}'" + (" (the harsh face, on the enemy)." if d.harsh else " (the mild face, on his own unit)."),
                "6.1 The Cup of SNAFU")


# -- the stand-alone checks ------------------------------------------------------------------------

class RandomEventRequest(CheckRequest):
    table: Literal["A", "B", "C"] = Field(description="The Random Event Table on the combat chit (RE).")
    attacker: SideId = Field(description="The attacking side (decides who places SNAFU markers).")


@register_check(system="fireandice", name="random_event", request=RandomEventRequest, random=True,
                summary="Roll on a Random Event Table (and draw from the Cup of SNAFU if it says so)", rule="5.5; 6.1",
                actor=either_side(rule="5.5", why="either player rolls"),
                example={"table": "B", "attacker": "communist", "dice": [6, 6]})
def random_event(req: RandomEventRequest, dice: Dice) -> CheckResult:
    """A random event on its own (5.5), e.g. when the combat was resolved at the table; check `combat`
    applies the event to the combat itself."""
    g = data.game()
    ev = roll_random_event(g, req.table, dice)
    steps = [Step(f"Random Event Table {ev.table}, D10 = {ev.roll}: {ev.text}.", "5.5 Random Events")]
    outcome: dict = {"table": ev.table, "roll": ev.roll, "text": ev.text, "kind": ev.kind}
    defender = data.other_side(req.attacker)
    if ev.kind == "snafu":
        placer = req.attacker if ev.who == "attacker" else defender
        draw = draw_snafu(g, placer, dice)
        outcome["snafu"] = draw.to_json()
        outcome["placed_by"] = placer
        steps.append(describe_snafu(draw))
    elif ev.kind == "news_reporters":
        outcome["objective_marker"] = req.attacker if ev.who == "attacker" else defender
        outcome["markers_on_hexes"] = [board_orders.objective_on_hex(g, outcome["objective_marker"], None)]
    elif ev.kind == "antitank_ambush":
        outcome["track_moves"] = board_orders.moves(
            board_orders.support_move(g, req.attacker, "tank", -1, "5.5 Table A 2 Anti-tank ambush"))
    elif ev.kind == "ambush":
        outcome["track_moves"] = board_orders.moves(
            board_orders.replacements_move(g, req.attacker, -1, "5.5 Table A 3 Ambush; 13.2"))
    return CheckResult(outcome=outcome, steps=steps)


class SnafuRequest(CheckRequest):
    placer: SideId = board("side", description="The player who draws and places (the enemy of a Disrupted or "
                                                     "Routed unit, 6.2 e, f).")
    count: Literal[1, 2] = Field(default=1, description="1 for a Disrupted unit; 2 for a Routed or Bug Out unit "
                                                       "(place at most one, return the other).")


@register_check(system="fireandice", name="snafu_draw", request=SnafuRequest, random=True,
                summary="Draw from the Cup of SNAFU", rule="6.1; 6.2 e-g",
                actor=named_side("placer", rule="6.1", what="the player who draws and places (placer)"),
                example={"placer": "un", "count": 2, "dice": [1, 1]})
def snafu_draw(req: SnafuRequest, dice: Dice) -> CheckResult:
    g = data.game()
    cup = snafu_cup(g)
    draws, steps = [], []
    for i in range(req.count):
        d = draw_snafu(g, req.placer, dice, purpose=f"Cup of SNAFU draw {i + 1}", cup=cup)
        draws.append(d.to_json())
        steps.append(describe_snafu(d))
        cup.remove(d.marker)
    if req.count == 2:
        steps.append(Step("Place at most one of the two (if it applies to the unit); the other goes back to the cup.",
                          "6.2 f"))
    return CheckResult(outcome={"draws": draws}, steps=steps)
