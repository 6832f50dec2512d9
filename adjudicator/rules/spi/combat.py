"""SPI Korea combat (Combat, Cases (A)-(L); Supply (A), (C), (E), (I); Terrain Effects Chart; Naval
Units (C), (F); Bridges; Special Game Rules: Intervention (3)).

Procedure, as the book orders it:
1. Attack strength: each attacking unit's Combat Strength, halved (fractions dropped) when out of
   supply (Supply (A)); Communist strengths doubled when attacking in the Intervention Game's first
   three Combat Phases / the Campaign's Shock turns (Intervention (3a)). Naval Gun units add six each
   within two hexes of the defender (Naval Units (F)).
2. Defence strength: each defending unit halved when out of supply, fractions dropped BEFORE any
   multiplying ("In all cases of halving, drop any fractions before multiplying, such as for
   defensive combat", Supply (A)); then doubled in Rough terrain (TEC; not under Intervention (3c)).
3. Odds = attack : defence "rounded off in favor of the Defender" (Combat (G)): the highest column of
   the table not above the true ratio; 26 against 9 is 2-1.
4. The defender chooses the table (Combat (J)): Meeting Engagement or Pursuit always; Position Defense
   only in a Town hex, on a River hex attacked by units not on an adjacent River hex of the same river,
   or when under an Entrenched counter and in supply (out-of-supply units may not benefit from
   entrenchment, Supply (E)); amphibious assaults are always resolved on it (Naval Units (C)).
5. One die; the cell of the chosen table (DATA: tables/crt_*.csv, stand-ins until the published tables
   are supplied) gives Dx, D1-3, E1-2, A1-3 or Ax, and on the Pursuit table the hexes the defender
   retreats ("rN"; at least one hex whatever the outcome).
6. Losses in regiments (losses.py), Communist losses doubled against non-Korean UN units (Combat (K))
   unless Intervention (3b) suspends it.
7. Offensive supply (Supply (C)): a Communist supply unit that supplied the attack is removed at the end
   of the Combat Phase.
8. Bridges: a defender on a bridge hex eliminated or retreated by the Pursuit table blows the bridge.

Readings where the book is silent or ambiguous (the alternative in brackets):
- Odds below the lowest column use the lowest column, above the highest the highest (the stand-in
  tables' convention) [an automatic result].
- Position Defense on a river hex: Combat (J)'s "not on an adjacent River hex of the same river" (same
  river by hexside name) [the TEC's stricter "all attacking units are on non-river hexes"].
- Position Defense by entrenchment needs every defending unit entrenched and in supply.
- Naval Gun strength is added after the Rough doubling (the gun is at sea, not in the hex).
- Combat (K) counts land units only: a Naval Gun in support does not trigger loss doubling.
- A defending stack of strength 0 (supply units alone) is attacked on the highest column.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, register_check
from adjudicator.rules.spi import board as sb
from adjudicator.rules.spi import data, losses, special
from adjudicator.rules.spi.movement import halve
from adjudicator.rules.spi.schemas import HEX_PATTERN, ScenarioName, unique
from scenarios.model import Game, GameMap, Table

TableName = Literal["meeting", "position", "pursuit"]


# -- odds ------------------------------------------------------------------------------------------


def column_ratio(column: str) -> Fraction:
    """'2-1' -> 2, '1-3' -> 1/3."""
    a, b = column.split("-")
    return Fraction(int(a), int(b))


def odds_columns(t: Table) -> list[str]:
    """The table's odds columns, lowest odds first."""
    return sorted((c for c in t.columns if c != t.key), key=column_ratio)


@dataclass
class Odds:
    column: str
    ratio: Fraction | None  # None: defence 0
    clamped: str = ""  # "" / "below" / "above" the table's columns


def odds_column(t: Table, attack: int, defence: int) -> Odds:
    """Combat (G): round the ratio down in the defender's favour to a column of the table."""
    columns = odds_columns(t)
    if attack < 1:
        raise ValueError("the attack strength is 0: no attack is possible")
    if defence <= 0:
        return Odds(columns[-1], None, "above")
    ratio = Fraction(attack, defence)
    fitting = [c for c in columns if column_ratio(c) <= ratio]
    if not fitting:
        return Odds(columns[0], ratio, "below")
    clamped = "above" if fitting[-1] == columns[-1] and ratio > column_ratio(columns[-1]) else ""
    return Odds(fitting[-1], ratio, clamped)


def parse_result(cell: str) -> tuple[str, int]:
    """'D1 r2' -> ('D1', 2); 'Ax' -> ('Ax', 0)."""
    parts = cell.split()
    retreat = 0
    for extra in parts[1:]:
        if extra.startswith("r") and extra[1:].isdigit():
            retreat = int(extra[1:])
        else:
            raise ValueError(f"combat result cell {cell!r} is not of the form 'D1' or 'D1 r2'")
    code = parts[0]
    if code not in ("Dx", "Ax") and not (code[0] in "DAE" and code[1:].isdigit()):
        raise ValueError(f"combat result {code!r} is not one of Combat (J)'s codes")
    return code, retreat


# -- request ---------------------------------------------------------------------------------------


class Attacker(BaseModel):
    model_config = ConfigDict(extra="forbid")

    unit: str = board("unit", min_length=1, max_length=60,
                      description="Unit id from units.csv, e.g. 'cpv-a38', 'us-d2'.")
    hex: str = board("hex", pattern=HEX_PATTERN,
                     description="Hex the unit attacks from (adjacent to the defender, Combat (A)).")
    in_supply: bool = Field(default=True, description="In supply at the instant of combat (Supply, Procedure; use the "
                            "`supply` check). Out of supply: strength halved, fractions dropped (Supply (A)).")
    supply_unit: str = Field(default="", max_length=60, description="Communist attackers in supply: the Communist supply "
                             "unit supplying this attack; it is removed at the end of the Combat Phase (Supply (C)).")


class Defender(BaseModel):
    model_config = ConfigDict(extra="forbid")

    unit: str = board("unit", min_length=1, max_length=60, description="Unit id of a unit in the defending hex.")
    in_supply: bool = Field(default=True, description="In supply at the instant of combat; out of supply halves "
                            "its strength and denies entrenchment (Supply (A), (E)).")
    entrenched: bool = Field(default=False, description="Under an Entrenched counter (Combat (I)).")


class NavalGun(BaseModel):
    model_config = ConfigDict(extra="forbid")

    unit: str = Field(min_length=1, max_length=60, description="A UN Naval Gun unit (e.g. 'un-ng-1').")
    hex: str = Field(pattern=HEX_PATTERN, description="Its hex: at most two hexes from the defender (Naval Units (F)).")


class CombatRequest(CheckRequest):
    """One attack on one hex (Combat (A)-(K)): strengths, odds, the defender's table, the die, losses."""

    scenario: ScenarioName = board("scenario", description="Game played: a scenario id of the data, e.g. 'invasion'.")
    game_turn: int | None = board("turn", default=None, ge=1, le=60,
                                  description="The Game-Turn: Intervention turns 1-3 bring "
                                  "Special Game Rules (1)-(3); Invasion turns 1-3 the stand-in rule (1).")
    shock_effect_active: bool = Field(default=False, description="Campaign Game only: this is one of the three Shock "
                                      "Effect turns (check `shock_effect`), so Intervention rules (1)-(4) apply.")
    defender_hex: str = board("target_hex", pattern=HEX_PATTERN,
                              description="The hex attacked (Combat (D): one hex per attack).")
    attackers: list[Attacker] = board("attackers", min_length=1, max_length=12,
                                      description="Every attacking unit, in the order the "
                                      "attacker takes losses from them.")
    defenders: list[Defender] = board("defenders", min_length=1, max_length=12,
                                      description="Every unit in the defending hex (Combat "
                                      "(F): they defend together), in the order the defender takes losses.")
    table: TableName = Field(description="The defender's choice of Combat Results Table (Combat (J)): meeting, position "
                             "(only where eligible) or pursuit.")
    naval_guns: list[NavalGun] = Field(default_factory=list, max_length=4, description="UN Naval Gun units supporting "
                                       "the UN side (attack or defence), six each (Naval Units (F)).")
    amphibious_assault: bool = Field(default=False, description="UN units attacking a port from an Amph unit: always "
                                     "the Position Defense table; attackers need not be adjacent (Naval Units (C)).")
    defender_losses_from: list[str] = Field(default_factory=list, max_length=12, title="Defender's losses taken from",
                                            json_schema_extra={"x-chosen-by": "defender"}, description=(
        "The defender's choice of which of his units lose regiments first (Combat (J): 'units may be broken down to "
        "remove the exact losses'; the book names no chooser, so each player takes his own): his units in the "
        "defending hex, in that order, a division named first being broken down first. Units left out follow in "
        "the order listed; left out altogether: the order the defenders are listed."))
    attacker_losses_from: list[str] = Field(default_factory=list, max_length=12, title="Attacker's losses taken from",
                                            description=(
        "The attacker's choice of which of his units lose regiments first (as defender_losses_from); left out: the "
        "order the attackers are listed."))
    counters_not_in_play: list[str] | None = board("counters_not_in_play", default=None, max_length=300, description=(
        "The counters lying in the sides' boxes of counters not in play: what a breakdown places on the hex "
        "(Stacking & Unit Breakdown). Left out: every breakdown counter of the game the request does not place "
        "on the map; [] none."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        validate(g, self)
        return self


def validate(g: Game, req: CombatRequest) -> None:
    gm = data.scenario_map(g, req.scenario)
    ids = [a.unit for a in req.attackers] + [d.unit for d in req.defenders] + [n.unit for n in req.naval_guns]
    if not unique(ids):
        raise ValueError("a unit is listed twice (Combat (C): no unit attacks more than once)")
    target = sb.parse(gm, req.defender_hex)
    att_side = {data.unit(g, a.unit).side for a in req.attackers}
    def_side = {data.unit(g, d.unit).side for d in req.defenders}
    if len(att_side) != 1 or len(def_side) != 1 or att_side == def_side:
        raise ValueError("attackers must all be of one side and defenders all of the other")
    for a in req.attackers:
        u = data.unit(g, a.unit)
        if data.is_naval(u) or data.is_supply_unit(u):
            raise ValueError(f"{a.unit} cannot attack: naval and supply units have no Combat Strength "
                             "(Naval Guns support through `naval_guns`)")
        h = sb.parse(gm, a.hex)
        if not req.amphibious_assault and not gm.grid.are_adjacent(h, target):
            raise ValueError(f"{a.unit} in {a.hex} is not adjacent to {req.defender_hex} (Combat (A))")
        if a.supply_unit:
            s = data.unit(g, a.supply_unit)
            if u.side != "communist" or not data.is_supply_unit(s) or s.side != "communist":
                raise ValueError(f"{a.unit}: supply_unit {a.supply_unit!r} must be a Communist supply unit supplying a "
                                 "Communist attacker (Supply (C))")
            if not a.in_supply:
                raise ValueError(f"{a.unit} names a supply unit but is marked out of supply")
    for role, units, chosen in (("defender", req.defenders, req.defender_losses_from),
                                ("attacker", req.attackers, req.attacker_losses_from)):
        listed = {x.unit for x in units}
        if not unique(chosen) or not set(chosen) <= listed:
            raise ValueError(f"{role}_losses_from names the {role}'s own units of this attack, each once: "
                             f"{', '.join(x.unit for x in units)} (Combat (J))")
    for u in req.counters_not_in_play or ():
        data.unit(g, u)
    for d in req.defenders:
        if data.is_naval(data.unit(g, d.unit)):
            raise ValueError(f"{d.unit} is a naval unit: naval and land units do not affect one another (Naval Units (D))")
    for n in req.naval_guns:
        u = data.unit(g, n.unit)
        if not data.is_naval_gun(u):
            raise ValueError(f"{n.unit} is not a Naval Gun unit (Naval Units (F))")
        rng = data.int_parameter(g, "naval_gun_range")
        if gm.grid.distance(sb.parse(gm, n.hex), target) > rng:
            raise ValueError(f"Naval Gun {n.unit} in {n.hex} is more than {rng} hexes from the defender (Naval Units (F))")
    if req.amphibious_assault:
        if att_side != {"un"}:
            raise ValueError("only UN units make amphibious assaults (Naval Units (C))")
        if not gm.features_at(target, "port"):
            raise ValueError(f"{req.defender_hex} is not a port: Amph units only assault ports (Naval Units (C))")
        if req.table != "position":
            raise ValueError("an amphibious assault is resolved on the Position Defense table (Naval Units (C))")
        inchon = data.special(g, req.scenario, "inchon_assault_turns")
        if inchon and target in gm.find_named(inchon.get("port", "Inchon")):
            turns = list(inchon.get("turns", []))
            if req.game_turn not in turns:
                raise ValueError(f"Inchon may only be assaulted on Game-Turns {', '.join(map(str, turns))} of the Invasion "
                                 f"Game (Naval Units (C)); give game_turn (got {req.game_turn})")
    rules = special.in_force(g, req.scenario, req.game_turn, req.shock_effect_active)
    if att_side == {"communist"} and not rules.communist_always_supplied:
        for a in req.attackers:
            if a.in_supply and not a.supply_unit:
                raise ValueError(f"Communist attacker {a.unit} is marked in supply: name the supply unit supplying the "
                                 "attack in `supply_unit` (it is removed after the Combat Phase, Supply (C)), or mark it "
                                 "out of supply")
    if req.table == "position":
        ok, why = position_defense_eligible(g, gm, req, rules)
        if not ok:
            raise ValueError(f"the Position Defense table is not available here: {why} (Combat (J))")


# -- eligibility and strengths ---------------------------------------------------------------------


def position_defense_eligible(g: Game, gm: GameMap, req: CombatRequest, rules: special.InForce) -> tuple[bool, str]:
    """Combat (J): 'in a Town hex, on a River hex (and attacked by units not on an adjacent River hex of
    the same river), or when under an Entrenchment counter and in supply'; Naval Units (C)."""
    target = sb.parse(gm, req.defender_hex)
    if req.amphibious_assault:
        return True, "amphibious assault (Naval Units (C))"
    if sb.is_town(gm, target):
        return True, f"{req.defender_hex} is a town hex (TEC City)"
    if sb.is_river_hex(gm, target):
        rivers = sb.river_names(gm, target)
        offending = []
        for a in req.attackers:
            h = sb.parse(gm, a.hex)
            if sb.is_river_hex(gm, h) and (not rivers or not any(rivers) or sb.river_names(gm, h) & rivers):
                offending.append(a.unit)
        if not offending:
            return True, f"{req.defender_hex} is a river hex attacked from off the river (TEC River)"
        river_why = f"the river hex is attacked by {', '.join(offending)} on a river hex of the same river"
    else:
        river_why = f"{req.defender_hex} is neither a town nor a river hex"
    def_supplied = [d.in_supply or (data.unit(g, d.unit).side == "communist" and rules.communist_always_supplied)
                    for d in req.defenders]
    if all(d.entrenched for d in req.defenders) and all(def_supplied):
        return True, "every defending unit is entrenched and in supply (Combat (I))"
    if any(d.entrenched for d in req.defenders):
        return False, river_why + "; entrenchment counts only when every defender is entrenched and in supply (Supply (E))"
    return False, river_why + ", and the defenders are not entrenched"


@dataclass
class Strengths:
    attack: int
    defence: int
    steps: list[Step]


def unit_strength(printed: int, in_supply: bool) -> int:
    """Supply (A): out of supply, halved with fractions dropped."""
    return printed if in_supply else halve(printed)


def strengths(g: Game, gm: GameMap, req: CombatRequest, rules: special.InForce) -> Strengths:
    steps: list[Step] = []
    target = sb.parse(gm, req.defender_hex)
    attack = 0
    parts = []
    for a in req.attackers:
        u = data.unit(g, a.unit)
        supplied = a.in_supply or (u.side == "communist" and rules.communist_always_supplied)
        s = unit_strength(data.strength(u), supplied)
        text = f"{a.unit} {data.strength(u)}" + ("" if supplied else f" halved to {s} (out of supply)")
        if u.side == "communist" and rules.communist_attack_multiplier > 1:
            s *= rules.communist_attack_multiplier
            text += f" multiplied by {rules.communist_attack_multiplier} to {s} ({rules.cite(special.COMBAT_SHOCK)} a)"
        attack += s
        parts.append(text)
    steps.append(Step("Attack: " + "; ".join(parts) + f" = {attack}.", "Combat, Procedure; Supply (A)"))
    defence = 0
    parts = []
    for d in req.defenders:
        u = data.unit(g, d.unit)
        supplied = d.in_supply or (u.side == "communist" and rules.communist_always_supplied)
        s = unit_strength(data.strength(u), supplied)
        parts.append(f"{d.unit} {data.strength(u)}" + ("" if supplied else f" halved to {s} (out of supply)"))
        defence += s
    steps.append(Step("Defence: " + "; ".join(parts) + f" = {defence} (fractions dropped before any multiplying).",
                      "Combat (F); Supply (A)"))
    if sb.is_rough(gm, target):
        if rules.rough_doubling:
            defence *= data.int_parameter(g, "rough_defence_multiplier")
            steps.append(Step(f"{req.defender_hex} is Rough terrain: defence doubled to {defence}.", "Terrain Effects Chart"))
        else:
            steps.append(Step(f"{req.defender_hex} is Rough terrain, but no units are doubled in Rough this turn.",
                              f"{rules.cite(special.COMBAT_SHOCK)} c"))
    if req.naval_guns:
        support = sum(data.strength(data.unit(g, n.unit)) for n in req.naval_guns)
        un_attacks = data.unit(g, req.attackers[0].unit).side == "un"
        if un_attacks:
            attack += support
        else:
            defence += support
        steps.append(Step(f"Naval Gun support {support} added to the UN {'attack' if un_attacks else 'defence'}: "
                          f"{attack} to {defence}.", "Naval Units (F)"))
    return Strengths(attack, defence, steps)


def loss_doubling_applies(g: Game, req: CombatRequest) -> bool:
    """Combat (K): 'if all or any part of the attacking or defending units are non-Korean UN units'."""
    ids = [a.unit for a in req.attackers] + [d.unit for d in req.defenders]
    return any(data.is_non_korean_un(data.unit(g, uid)) for uid in ids)


# -- resolution ------------------------------------------------------------------------------------


def in_order(units: list[str], chosen: list[str]) -> list[str]:
    """A side's units in the order they take losses: the owner's choice first, the others as listed."""
    return list(chosen) + [u for u in units if u not in chosen]



def resolve(g: Game, req: CombatRequest, dice: Dice) -> CheckResult:
    gm = data.scenario_map(g, req.scenario)
    rules = special.in_force(g, req.scenario, req.game_turn, req.shock_effect_active)
    steps = [Step(n, rules.rule) for n in rules.notes]
    st = strengths(g, gm, req, rules)
    steps += st.steps
    table_id = data.CRT_TABLES[req.table]
    t = data.table(g, table_id)
    odds = odds_column(t, st.attack, st.defence)
    ratio = "defence 0" if odds.ratio is None else f"{st.attack}:{st.defence}"
    text = f"Odds {ratio} rounded down in the defender's favour: column {odds.column}."
    if odds.clamped == "below":
        text = f"Odds {ratio} are below the table's lowest column: resolved at {odds.column}."
    elif odds.clamped == "above":
        text = f"Odds {ratio} are above the table's highest column: resolved at {odds.column}."
    # Beyond its columns, the table's own convention applies (its note): cite the table.
    steps.append(Step(text, data.cite("Combat (G)", t) if odds.clamped else "Combat (G)"))
    ok, why = position_defense_eligible(g, gm, req, rules)
    steps.append(Step(f"The defender chooses the {data.CRT_NAMES[req.table]} table. Position Defense "
                      f"{'available' if ok else 'not available'}: {why}.", "Combat (J)"))
    (roll,) = dice.roll(6, purpose=f"combat, {data.CRT_NAMES[req.table]} table at {odds.column}")
    cell = t.cell(str(roll), odds.column)
    code, retreat = parse_result(cell)
    steps.append(Step(f"Die {roll} on the {data.CRT_NAMES[req.table]} table, column {odds.column}: {cell}.",
                      data.cite("Combat (J)", t)))

    attackers = [a.unit for a in req.attackers]
    defenders = [d.unit for d in req.defenders]
    att_side = data.unit(g, attackers[0]).side
    doubling = loss_doubling_applies(g, req)
    if doubling and not rules.communist_loss_doubling:
        steps.append(Step("Communist losses against non-Korean UN units are NOT doubled this turn (Armies still lose "
                          "divisions).", f"{rules.cite(special.COMBAT_SHOCK)} b"))
        doubling = False
    elif doubling:
        steps.append(Step("Non-Korean UN units take part: Communist losses are doubled, except losses taken as "
                          "divisions from Armies.", "Combat (K)"))
    att_loss = def_loss = None
    n = int(code[1:]) if code[1:].isdigit() else 0
    if code == "Dx":
        def_loss = losses.destroy_all(defenders)
    elif code == "Ax":
        att_loss = losses.destroy_all(attackers)
    spares = losses.Spares(g, losses.spares_of(g, req.counters_not_in_play, set(attackers + defenders)))
    to_choose = _defenders_choice(g, req, n if code[0] in "DE" else 0, bool(doubling and att_side == "un"), steps)
    if to_choose is None and code[0] in "DE" and n:
        def_loss = losses.take_losses(g, in_order(defenders, req.defender_losses_from), n,
                                      doubling and att_side == "un", spares)
    if code[0] in "AE" and n:
        att_loss = losses.take_losses(g, in_order(attackers, req.attacker_losses_from), n,
                                      doubling and att_side == "communist", spares)
    for who, rep in (("Defender", def_loss), ("Attacker", att_loss)):
        if rep is None:
            continue
        detail = "; ".join(rep.notes)
        steps.append(Step(f"{who} loses: {', '.join(rep.eliminated) or 'nothing'}"
                          + (f" ({detail})" if detail else "")
                          + (f"; left: {', '.join(rep.remaining)}" if rep.remaining else "; nothing left") + ".",
                          "Combat (J), (K); Stacking & Unit Breakdown"))
    defender_survives = code != "Dx" and (def_loss is None or bool(def_loss.remaining))
    if req.table == "pursuit" and defender_survives:
        minimum = data.int_parameter(g, "pursuit_minimum_retreat")
        if retreat < minimum:
            retreat = minimum
        steps.append(Step(f"Pursuit table: the defender retreats {retreat} hex(es) (always at least {minimum}).",
                          "Combat (J)"))
    else:
        retreat = 0
    supply_used = sorted({a.supply_unit for a in req.attackers if a.supply_unit})
    if supply_used:
        steps.append(Step(f"Supply unit(s) {', '.join(supply_used)} supplied this attack: removed at the end of the "
                          "Combat Phase.", "Supply (C)"))
    target = sb.parse(gm, req.defender_hex)
    bridge = sb.is_river_hex(gm, target) and target in sb.road_hexes(gm)
    blown = bridge and (not defender_survives or retreat > 0)
    if blown:
        steps.append(Step(f"{req.defender_hex} is a bridge hex whose defender was eliminated or retreated by the "
                          "Pursuit table: it is a river hex in all respects until a friendly unit moves across it.",
                          "Bridges"))
    entrenched_removed = [d.unit for d in req.defenders if d.entrenched and def_loss is not None and d.unit in def_loss.eliminated]
    warnings = data.table_warnings(g, table_id) + data.map_warnings(g, gm.id) + rules.warnings
    missing = [name for rep in (def_loss, att_loss) if rep is not None for name in rep.missing_counters]
    if missing:
        warnings.append(f"No counter not in play is left for {', '.join(missing)}: place a counter of those values by "
                        "hand (Stacking & Unit Breakdown).")
    survivors = def_loss.remaining if def_loss is not None else defenders
    retreats = [{"unit": u, "retreat_hexes": retreat} for u in survivors] if retreat and to_choose is None else []
    if to_choose is not None:  # the survivors retreat once he has chosen: his losses ruling orders it
        to_choose["retreat_hexes"] = retreat
    outcome = {
        "attack_strength": st.attack, "defence_strength": st.defence, "odds": odds.column,
        "table": req.table, "position_defense_available": ok, "roll": roll, "result": code, "cell": cell,
        "defender_losses": def_loss.to_json() if def_loss else None,
        "attacker_losses": att_loss.to_json() if att_loss else None,
        "communist_losses_doubled": doubling, "defender_retreat_hexes": retreat, "retreats": retreats,
        "defender_losses_to_choose": to_choose,
        "supply_units_removed_after_combat_phase": supply_used,
        "bridge_blown": blown, "entrenched_counters_removed": entrenched_removed,
    }
    return CheckResult(outcome=outcome, steps=steps, warnings=warnings)


def _defenders_choice(g: Game, req: CombatRequest, regiments: int, doubled: bool, steps: list[Step]) -> dict | None:
    """Combat (J) names no chooser of the units that lose regiments: each player takes his own. A
    defending stack whose owner has not said which units lose them (`defender_losses_from`) leaves
    the choice open, owed by him (`chosen_losses`: he makes it with "Combat losses", naming this
    combat's record); the rules give no default. The choice (side, regiments, units, hex), or None."""
    defenders = [d.unit for d in req.defenders]
    fighting = [d for d in defenders if not data.is_supply_unit(data.unit(g, d))]
    if not regiments or req.defender_losses_from or len(fighting) < 2:
        return None
    steps.append(Step(f"The defender loses {regiments} CRT loss(es) in regiments{' (doubled, Combat (K))' if doubled else ''}"
                      f": which of his units in {req.defender_hex} lose them is his choice (the book names no chooser, "
                      "so each player takes his own). He makes it with 'Combat losses', naming this combat's record.",
                      "Combat (J), (K)"))
    return {"side": data.unit(g, defenders[0]).side, "regiments": regiments, "doubled": doubled, "units": defenders,
            "hex": req.defender_hex}


@register_check(system="spi", name="combat", request=CombatRequest, random=True,
                summary="One attack: strengths, odds in the defender's favour, the defender's CRT, the die, losses "
                        "in regiments", rule="Combat (A)-(L); Supply (A), (C); TEC; Naval Units (F)",
                actor=data.owner("the attacking units (the attacker announces the attack)", "Combat (D)",
                                 lambda r: [a.unit for a in r.attackers]),
                example={"scenario": "stalemate",
                         "defender_hex": "0201",
                         "table": "meeting",
                         "attackers": [{"unit": "us-d2", "hex": "0101"}],
                         "defenders": [{"unit": "nk-d1"}],
                         "dice": [4]})
def combat(req: CombatRequest, dice: Dice) -> CheckResult:
    return resolve(data.game(), req, dice)
