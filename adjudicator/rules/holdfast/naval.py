"""UN naval transfer and naval (amphibious) assault (9.1; 8; 16; RP costs 6).

Naval transfer: for 2 RP (1 RP to Pusan) one UN unit moves from a UN-controlled port (or the FEC
box, which counts as a port) to another UN-controlled port; it may not move before, may move
after; at most one per turn.

Naval assault: for 3 RP one UN unit goes from a UN-controlled port (or the FEC box) to a
non-UN-controlled port; it is in supply for the whole turn. An enemy unit in the port is fought in
continuous rounds (an exception to the single round of 9.2), support usable by both sides in
every round, the RP paid once. The attacker may stop and return to its port of origin with 1
additional SP loss. If the defender is eliminated or the port is empty, the attacker occupies it
and moves no further. At most one per turn.

Readings: the attacker's decision to break off is given in advance (`max_rounds`,
`break_off_below_sp`) so the same request works in game mode; each round uses one support of
each chosen type while that type has supports left this turn (4: 'Once a player has used all
support in a turn he receives no more'), starting from the Turn Track's allowance
(campaign.turns.csv) unless the request says what is left.
"""

from __future__ import annotations

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board as board_field, register_check, the_side
from adjudicator.rules.holdfast import board, combat, control, data
from adjudicator.rules.holdfast.schemas import WEATHER_MARKER, Attacker, Block, SupportName, WeatherName, unique
from scenarios.model import Game

RULE = "9.1 UN Naval Assault"
FEC = "fec"


def turn_support_allowance(g: Game, scenario_id: str, turn: int, side: str) -> dict[str, int]:
    """Supports of each type `side` receives on `turn` (Turn Track columns `<side>_<type>`)."""
    values = data.turn_record(g, scenario_id, turn).values
    out = {}
    for kind in data.SUPPORT_TYPES:
        cell = values.get(f"{side}_{kind}", "")
        if cell.strip().isdigit():
            out[kind] = int(cell)
    return out


class NavalAssaultRequest(CheckRequest):
    """A UN naval assault on a non-UN-controlled port, fought in continuous rounds (9.1)."""

    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, description="Scenario id.")
    turn: int = board_field("turn", ge=1, le=99, description="Game turn.")
    weather: WeatherName = board_field(WEATHER_MARKER, description="This turn's weather (7).")
    attacker: Block = board_field("attackers",
                                  description="The assaulting UN block (its hex is ignored: it comes from "
                                              "`from_port`).")
    from_port: str = Field(pattern=r"^(fec|\d{4})$", description="Port of origin: a UN-controlled port hex, or 'fec' "
                           "for the Far East Command Reserve box (it counts as a port, 9.1).")
    target_port: str = board_field("target_hex", pattern=r"^\d{4}$",
                                   description="The non-UN-controlled port assaulted.")
    defender: Block | None = board_field("defenders", default=None,
                                         description="The enemy block in the port; null = the port is empty.")
    attacker_support: list[SupportName] = Field(default_factory=list, max_length=3,
                                                description="Support types the UN adds in every round while it has them.")
    defender_support: list[SupportName] = Field(default_factory=list, max_length=3,
                                                description="Support types the defender adds in every round while it has them.")
    attacker_support_left: dict[SupportName, int] | None = Field(
        default=None, description="UN supports of each type left this turn; null = the Turn Track's allowance.")
    defender_support_left: dict[SupportName, int] | None = Field(
        default=None, description="Communist supports of each type left this turn; null = the Turn Track's allowance.")
    un_controlled_ports: list[str] = Field(default_factory=list, max_length=40, description=(
        "Ports whose control changed to the UN since the start (2, 12); others keep their starting control "
        "(UN south of the 38th, Communist north)."))
    communist_controlled_ports: list[str] = Field(default_factory=list, max_length=40, description=(
        "Ports whose control changed to the Communist player since the start."))
    max_rounds: int = Field(default=20, ge=1, le=20, description=(
        "The attacker fights at most this many rounds, then breaks off (returns to its port, 1 extra SP lost)."))
    break_off_below_sp: int = Field(default=0, ge=0, le=8, description=(
        "The attacker breaks off after a round that leaves it below this SP (0 = never for that reason)."))
    naval_assaults_this_turn: int = Field(default=0, ge=0, le=9, description="Naval assaults already made this turn (max 1, 9.1).")
    moved_this_turn: bool = Field(default=False, description="Whether the unit already moved this turn (it may not, 9.1).")
    rp_available: int | None = Field(default=None, ge=0, le=16, description="UN RP left this turn (checked against the 3 RP).")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        validate_assault(data.game_in(info), self)
        return self


def _changed(req) -> dict[str, str]:
    changed = {h: "un" for h in req.un_controlled_ports}
    changed.update({h: "communist" for h in req.communist_controlled_ports})
    return changed


def validate_assault(g: Game, req: NavalAssaultRequest) -> list[str]:
    """ValueError for an assault the rules forbid; returns the warnings the ruling depends on."""
    gm = g.maps[data.scenario(g, req.scenario).maps[0]]
    warnings: list[str] = []
    if data.unit(g, req.attacker.unit).side != "un":
        raise ValueError("only a UN unit may make a naval assault (9.1)")
    if req.moved_this_turn:
        raise ValueError("the unit may not move before or after a naval assault (9.1)")
    if req.naval_assaults_this_turn >= 1:
        raise ValueError("a maximum of 1 unit per turn may do a naval assault (9.1)")
    cost = data.rp_cost(g, "naval_assault")
    if req.rp_available is not None and req.rp_available < cost:
        raise ValueError(f"a naval assault costs {cost} RP; only {req.rp_available} left (6)")
    target = board.parse(gm, req.target_port)
    if not board.is_port(gm, target):
        raise ValueError(f"{req.target_port} is not a port (9.1: a naval assault goes to a port)")
    side, w = control.controller(g, gm, req.scenario, target, _changed(req))
    warnings += w
    if side == "un":
        raise ValueError(f"port {req.target_port} is UN-controlled: a naval assault goes to a non-UN-controlled "
                         "port (9.1; use naval_transfer)")
    if req.from_port != FEC:
        origin = board.parse(gm, req.from_port)
        if not board.is_port(gm, origin):
            raise ValueError(f"{req.from_port} is not a port")
        side, w = control.controller(g, gm, req.scenario, origin, _changed(req))
        warnings += w
        if side != "un":
            raise ValueError(f"port of origin {req.from_port} is not UN-controlled (9.1)")
    if req.defender is not None:
        for kind_list in (req.attacker_support, req.defender_support):
            if not unique(kind_list):
                raise ValueError("at most one support of each type per side per combat (4)")
        combat.build_situation(g, req.scenario, **_round_args(req, req.attacker_support, req.defender_support, req.attacker.sp,
                                                             req.attacker.unit, req.defender.sp, req.defender.unit))
    return warnings


def _round_args(req, a_support, d_support, a_sp, a_unit, d_sp, d_unit) -> dict:
    return dict(
        turn=req.turn, weather=req.weather,
        attackers=[Attacker(unit=a_unit, sp=a_sp, across_river=False)],
        defender=Block(unit=d_unit, sp=d_sp, hex=req.target_port),
        attacker_support=a_support, defender_support=d_support,
        defender_terrain=None, coastal=None, communist_armor_level=2, naval_assault=True,
    )


def run_naval_assault(g: Game, req: NavalAssaultRequest, dice: Dice) -> CheckResult:
    warnings = validate_assault(g, req)
    cost = data.rp_cost(g, "naval_assault")
    steps = [Step(f"The UN pays {cost} RP once for the whole naval assault of {req.attacker.unit} from "
                  f"{'the FEC box' if req.from_port == FEC else req.from_port} to port {req.target_port}; the unit is "
                  "in supply for the whole turn and may not move before or after.", RULE + "; 6; 16")]
    a_unit, a_sp = req.attacker.unit, req.attacker.sp
    outcome = {"rp_cost": cost, "rounds": [], "occupies_port": False, "broke_off": False,
               "attacker": None, "defender": None}
    if req.defender is None:
        steps.append(Step(f"Port {req.target_port} is unoccupied: {a_unit} occupies it and can move no further.", RULE))
        outcome.update(occupies_port=True, attacker={"block": a_unit, "sp": a_sp, "eliminated": False})
        return CheckResult(outcome=outcome, steps=steps, warnings=warnings)
    d_unit, d_sp = req.defender.unit, req.defender.sp
    a_left = dict(req.attacker_support_left if req.attacker_support_left is not None
                  else turn_support_allowance(g, req.scenario, req.turn, "un"))
    d_left = dict(req.defender_support_left if req.defender_support_left is not None
                  else turn_support_allowance(g, req.scenario, req.turn, "communist"))
    if req.attacker_support_left is None or req.defender_support_left is None:
        warnings += data.stand_in_warnings(g, f"scenario {req.scenario} rule turn_track")
    a_elim = d_elim = False
    for number in range(1, req.max_rounds + 1):
        a_support = [k for k in req.attacker_support if a_left.get(k, 0) > 0]
        d_support = [k for k in req.defender_support if d_left.get(k, 0) > 0]
        for k in a_support:
            a_left[k] -= 1
        for k in d_support:
            d_left[k] -= 1
        s = combat.build_situation(g, req.scenario, **_round_args(req, a_support, d_support, a_sp, a_unit, d_sp, d_unit))
        pools = combat.dice_pools(g, s)
        rule = f"{RULE}, round {number}"
        steps += [Step(f"Round {number}: " + st.text, st.rule) for st in combat.pool_steps(pools, s)]
        dropped = [k for k in req.attacker_support + req.defender_support if k not in a_support + d_support]
        if dropped:
            steps.append(Step(f"Round {number}: no support left this turn for: {', '.join(dropped)}.", "4 Support"))
        a_rolls, d_rolls = combat.roll_pools(dice, pools)
        rnd = combat.resolve_round(g, req.scenario, s, a_rolls, d_rolls, rule=rule)
        steps += rnd.steps
        a_after, d_after = rnd.attackers_after[0], rnd.defender_after
        outcome["rounds"].append({"round": number, "attacker_dice": pools.attacker, "defender_dice": pools.defender,
                                  "attacker_rolls": a_rolls, "defender_rolls": d_rolls, **combat.hit_counts(rnd),
                                  "attacker": a_after.to_json(), "defender": d_after.to_json(),
                                  "support": {"un": a_support, "communist": d_support}})
        a_unit, a_sp, a_elim = a_after.block, a_after.sp, a_after.eliminated
        d_unit, d_sp, d_elim = d_after.block, d_after.sp, d_after.eliminated
        if a_elim or d_elim:
            break
        if number == req.max_rounds or a_sp < req.break_off_below_sp:
            why = "the last round the request allows" if number == req.max_rounds else \
                f"it is below {req.break_off_below_sp} SP"
            extra = int(data.special(g, req.scenario, "naval_assault").get("retreat_extra_sp_loss", 1))
            back = data.lose_sp(g, req.scenario, a_unit, a_sp, extra)
            steps.append(Step(f"The attacker breaks off after round {number} ({why}) and returns to "
                              f"{'the FEC box' if req.from_port == FEC else req.from_port} with {extra} additional SP "
                              f"loss: " + combat.after_text(back), RULE))
            a_unit, a_sp, a_elim = back.block, back.sp, back.eliminated
            outcome["broke_off"] = True
            break
        steps.append(Step(f"Both blocks still stand after round {number}: the naval assault fights on (continuous "
                          "rounds, an exception to the single round of 9.2).", RULE + "; 16"))
    if d_elim and not a_elim:
        steps.append(Step(f"The defender is eliminated: {a_unit} occupies port {req.target_port} (now UN-controlled) "
                          "and can move no further this turn.", RULE))
        outcome["occupies_port"] = True
    elif a_elim:
        steps.append(Step(f"The assaulting unit is eliminated; {d_unit} holds port {req.target_port}.", RULE))
    outcome["attacker"] = {"block": a_unit, "sp": a_sp, "eliminated": a_elim}
    outcome["defender"] = {"block": d_unit, "sp": d_sp, "eliminated": d_elim}
    outcome["support_left"] = {"un": a_left, "communist": d_left}
    return CheckResult(outcome=outcome, steps=steps, warnings=warnings + data.map_stand_in_warning(g, "korea"))


@register_check(system="holdfast", name="naval_assault", request=NavalAssaultRequest, random=True,
                summary="UN naval assault: continuous combat rounds for a port", rule="9.1",
                actor=the_side("un", rule="9.1 (UN naval assault)"),
                example={"turn": 6,
                         "weather": "clear",
                         "attacker": {"unit": "usmc-1", "sp": 6},
                         "from_port": "fec",
                         "target_port": "1021",
                         "communist_controlled_ports": ["1021"],
                         "dice": []})
def naval_assault(req: NavalAssaultRequest, dice: Dice) -> CheckResult:
    return run_naval_assault(data.game(), req, dice)


class NavalTransferRequest(CheckRequest):
    """A UN naval transfer between UN-controlled ports (9.1)."""

    scenario: str = board_field("scenario", default=data.DEFAULT_SCENARIO, description="Scenario id.")
    unit: str = board_field("unit", min_length=1, max_length=40, description="The UN block transferred.")
    from_port: str = board_field("hex", pattern=r"^(fec|\d{4})$",
                                 description="UN-controlled port of origin, or 'fec' (FEC box).")
    to_port: str = Field(pattern=r"^\d{4}$", description="UN-controlled destination port.")
    moved_this_turn: bool = Field(default=False, description="Whether the unit already moved this turn (it may not).")
    naval_transfers_this_turn: int = Field(default=0, ge=0, le=9, description="Naval transfers already made this turn (max 1).")
    un_controlled_ports: list[str] = Field(default_factory=list, max_length=40,
                                           description="Ports that changed to UN control since the start (12).")
    communist_controlled_ports: list[str] = Field(default_factory=list, max_length=40,
                                                  description="Ports that changed to Communist control since the start.")
    rp_available: int | None = Field(default=None, ge=0, le=16, description="UN RP left this turn.")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        transfer_ruling(data.game_in(info), self)
        return self


def transfer_ruling(g: Game, req: NavalTransferRequest) -> CheckResult:
    gm = g.maps[data.scenario(g, req.scenario).maps[0]]
    rule = "9.1 UN Naval Transfer"
    if data.unit(g, req.unit).side != "un":
        raise ValueError("only a UN unit may make a naval transfer (9.1)")
    if req.moved_this_turn:
        raise ValueError("the unit may not move prior to the naval transfer (9.1)")
    if req.naval_transfers_this_turn >= 1:
        raise ValueError("a maximum of 1 unit per turn may use naval transfer (9.1)")
    warnings: list[str] = []
    for text, what in ((req.from_port, "port of origin"), (req.to_port, "destination")):
        if text == FEC:
            continue
        hex = board.parse(gm, text)
        if not board.is_port(gm, hex):
            raise ValueError(f"{what} {text} is not a port")
        side, w = control.controller(g, gm, req.scenario, hex, _changed(req))
        warnings += w
        if side != "un":
            raise ValueError(f"{what} {text} is not UN-controlled (9.1)")
    if req.from_port == req.to_port:
        raise ValueError("the destination must be another port")
    dest = board.parse(gm, req.to_port)
    pusan = control.is_pusan(gm, dest)
    cost = data.rp_cost(g, "naval_transfer_pusan" if pusan else "naval_transfer")
    if req.rp_available is not None and req.rp_available < cost:
        raise ValueError(f"the naval transfer costs {cost} RP; only {req.rp_available} left (6)")
    entry = board.terrain(gm, dest)
    steps = [
        Step(f"Naval transfer of {req.unit} from {'the FEC box' if req.from_port == FEC else req.from_port} to "
             f"{req.to_port}{' (Pusan)' if pusan else ''}: {cost} RP.", rule + "; 6"),
        Step("The unit may move after the transfer (at most one naval transfer per turn). Reading (Amphibious Assault "
             f"example): the landing port's terrain cost ({entry}) is paid from the unit's MP and the double move is "
             "not applied.", rule + "; Amphibious Assault example"),
    ]
    outcome = {"rp_cost": cost, "to_pusan": pusan, "may_move_after": True, "landing_hex_terrain": entry}
    return CheckResult(outcome=outcome, steps=steps, warnings=warnings + data.map_stand_in_warning(g, gm.id))


@register_check(system="holdfast", name="naval_transfer", request=NavalTransferRequest, random=False,
                summary="UN naval transfer between UN-controlled ports: legality and RP cost", rule="9.1",
                actor=the_side("un", rule="9.1 (UN naval transfer)"),
                example={"unit": "un-24", "from_port": "fec", "to_port": "1830"})
def naval_transfer(req: NavalTransferRequest, dice: Dice) -> CheckResult:
    return transfer_ruling(data.game(), req)
