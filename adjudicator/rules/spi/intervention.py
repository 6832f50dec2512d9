"""SPI Korea: Chinese intervention in the Campaign Game, the Chinese Shock Effect, and the
Intervention Game's special rule (5) (UN units returning from off the north map edge).

Campaign Game: Chinese Intervention (the opening sentence is lost in the OCR; surviving text):
"... units assist in combat taking place north of the 38th parallel. The North Koreans continuing
taking their one supply unit per turn at Pyongyang until this city is occupied by UN units, at which
time the supply units begin arriving at Antung if the Chinese have intervened; none are received if they
have not. Obviously, if only South Korean units invade the North, there is no Chinese Intervention ...
Upon the preconditions being fulfilled for the Intervention, the Communists receive two Armies (25-2)
per turn at Antung up to a total of twelve Armies. This in addition to any Reinforcements ordinarily
dictated by the [chart]. At the same time supply units begin entering the Game one per Turn, although
they may no longer be received at Pyongyang."
Reading implemented (the digest's and the data's `chinese_intervention_trigger`): the Chinese intervene
from the Game-Turn AFTER non-Korean UN units first take part in a combat north of the 38th parallel.
Alternative: the same Game-Turn. What-ifs 7 and 8 (table `variants`) replace the trigger.
Readings: the chart's A1-1 is the rule's one supply unit per turn (not a second one); the chart's 25-2s
arrive only once the Chinese have intervened, in addition to the rule's two Armies.

Chinese Shock Effect (re-assembled OCR): Intervention Special Game Rules #1-4, for three Game-Turns
beginning with the Game-Turn the Communist Player declares; used once per Campaign Game; must begin no
later than the eighth Game-Turn following the initiation of Chinese Intervention; on declaring, the
Communist Player removes all Communist supply units on the map (new ones may arrive). Not with what-ifs
7 and 8.

Intervention Game special rule (5) - north_edge_return: at the beginning of the Second Movement Phase of
the first UN Player Turn a 10-3 appears on the RR (last railroad hex NE of Iwon) and a 5-3 on the road
(last road hex NW of Iwon); a die: 1-3 a second 10-3 appears on the road then, stacked with the 5-3;
4-6 it appears in the First Movement Phase of the second UN Player Turn on the road, or, if that hex is
enemy-occupied, on the first unoccupied hex east of the road. The text survives only as interleaved
OCR columns; this is the digest's re-assembly (rules/spi-korea.md 11.2).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, either_side, register_check, the_side
from adjudicator.rules.gamedata import with_special_rule
from adjudicator.rules.spi import data
from adjudicator.rules.spi.schemas import ScenarioName
from scenarios.model import Game

RULE_CI = "Campaign Game: Chinese Intervention"
RULE_SHOCK = "Campaign Game: Chinese Shock Effect"
RULE = "Special Game Rules: Intervention (5)"
NORTH_EDGE, INTERVENTION, TRIGGER, SHOCK = ("un_units_off_north_edge", "chinese_intervention",
                                            "chinese_intervention_trigger", "chinese_shock_effect")


class NorthEdgeReturnRequest(CheckRequest):
    scenario: ScenarioName = board("scenario", default="intervention", description=(
        "Game played: a scenario whose data has the special rule un_units_off_north_edge (the Intervention Game's)."))
    road_hex_enemy_occupied: bool = Field(
        default=False,
        description="Only matters on a roll of 4-6: whether the road hex (the last road hex "
        "northwest of Iwon) is occupied by the enemy when the delayed 10-3 arrives.",
    )


    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        data.rule_of(data.game_in(info), self.scenario, NORTH_EDGE)
        return self


def return_hexes(rule: dict) -> dict[str, str]:
    """The data's placement of 'the RR' and 'the road' on the north map edge."""
    return {"rr_hex": str(rule.get("rr_hex", "")), "road_hex": str(rule.get("road_hex", ""))}


@register_check(
    system="spi",
    name="north_edge_return",
    request=NorthEdgeReturnRequest,
    random=True,
    summary="Intervention Game: when the second 10-3 returns from off the north map edge",
    rule=RULE,
    scenario_rule=with_special_rule(data.game, NORTH_EDGE),
    actor=the_side("un", rule=f"{RULE} (first UN Player Turn)"),
    example={"road_hex_enemy_occupied": False, "dice": [2]},
)
def north_edge_return(req: NorthEdgeReturnRequest, dice: Dice) -> CheckResult:
    rule = data.rule_of(data.game(), req.scenario, NORTH_EDGE)
    cited = str(rule.get("source", RULE))
    steps = [
        Step(
            "Second Movement Phase of the first UN Player Turn: a 10-3 appears automatically on "
            "the last railroad hex northeast of Iwon (the RR) and a 5-3 on the last road hex "
            "northwest of Iwon (the road); then a die is rolled for a second 10-3.",
            cited,
        )
    ]
    (roll,) = dice.roll(6, purpose="second 10-3 return roll")
    now = roll <= 3
    if now:
        steps.append(
            Step(
                f"Rolled {roll} (1-3): the second 10-3 appears on the road in this Second "
                "Movement Phase, stacked with the 5-3.",
                cited,
            )
        )
        placement = "road"
        arrives = "first UN Player Turn, Second Movement Phase"
    else:
        placement = (
            "first unoccupied hex east of the road" if req.road_hex_enemy_occupied else "road"
        )
        arrives = "second UN Player Turn, First Movement Phase"
        steps.append(
            Step(
                f"Rolled {roll} (4-6): the second 10-3 appears in the First Movement Phase of the "
                f"second UN Player Turn, on the {placement}"
                + (" because the road hex is enemy-occupied." if req.road_hex_enemy_occupied
                   else "."),
                cited,
            )
        )
    return CheckResult(
        outcome={
            "roll": roll,
            "second_10_3_arrives_now": now,
            "second_10_3_arrives": arrives,
            "second_10_3_placement": placement,
            **return_hexes(rule),
        },
        steps=steps,
        warnings=[
            "The text of special rule 5 survives only as OCR of interleaved columns; the "
            "reading used here is the digest's re-assembly (rules/spi-korea.md §11.2)."
        ],
    )


# -- Campaign Game: Chinese Intervention -----------------------------------------------------------

WhatIf = Literal[0, 7, 8]


def variant_parameters(g: Game, situation: int) -> dict[str, str]:
    """`parameters` of one what-if row of table `variants`, as key=value pairs."""
    text = data.table(g, "variants").cell(str(situation), "parameters")
    out = {}
    for part in text.split(";"):
        key, _, value = part.strip().partition("=")
        if key:
            out[key.strip()] = value.strip()
    return out


def shock_allowed(g: Game, what_if: int) -> bool:
    return not what_if or variant_parameters(g, what_if).get("shock_effect", "allowed") != "no"


class ChineseInterventionRequest(CheckRequest):
    """What the Chinese intervention brings on one Campaign Game-Turn (Campaign Game: Chinese Intervention)."""

    scenario: ScenarioName = board("scenario", default="campaign", description=(
        "Game played: a scenario whose data has the special rule chinese_intervention (the Campaign Game's)."))
    game_turn: int = board("turn", ge=1, le=60, description="The Game-Turn (Campaign: 1-52).")
    non_korean_un_combat_north_of_38th_turn: int | None = Field(
        default=None, ge=1, le=60, title="Turn non-Korean UN units first fought north of the 38th parallel", description=(
        "The Game-Turn non-Korean UN units first took part in a combat north of the 38th parallel (None: not yet; "
        "South Korean units alone never trigger it)."))
    what_if: WhatIf = Field(default=0, title="What-if situation (Other Games)", description=(
        "Other Games situation replacing the trigger: 7 (intervene if any UN units are on the map on Invasion "
        "turn 8) or 8 (third Game-Turn after the first landing of a non-Korean unit); 0 = the standard rule."))
    un_units_on_map_turn_8: bool = Field(default=False, title="UN units on the map on turn 8", description="What-if 7: UN units were on the map on turn 8.")
    first_non_korean_landing_turn: int | None = Field(default=None, ge=1, le=60, title="Turn of the first non-Korean UN landing",
                                                      description=(
        "What-if 8: the Game-Turn the first non-Korean UN unit landed."))
    armies_received: int = Field(default=0, ge=0, le=12, description=(
        "Chinese Armies (25-2) already received under this rule (up to twelve in all)."))
    pyongyang_occupied_by_un: bool = Field(default=False, title="Pyongyang occupied by the UN", description=(
        "Whether UN units have occupied Pyongyang (NK supply units arrive there until then)."))

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        data.rule_of(g, self.scenario, INTERVENTION)
        data.turn_record(g, self.scenario, self.game_turn)
        if self.what_if != 8 and self.first_non_korean_landing_turn is not None:
            raise ValueError("first_non_korean_landing_turn belongs to what-if 8")
        if self.what_if == 8 and self.first_non_korean_landing_turn is None:
            raise ValueError("what-if 8 needs first_non_korean_landing_turn")
        if self.what_if != 7 and self.un_units_on_map_turn_8:
            raise ValueError("un_units_on_map_turn_8 belongs to what-if 7")
        for name in ("non_korean_un_combat_north_of_38th_turn", "first_non_korean_landing_turn"):
            value = getattr(self, name)
            if value is not None and value > self.game_turn:
                raise ValueError(f"{name} ({value}) is after the current Game-Turn {self.game_turn}")
        return self


def intervention_turn(g: Game, req: ChineseInterventionRequest) -> tuple[int | None, Step]:
    """The Game-Turn the Chinese intervene from (None: not triggered), and why."""
    if req.what_if == 7:
        text = data.table(g, "variants").cell("7", "title")
        if req.un_units_on_map_turn_8:
            return 8, Step(f"What-if 7: {text} - UN units were on the map on turn 8: intervention from turn 8.",
                           "Other Games 7")
        return None, Step(f"What-if 7: {text} - no UN units on the map on turn 8: no intervention.", "Other Games 7")
    if req.what_if == 8:
        turn = req.first_non_korean_landing_turn + 3
        return turn, Step(f"What-if 8: intervention on the third Game-Turn after the first non-Korean landing "
                          f"(turn {req.first_non_korean_landing_turn}): turn {turn}.", "Other Games 8")
    trigger = data.special(g, req.scenario, TRIGGER)
    cited = str(data.rule_of(g, req.scenario, INTERVENTION).get("source", RULE_CI))
    reading = (f"The rule's opening sentence is lost in the OCR; reading used: {trigger.get('trigger', '')}, "
               f"intervention from the {trigger.get('starts', 'next Game-Turn')} (alternative: "
               f"{trigger.get('alternative', 'the same Game-Turn')}).")
    if req.non_korean_un_combat_north_of_38th_turn is None:
        return None, Step(reading + " Not triggered yet (South Korean units alone never trigger it).", cited)
    delay = 0 if trigger.get("starts") == "the same Game-Turn" else 1
    turn = req.non_korean_un_combat_north_of_38th_turn + delay
    return turn, Step(reading + f" Triggered on turn {req.non_korean_un_combat_north_of_38th_turn}: the Chinese "
                      f"intervene from turn {turn}.", cited)


def resolve_intervention(g: Game, req: ChineseInterventionRequest) -> CheckResult:
    rule = data.rule_of(g, req.scenario, INTERVENTION)
    cited = str(rule.get("source", RULE_CI))
    start, why = intervention_turn(g, req)
    steps = [why]
    intervened = start is not None and req.game_turn >= start
    per_turn, total = int(rule.get("armies_per_turn", 2)), int(rule.get("armies_total", 12))
    armies = min(per_turn, total - req.armies_received) if intervened else 0
    if intervened:
        steps.append(Step(f"The Chinese have intervened: {armies} Army(ies) (25-2) arrive at {rule.get('army_entry')} "
                          f"this turn ({req.armies_received} received of {total}; {per_turn} per turn).", cited))
    turn = data.turn_record(g, req.scenario, req.game_turn)
    codes = [c.strip() for c in turn.values.get("comm_reinf", "").split(",") if c.strip()]
    chart = []
    for code in codes:
        if code in ("25-2", "A1-1") and not intervened:
            steps.append(Step(f"Chart code {code} this turn: Chinese units arrive only once the Chinese have intervened "
                              "(the data's reading of the chart notes).", cited))
            continue
        if code in ("A1-1", "P1-1"):
            continue  # supply units: decided below
        chart.append(code)
    if intervened:
        supply = {"count": int(rule.get("supply_units_per_turn", 1)), "at": rule.get("supply_entry", "Antung")}
        steps.append(Step(f"Supply units: one per turn at {supply['at']}, no longer at Pyongyang (the chart's A1-1 is "
                          "this unit).", cited))
    elif not req.pyongyang_occupied_by_un and "P1-1" in codes:
        supply = {"count": 1, "at": "Pyongyang"}
        steps.append(Step("The North Koreans take their supply unit at Pyongyang (P1-1) until UN units occupy it.",
                          "Reinforcement Notes: Communist Chart Codes"))
    else:
        supply = {"count": 0, "at": ""}
        steps.append(Step("No Communist supply unit: Pyongyang is UN-occupied and the Chinese have not intervened "
                          "('none are received if they have not')." if req.pyongyang_occupied_by_un else
                          "No supply unit on the chart this turn.", cited))
    if chart:
        steps.append(Step(f"Chart reinforcements this turn, in addition: {', '.join(chart)}.", cited))
    outcome = {"intervened": intervened, "intervention_turn": start, "armies_this_turn": armies,
               "armies_total_after": req.armies_received + armies, "army_entry": rule.get("army_entry") if armies else "",
               "supply_units": supply, "chart_reinforcements": chart,
               "shock_effect_latest_start": (start + 8) if start is not None and shock_allowed(g, req.what_if) else None}
    warnings = [] if req.what_if else [str(data.special(g, req.scenario, TRIGGER).get("source", ""))]
    return CheckResult(outcome=outcome, steps=steps, warnings=[w for w in warnings if w])


@register_check(system="spi", name="chinese_intervention", request=ChineseInterventionRequest, random=False,
                summary="Campaign Game: whether the Chinese have intervened and what arrives this turn (two Armies per "
                        "turn up to twelve, supply units)", rule=RULE_CI,
                scenario_rule=with_special_rule(data.game, INTERVENTION),
                actor=either_side(rule=RULE_CI, why="what the schedule brings this Game-Turn; no die"),
                example={"game_turn": 20, "non_korean_un_combat_north_of_38th_turn": 19})
def chinese_intervention(req: ChineseInterventionRequest, dice: Dice) -> CheckResult:
    return resolve_intervention(data.game(), req)


# -- Campaign Game: Chinese Shock Effect -----------------------------------------------------------


class ShockEffectRequest(CheckRequest):
    """Whether a Shock Effect declaration is legal and which Game-Turns it covers (Campaign Game)."""

    scenario: ScenarioName = board("scenario", default="campaign", description=(
        "Game played: a scenario whose data has the special rule chinese_shock_effect (the Campaign Game's)."))
    intervention_turn: int = Field(ge=1, le=60, description="The Game-Turn the Chinese Intervention began "
                                   "(check `chinese_intervention`).")
    declared_turn: int = Field(ge=1, le=60, description="The Game-Turn the Communist Player declares the Shock Effect "
                               "(at the beginning of his First Movement Phase).")
    game_turn: int | None = board("turn", default=None, ge=1, le=60,
                                  description="Optional: the current Game-Turn, to say "
                                  "whether the Shock rules are in force on it.")
    used_before: bool = Field(default=False, description="The Shock Effect was already used in this Campaign Game.")
    what_if: WhatIf = Field(default=0, title="What-if situation (Other Games)", description="What-if situation in play (7 and 8 forbid the Shock Effect).")

    @model_validator(mode="after")
    def _by_the_rules(self, info: ValidationInfo):
        g = data.game_in(info)
        rule = data.rule_of(g, self.scenario, SHOCK)
        cited = rule.get("source", RULE_SHOCK)
        for t in (self.intervention_turn, self.declared_turn, self.game_turn):
            if t is not None:
                data.turn_record(g, self.scenario, t)
        if self.used_before:
            raise ValueError(f"the Shock Effect is used only {rule.get('uses', 1)} time(s) in a game ({cited})")
        if not shock_allowed(g, self.what_if):
            raise ValueError(f"what-if {self.what_if} forbids the Shock Effect (Other Games {self.what_if})")
        if self.declared_turn < self.intervention_turn:
            raise ValueError("the Shock Effect cannot be declared before the Chinese Intervention has begun")
        if self.declared_turn > self.intervention_turn + 8:
            raise ValueError(f"the Shock Effect must begin no later than the eighth Game-Turn after the initiation of "
                             f"Chinese Intervention (turn {self.intervention_turn + 8}) ({cited})")
        return self


def shock_rules_text(g: Game, shock: dict) -> str:
    """The rules a Shock Effect puts in force, each by its own data's source (`rules`, `rules_from`)."""
    borrowed = [data.special(g, str(shock.get("rules_from", "")), name) for name in shock.get("rules", [])]
    return "; ".join(str(rule.get("source", name)) for name, rule in zip(shock.get("rules", []), borrowed))


def resolve_shock(g: Game, req: ShockEffectRequest) -> CheckResult:
    rule = data.rule_of(g, req.scenario, SHOCK)
    cited = str(rule.get("source", RULE_SHOCK))
    duration = int(rule.get("duration_turns", 3))
    turns = list(range(req.declared_turn, req.declared_turn + duration))
    steps = [
        Step(f"Declared at the beginning of the First Movement Phase of the Communist Player Turn of turn "
             f"{req.declared_turn} (no later than turn {req.intervention_turn + 8}): legal.", cited),
        Step("On declaring, the Communist Player removes all Communist supply units on the map; he may receive new "
             "ones during the Shock turns.", cited),
        Step(f"{shock_rules_text(g, rule)} apply on turns {', '.join(map(str, turns))}.",
             str(rule.get("rules_source") or cited)),
    ]
    active = req.game_turn in turns if req.game_turn is not None else None
    if active is not None:
        steps.append(Step(f"Turn {req.game_turn}: the Shock rules are {'in force' if active else 'not in force'}.",
                          cited))
    return CheckResult(
        outcome={"legal": True, "shock_turns": turns, "active_on_game_turn": active,
                 "remove_communist_supply_units": True, "rules": list(rule.get("rules", []))},
        steps=steps,
        warnings=["The Shock Effect text survives only as interleaved OCR columns; this is the digest's re-assembly "
                  "(rules/spi-korea.md 15)."])


@register_check(system="spi", name="shock_effect", request=ShockEffectRequest, random=False,
                summary="Campaign Game: legality and turns of the Chinese Shock Effect", rule=RULE_SHOCK,
                scenario_rule=with_special_rule(data.game, SHOCK),
                actor=the_side("communist",
                               rule="Campaign Game: Chinese Shock Effect (the Communist player declares it)"),
                example={"intervention_turn": 20, "declared_turn": 22})
def shock_effect(req: ShockEffectRequest, dice: Dice) -> CheckResult:
    return resolve_shock(data.game(), req)
