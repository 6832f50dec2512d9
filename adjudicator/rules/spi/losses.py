"""Taking combat losses in regiments (Combat (J), (K); Stacking & Unit Breakdown).

Combat (J): "D1, D2, D3 - defending unit(s) lose one, two, or three regiments; units may be broken
down to remove the exact losses; Chinese Armies lose divisions (10-4) instead of regiments, if there
are no other units to lose regiments from." E and A results: "same provisions".
Combat (K): Communist units "attacking, or defending against, non-Korean UN units, suffer losses twice
as much as those shown on the Combat Results Table ... This does not apply when losses, in part or
whole, are being taken in divisions from Armies; in the E2 case, if one Army (25-2) and two regiments
were making the attack, one loss would be doubled (eliminating the two regiments) and the other would
be an undoubled loss of one division extracted from the Army."
Breakdown equivalents (table `breakdown`): 16-3 = three 5-3s, 20-3 = three 6-3s, 10-3 = three 3-3s,
10-4 = three 3-4s, 25-2 = three 10-4s, 9-8 = three 3-8s. Strength is not conserved; the table is
applied literally. A unit the table does not list is one regiment.

Procedure (one CRT loss at a time, the owner's units in the order he lists them):
1. If any non-Army unit can lose regiments, the loss is taken in regiments - two of them when Combat (K)
   doubling applies. A regiment-sized unit is removed; a larger unit is broken down into its
   components (recursively, 25-2 -> 10-4 -> 3-4) and one component removed.
2. Otherwise one division (10-4) is extracted from an Army, undoubled; the Army's other two 10-4s stay
   on the map as divisions.
Readings (the book is silent): divisions left by a broken-down Army are ordinary units and lose
regiments to later losses (doubled when (K) applies); a doubled loss with only one regiment left
takes that regiment only; supply units take no losses except on Dx/Ax.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.rules.spi import data
from scenarios.model import Game


@dataclass
class Piece:
    """A unit on the map, or a component left by breaking one down ('us-d2/5-3')."""

    name: str
    values: str
    army: bool = False


@dataclass
class LossReport:
    regiments_lost: int = 0
    divisions_from_armies: int = 0
    eliminated: list[str] = field(default_factory=list)  # units and components removed
    remaining: list[str] = field(default_factory=list)  # what is left: 'id' or 'id/5-3' components
    unabsorbed: int = 0  # losses the force could not take (nothing left)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"regiments_lost": self.regiments_lost, "divisions_from_armies": self.divisions_from_armies,
                "eliminated": self.eliminated, "remaining": self.remaining, "unabsorbed": self.unabsorbed}


def regiments(g: Game, values: str) -> int:
    """How many regiments a unit of these printed values is (breakdown table, recursively)."""
    b = data.breakdown(g, values)
    return 1 if b is None else b[0] * regiments(g, b[1])


def _break_down(g: Game, piece: Piece) -> list[Piece]:
    count, component = data.breakdown(g, piece.values)
    root = piece.name.split("/")[0]
    return [Piece(f"{root}/{component}", component) for _ in range(count)]


def _lose_one_regiment(g: Game, pieces: list[Piece], report: LossReport) -> bool:
    """Remove one regiment from the first non-Army piece, breaking it down as needed."""
    for i, p in enumerate(pieces):
        if p.army:
            continue
        while data.breakdown(g, p.values) is not None:
            parts = _break_down(g, p)
            report.notes.append(f"{p.name} ({p.values}) broken down into {len(parts)} x {parts[0].values}")
            pieces[i:i + 1] = parts
            p = pieces[i]
        pieces.pop(i)
        report.eliminated.append(p.name)
        report.regiments_lost += 1
        return True
    return False


def _lose_army_division(g: Game, pieces: list[Piece], report: LossReport) -> bool:
    for i, p in enumerate(pieces):
        if p.army:
            parts = _break_down(g, p)
            report.notes.append(f"{p.name} (Army {p.values}) loses one division: broken down into "
                                f"{len(parts)} x {parts[0].values}, one removed")
            pieces[i:i + 1] = parts[1:]
            report.eliminated.append(parts[0].name)
            report.divisions_from_armies += 1
            return True
    return False


def take_losses(g: Game, unit_ids: list[str], crt_losses: int, doubled: bool) -> LossReport:
    """Apply `crt_losses` CRT losses (D1 = 1 ...) to the units, in the order listed."""
    pieces = [Piece(uid, data.values_text(data.unit(g, uid)), data.is_army(data.unit(g, uid)))
              for uid in unit_ids if not data.is_supply_unit(data.unit(g, uid))]
    report = LossReport()
    per_loss = data.int_parameter(g, "communist_loss_multiplier_vs_non_korean_un") if doubled else 1
    for n in range(crt_losses):
        if any(not p.army for p in pieces):
            taken = 0
            while taken < per_loss and _lose_one_regiment(g, pieces, report):
                taken += 1
            if taken < per_loss:
                report.notes.append(f"loss {n + 1}: only {taken} regiment(s) left to lose of {per_loss}")
        elif not _lose_army_division(g, pieces, report):
            report.unabsorbed = crt_losses - n
            report.notes.append(f"{crt_losses - n} loss(es) not taken: no units left")
            break
    report.remaining = [p.name for p in pieces]
    return report


def destroy_all(unit_ids: list[str]) -> LossReport:
    """Dx / Ax: 'all defending [attacking] units are destroyed; remove from map'."""
    return LossReport(eliminated=list(unit_ids), remaining=[])
