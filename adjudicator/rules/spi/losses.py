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

Procedure (one CRT loss at a time, the owner's units in the order he chooses: Combat (J) names no
chooser, so each player takes his own losses; the order listed is the default):
1. If any non-Army unit can lose regiments, the loss is taken in regiments - two of them when Combat (K)
   doubling applies. A regiment-sized unit is removed; a larger unit is broken down into its
   components (recursively, 25-2 -> 10-4 -> 3-4) and one component removed.
2. Otherwise one division (10-4) is extracted from an Army, undoubled; the Army's other two 10-4s stay
   on the map as divisions.
A breakdown is made with counters: "To break down or recombine unit(s), simply remove the unit(s) to be
replaced, and place the unit(s) which replace it on the same hex" (Stacking & Unit Breakdown). The
counters placed are those not in play (`spares`: the box of counters not in play): the unit's own
components first (units.csv `parent`), then the unnumbered ones of its nationality (flag `generic`), in
the data's order. Without enough, a component keeps the name "<unit>/<values>" and the ruling says a
counter is missing.
Readings (the book is silent): divisions left by a broken-down Army are ordinary units and lose
regiments to later losses (doubled when (K) applies); a doubled loss with only one regiment left
takes that regiment only; supply units take no losses except on Dx/Ax.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.rules.spi import data
from scenarios.model import Game, Unit


@dataclass
class Piece:
    """A unit on the map: a counter, or (when no counter is left for it) a component named
    '<unit>/<values>'."""

    name: str
    values: str
    army: bool = False


@dataclass
class Breakdown:
    """A unit broken down on its hex: the counters that replace it (Stacking & Unit Breakdown)."""

    unit: str
    parts: list[str]

    def to_json(self) -> dict:
        return {"unit": self.unit, "broken_down_into": self.parts}


@dataclass
class LossReport:
    regiments_lost: int = 0
    divisions_from_armies: int = 0
    eliminated: list[str] = field(default_factory=list)  # units and components removed
    remaining: list[str] = field(default_factory=list)  # what is left on the hex
    unabsorbed: int = 0  # losses the force could not take (nothing left)
    breakdowns: list[Breakdown] = field(default_factory=list)
    missing_counters: list[str] = field(default_factory=list)  # components no counter was left for
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"regiments_lost": self.regiments_lost, "divisions_from_armies": self.divisions_from_armies,
                "eliminated": self.eliminated, "remaining": self.remaining, "unabsorbed": self.unabsorbed,
                "breakdowns": [b.to_json() for b in self.breakdowns]}


class Spares:
    """The counters a breakdown may place (not in play), handed out as units break down."""

    def __init__(self, g: Game, available: list[str]):
        self.g = g
        order = {unit: n for n, unit in enumerate(g.units)}  # the data's order, whatever order the board lists them in
        self.left = sorted((u for u in dict.fromkeys(available) if u in g.units), key=order.__getitem__)

    def take(self, broken: Unit, component: str, count: int) -> list[str | None]:
        """`count` counters of `component` values for breaking `broken` down: its own components first,
        then the unnumbered ones of its nationality (None where none is left)."""
        fits = [u for u in self.left if data.values_text(self.g.units[u]) == component
                and self.g.units[u].side == broken.side]
        own = [u for u in fits if self.g.units[u].parent == broken.id]
        generic = [u for u in fits if self.g.units[u].has("generic") and self.g.units[u].nationality == broken.nationality]
        chosen = (own + [u for u in generic if u not in own])[:count]
        for u in chosen:
            self.left.remove(u)
        return chosen + [None] * (count - len(chosen))


def spares_of(g: Game, given: list[str] | None, in_request: set[str]) -> list[str]:
    """The counters not in play: `given` (the board's boxes; [] none), else (None: not known) every breakdown
    counter of the data that the request does not place on the map."""
    if given is not None:
        return list(given)
    return [u.id for u in g.units.values() if u.has("breakdown") and u.id not in in_request]


def regiments(g: Game, values: str) -> int:
    """How many regiments a unit of these printed values is (breakdown table, recursively)."""
    b = data.breakdown(g, values)
    return 1 if b is None else b[0] * regiments(g, b[1])


def _break_down(g: Game, piece: Piece, spares: Spares, report: LossReport) -> list[Piece]:
    count, component = data.breakdown(g, piece.values)
    root = piece.name.split("/")[0]
    unit = g.units.get(piece.name) or g.units[root]
    counters = spares.take(unit, component, count)
    parts = []
    for counter in counters:
        if counter is None:
            name = f"{root}/{component}"
            report.missing_counters.append(name)
        else:
            name = counter
        parts.append(Piece(name, component, data.is_army(g.units[counter]) if counter else False))
    if piece.name in g.units:
        report.breakdowns.append(Breakdown(piece.name, [p.name for p in parts]))
    return parts


def _lose_one_regiment(g: Game, pieces: list[Piece], spares: Spares, report: LossReport) -> bool:
    """Remove one regiment from the first non-Army piece, breaking it down as needed."""
    for i, p in enumerate(pieces):
        if p.army:
            continue
        while data.breakdown(g, p.values) is not None:
            parts = _break_down(g, p, spares, report)
            report.notes.append(f"{p.name} ({p.values}) broken down into {len(parts)} x {parts[0].values}: "
                                f"{', '.join(part.name for part in parts)}")
            pieces[i:i + 1] = parts
            p = pieces[i]
        pieces.pop(i)
        report.eliminated.append(p.name)
        report.regiments_lost += 1
        return True
    return False


def _lose_army_division(g: Game, pieces: list[Piece], spares: Spares, report: LossReport) -> bool:
    for i, p in enumerate(pieces):
        if p.army:
            parts = _break_down(g, p, spares, report)
            report.notes.append(f"{p.name} (Army {p.values}) loses one division: broken down into "
                                f"{len(parts)} x {parts[0].values} ({', '.join(part.name for part in parts)}), "
                                f"{parts[0].name} removed")
            for part in parts:
                part.army = False  # the Army's divisions are ordinary units now
            pieces[i:i + 1] = parts[1:]
            report.eliminated.append(parts[0].name)
            report.divisions_from_armies += 1
            return True
    return False


def take_losses(g: Game, unit_ids: list[str], crt_losses: int, doubled: bool, spares: Spares | None = None) -> LossReport:
    """Apply `crt_losses` CRT losses (D1 = 1 ...) to the units, in the order listed; breakdowns place
    counters from `spares` (default: every breakdown counter not listed)."""
    spares = spares or Spares(g, spares_of(g, None, set(unit_ids)))
    pieces = [Piece(uid, data.values_text(data.unit(g, uid)), data.is_army(data.unit(g, uid)))
              for uid in unit_ids if not data.is_supply_unit(data.unit(g, uid))]
    report = LossReport()
    per_loss = data.int_parameter(g, "communist_loss_multiplier_vs_non_korean_un") if doubled else 1
    for n in range(crt_losses):
        if any(not p.army for p in pieces):
            taken = 0
            while taken < per_loss and _lose_one_regiment(g, pieces, spares, report):
                taken += 1
            if taken < per_loss:
                report.notes.append(f"loss {n + 1}: only {taken} regiment(s) left to lose of {per_loss}")
        elif not _lose_army_division(g, pieces, spares, report):
            report.unabsorbed = crt_losses - n
            report.notes.append(f"{crt_losses - n} loss(es) not taken: no units left")
            break
    report.remaining = [p.name for p in pieces]
    return report


def destroy_all(unit_ids: list[str]) -> LossReport:
    """Dx / Ax: 'all defending [attacking] units are destroyed; remove from map'."""
    return LossReport(eliminated=list(unit_ids), remaining=[])
