"""Korean War Battles combat: the Exclusive Rules' modifiers around a combat table given as data.

The combat procedure and the Combat Results Table are Standard Rules, absent from the book (1.0).
The table is DATA (tables/crt.csv, tables/crt_results.csv, tables/terrain_effects.csv, labelled
stand-ins): a maintainer who installs the published table by overwriting those CSVs changes every
result without touching this module. Every result that used a stand-in says so in `warnings`.

What the Exclusive Rules do fix, and this module applies:
- 7.1 Zero Attack Strength Units "may not be part of an attack and so may not be depleted when the
  attacker implements combat results on his forces": they are dropped from the attack.
- 7.1 Intensive Attack (Communist only): double the Attack Strength of one, some or all involved
  units, chosen before support fire. Either declared (every doubled unit is depleted after the
  attack, whatever the result) or by burning a Supply Center stacked with an attacking unit (the
  Center goes to the deadpile after the roll; the attackers are otherwise unaffected) — never both.
- 9.1 Out of supply: Attack Strength halved, fractions rounded up; Defense Strength unaffected.
- 12.3 Changjin, Poor Chinese Coordination: no Communist attack from more than one hex unless every
  attacking unit is division-size (full or depleted).
- 12.21 Seoul, the Han River: Communist units never attack across a Han hexside; UN units only if a
  division HQ or the 2SE engineer is in one of the two hexes, and then as across an unbridged river.
- 12.21 Scratch Units are revealed when their hex is attacked; a Dummy is eliminated at once. A
  face-down one is a '? 4' placeholder (`revealed_as` names the counter it turns out to be: drawn by
  the adjudicator in a recorded game, adjudicator.ledger.draws; the player's own draw in a calculation).
  Reading: a face-down Scratch Unit does not attack (its strength is unknown, even to its owner).
- Mobile Combat Phase: only mobile units (red MA, 2.3.1) attack (reading of the absent Standard Rules; 5.1.4
  says the truck-moved US/CW leg units may not); in Changjin the UN has no Mobile Combat Phase on the
  Surprise turns (12.3).
- 7.6 the depletion ladder (losses.py); 8.1.1 / 12.1.1 the number of Support Fire markers (support.py).

Stand-in procedure (tables/crt.csv note): odds = total attack : total defence after support fire,
rounded down in the defender's favour (the greatest column not above the true ratio; worse than the
first column attacks at the first, better than the last at the last); terrain shifts columns left
(tables/terrain_effects.csv `shift`, not cumulative: the largest applies — the defender's hex, a
river when every attacking hex is across one, an Improved Position); one d6.

Readings (noted where the book is silent):
- Doubling and the out-of-supply halving both act on the unit's own Attack Strength: doubled and out
  of supply is 2 x A halved = A exactly (no fraction arises). Alternative: halve first (round up) then
  double, 2 x ceil(A/2).
- Losses are taken one step at a time by the units in the order listed (the list order is the
  owner's choice); "all" (stand-in DE, or any code whose row says so for either side) sends every
  unit of that side to the deadpile with no regiment draw.
- A declared intensive attack depletes each doubled unit by one more step after the combat result
  (a unit already on its depleted side goes down the ladder).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import (
    CheckRequest, CheckResult, Dice, SituationError, Step, at_field, board, named_side, register_check,
)
from adjudicator.checks import side_label
from adjudicator.words.names import marker_words
from adjudicator.rules.kwb import board as kb
from adjudicator.rules.kwb import data, losses, support
from adjudicator.rules.kwb.schemas import Attacker, Defender, ScenarioName, SideName, unique
from adjudicator.rules.positions import PositionModel, UnitAt
from scenarios.model import Game, Table

# -- the odds column (data) ----------------------------------------------------------------------


def odds_columns(crt: Table) -> list[str]:
    """The CRT's odds columns in table order (every column but the die column)."""
    return [c for c in crt.columns if c != crt.key]


def column_ratio(column: str) -> Fraction:
    a, _, d = column.partition(":")
    return Fraction(int(a), int(d))


def odds_index(crt: Table, attack: int, defence: int) -> int:
    """Index of the odds column: the greatest column whose ratio is not above attack:defence
    (rounded down in the defender's favour: 26:9 -> 2:1); below the first column, the first."""
    if attack <= 0 or defence <= 0:
        raise ValueError("odds need a positive attack and defence strength")
    ratio = Fraction(attack, defence)
    cols = odds_columns(crt)
    best = 0
    for i, c in enumerate(cols):
        if column_ratio(c) <= ratio:
            best = i
    return best


def true_odds(attack: int, defence: int) -> str:
    """The odds in the usual notation, rounded in the defender's favour (26:9 -> 2:1, 5:12 -> 1:3)."""
    if attack >= defence:
        return f"{attack // defence}:1"
    return f"1:{math.ceil(defence / attack)}"


#: A result code's steps lost by `all` units of a side (crt_results `attacker_steps`/`defender_steps`).
ALL = "all"


def steps_lost(results: Table, code: str, column: str) -> int | str:
    """Steps a result code costs one side: a number, or ALL (every unit of that side to the deadpile).

    tables.toml declares the column `count|all`, so `scenarios check` refuses anything else; a value
    that got past it anyway is named with its file and line."""
    cell = results.cell(code, column).strip()
    if cell == ALL:
        return ALL
    if cell.isdigit():
        return int(cell)
    raise ValueError(f"game data {results.where(code)}: {column} of {code} is {cell!r}; the rules read a "
                     f"number of steps or '{ALL}' (scenarios check)")


def hexes_retreated(results: Table, code: str, column: str) -> int:
    """Hexes a result code retreats one side (crt_results `defender_retreat`/`attacker_retreat`)."""
    cell = results.cell(code, column).strip()
    if not cell.isdigit():
        raise ValueError(f"game data {results.where(code)}: {column} of {code} is {cell!r}; the rules read a "
                         "number of hexes (scenarios check)")
    return int(cell)


def terrain_shift(g: Game, row: str) -> int:
    cell = g.tables["terrain_effects"].cell(row, "shift").strip()
    return int(cell) if cell.lstrip("-").isdigit() else 0


# -- strengths -------------------------------------------------------------------------------------


def printed_attack(g: Game, a: Attacker) -> int:
    """The Attack Strength printed on the side of the counter showing."""
    return data.value(data.unit(g, a.unit), a.shown, "attack")


def attack_strength(printed: int, doubled: bool, in_supply: bool, multiplier: int = 2) -> int:
    """One unit's Attack Strength in this attack: doubled (7.1; `multiplier` is rule_parameters
    intensive_attack_multiplier), then halved rounding up out of supply (9.1)."""
    value = printed * multiplier if doubled else printed
    return math.ceil(value / 2) if not in_supply else value


# -- request -------------------------------------------------------------------------------------


class CombatRequest(CheckRequest):
    """One attack on one hex, resolved on the combat table in the game data (a labelled stand-in)."""

    scenario: ScenarioName = board("scenario",
                                   description="Scenario id (12.3 Changjin and 12.21 Seoul add restrictions).")
    attacking_side: SideName = board("side", description="The side making the attack.")
    attackers: list[Attacker] = board("attackers", min_length=1, max_length=12, description=(
        "Attacking units with their hex, side showing, supply state and (intensive attack) doubling. List them in "
        "the order the owner takes losses."))
    defenders: list[Defender] = board("defenders", min_length=1, max_length=12, description=(
        "Every unit in the defending hex (one hex), in the order the owner takes losses. A Scratch Unit still face "
        "down is turned face up (12.21): see its revealed_as."))
    other_units: list[PositionModel] = Field(default_factory=list, max_length=12, description=(
        "Non-attacking units in the attacking hexes that matter: the Supply Center burned for an intensive attack, "
        "a division HQ or the 2SE engineer enabling a UN attack across the Han (12.21)."))
    intensive: Literal["none", "declared", "burn"] = Field(default="none", description=(
        "Intensive attack (7.1, Communist): 'declared' = doubled units are depleted afterwards; 'burn' = burn the "
        "Supply Center `burned_supply_center`; never both (no quadrupling)."))
    burned_supply_center: str | None = Field(default=None, max_length=60, description=(
        "With intensive='burn': the Supply Center (listed in other_units) stacked with an attacking unit."))
    attacker_support: list[str] = Field(default_factory=list, max_length=4, description=(
        "Support Fire markers the attacker places (marker ids from markers.csv, e.g. 'sf-com-2')."))
    defender_support: list[str] = Field(default_factory=list, max_length=4, description="Support Fire markers the defender places.")
    un_supply_shortage: bool = Field(default=False, description="Pusan: the UN supply shortage is still in force (12.1.1): one UN marker.")
    attacker_hq_loc: bool | None = Field(default=None, description=(
        "8.1.1: an involved attacking unit traces a LOC to a qualifying HQ (Communist: any friendly HQ; ROK-only: an "
        "ROK corps HQ). Null = traced from `positions` when more than one marker is placed."))
    defender_hq_loc: bool | None = Field(default=None, description="The same for the defender.")
    positions: list[PositionModel] = board("positions", default_factory=list, max_length=200, description=(
        "Optional: every unit on the map (both sides), to trace the 8.1.1 LOCs when the flags are not given."))
    phase: Literal["combat", "mobile_combat"] = Field(default="combat", description=(
        "The attacker's Combat Phase or Mobile Combat Phase (only mobile units attack in the latter; 5.1.4, 12.3)."))
    game_turn: int | None = board("turn", default=None, ge=1, le=21, description=(
        "The game-turn; Changjin turns 1-2 (Surprise): the UN has no Mobile Combat Phase (12.3)."))
    improved_position: bool = Field(default=False, description="The defending hex is under an Improved Position marker (stand-in shift).")
    generic_pool: list[str] | None = Field(default=None, max_length=60, description=(
        "Unnumbered regiments available for the random draw (7.6). Default: every generic regiment of the "
        "nationality not named in this request."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        validate_combat(g, self)
        return self


def _board(g: Game, gm, req: CombatRequest) -> kb.Board:
    """The units of the combat (and `other_units`) on the scenario map."""
    pos = [UnitAt(a.unit, a.hex, a.shown) for a in req.attackers]
    pos += [UnitAt(d.unit, d.hex, d.shown) for d in req.defenders]
    pos += [UnitAt.from_model(p) for p in req.other_units]
    return kb.Board.from_positions(g, gm, pos)


def validate_combat(g: Game, req: CombatRequest) -> None:
    """Everything the rules forbid, as ValueError (the service answers 422)."""
    gm = data.scenario_map(g, req.scenario)
    names = [a.unit for a in req.attackers] + [d.unit for d in req.defenders] + [p.unit for p in req.other_units]
    if not unique(names):
        raise ValueError("a unit is listed twice")
    b = _board(g, gm, req)
    defender_side = data.other_side(req.attacking_side)
    for a in req.attackers:
        if data.unit(g, a.unit).side != req.attacking_side:
            raise ValueError(f"attacker {a.unit} is not a {req.attacking_side} unit")
    for d in req.defenders:
        if data.unit(g, d.unit).side != defender_side:
            raise ValueError(f"defender {d.unit} is not a {defender_side} unit")
    check_scratch_units(g, req)
    if len({d.hex for d in req.defenders}) != 1:
        raise ValueError("all defenders must stand in one hex (one attack is on one hex)")
    target = kb.parse(gm, req.defenders[0].hex)
    for a in req.attackers:
        if not gm.grid.are_adjacent(kb.parse(gm, a.hex), target):
            raise ValueError(f"attacker {a.unit} in {a.hex} is not adjacent to the defending hex {req.defenders[0].hex}")
    if all(printed_attack(g, a) == 0 for a in req.attackers):
        raise ValueError("no attacking unit has an Attack Strength above 0: zero-strength units may not attack (7.1)")
    # Mobile Combat Phase (2.3.1 mobile units; 5.1.4 truck-moved US/CW leg units may not attack; 12.3 Surprise)
    if req.phase == "mobile_combat":
        surprise = data.special(g, req.scenario, "surprise")
        if req.game_turn in surprise.get("turns", []) and req.attacking_side in surprise.get("no_mobile_phases", []):
            raise ValueError(f"Surprise ({surprise.get('source', '')}, game-turns {data.turns_text(surprise['turns'])}): "
                             f"the {data.side_name(g, req.attacking_side)} player has no Mobile Combat Phase on "
                             f"game-turn {req.game_turn}")
        legs = [a.unit for a in req.attackers if not data.is_mobile(g, data.unit(g, a.unit))
                and printed_attack(g, a) > 0]
        if legs:
            raise ValueError(f"only mobile units attack in the Mobile Combat Phase; not mobile: {', '.join(legs)} "
                             "(2.3.1; US/CW leg units moved by truck may not attack, 5.1.4)")
    # 7.1 intensive attack
    doubled = [a.unit for a in req.attackers if a.doubled]
    if req.intensive == "none":
        if doubled:
            raise ValueError(f"{', '.join(doubled)} doubled without an intensive attack (7.1)")
        if req.burned_supply_center:
            raise ValueError("burned_supply_center needs intensive='burn' (7.1)")
    else:
        if req.attacking_side != "communist":
            raise ValueError("only the Communist player may declare an intensive attack (7.1)")
        if not doubled:
            raise ValueError("an intensive attack doubles at least one attacking unit (7.1)")
    if req.intensive == "burn":
        sc = req.burned_supply_center
        where = {p.unit: p.hex for p in req.other_units}
        if not sc or sc not in where:
            raise ValueError("intensive='burn' needs burned_supply_center, listed in other_units with its hex (7.1)")
        if not data.is_supply_center(data.unit(g, sc)) or data.unit(g, sc).side != "communist":
            raise ValueError(f"{sc} is not a Communist Supply Center")
        if where[sc] not in {a.hex for a in req.attackers}:
            raise ValueError(f"the burned Supply Center {sc} ({where[sc]}) must be stacked with at least one attacking unit (7.1)")
    elif req.burned_supply_center:
        raise ValueError("burned_supply_center needs intensive='burn': a declared intensive attack burns nothing (7.1)")
    # 12.3 Changjin poor coordination
    coordination = data.special(g, req.scenario, "poor_coordination")
    if (coordination.get("multi_hex_attack_only_if_all_divisions") and req.attacking_side == "communist"
            and len({a.hex for a in req.attackers
                     if printed_attack(g, a) > 0}) > 1):
        able = [a for a in req.attackers if printed_attack(g, a) > 0]
        small = [a.unit for a in able if not data.is_division(data.unit(g, a.unit))]
        if small:
            raise ValueError(f"{data.scenario(g, req.scenario).name} ({coordination.get('source', '')}): the Communist "
                             "player may not combine units from more than one hex unless all attacking units are "
                             f"division-size; not divisions: {', '.join(small)}")
    # 12.21 the Han River
    for a in req.attackers:
        ah = kb.parse(gm, a.hex)
        if kb.han_between(gm, ah, target):
            if req.attacking_side == "communist":
                raise ValueError(f"{a.unit} would attack across a Han River hexside: Communist units may not (12.21)")
            if not b.han_enabled(ah, target):
                raise ValueError(f"{a.unit} attacks across a Han River hexside without a division HQ or the 2SE engineer "
                                 "in either hex (12.21); list the HQ/engineer in other_units")
    # support-fire markers (8.1.1, 12.1.1)
    for side, field, markers in ((req.attacking_side, "attacker_support", req.attacker_support),
                                 (defender_side, "defender_support", req.defender_support)):
        for i, m in enumerate(markers):
            with at_field(f"/{field}/{i}"):
                data.support_fire_value(g, m, side)
    if req.un_supply_shortage and not data.special(g, req.scenario, "un_supply_shortage"):
        raise ValueError("the UN supply shortage is a Pusan Perimeter rule (12.1.1)")
    for side, markers, flag in _support_sides(req):
        if len(markers) > 1:
            limit = _limit(g, req, side, flag)
            if len(markers) > limit.limit:
                raise ValueError(f"{side} may place at most {limit.limit} Support Fire marker(s) in this combat "
                                 f"({limit.steps[-1].text}); {len(markers)} given")
    if req.generic_pool is not None:
        for r in req.generic_pool:
            if not data.unit(g, r).has("generic"):
                raise ValueError(f"generic_pool names {r!r}, which is not an unnumbered regiment")


def check_scratch_units(g: Game, req: CombatRequest) -> None:
    """12.21: a face-down Scratch Unit (a placeholder) does not attack (reading: its strength is
    unknown, even to its owner); a defender's `revealed_as` names a counter of its pool."""
    for a in req.attackers:
        if data.placeholder_pool(g, a.unit):
            raise ValueError(f"{a.unit} is a Scratch Unit still face down (? 4): it is turned face up only when its "
                             "hex is attacked (12.21), and until then nobody knows its strength, not even its owner "
                             "(reading: a face-down Scratch Unit does not attack)")
    named = [d.revealed_as for d in req.defenders if d.revealed_as]
    if not unique(named):
        raise ValueError("two Scratch Units cannot be revealed as the same counter")
    for d in req.defenders:
        pool = data.placeholder_pool(g, d.unit)
        if d.revealed_as is None:
            continue
        if pool is None:
            raise ValueError(f"revealed_as is for a Scratch Unit still face down (? 4); {d.unit} is not one")
        counters = data.pool_counters(g, req.scenario, pool)
        if d.revealed_as not in counters:
            raise ValueError(f"{d.unit} cannot be {d.revealed_as}: the {pool.name} of this scenario hold "
                             f"{', '.join(counters) or 'nothing'}")


def _support_sides(req: CombatRequest):
    defender_side = data.other_side(req.attacking_side)
    return ((req.attacking_side, req.attacker_support, req.attacker_hq_loc),
            (defender_side, req.defender_support, req.defender_hq_loc))


def _limit(g: Game, req: CombatRequest, side: str, flag: bool | None) -> support.MarkerLimit:
    # The units involved: the attackers actually attacking (7.1 drops zero-strength ones), or the defenders.
    involved_ids = ([a.unit for a in req.attackers if printed_attack(g, a) > 0] if side == req.attacking_side
                    else [d.unit for d in req.defenders])
    involved = [data.unit(g, u) for u in involved_ids]
    b = None
    if flag is None and req.positions:
        gm = data.scenario_map(g, req.scenario)
        b = kb.Board.from_positions(g, gm, [UnitAt.from_model(p) for p in req.positions])
    return support.marker_limit(g, req.scenario, side, involved, un_supply_shortage=req.un_supply_shortage,
                                b=b, hq_loc=flag)


# -- resolution ----------------------------------------------------------------------------------


def resolve(g: Game, req: CombatRequest, dice: Dice) -> CheckResult:
    gm = data.scenario_map(g, req.scenario)
    crt, results = data.table(g, "crt"), data.table(g, "crt_results")
    steps: list[Step] = []
    warnings = data.table_warnings(g, "crt", "crt_results", "terrain_effects")
    warnings += data.unit_warnings(g, [a.unit for a in req.attackers] + [d.unit for d in req.defenders])
    warnings += data.map_warnings(g, gm.id)
    target = kb.parse(gm, req.defenders[0].hex)

    # 12.21 Scratch Units revealed; Dummies eliminated at once.
    defenders, removed, revealed = _revealed_defenders(g, req, steps)
    if not defenders:
        steps.append(Step("No defender remains: the attack does not take place (the hex is empty).", "12.21"))
        return CheckResult(outcome={"combat": False, "defenders": [s.to_json() for s in removed],
                                    **({"revealed": revealed} if revealed else {})},
                           steps=steps, warnings=warnings)

    attack_total, attackers = _attack_strength(g, req, steps)
    defence_total = 0
    for s in defenders:
        defence_total += data.value(data.unit(g, s.unit), s.step, "defense")
    steps.append(Step(f"Defence Strength {defence_total} ({', '.join(s.unit for s in defenders)}); unaffected by supply.", "9.1"))
    attack_support, defence_support = _support_fire(g, req, steps, warnings)
    attack_total += attack_support
    defence_total += defence_support

    if defence_total <= 0:
        raise SituationError("the defenders have no Defense Strength: there is nothing to resolve on the table")
    cols = odds_columns(crt)
    raw, shift, index = _column(g, gm, target, req, [a for a, _ in attackers], attack_total, defence_total, steps)

    (roll,) = dice.roll(6, purpose="combat (CRT)")
    code = crt.cell(roll, cols[index])
    row = results.row(code)
    steps.append(Step(f"Rolled {roll} on column {cols[index]}: {code} = {row['meaning']}.", data.cite(crt, results)))

    a_states = [s for _, s in attackers]
    new_units = _losses(g, req, results, code, defenders, attackers, dice, steps)
    burned = None
    if req.intensive == "burn":
        burned = req.burned_supply_center
        steps.append(Step(f"Supply Center {burned} is burned: placed in the deadpile after the roll; the attackers suffer "
                          "only the combat result.", "7.1 Intensive Attack"))
    retreat_d, retreat_a = (hexes_retreated(results, code, c) for c in ("defender_retreat", "attacker_retreat"))
    if retreat_d and any(s.alive for s in defenders):
        steps.append(Step(f"The surviving defenders retreat {retreat_d} hex(es); the attacker may advance (mobile units not "
                          "into Rough, 5.2.3).", data.cite("5.2.3", results)))
    if retreat_a and any(s.alive for s in a_states):
        steps.append(Step(f"The attackers retreat {retreat_a} hex(es).", results.citation))
    rough_target = kb.is_rough(gm, target)
    outcome = {
        "combat": True,
        "attack_strength": attack_total,
        "defence_strength": defence_total,
        "odds": true_odds(attack_total, defence_total),
        "column_before_shift": cols[raw],
        "column_shift": shift,
        "column": cols[index],
        "roll": roll,
        "result": code,
        "meaning": row["meaning"],
        "attackers": [s.to_json() for s in a_states],
        "defenders": [s.to_json() for s in removed + defenders],
        "new_units": [s.to_json() for s in new_units],
        "defender_retreat_hexes": retreat_d,
        "attacker_retreat_hexes": retreat_a,
        "supply_center_burned": burned,
        "mobile_units_may_advance": not rough_target,
    }
    if revealed:
        outcome["revealed"] = revealed
    return CheckResult(outcome=outcome, steps=steps, warnings=list(dict.fromkeys(warnings)))


def _attack_strength(g: Game, req: CombatRequest, steps: list[Step]) -> tuple[int, list]:
    """7.1 and 9.1: each attacker's strength, doubled or halved as it attacks: (the total, each
    attacker that takes part with its state); a unit of Attack Strength 0 takes no part."""
    multiplier = data.int_parameter(g, "intensive_attack_multiplier")
    attack_total, attackers = 0, []
    for a in req.attackers:
        u = data.unit(g, a.unit)
        step = data.step_name(u, a.shown)
        printed = data.value(u, step, "attack")
        if printed == 0:
            steps.append(Step(f"{a.unit} has Attack Strength 0: it may not be part of the attack and cannot be "
                              "depleted by the attacker's result.", "7.1 Zero Attack Strength Units"))
            continue
        value = attack_strength(printed, a.doubled, a.in_supply, multiplier)
        how = [f"printed {printed}"]
        if a.doubled:
            how.append(f"doubled to {printed * multiplier} (intensive attack)")
        if not a.in_supply:
            how.append(f"out of supply: halved, rounding up, to {value}"
                       + (" (reading: 2 x A halved = A; alternative 2 x ceil(A/2))" if a.doubled else ""))
        steps.append(Step(f"{a.unit} ({a.hex}, {step}) attacks with {value}: " + ", ".join(how) + ".",
                          "; ".join((["7.1 Intensive Attack"] if a.doubled else [])
                                    + (["9.1 Out of Supply"] if not a.in_supply else [])) or "7.1"))
        attack_total += value
        attackers.append((a, losses.UnitState(a.unit, step)))
    return attack_total, attackers


def _support_fire(g: Game, req: CombatRequest, steps: list[Step], warnings: list[str]) -> tuple[int, int]:
    """Support fire (stand-in: the marker's value is added to the side's strength): what it adds to
    the attack and to the defence."""
    attack, defence = 0, 0
    for side, markers, _flag in _support_sides(req):
        if not markers:
            continue
        values = [data.support_fire_value(g, m, side) for m in markers]
        if side == req.attacking_side:
            attack += sum(values)
        else:
            defence += sum(values)
        steps.append(Step(f"Support Fire for the {side_label(side)} player ({marker_words(g, markers)}): +{sum(values)} to "
                          "its strength.",
                          data.cite("8.0; 8.1.1", data.table(g, "support_fire_use"))))
    if req.attacker_support or req.defender_support:
        warnings += data.table_warnings(g, "support_fire_use")
        warnings += [f"Stand-in Support Fire marker values ({g.markers[m].source.reason})"
                     for m in dict.fromkeys(req.attacker_support + req.defender_support)
                     if g.markers[m].source.is_stand_in][:1]
    return attack, defence


def _column(g: Game, gm, target, req: CombatRequest, attackers: list, attack_total: int, defence_total: int,
            steps: list[Step]) -> tuple[int, int, int]:
    """The odds column and the terrain's shift (the largest only): (column before, shift, column)."""
    crt = data.table(g, "crt")
    raw = odds_index(crt, attack_total, defence_total)
    cols = odds_columns(crt)
    shifts = [(f"defender in {gm.terrain_at(target)}", terrain_shift(g, gm.terrain_at(target)))]
    if kb.is_city(gm, target) and gm.terrain_at(target) != "city":
        shifts.append(("defender in a city hex", terrain_shift(g, "city")))
    if all(kb.water_hexside(gm, kb.parse(gm, a.hex), target) for a in attackers):
        shifts.append(("every attacking hex across a river", terrain_shift(g, "river")))
    if req.improved_position:
        shifts.append(("Improved Position", terrain_shift(g, "improved_position")))
    why, shift = max(shifts, key=lambda x: x[1])
    index = max(0, raw - shift)
    steps.append(Step(f"Odds {attack_total}:{defence_total} = {true_odds(attack_total, defence_total)}, rounded down in "
                      f"the defender's favour: column {cols[raw]}"
                      + (f"; {why}: {shift} column(s) left (largest shift only) -> {cols[index]}" if shift else "")
                      + ".", data.cite(crt, data.table(g, "terrain_effects"))))
    return raw, shift, index


def _losses(g: Game, req: CombatRequest, results, code: str, defenders: list, attackers: list, dice: Dice,
            steps: list[Step]) -> list:
    """Losses (7.6 ladder): defender first, then attacker, then the declared intensive attack's
    depletions; the units that take the place of those reduced."""
    pool = losses.GenericPool.for_game(g, {*(x.unit for x in req.attackers), *(x.unit for x in req.defenders)},
                                       req.generic_pool)
    new_units: list[losses.UnitState] = []
    a_states = [s for _, s in attackers]
    for states, column in ((defenders, "defender_steps"), (a_states, "attacker_steps")):
        lost = steps_lost(results, code, column)
        if lost == ALL:
            for s in states:
                steps.append(Step(losses.eliminate(s, f"{code}"), data.cite("7.6", results)))
        else:
            new_units += _apply_steps(g, states, lost, pool, dice, code, steps)
    if req.intensive == "declared":
        for a, s in attackers:
            if not a.doubled:
                continue
            current = next((n for n in [s] + new_units if n.unit == (s.replaced_by or s.unit) and n.alive), None)
            if current is None:
                steps.append(Step(f"{a.unit} attacked doubled but is already in the deadpile.", "7.1 Intensive Attack"))
                continue
            born, text = losses.take_step(g, current, pool, dice, "intensive attack: doubled unit depleted")
            new_units += born
            steps.append(Step(text + "; its Attack Strength reverts to normal.", "7.1 Intensive Attack; 7.6"))
    return new_units


def _revealed_defenders(g: Game, req: CombatRequest, steps: list[Step]):
    """12.21: every Scratch Unit of the attacked hex turned face up, a Dummy eliminated at once.
    (the defenders who fight, the Dummies removed, each placeholder with the counter it turned out
    to be: {"unit": placeholder, "revealed_as": counter})"""
    defenders: list[losses.UnitState] = []
    removed: list[losses.UnitState] = []
    revealed: list[dict[str, str]] = []
    for d in req.defenders:
        if d.revealed_as is None and data.placeholder_pool(g, d.unit):
            raise ValueError(f"{d.unit} is a Scratch Unit still face down (? 4): its hex is attacked, so it is turned "
                             "face up (12.21). Say which counter it is (revealed_as): in a recorded game the "
                             "adjudicator draws it; in a calculation, the counter you drew.")
        counter = d.revealed_as or d.unit
        u = data.unit(g, counter)
        state = losses.UnitState(counter, data.step_name(u, d.shown))
        if d.revealed_as:
            revealed.append({"unit": d.unit, "revealed_as": counter})
            steps.append(Step(f"{d.unit} (a Scratch Unit, ? 4) is turned face up: it is {counter}, {u.steps[0].text}"
                              + ("." if u.has("dummy") else "; it stays face up."), "12.21 Scratch Units"))
        elif u.has("scratch"):
            steps.append(Step(f"{counter} (Scratch Unit) is face up: {u.steps[0].text}.", "12.21 Scratch Units"))
        if u.has("scratch") and u.has("dummy"):
            removed.append(state)
            steps.append(Step(losses.eliminate(state, "a Dummy, eliminated at once"), "12.21 Scratch Units"))
            continue
        defenders.append(state)
    return defenders, removed, revealed


def _apply_steps(g: Game, states: list[losses.UnitState], count: int, pool, dice, code: str, steps: list[Step]):
    """`count` loss steps, one at a time, to the listed units in turn (the owner's order); a division's
    replacement regiment takes its place in the rotation."""
    born_all: list[losses.UnitState] = []
    order = list(states)
    i = 0
    while count > 0 and any(s.alive for s in order):
        s = order[i % len(order)]
        i += 1
        if not s.alive:
            continue
        born, text = losses.take_step(g, s, pool, dice, code)
        steps.append(Step(text, "7.6 Combat Resolution and Depletions"))
        if born:
            born_all += born
            order[order.index(s)] = born[0]
        count -= 1
    return born_all


@register_check(system="kwb", name="combat", request=CombatRequest, random=True,
                summary="Resolve one attack: intensive attack, supply, support fire, Changjin/Seoul limits, depletion ladder",
                rule="7.1, 7.6, 8.1.1, 9.1, 12.21, 12.3",
                actor=named_side("attacking_side", rule="7.0",
                                 what="the attacking side (attacking_side): the attacker resolves his attack"),
                example={"scenario": "pusan",
                         "attacking_side": "communist",
                         "intensive": "declared",
                         "attackers": [{"unit": "nk-6", "hex": "0101", "doubled": True}],
                         "defenders": [{"unit": "us-5-1m", "hex": "0201"}],
                         "attacker_support": ["sf-com-2"],
                         "dice": [2, 7]})
def combat(req: CombatRequest, dice: Dice) -> CheckResult:
    return resolve(data.game(), req, dice)
