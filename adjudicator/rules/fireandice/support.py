"""Combat support (5.3, 8.0-8.3): tank, artillery, air, bombardment and adjacent units.

8.2: "(Support level - Planning time) x Terrain effects (rounded down)" for tank, artillery and air
support; air support and bombardment are treated as artillery for terrain (5.3.1, 5.3.2).  The
planning deduction is the chit's Spt row for the attacker and the combat type's row for the
defender (Support Planning Table, tables `support_planning_attacker` / `_defender`); bombardment's
planning value is always 2 (5.3.2).  Both sides use the combat hex's terrain (5.3.1).

Road option (5.3.1): if a road or railroad joins the declaring attacker's hex and the combat hex,
and that road does not cross a river, the attacker may use the road's tank factor (1 for 1) and
pays one tank support level at the end of the combat, win or lose (5.6).

Adjacent units (5.3.3, 8.3; table `adjacent_support`): attacker 1, 2, 3 ... cumulative, doubled for a
Deliberate Attack; defender 2 per unit.

Who gets nothing (6.1, 6.2, 14.2, 14.3, 5.5): markers on the declaring and the defending unit decide
the support a combat gets (8.3).  OOC: no support of any type (6.2 i).  Routed / Bug Out defender:
no support of any type (6.2 f, g).  Radio failure (Random Event A-4): the defender adds no support.
Task Forces and the 187 RCT: terrain modifiers only (14.2, 14.3).  Disrupted defender: no artillery
or tank (6.2 e).  Ammo Shortage halves the final artillery modifier (rounded down), Ammo Out removes
it; Fuel Shortage / Fuel Out likewise for tank (6.1 b, c).  Tank and artillery need the combat
hex's LoC to a friendly HQ or cadre (5.3.1); a US declaring/defending unit needs its cadre within
6 MP for them (9.4, 14.5); an interdicted call for support gets none (10.4.2).

Air as artillery (5.3.1: "Note that all references to Artillery apply equally to air support
used"): the engine reads "all references" as written - every rule above that takes artillery
support away or halves it (Ammo Shortage/Out, a Disrupted defender, no LoC from the combat hex, a
US unit beyond its cadre's 6 MP, an interdicted call) does the same to air support, and air takes
artillery's terrain factor.  The narrower reading - air is artillery only for terrain, as 5.4.3 and
10.4.3 restate it ("treated as artillery when applying terrain modifiers") - is not implemented:
those restatements name one case of the rule and do not limit it.  Not carried over: 5.6's loss of
artillery support LEVELS, since 8.1 lets only tank and artillery levels "decrease due to combat
results" and air support used pays by its stay-on-station rolls (10.4.3).

Readings: a level below its planning deduction gives 0, not a negative modifier (8.2 is silent).
"No support of any type" includes adjacent units (6.2 i "any support of any type"; 5.5 "may not add
any support").  Bombardment follows 5.3.2 ("bombardment support level - 2"); 11.2 says "the total
value is used" - alternative not implemented.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from scenarios.model import Game

from adjudicator.checks import Step
from adjudicator.rules.fireandice import data
from adjudicator.rules.fireandice.board import TerrainEffects, terrain_effects

RULE = "5.3 Combat Support; 8.2"
#: 5.3.1, the book's words: why the rules on artillery support also take away air support.
AIR_AS_ARTILLERY = "Note that all references to Artillery apply equally to air support used."


@dataclass
class SideSupport:
    """What one side brings to a combat: its track levels and the state of its lead unit."""

    tank_level: int = 0
    artillery_level: int = 0
    air_level: int = 0
    bombardment_level: int = 0
    use_tank: bool = True
    use_artillery: bool = True
    use_air: bool = True
    air_used: tuple[tuple[str, int], ...] | None = None  # (aircraft, rating) used, in order (10.4.3)
    use_bombardment: bool = True
    adjacent_units: int = 0
    lead_markers: frozenset[str] = frozenset()
    task_force: bool = False  # the lead unit is a Task Force or the 187 RCT (14.2, 14.3)
    combat_hex_loc: bool = True  # the combat hex traces an LoC to a friendly HQ or cadre (5.3.1)
    cadre_in_range: bool = True  # US lead unit: its cadre within 6 MP (9.4)
    support_interdicted: bool = False  # the call for tank/artillery was interdicted (10.4.2)


@dataclass
class SupportResult:
    tank: int = 0
    artillery: int = 0
    air: int = 0
    bombardment: int = 0
    adjacent: int = 0
    tank_available: int = 0  # after the planning deduction, before terrain (for 5.6 support losses)
    artillery_available: int = 0
    air_aircraft: list[str] | None = None  # aircraft that added ground support (they roll to stay on station)
    steps: list[Step] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.tank + self.artillery + self.air + self.bombardment + self.adjacent

    def to_json(self) -> dict:
        out = {"tank": self.tank, "artillery": self.artillery, "air": self.air, "bombardment": self.bombardment,
               "adjacent": self.adjacent, "total": self.total}
        if self.air_aircraft is not None:
            out["air_aircraft"] = list(self.air_aircraft)
        return out


def planning(g: Game, role: str, spt: str, combat_type: str) -> dict[str, int]:
    """Support points subtracted (5.3.1): the chit's Spt row (attacker) or the combat type (defender)."""
    if role == "attacker":
        t = data.table(g, "support_planning_attacker")
        key = spt
    else:
        t = data.table(g, "support_planning_defender")
        key = combat_type
    return {kind: data.cell_int(t, key, kind) for kind in ("tank", "artillery", "air")}


def adjacent_support(g: Game, role: str, units: int, combat_type: str) -> int:
    """5.3.3 / 8.3 from table `adjacent_support` (rows per number of adjacent units)."""
    if units <= 0:
        return 0
    t = data.table(g, "adjacent_support")
    column = "defender" if role == "defender" else (
        "attacker_deliberate" if combat_type == "Deliberate Attack" else "attacker")
    known = [int(r["units"]) for r in t.rows]
    if units in known:
        return data.cell_int(t, units, column)
    # beyond the printed rows: continue the printed rule (n(n+1)/2, doubled; 2 per defender unit)
    n = units
    if column == "defender":
        return 2 * n
    base = n * (n + 1) // 2
    return 2 * base if column == "attacker_deliberate" else base


def _apply(available: int, factor: Fraction) -> int:
    return math.floor(available * factor)


def _factor_text(f: Fraction) -> str:
    return f"{f.denominator} for {f.numerator}" if f.numerator == 1 else str(f)


def determine(g: Game, role: str, side: str, s: SideSupport, combat_type: str, spt: str, terrain: TerrainEffects,
              road_bonus: bool = False, bombardment_in_range: bool = False, radio_failure: bool = False,
              ) -> SupportResult:
    """The tank, artillery, air, bombardment and adjacent-unit modifiers of one side (5.3, 8.2, 8.3)."""
    r = SupportResult()
    who = f"{'Attacker' if role == 'attacker' else 'Defender'} ({data.SIDE_NAMES[side]})"
    markers = s.lead_markers
    if s.task_force:
        r.steps.append(Step(f"{who}: a Task Force (or the 187 RCT) receives terrain modifiers only, never support.",
                            "14.2 UN Task Forces; 14.3"))
        return r
    if "ooc" in markers:
        r.steps.append(Step(f"{who}: the {'declaring' if role == 'attacker' else 'defending'} unit is OOC - no support of any type.",
                            "6.2 i OOC"))
        return r
    if role == "defender" and ({"routed", "bug_out"} & markers):
        r.steps.append(Step(f"{who}: no support of any type may be given to a Routed (or Bug Out) defending unit.",
                            "6.2 f Rout; 6.2 g Bug Out"))
        return r
    if role == "defender" and radio_failure:
        r.steps.append(Step(f"{who}: Radio failure - the defender may not add any support this combat.", "5.5 Table A 4"))
        return r
    if role == "attacker" and ({"routed", "bug_out"} & markers):
        raise ValueError("a Routed (or Bug Out) unit may not attack (6.2 f)")

    plan = planning(g, role, spt, combat_type)
    source = f"row {spt} (chit Spt)" if role == "attacker" else f"the {combat_type} row"
    r.steps.append(Step(f"{who}: planning deduction from {source}: tank {plan['tank']}, artillery "
                        f"{plan['artillery']}, air {plan['air']}.", "5.3.1 Support Planning Table"))
    tank_ok = artillery_ok = True
    why_not = ""
    if not s.combat_hex_loc:
        tank_ok = artillery_ok = False
        why_not = "the combat hex traces no LoC to a friendly HQ or cadre (5.3.1)"
    elif not s.cadre_in_range:
        tank_ok = artillery_ok = False
        why_not = "the US unit is not within 6 MP of its division cadre (9.4, 14.5)"
    elif s.support_interdicted:
        tank_ok = artillery_ok = False
        why_not = "the call for tank and artillery support was interdicted (10.4.2)"
    if role == "defender" and "disrupted" in markers:
        tank_ok = artillery_ok = False
        why_not = "a Disrupted defending unit may not use artillery or tank support (6.2 e)"
    if why_not:
        r.steps.append(Step(f"{who}: no tank, artillery or air support: {why_not}; air as artillery: \"{AIR_AS_ARTILLERY}\"",
                            f"{RULE}; 5.3.1"))

    # tank
    tank_factor = terrain.tank if terrain.tank is not None else Fraction(1)
    tank_factor_name = f"{terrain.terrain} {_factor_text(tank_factor)}"
    if road_bonus and role == "attacker":
        road = terrain_effects(g, "road").tank
        if road is not None:
            tank_factor = road
            tank_factor_name = f"road {_factor_text(road)} (road option: -1 tank level at the end of the combat)"
    r.tank_available = max(0, s.tank_level - plan["tank"])
    if tank_ok and s.use_tank:
        r.tank = _apply(r.tank_available, tank_factor)
        r.steps.append(Step(f"{who}: tank ({s.tank_level} - {plan['tank']}) = {r.tank_available} x {tank_factor_name}, "
                            f"rounded down -> {r.tank}.", "8.2"))
        r.tank = _marker_cut(r.tank, markers, "fuel", who, "tank", r.steps)
    # artillery
    art_factor = terrain.artillery if terrain.artillery is not None else Fraction(1)
    r.artillery_available = max(0, s.artillery_level - plan["artillery"])
    if artillery_ok and s.use_artillery:
        r.artillery = _apply(r.artillery_available, art_factor)
        r.steps.append(Step(f"{who}: artillery ({s.artillery_level} - {plan['artillery']}) = {r.artillery_available} x "
                            f"{terrain.terrain} {_factor_text(art_factor)}, rounded down -> {r.artillery}.", "8.2"))
        r.artillery = _marker_cut(r.artillery, markers, "ammo", who, "artillery", r.steps)
    # air (as artillery, 5.3.1: for terrain and for every rule that removes or halves artillery)
    if artillery_ok and s.use_air and s.air_level > 0:
        available = max(0, s.air_level - plan["air"])
        if s.air_used is None:
            r.air = _apply(available, art_factor)
            r.steps.append(Step(f"{who}: air ({s.air_level} - {plan['air']}) = {available} x {_factor_text(art_factor)} "
                                f"(as artillery) -> {r.air}; each aircraft used then rolls to stay on station.",
                                "5.3.1; 10.4.3 Ground Support"))
        else:
            used, r.air_aircraft = _air_used(s.air_used, available, who, s.air_level, plan["air"], r.steps)
            r.air = _apply(used, art_factor)
            r.steps.append(Step(f"{who}: air {used} x {_factor_text(art_factor)} (as artillery) -> {r.air}.",
                                "5.3.1; 10.4.3 Ground Support"))
        r.air = _marker_cut(r.air, markers, "ammo", who, "air", r.steps, note=f" (5.3.1: \"{AIR_AS_ARTILLERY}\")")
        if "ammo_out" in markers and r.air_aircraft:
            r.air_aircraft = []  # not used: no station rolls
    elif s.air_used is not None:
        r.air_aircraft = []
    # bombardment (UN only, as artillery for terrain, planning always 2)
    if s.bombardment_level > 0 and s.use_bombardment:
        if side != "un":
            raise ValueError("only the UN has bombardment support (5.3.2)")
        if bombardment_in_range:
            available = max(0, s.bombardment_level - 2)
            r.bombardment = _apply(available, art_factor)
            r.steps.append(Step(f"{who}: bombardment ({s.bombardment_level} - 2) = {available} x "
                                f"{_factor_text(art_factor)} (as artillery) -> {r.bombardment}.",
                                "5.3.2 Bombardment; 11.2"))
        else:
            r.steps.append(Step(f"{who}: no bombardment: the combat hex is not within 2 hexes of the coast the 7th "
                                "Fleet's Sea Station covers.", "11.2 Bombardment; 5.3.2"))
    # adjacent units
    r.adjacent = adjacent_support(g, role, s.adjacent_units, combat_type)
    if s.adjacent_units:
        how = ("1, 2, 3 ... cumulative" + (", doubled for a Deliberate Attack" if combat_type == "Deliberate Attack" else "")
               if role == "attacker" else "2 each")
        r.steps.append(Step(f"{who}: {s.adjacent_units} adjacent supporting unit(s) ({how}) -> +{r.adjacent}.",
                            "5.3.3; 8.3 Adjacency Support"))
    r.steps.append(Step(f"{who}: total support +{r.total}.", "5.4.3 Dice Modifiers"))
    return r


def _air_used(aircraft: tuple[tuple[str, int], ...], available: int, who: str, level: int, deduction: int,
              steps: list[Step]) -> tuple[int, list[str]]:
    """10.4.3: 'may use ground support values with one or more aircraft up to that total. You may use partial
    values (so if the allowed value is 3, you may use a 4 rated aircraft) - but only add 3'. Returns the value
    added and the aircraft that added it (each then rolls to stay on station)."""
    if sum(rating for _, rating in aircraft) > level:
        raise ValueError(f"{who}: the aircraft named rate {sum(r for _, r in aircraft)} together, more than the Air "
                         f"Support level {level} their box adds up to (10.4.3)")
    steps.append(Step(f"{who}: air available ({level} - {deduction}) = {available}, used with the aircraft named.",
                      "5.3.1; 10.4.3 Ground Support"))
    left, used = available, []
    for unit, rating in aircraft:
        adds = min(rating, left)
        if adds <= 0:
            steps.append(Step(f"{who}: {unit} is not needed (nothing left to add): not used, no station roll.", "10.4.3"))
            continue
        left -= adds
        used.append(unit)
        partial = f" (a partial value: {adds} of its {rating})" if adds < rating else ""
        steps.append(Step(f"{who}: {unit} adds {adds}{partial}; it rolls to stay on station after the combat.",
                          "10.4.3 Ground Support"))
    return available - left, used


def _marker_cut(value: int, markers: frozenset[str], kind: str, who: str, what: str, steps: list[Step],
                note: str = "") -> int:
    """Ammo/Fuel Shortage halves the final modifier (rounded down); Out removes it (6.1 b, c)."""
    rule = "6.1 b Ammo Shortage/Ammo Out" if kind == "ammo" else "6.1 c Fuel Shortage/Fuel Out"
    if note:
        rule += "; 5.3.1"
    if f"{kind}_out" in markers:
        steps.append(Step(f"{who}: {kind.capitalize()} Out - no {what} support{note}.", rule))
        return 0
    if f"{kind}_shortage" in markers:
        halved = value // 2
        steps.append(Step(f"{who}: {kind.capitalize()} Shortage - {what} support halved: {value} -> {halved}{note}.", rule))
        return halved
    return value
