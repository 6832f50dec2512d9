"""Korea: Fire and Ice game data as the rules read it: tables, chits, aircraft, stand-in notes.

Everything the rules engine needs from the scenario model goes through this module, so a
maintainer who replaces a stand-in CSV (the Terrain Effects Chart, the combat chit mix, the
aircraft ratings, the weather track) changes adjudication without touching code.  Tables are
read cell by cell from `game.tables[...]`; no printed number is copied into a Python constant.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from fractions import Fraction

from scenarios.model import Game, Table, Unit
from adjudicator.checks import Refusal, UnitKinds
from adjudicator.rules import gamedata
from adjudicator.words.names import counter_names
from adjudicator.rules.gamedata import scenario, special  # noqa: F401  (re-exported)

GAME_ID = "fireandice"

#: The units a check of one ground unit takes: an HQ or a combat unit on the map (no aircraft).
GROUND_UNITS = UnitKinds(types=("infantry", "cadre", "cavalry", "marine", "taskforce", "airborne", "hq"), on_map=True)
#: The units that fight (Glossary "Unit": a counter that is not a marker or HQ): the combat losses of one of them.
#: The units a right-click offers to declare a combat: a ground unit on the map showing its fresh side (Glossary
#: "Spent": a spent unit may not declare; 9.3). One flipped spent as its activation began still may (the
#: Glossary's convenience flip): the combat check says how, and the toolbar's checks still list the declaration.
DECLARING_UNITS = replace(GROUND_UNITS, steps=("fresh",))
FIGHTING_UNITS = UnitKinds(types=("infantry", "cadre", "cavalry", "marine", "taskforce", "airborne"), on_map=True)
#: The units a check of one aircraft takes (an aircraft stands in the air boxes, not on a hex).
AIRCRAFT = UnitKinds(flags=("aircraft",))
#: The units a check of an eliminated unit takes: one in a box (the Replacements box), off the map.
OFF_THE_MAP = UnitKinds(on_map=False)
SIDES = ("un", "communist")
SIDE_NAMES = {"un": "UN", "communist": "Communist"}
FRONT = gamedata.GameFront(GAME_ID, SIDES, unit_noun="Fire and Ice unit", data_noun="the Fire and Ice data")
game, game_in, owner, other_side, unit, table = (FRONT.game, FRONT.game_in, FRONT.owner, FRONT.other_side, FRONT.unit,
                                                 FRONT.table)
DEFAULT_SCENARIO = "campaign"
COMBAT_TYPES = ("Meeting Engagement", "Hasty Attack", "Prepared Attack", "Deliberate Attack")
#: UN Minor Powers (1.0): they, like US units, may retreat into an enemy ZoC and then Bug Out (5.6).
UN_MINOR_POWERS = ("cw", "tk", "roc")


def stand_in_warnings(g: Game, *what: str) -> list[str]:
    """One warning per stand-in datum used (exactly "table combat_chits", "map korea"...), saying
    it is not the book's.  Exact names, not prefixes: every hex of a derived map is a stand-in and
    one warning for the map says it all."""
    found = []
    for name in what:
        for s in g.stand_ins_for(name):
            if s.what == name:
                found.append(f"Uses a stand-in ({s.what}, {s.where}): {s.reason}")
    return list(dict.fromkeys(found))


#: unit id -> the name its counter reads ("ROK 6"), per loaded game (a loaded game does not change).
_NAMES: dict[int, tuple[Game, dict[str, str], dict[str, str]]] = {}


def _names(g: Game) -> tuple[dict[str, str], dict[str, str]]:
    cached = _NAMES.get(id(g))
    if cached is None or cached[0] is not g:
        names = counter_names(g)
        cached = _NAMES[id(g)] = (g, names, {n.lower(): u for u, n in names.items()})
    return cached[1], cached[2]


def name(g: Game, unit_id: str) -> str:
    """The name a unit's counter reads ("ROK 6"), as rulings name it."""
    return _names(g)[0].get(unit_id, unit_id)


def unit_named(g: Game, text: str) -> Unit:
    """A unit by its id ('rok-6') or the name its counter reads ('ROK 6', any case): players name units as
    they see them; ValueError for neither."""
    if text in g.units:
        return g.units[text]
    found = _names(g)[1].get(" ".join(text.split()).lower())
    if found is None:
        raise ValueError(f"no Fire and Ice counter is named {text!r} (a counter's name, e.g. 'ROK 6', or a unit id, "
                         "e.g. 'rok-6')")
    return g.units[found]


def is_us_or_minor(u: Unit) -> bool:
    """US and UN Minor Powers units: may retreat into enemy ZoC and Bug Out (5.6, 6.2 g)."""
    return u.nationality == "us" or u.nationality in UN_MINOR_POWERS


# -- numbers printed in table cells ---------------------------------------------------------------


def cell_int(t: Table, key: str | int, column: str) -> int:
    text = t.cell(key, column).strip()
    try:
        return int(text.replace("+", ""))
    except ValueError:
        raise ValueError(f"table {t.id}: {key}/{column} is {text!r}, not a number") from None


def support_factor(text: str) -> Fraction | None:
    """A Terrain Effects Chart "Effect on Support" cell as a fraction: "3 for 1" -> 1/3 (8.2).

    None when the cell is '-' (the terrain says nothing about that support type)."""
    text = text.strip()
    m = re.fullmatch(r"(\d+)\s*for\s*(\d+)", text)
    if m:
        return Fraction(int(m.group(2)), int(m.group(1)))
    if text in ("", "-"):
        return None
    raise ValueError(f"Terrain Effects Chart: cannot read the support factor {text!r}")


def success_range(text: str) -> tuple[float, float]:
    """A success cell such as "modified 0 or less", "1-2 (no modifiers)", "5 or less",
    "modified 1 (read: 1 or less)" as an inclusive (low, high) range of the (modified) roll."""
    low_text = text.lower()
    m = re.search(r"read:\s*(-?\d+)\s*or less", low_text) or re.search(r"(-?\d+)\s*or less", low_text)
    if m:
        return (-math.inf, int(m.group(1)))
    m = re.search(r"(-?\d+)\s*-\s*(-?\d+)", low_text)
    if m:
        return (int(m.group(1)), int(m.group(2)))
    raise ValueError(f"cannot read the success condition {text!r}")


# -- combat chits ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chit:
    """One combat chit as printed (5.2.1): die and modifier, RE table, Spt row, Adv MP."""

    id: str
    cup: str  # "hasty" (Meeting Engagement/Hasty Attack mug) or "prepared"
    die: int  # 10 or 6
    modifier: int
    re: str  # Random Event Table A, B or C
    spt: str  # Support Planning row A-D
    adv: int

    @property
    def label(self) -> str:
        return f"{self.id} (D{self.die} {self.modifier:+d}, RE {self.re}, Spt {self.spt}, Adv {self.adv})"


#: The chits read from each combat_chits table (by the table's identity; a loaded table does not change).
_CHITS: dict[int, tuple[Table, list[Chit]]] = {}


def chits(g: Game) -> list[Chit]:
    """The combat chits of the game's table, read once per table (every combat reads them)."""
    t = table(g, "combat_chits")
    cached = _CHITS.get(id(t))
    if cached is None or cached[0] is not t:
        found = [Chit(r["chit"], r["cup"], int(r["die"].strip().upper().lstrip("D")), int(r["modifier"].replace("+", "")),
                      r["re"].strip(), r["spt"].strip(), int(r["adv"])) for r in t.rows]
        cached = _CHITS[id(t)] = (t, found)
    return list(cached[1])


def chit(g: Game, chit_id: str) -> Chit:
    for c in chits(g):
        if c.id == chit_id:
            return c
    raise Refusal(f"{chit_id!r} is not one of the game's combat chits", allowed=[c.id for c in chits(g)])


def cup_for(combat_type: str) -> str:
    """5.2.1: Meeting Engagement/Hasty Attack chits in one mug, Prepared/Deliberate in the other."""
    return "hasty" if combat_type in ("Meeting Engagement", "Hasty Attack") else "prepared"


def cup(g: Game, combat_type: str) -> list[Chit]:
    return [c for c in chits(g) if c.cup == cup_for(combat_type)]


# -- weather track ---------------------------------------------------------------------------------


def month_row(g: Game, month: str) -> dict:
    t = table(g, "weather_track")
    try:
        return dict(t.row(month))
    except KeyError:
        months = ", ".join(r["month"] for r in t.rows)
        raise ValueError(f"month {month!r} is not on the Game Turn Record Track ({months})") from None


def is_winter_month(g: Game, month: str) -> bool:
    return month_row(g, month)["winter"].strip().lower() == "yes"


def infrastructure_limits(g: Game, side: str) -> tuple[int, int]:
    """(min, max) of a side's Infrastructure (7.0; table `track_limits`): 2-19 Communist, 0-19 UN."""
    row = next(r for r in table(g, "track_limits").rows if r["track"] == "infrastructure" and r["side"] == side)
    return int(row["min"]), int(row["max"])
