"""HoldFast Korea combat (9.2), with the terrain (2), unit chart and support (4) it uses.

Procedure of 9.2, as this module applies it:

1. The attacker pays 1 RP per defending hex (tables/rp_costs.csv `activate_combat`).
2. Only units in the defender's ZOC (adjacent, not across a red hex line) may attack.
3. Attacker dice = sum of the attacking blocks' "Dice Rolled in Combat" (unit chart, by type, not
   by current SP) - 1 per block attacking across a river hexside (2) + 2 per support type (4).
   Defender dice = the defending block's dice + 1 in a city (2) + 2 per support type (4).
4. Both roll at once (simultaneous: the dice list holds the attacker's dice, then the defender's;
   no hit is applied until both have rolled).
5. A die equal to or above a block's Target Hit # scores a hit on it. Any 6 the Communist player
   rolls while the Marine block is in the combat is applied to the Marine block; the owning player
   allocates the other hits (`*_hit_order`, given in advance so game mode needs no second call).
6. Each hit rotates the block down 1 SP; a Chinese army below 5 SP swaps to its 4-SP block, the
   Marines below 3 SP to their 2/1 block (3); below 1 SP the block is eliminated (9.2).
7. When Communist armor support is used, each 6 the UN defender rolls also lowers the Communist
   armor support permanently by 1 (4).

Readings where the book is silent or ambiguous (each also reported as a step or warning):
- Mixed stacks (campaign.toml special_rules.combat): a die scores a hit if it reaches the hit
  number of at least one opposing block still standing, and may only be given to a block whose
  hit number it reaches (a 5 never hits the Marines). Alternative: count hits per block separately.
- Once the Marine block is eliminated, further Communist 6s are ordinary hits the owner allocates.
  Alternative: they are lost.
- Support availability: armor may not support an ATTACK into a mountain hex (4: "Armor support may
  not be used in **attacks** in mountain terrain", the book's emphasis), but may defend there; the
  terrain chart's "No armor support allowed" would forbid both (terrain_effects.csv).  A step says
  so whenever armor defends in a mountain hex.
- Communist armor cannot defend (the Amphibious Assault example; special_rules.support).
- Hits beyond a block's SP are lost once the block is eliminated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from pydantic import Field, PrivateAttr, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board as board_field, register_check, side_label
from adjudicator.rules.holdfast import board, data
from adjudicator.rules.holdfast.schemas import WEATHER_MARKER, Attacker, Block, SupportName, WeatherName, unique
from scenarios.model import Game, GameMap

RULE = "9.2 Combat"
#: 4 Armor Support, the book's words (its emphasis on "attacks"); the terrain chart (2) says only "No armor
#: support allowed" for mountains.  The engine reads the chart as this rule's short form: armor may DEFEND there.
ARMOR_MOUNTAIN = "Armor support may not be used in attacks in mountain terrain."
SIX = 6


# -- the combat situation: who fights where, with what support --------------------------------


@dataclass
class Fighter:
    """A block in a combat with the Combat Chart values of its type (4)."""

    unit: str
    side: str
    sp: int
    dice: int
    target: int
    marines: bool
    across_river: bool = False


@dataclass
class Situation:
    """Everything about one combat that the dice do not decide."""

    attacker_side: str
    attackers: list[Fighter]
    defender: Fighter
    defender_terrain: str
    defender_in_city: bool
    coastal: bool
    attacker_support: list[str]
    defender_support: list[str]
    warnings: list[str] = field(default_factory=list)

    @property
    def defender_side(self) -> str:
        return data.other_side(self.attacker_side)


def fighter(g: Game, block: Block, across_river: bool = False) -> Fighter:
    u = data.unit(g, block.unit)
    row = data.chart_row(g, u.type)
    return Fighter(block.unit, u.side, block.sp, row.dice, row.target, data.is_marines(g, u), across_river)


def _map_hex(gm: GameMap, text: str | None, what: str):
    if text is None:
        return None
    try:
        return board.parse(gm, text)
    except ValueError as err:
        raise ValueError(f"{what}: {err}") from None


def build_situation(
    g: Game,
    scenario_id: str,
    *,
    turn: int,
    weather: str,
    attackers: list[Attacker],
    defender: Block,
    attacker_support: list[str],
    defender_support: list[str],
    defender_terrain: str | None,
    coastal: bool | None,
    communist_armor_level: int,
    attacker_support_left: dict[str, int] | None = None,
    defender_support_left: dict[str, int] | None = None,
    naval_assault: bool = False,
) -> Situation:
    """Validate a combat by the rules and gather its terrain facts; ValueError says what is wrong."""
    sc = data.scenario(g, scenario_id)
    gm = g.maps[sc.maps[0]]
    data.turn_record(g, scenario_id, turn)
    problems: list[str] = []
    for b in [*attackers, defender]:
        msg = data.check_block_sp(g, b.unit, b.sp)
        if msg:
            raise ValueError(msg)
    ids = [b.unit for b in attackers] + [defender.unit]
    if not unique(ids) or len({data.full_block_of(g, g.units[i]).id for i in ids}) != len(ids):
        raise ValueError("a block (or both blocks of one army) appears twice in the combat")
    attacker_side = g.units[attackers[0].unit].side
    for b in attackers:
        if g.units[b.unit].side != attacker_side:
            raise ValueError(f"attacker {b.unit} is not on the {attacker_side} side like {attackers[0].unit}")
    if g.units[defender.unit].side == attacker_side:
        raise ValueError(f"defender {defender.unit} is on the attacker's side (the {side_label(attacker_side)})")

    warnings: list[str] = []
    used_map = False
    d_hex = _map_hex(gm, defender.hex, "defender.hex")
    fighters = []
    for i, b in enumerate(attackers):
        a_hex = _map_hex(gm, b.hex, f"attackers[{i}].hex")
        if a_hex is not None and d_hex is not None:
            used_map = True
            if not gm.grid.are_adjacent(a_hex, d_hex) and not naval_assault:
                raise ValueError(f"attacker {b.unit} in {b.hex} is not adjacent to the defender in {defender.hex}: "
                                 "only units in an enemy ZOC may attack (9.2)")
            if not naval_assault and board.red_line_between(gm, a_hex, d_hex):
                raise ValueError(f"attacker {b.unit} would attack across a red hex line (2, 9.2)")
        across = b.across_river
        if across is None:
            if naval_assault:
                across = False
            elif a_hex is None or d_hex is None:
                raise ValueError(f"attacker {b.unit}: give across_river, or both its hex and the defender's hex")
            else:
                across = board.river_between(gm, a_hex, d_hex)
        fighters.append(fighter(g, b, across))
    d_fighter = fighter(g, defender)

    if defender_terrain is None:
        if d_hex is None:
            raise ValueError("give defender_terrain, or the defender's hex")
        used_map = True
        defender_terrain = board.terrain(gm, d_hex)
        if defender_terrain == board.OPEN_WATER:
            raise ValueError(f"the defender's hex {defender.hex} is open water")
        in_city = board.is_city(gm, d_hex)
    else:
        in_city = defender_terrain == "city"
    if coastal is None and d_hex is not None:
        coastal = board.is_coastal(gm, d_hex)
        used_map = True

    # Support (4): one of each type per side per combat, each type's availability.
    effects = data.weather_effect(g, weather)
    armor_row = data.terrain_row(g, "mountain")
    for side, chosen, use, left in (
        (attacker_side, attacker_support, "attack", attacker_support_left),
        (data.other_side(attacker_side), defender_support, "defense", defender_support_left),
    ):
        if not unique(chosen):
            problems.append(f"{side}: at most one support of each type per combat (4)")
        for kind in chosen:
            row = data.support_row(g, side, kind)
            who = f"{side} {kind} support"
            if row is None:
                problems.append(f"the {side} player has no {kind} support (4)")
                continue
            if turn < row.first_turn or (row.last_turn is not None and turn > row.last_turn):
                span = f"turn {row.first_turn}" + ("" if row.last_turn == row.first_turn else
                                                     (f" to {row.last_turn}" if row.last_turn else " on"))
                problems.append(f"{who} is received on {span} only, not on turn {turn} (4)")
            if use not in row.uses:
                problems.append(f"{who} cannot be used in {'an attack' if use == 'attack' else 'a defence'} "
                                "(4; the Amphibious Assault example: 'it can't be used defensively')")
            if row.weather == "clear" and weather != "clear":
                problems.append(f"{who} is available on clear weather turns only (4), the weather is {weather}")
            if kind == "air" and not effects["air_support"] and row.weather != "clear":
                problems.append(f"no air support in {weather} weather (7)")
            if kind == "armor" and use == "attack" and defender_terrain == "mountain" \
                    and armor_row["armor_support"].startswith("no"):
                problems.append(f"{who} may not be used in attacks in mountain terrain (4: \"{ARMOR_MOUNTAIN}\"; 2 "
                                "terrain chart)")
            if kind == "naval" and not coastal:
                problems.append(f"{who} needs a combat in a coastal hex (4; 2 Coast Hex)"
                                + (" — give `coastal` or the defender's hex" if coastal is None else ""))
            if kind == "armor" and side == "communist" and communist_armor_level < 1:
                problems.append("the Communist armor support has been reduced to 0 (4)")
            if left is not None and left.get(kind, 0) < 1:
                problems.append(f"no {who} left this turn (4: 'Once a player has used all support in a turn he "
                                "receives no more until the next turn')")
    if problems:
        raise ValueError("; ".join(problems))
    if used_map:
        warnings += data.map_stand_in_warning(g, gm.id)
    return Situation(attacker_side, fighters, d_fighter, defender_terrain, in_city, bool(coastal),
                     list(attacker_support), list(defender_support), warnings)


# -- dice pools --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pools:
    attacker: int
    defender: int
    attacker_terms: list[str]
    defender_terms: list[str]


def dice_pools(g: Game, s: Situation) -> Pools:
    """Attacker and defender dice (9.2, 2, 4), with the terms that make them up."""
    river = int(data.terrain_row(g, "river")["attacker_dice_per_unit"])  # -1
    city = int(data.terrain_row(g, "city")["defender_dice"])  # +1
    a_terms, total = [], 0
    for f in s.attackers:
        a_terms.append(f"{f.unit} {f.dice}")
        total += f.dice
        if f.across_river:
            a_terms.append(f"{f.unit} across a river {river:+d}")
            total += river
    for kind in s.attacker_support:
        n = data.support_row(g, s.attacker_side, kind).dice
        a_terms.append(f"{kind} support +{n}")
        total += n
    d_terms = [f"{s.defender.unit} {s.defender.dice}"]
    d_total = s.defender.dice
    if s.defender_in_city:
        d_terms.append(f"city {city:+d}")
        d_total += city
    for kind in s.defender_support:
        n = data.support_row(g, s.defender_side, kind).dice
        d_terms.append(f"{kind} support +{n}")
        d_total += n
    return Pools(max(total, 0), max(d_total, 0), a_terms, d_terms)


# -- hits --------------------------------------------------------------------------------------


@dataclass
class HitsOnSide:
    """Hits one side's blocks take from the other side's roll."""

    hits: dict[str, int]  # block -> hits absorbed
    marine_sixes: int = 0  # Communist 6s applied to the Marine block automatically
    scoring_dice: int = 0  # dice that scored a hit
    lost_hits: int = 0  # hits with no block left to take them
    notes: list[str] = field(default_factory=list)


def allocate_hits(rolls: Iterable[int], targets: list[Fighter], rolled_by: str,
                  hit_order: list[str] | None = None) -> HitsOnSide:
    """Which block absorbs which hit (9.2).

    Communist 6s go to the Marine block first (while it stands). Every other die that reaches the
    hit number of a standing block is a hit; it goes to the next entry of `hit_order` (the owner's
    choice; entries that are eliminated or whose hit number the die does not reach are skipped,
    each entry takes one hit), then, when the list is used up, to the standing blocks in the order
    given, each until it is eliminated.
    """
    left = {f.unit: f.sp for f in targets}
    by_id = {f.unit: f for f in targets}
    taken = {f.unit: 0 for f in targets}
    result = HitsOnSide(taken)
    rolls = list(rolls)
    free: list[int] = []
    marines = [f for f in targets if f.marines]
    for r in rolls:
        if rolled_by == "communist" and r == SIX and marines and any(left[m.unit] > 0 for m in marines):
            m = next(m for m in marines if left[m.unit] > 0)
            left[m.unit] -= 1
            taken[m.unit] += 1
            result.marine_sixes += 1
            result.scoring_dice += 1
        else:
            free.append(r)
    order = list(hit_order or [])
    pointer = 0
    for r in free:
        if not any(r >= f.target for f in targets):
            continue  # a miss against every block in the combat
        result.scoring_dice += 1
        chosen = None
        while pointer < len(order) and chosen is None:
            unit = order[pointer]
            pointer += 1
            if left.get(unit, 0) > 0 and r >= by_id[unit].target:
                chosen = unit
        if chosen is None:
            chosen = next((f.unit for f in targets if left[f.unit] > 0 and r >= f.target), None)
        if chosen is None:
            result.lost_hits += 1
            continue
        left[chosen] -= 1
        taken[chosen] += 1
    return result


# -- one round ---------------------------------------------------------------------------------


@dataclass
class RoundResult:
    attacker_rolls: list[int]
    defender_rolls: list[int]
    on_attackers: HitsOnSide
    on_defender: HitsOnSide
    attackers_after: list[data.BlockAfterHits]
    defender_after: data.BlockAfterHits
    communist_armor_lost: int
    steps: list[Step]


def resolve_round(g: Game, scenario_id: str, s: Situation, attacker_rolls: list[int], defender_rolls: list[int],
                  attacker_hit_order: list[str] | None = None, rule: str = RULE) -> RoundResult:
    """Apply one simultaneous exchange of dice (9.2 steps 5-7)."""
    steps: list[Step] = []
    on_def = allocate_hits(attacker_rolls, [s.defender], s.attacker_side)
    on_att = allocate_hits(defender_rolls, s.attackers, s.defender_side, attacker_hit_order)
    d_target = s.defender.target
    steps.append(Step(
        f"Attacker rolled {_dice_text(attacker_rolls)}: {on_def.scoring_dice} hit(s) on {s.defender.unit} "
        f"(target hit # {d_target}: {d_target} or higher)"
        + _marine_sixes_text(on_def)
        + (f"; it absorbs {on_def.scoring_dice - on_def.lost_hits}, {on_def.lost_hits} more than it can"
           if on_def.lost_hits else "") + ".",
        rule + "; 4 (Target Hit #)"))
    targets_text = ", ".join(f"{f.unit} {f.target}+" for f in s.attackers)
    text = (f"Defender rolled {_dice_text(defender_rolls)}: {on_att.scoring_dice} hit(s) on the attackers "
            f"({targets_text})")
    text += _marine_sixes_text(on_att)
    allocated = {u: n for u, n in on_att.hits.items() if n}
    if allocated:
        text += "; allocation: " + ", ".join(f"{u} {n}" for u, n in allocated.items())
    if on_att.lost_hits:
        text += (f"; the attackers absorb {on_att.scoring_dice - on_att.lost_hits}, {on_att.lost_hits} hit(s) have no "
                 "block left to absorb them")
    steps.append(Step(text + ".", rule))
    if len(s.attackers) > 1 and on_att.scoring_dice - on_att.marine_sixes > 0:
        steps.append(Step(
            "Reading (mixed stack): a die hits if it reaches the hit number of a standing block and goes only to a "
            "block whose number it reaches; the owner's hit order (or the listed order) decides the rest.",
            "campaign.toml special_rules.combat"))
    attackers_after = [data.lose_sp(g, scenario_id, f.unit, f.sp, on_att.hits[f.unit]) for f in s.attackers]
    defender_after = data.lose_sp(g, scenario_id, s.defender.unit, s.defender.sp, on_def.hits[s.defender.unit])
    for a in [*attackers_after, defender_after]:
        if a.hits:
            steps.append(Step(after_text(a), "9.2; 3" if a.swapped else rule))
    armor_lost = 0
    if s.attacker_side == "communist" and "armor" in s.attacker_support:
        sixes = sum(1 for r in defender_rolls if r == SIX)
        armor_lost = sixes * int(data.special(g, scenario_id, "support").get("communist_armor_loss_per_un_defender_six", 1))
        steps.append(Step(
            f"Communist armor support was used: the UN defender rolled {sixes} six(es), each also a hit, and the "
            f"Communist armor support is permanently reduced by {armor_lost}.", "4 Armor Support"))
    return RoundResult(attacker_rolls, defender_rolls, on_att, on_def, attackers_after, defender_after,
                       armor_lost, steps)


def hit_counts(rnd: RoundResult) -> dict[str, int]:
    """Hits each side scored (9.2: "A hit is scored on an opposing unit for each number that is rolled that
    corresponds to an opposing units hit number" - what the players count at the table) and the hits its
    blocks absorbed (SP taken: a block eliminated absorbs no more, 9.2 "reduced below 1 SP it is removed")."""
    return {
        "hits_scored_on_defender": rnd.on_defender.scoring_dice,
        "hits_absorbed_by_defender": sum(rnd.on_defender.hits.values()),
        "hits_scored_on_attackers": rnd.on_attackers.scoring_dice,
        "hits_absorbed_by_attackers": sum(rnd.on_attackers.hits.values()),
    }


def _marine_sixes_text(hits: HitsOnSide) -> str:
    """9.2: "Any 6's rolled during combat by the Communist player when the Marine block is attacking or defending
    is automatically applied to the Marine block" - said whichever side the Marines are on."""
    if not hits.marine_sixes:
        return ""
    return f"; {hits.marine_sixes} Communist 6(s) applied automatically to the Marine block"


def _dice_text(rolls: list[int]) -> str:
    return ", ".join(map(str, rolls)) if rolls else "no dice"


def after_text(a: data.BlockAfterHits) -> str:
    if a.eliminated:
        where = "removed from the game (8: the Marines never return)" if a.destination == "removed" \
            else "placed in the replacement pile"
        return f"{a.unit} ({a.sp_before} SP) takes {a.hits} hit(s): reduced below 1 SP, eliminated and {where}."
    if a.swapped:
        return (f"{a.unit} ({a.sp_before} SP) takes {a.hits} hit(s): {a.sp} SP is below its block's lowest edge, so "
                f"it is replaced by block {a.block} at {a.sp} SP.")
    return f"{a.unit} takes {a.hits} hit(s): rotated from {a.sp_before} to {a.sp} SP."


def roll_pools(dice: Dice, pools: Pools) -> tuple[list[int], list[int]]:
    """Both sides' dice, attacker's first (9.2: rolled at the same time, applied together)."""
    a = dice.roll(6, pools.attacker, purpose="attacker combat dice") if pools.attacker else []
    d = dice.roll(6, pools.defender, purpose="defender combat dice") if pools.defender else []
    return a, d


# -- the check ---------------------------------------------------------------------------------


class CombatRequest(CheckRequest):
    """One normal combat against one defending hex (9.2): a single round."""

    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO,
                                description="Scenario id (the game has one: 'campaign').")
    turn: int = board_field("turn", ge=1, le=99, description="Game turn (support availability by turn, 4).")
    weather: WeatherName = board_field(WEATHER_MARKER, description="This turn's weather (7): air support needs clear weather.")
    attackers: list[Attacker] = board_field("attackers", min_length=1, max_length=6,
                                            description="The attacking blocks (all of one side), each adjacent to the "
                                                        "defender.")
    defender: Block = board_field("defenders", description="The defending block (one unit per hex, 9.1).")
    attacker_support: list[SupportName] = Field(default_factory=list, max_length=3,
                                                description="Support types the attacker adds (+2 dice each, one of each type, 4).")
    defender_support: list[SupportName] = Field(default_factory=list, max_length=3,
                                                description="Support types the defender adds (+2 dice each, one of each type, 4).")
    defender_terrain: str | None = Field(default=None, pattern=r"^(clear|mountain|city)$",
                                         description="Terrain of the defender's hex; null = read from the map at defender.hex.")
    coastal: bool | None = Field(default=None, description="Whether the defender's hex is a coast hex (naval "
                                 "support, 2); null = read from the map at defender.hex.")
    communist_armor_level: int = Field(default=2, ge=0, le=2, description="Current box of the Communist armor "
                                       "support block (starts at 2, 13.4; each UN defender 6 lowers it, 4).")
    attacker_support_left: dict[SupportName, int] | None = Field(
        default=None, description="Optional: supports of each type the attacker still has this turn (validated).")
    defender_support_left: dict[SupportName, int] | None = Field(
        default=None, description="Optional: supports of each type the defender still has this turn (validated).")
    already_attacked: list[str] = Field(default_factory=list, max_length=40, description=(
        "Blocks that have already attacked this turn (9: one attack activation per unit per turn; 9.2)."))
    attacker_hit_order: list[str] = Field(default_factory=list, max_length=40, description=(
        "The attacking player's choice of which blocks absorb the hits the defender scores, one entry per hit, in "
        "order (repeats allowed; an eliminated block or one whose hit number the die does not reach is skipped). "
        "Hits beyond the list go to the standing attackers in the order listed in `attackers`, each until "
        "eliminated. Communist 6s go to the Marine block regardless (9.2)."))

    #: The situation the validator built, and the game it was built against, kept so the
    #: check does not build it a second time (see `validated_situation`).
    _situation: tuple[Game, Situation] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        self._situation = (g, situation_for(self, g))
        known = {a.unit for a in self.attackers}
        again = sorted(known & set(self.already_attacked))
        if again:
            raise ValueError(f"{', '.join(again)} already attacked this turn: units may only participate in one "
                             "attack a turn (9.2)")
        for unit in self.attacker_hit_order:
            if unit not in known:
                raise ValueError(f"attacker_hit_order names {unit!r}, which is not an attacking block")
        return self


def situation_for(req: CombatRequest, g: Game | None = None) -> Situation:
    return build_situation(
        g or data.game(), req.scenario, turn=req.turn, weather=req.weather, attackers=req.attackers,
        defender=req.defender, attacker_support=req.attacker_support, defender_support=req.defender_support,
        defender_terrain=req.defender_terrain, coastal=req.coastal, communist_armor_level=req.communist_armor_level,
        attacker_support_left=req.attacker_support_left, defender_support_left=req.defender_support_left)


def validated_situation(req: CombatRequest, g: Game) -> Situation:
    """The situation for `req` in `g`: the one validation built, when it was built against `g`.

    Building it reads the map and the charts (a sizeable share of a roll's CPU); validation
    already had to, to refuse impossible combats before any die is rolled.
    """
    cached = req._situation
    if cached is not None and cached[0] is g:
        return cached[1]
    return situation_for(req, g)


def pool_steps(pools: Pools, s: Situation) -> list[Step]:
    steps = [
        Step(f"Attacker ({s.attacker_side}) dice: " + " ".join(pools.attacker_terms) + f" = {pools.attacker}.",
             "9.2; 4 Combat Chart; 2 River Hex Line; 4 Support"),
        Step(f"Defender ({s.defender_side}) dice: " + " ".join(pools.defender_terms) + f" = {pools.defender}"
             + f" (defender's hex: {s.defender_terrain}"
             + (", a city" if s.defender_in_city and s.defender_terrain != "city" else "") + ").",
             "9.2; 4 Combat Chart; 2 City; 4 Support"),
    ]
    if s.defender_terrain == "mountain" and "armor" in s.defender_support:
        steps.append(Step(f"Reading: armor supports the defence in mountain terrain. Rule 4 limits it to attacks - "
                          f"\"{ARMOR_MOUNTAIN}\" (\"attacks\" in bold) - and the terrain chart's \"No armor support "
                          "allowed\" is read as that rule's short form, not as a ban on defence too.",
                          "4 Armor Support; 2 Terrain Chart"))
    return steps


def run_combat(g: Game, req: CombatRequest, dice: Dice) -> CheckResult:
    """The combat check against a given game (tests pass a game with their own map)."""
    s = validated_situation(req, g)
    rp = data.rp_cost(g, "activate_combat")
    steps = [Step(f"The attacker pays {rp} RP to attack the defending hex.", "9.2; 6 RP costs")]
    pools = dice_pools(g, s)
    steps += pool_steps(pools, s)
    a_rolls, d_rolls = roll_pools(dice, pools)
    rnd = resolve_round(g, req.scenario, s, a_rolls, d_rolls, req.attacker_hit_order)
    steps += rnd.steps
    armor_after = max(req.communist_armor_level - rnd.communist_armor_lost, 0) \
        if (s.attacker_side == "communist" and "armor" in s.attacker_support) else req.communist_armor_level
    steps.append(Step("Combat is a single round; there is no retreat or advance after combat in the rules.", RULE))
    outcome = {
        "rp_cost": rp,
        "attacker_side": s.attacker_side,
        "attacker_dice": pools.attacker,
        "defender_dice": pools.defender,
        "attacker_rolls": a_rolls,
        "defender_rolls": d_rolls,
        **hit_counts(rnd),
        "marine_sixes": rnd.on_attackers.marine_sixes + rnd.on_defender.marine_sixes,
        "attackers": [a.to_json() for a in rnd.attackers_after],
        "defender": rnd.defender_after.to_json(),
        "support_used": {s.attacker_side: s.attacker_support, s.defender_side: s.defender_support},
        "communist_armor_level": armor_after,
    }
    return CheckResult(outcome=outcome, steps=steps, warnings=s.warnings)


@register_check(system="holdfast", name="combat", request=CombatRequest, random=True,
                summary="Resolve one combat: dice pools, simultaneous rolls, hits, block swaps", rule="9.2",
                actor=data.owner("the attacking blocks (the attacker announces the attack)", "9.2 step 3",
                                 lambda r: [a.unit for a in r.attackers]),
                example={"turn": 6,
                         "weather": "clear",
                         "attackers": [{"unit": "nkpa-1", "sp": 3, "across_river": True}],
                         "defender": {"unit": "un-2", "sp": 4},
                         "defender_terrain": "city",
                         "coastal": True,
                         "attacker_support": ["armor"],
                         "defender_support": ["air", "naval"],
                         "dice": [5, 6, 1, 1, 6, 2, 2, 2, 2, 2, 2, 2, 2]})
def combat(req: CombatRequest, dice: Dice) -> CheckResult:
    return run_combat(data.game(), req, dice)
