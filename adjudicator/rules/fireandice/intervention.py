"""Foreign Aid and Intervention (12.2): Chinese, Republic of China, Atomic Release, Soviet; Foreign Aid.

12.2: only the side WITHOUT VPs may act, and nobody when the VP marker is at 0.  It either rolls for
Foreign Intervention directly (no aid, no VP shift) or asks for Foreign Aid, which may trigger
intervention rolls (12.2.2, by the enemy's VP band).

Every number comes from the tables: `foreign_intervention` (die, success), `intervention_modifiers`
(the cumulative modifiers, keyed by id; each id is tied below to the request field that says whether
its condition holds) and `foreign_aid` (the band's gains and the rolls they trigger).

A scenario may forbid the checks: 16.0 and 17.0 Special Rule 2, 18.0 Chinese Intervention! Special
Rule 1, "Do not check for Foreign Intervention in this scenario. Foreign Aid may be requested."
(scenario rule `no_foreign_intervention`, intervention_checks = false): there no roll on the Foreign
Intervention Table is made at all - Chinese, Republic of China, Atomic Release or Soviet, directly
or because Foreign Aid calls for it - and each check says so, citing the scenario's rule; Foreign
Aid is given without the rolls it would trigger. In 18.0 the Chinese "have intervened" (rule
`chinese_already_intervened`).

Readings: Soviet "modified 1" = 1 or less (a modified roll below 1 also succeeds; table note).  Which
intervention a direct roll tests is on the missing table graphic: the checks let the side name it
(Communist: Chinese or Soviet; UN: RoC or Atomic Release).  The Communist's Foreign Aid triggers the
Soviet roll in the 15-20 band only if the Chinese intervened in a previous turn.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, Field, ValidationInfo, model_validator

from adjudicator.checks import CheckRequest, CheckResult, Dice, Step, board, named_side, register_check, the_side
from adjudicator.facts import register_offered_once
from adjudicator.rules.fireandice import data
from adjudicator.rules.fireandice.schemas import Month, SideId

#: The Communist VP field; "com_vp", its name before the side was spelt "communist", still reads.
COMMUNIST_VP = AliasChoices("communist_vp", "com_vp")

RULE = "12.2.1 Foreign Intervention Table"
INTERVENTIONS = {"chinese": "Chinese", "roc": "Republic of China", "atomic_release": "Atomic Release", "soviet": "Soviet"}

#: intervention_modifiers row id -> the situation field that says whether the condition holds
CONDITIONS = {
    "chinese-un-10": lambda s: s.un_vp >= 10,
    "chinese-un-14": lambda s: s.un_vp >= 14,
    "chinese-un-in-nk": lambda s: s.un_units_in_north_korea,
    "chinese-airfield-strike": lambda s: s.chinese_airfield_struck,
    "chinese-roc": lambda s: s.roc_intervened,
    "soviet-un-14": lambda s: s.un_vp >= 14,
    "soviet-un-16": lambda s: s.un_vp >= 16,
    "soviet-atomic": lambda s: s.atomic_release,
}


class InterventionSituation(CheckRequest):
    scenario: str = board("scenario", default=data.DEFAULT_SCENARIO, max_length=40,
                          description="Scenario id (its special rules: 18.0 forbids Foreign Intervention checks; "
                                      "19.0's automatic intervention month).")
    un_vp: int = Field(default=0, ge=0, le=21, description="The UN's victory points: the VP marker's value if it is on the UN "
                                                "side, 0 if it is at zero or on the Communist side.")
    un_units_in_north_korea: bool = Field(default=False, title="UN units in North Korea", description="Any UN unit is in North Korea.")
    chinese_airfield_struck: bool = Field(default=False, description="Any Chinese airfield has been attacked by an "
                                                                     "Airfield Strike (10.3.3).")
    roc_intervened: bool = Field(default=False, description="The Republic of China has intervened.")
    atomic_release: bool = Field(default=False, description="Atomic Release has occurred.")

    @model_validator(mode="after")
    def _scenario(self, info: ValidationInfo):
        data.scenario(data.game_in(info), self.scenario)
        return self


def no_intervention_checks(g, scenario: str) -> Step | None:
    """The scenario's rule forbidding Foreign Intervention checks (18.0 special rule 1), as a step;
    None where checks are made."""
    rule = data.special(g, scenario, "no_foreign_intervention")
    if not rule or rule.get("intervention_checks", True):
        return None
    return Step(f"No roll: {data.scenario(g, scenario).name} - \"{rule['text']}\"", rule["source"])


def intervention_checked(scenario: str) -> bool:
    """Whether players of `scenario` are offered the Foreign Intervention rolls: not where its special
    rule forbids them (16.0, 17.0 Special Rule 2; 18.0 Special Rule 1), where every roll would be "no roll"."""
    return no_intervention_checks(data.game(), scenario) is None


def chinese_already_in(g, scenario: str) -> Step | None:
    """The scenario's rule that the Chinese have intervened before it starts (18.0), as a step."""
    rule = data.special(g, scenario, "chinese_already_intervened")
    if not rule:
        return None
    return Step(f"The Chinese have already intervened in {data.scenario(g, scenario).name}: "
                f"\"{rule['text']}\"", rule["source"])


class ChineseInterventionRequest(InterventionSituation):
    un_vp: int = Field(ge=0, le=21, description="The UN's victory points: the VP marker's value if it is on the UN "
                                                "side, 0 if it is at zero or on the Communist side.")
    month: Month | None = board("month", default=None,
                              description="The month of this Foreign Intervention subphase (YYYY-MM), if known.")
    chinese_intervened: bool = Field(default=False, description="The Chinese have already intervened.")
    trigger: Literal["direct", "foreign_aid"] = Field(
        default="direct", description="Why the roll is made: a direct Foreign Intervention roll, or a roll the "
                                      "Communist's Foreign Aid request triggered (UN at 10 or more VPs).")


def modifiers(g, intervention: str, s: InterventionSituation) -> list[tuple[int, str, str]]:
    """(value, condition text, id) of every modifier row of `intervention` whose condition holds."""
    t = data.table(g, "intervention_modifiers")
    found = []
    for r in t.rows:
        if r["intervention"] != intervention:
            continue
        test = CONDITIONS.get(r["id"])
        if test is None:
            raise ValueError(f"intervention_modifiers: no rule knows the condition {r['id']!r}")
        if test(s):
            found.append((int(r["modifier"].replace("+", "")), r["condition"], r["id"]))
    return found


def roll_intervention(g, key: str, s: InterventionSituation, dice: Dice, steps: list[Step]) -> dict:
    """One roll on the Foreign Intervention Table (12.2.1) with its modifiers; the outcome as a dict."""
    name = INTERVENTIONS[key]
    t = data.table(g, "foreign_intervention")
    row = t.row(name)
    sides = int(row["die"].lower().lstrip("d"))
    low, high = data.success_range(row["success"])
    (roll,) = dice.roll(sides, purpose=f"{name} intervention roll")
    mods = modifiers(g, name, s)
    total = sum(v for v, _, _ in mods)
    modified = roll + total
    steps.append(Step(f"{name}: rolled {roll} on a D{sides}.", RULE))
    for value, text, _ in mods:
        steps.append(Step(f"{value:+d} because {text}.", RULE))
    if not mods and name in ("Chinese", "Soviet"):
        steps.append(Step("No modifiers apply.", RULE))
    success = low <= modified <= high
    steps.append(Step(f"{name}: modified roll {roll} {total:+d} = {modified}; needs {row['success']}: "
                      + ("intervention!" if success else "no intervention."), RULE))
    if success:
        steps.append(Step(f"{name}: {row['effect']}.", RULE))
    return {"intervention": key, "roll": roll, "modifier": total, "modified": modified, "success": success,
            "effect": row["effect"] if success else ""}


def _no_roll() -> dict:
    return {"roll_allowed": False, "roll": None, "modifier": None, "modified": None, "intervenes": False,
            "may_delay": False}


@register_check(system="fireandice", name="chinese_intervention", request=ChineseInterventionRequest, random=True,
                summary="Monthly Foreign Intervention subphase: roll for Chinese intervention", rule="12.2.1",
                actor=the_side("communist", rule="12.2.1 (Chinese: Communist, D6)"),
                example={"un_vp": 14, "un_units_in_north_korea": True, "dice": [3]},
                offered=intervention_checked)
def chinese_intervention(req: ChineseInterventionRequest, dice: Dice) -> CheckResult:
    g = data.game()
    forbidden = no_intervention_checks(g, req.scenario)
    if forbidden:
        already = chinese_already_in(g, req.scenario)
        return CheckResult(outcome={**_no_roll(), "already_intervened": already is not None},
                           steps=[forbidden] + ([already] if already else []))
    if req.chinese_intervened:
        return CheckResult(outcome=_no_roll(), steps=[Step("No roll: the Chinese have already intervened.", RULE)])
    automatic = data.special(g, req.scenario, "chinese_intervention").get("automatic_month")
    if req.month and automatic and req.month >= automatic:
        outcome = {**_no_roll(), "intervenes": True, "automatic": True}
        return CheckResult(outcome=outcome, steps=[Step(
            f"{req.month}: the Chinese have not intervened, so they intervene now (no roll); Peng Dehuai arrives.",
            "19.0 Reinforcements January 1951; 12.2.1")])
    if req.un_vp == 0:
        return CheckResult(outcome=_no_roll(), steps=[Step(
            "No roll: only the side without VPs may roll for Foreign Intervention, and nobody may when the VP marker "
            "is at zero. With no UN VPs the Communist either holds the VPs or the marker is at zero.",
            "12.2 Foreign Aid and Intervention")])
    if req.trigger == "foreign_aid" and req.un_vp < 10:
        return CheckResult(outcome=_no_roll(), steps=[Step(
            f"No roll: Communist Foreign Aid triggers a Chinese Intervention roll only when the UN has 10 or more VPs "
            f"(UN has {req.un_vp}).", "12.2.2 Foreign Aid Table")])
    steps = [Step("The Communist player rolls a D6 for Chinese intervention "
                  + ("(triggered by a Foreign Aid request)." if req.trigger == "foreign_aid"
                     else "(a direct Foreign Intervention roll; no Foreign Aid this month)."),
                  "12.2 Foreign Aid and Intervention")]
    result = roll_intervention(g, "chinese", req, dice, steps)
    if result["success"]:
        steps.append(Step("Peng Dehuai arrives; the Communist player may delay the start of the intervention to any "
                          "later Foreign Intervention subphase.", "12.2.1; 14.4"))
    warnings = []
    if result["modifier"] == 0:
        warnings.append("With no modifiers the roll cannot succeed: a D6 is never 0 or less.")
    return CheckResult(outcome={"roll_allowed": True, "roll": result["roll"], "modifier": result["modifier"],
                                "modified": result["modified"], "intervenes": result["success"],
                                "may_delay": result["success"]}, steps=steps, warnings=warnings)


class InterventionRollRequest(InterventionSituation):
    """The Republic of China, Atomic Release and Soviet rolls (12.2.1)."""

    communist_vp: int = Field(default=0, ge=0, le=21, validation_alias=COMMUNIST_VP,
                              description="The Communist's VPs (0 if the UN holds VPs or at 0; old name com_vp).")
    chinese_intervened: bool = Field(default=False, description="The Chinese have intervened.")
    trigger: Literal["direct", "foreign_aid"] = Field(
        default="foreign_aid", description="A roll a Foreign Aid request called for (12.2.2), or a direct Foreign "
                                           "Intervention roll (only by the side without VPs, never at 0; 12.2).")

    @model_validator(mode="after")
    def _one_side(self):
        if self.un_vp and self.communist_vp:
            raise ValueError("VPs are zero-sum: only one side can hold them (12.1.1)")
        return self


def _direct_roll(req: InterventionRollRequest, dice: Dice, kind: str, side: str, after=None) -> CheckResult:
    """`side`'s roll on the Intervention Table for `kind` (12.2.1), unless refused (`_roll_refused`);
    `after(game, result, steps)` adds what the result calls for and returns the warnings."""
    refused = _roll_refused(req, side)
    if refused:
        return refused
    steps: list[Step] = []
    g = data.game()
    result = roll_intervention(g, kind, req, dice, steps)
    warnings = after(g, result, steps) if after else []
    return CheckResult(outcome={"roll_allowed": True, **result}, steps=steps, warnings=warnings)


def _roll_refused(req: InterventionRollRequest, side: str) -> CheckResult | None:
    """No roll where the scenario forbids Foreign Intervention checks (18.0 Special Rule 1), whatever
    calls for it; 12.2: a direct roll only by the side without VPs, and by nobody at 0."""
    forbidden = no_intervention_checks(data.game(), req.scenario)
    if forbidden:
        return CheckResult(outcome={"roll_allowed": False, "success": False}, steps=[forbidden])
    if req.trigger != "direct":
        return None
    own = req.un_vp if side == "un" else req.communist_vp
    if own == 0 and (req.un_vp or req.communist_vp):
        return None
    return CheckResult(outcome={"roll_allowed": False, "success": False}, steps=[Step(
        "No roll: only the side without VPs may roll for Foreign Intervention, and nobody when the VP marker is at 0.",
        "12.2 Foreign Aid and Intervention")])


@register_check(system="fireandice", name="roc_intervention", request=InterventionRollRequest, random=True,
                summary="Roll for Republic of China intervention (UN, D6 1-2)", rule="12.2.1",
                actor=the_side("un", rule="12.2.1 (Republic of China: UN, D6)"),
                example={"communist_vp": 12, "dice": [1]},
                offered=intervention_checked)
def roc_intervention(req: InterventionRollRequest, dice: Dice) -> CheckResult:
    return _direct_roll(req, dice, "roc", "un")


@register_check(system="fireandice", name="atomic_release", request=InterventionRollRequest, random=True,
                summary="Roll for Atomic Release (UN, D6 1-2)", rule="12.2.1",
                actor=the_side("un", rule="12.2.1 (Atomic Release: UN, D6)"),
                example={"communist_vp": 16, "dice": [2]},
                offered=intervention_checked)
def atomic_release(req: InterventionRollRequest, dice: Dice) -> CheckResult:
    def chinese_now(g, result: dict, steps: list[Step]) -> list[str]:
        if result["success"] and not (req.chinese_intervened or chinese_already_in(g, req.scenario)):
            steps.append(Step("The Chinese have not intervened: they do so now.", RULE))
            result["chinese_intervene_now"] = True
        return []

    return _direct_roll(req, dice, "atomic_release", "un", chinese_now)


@register_check(system="fireandice", name="soviet_intervention", request=InterventionRollRequest, random=True,
                summary="Roll for Soviet intervention (Communist, modified D6 1 or less)", rule="12.2.1",
                actor=the_side("communist", rule="12.2.1 (Soviet: Communist, D6)"),
                example={"un_vp": 16, "dice": [3]},
                offered=intervention_checked)
def soviet_intervention(req: InterventionRollRequest, dice: Dice) -> CheckResult:
    def after_the_chinese(g, result: dict, steps: list[Step]) -> list[str]:
        return [] if req.chinese_intervened or chinese_already_in(g, req.scenario) else [
            "The Foreign Aid Table calls for the Soviet roll only after the Chinese intervened in a previous turn "
            "(12.2.2)."]

    return _direct_roll(req, dice, "soviet", "communist", after_the_chinese)


#: Each intervention's own roll (12.2.1) and the key of its outcome that says it succeeded.
DIRECT_ROLLS = {"chinese": ("chinese_intervention", "intervenes"), "roc": ("roc_intervention", "success"),
                "atomic_release": ("atomic_release", "success"), "soviet": ("soviet_intervention", "success")}


def intervention_record(records: list[tuple[int, dict]], kind: str) -> int | None:
    """The record whose roll made intervention `kind` (`INTERVENTIONS`) happen (12.2.1): its own roll,
    or one a Foreign Aid request triggered (12.2.2), that succeeded; None while none has."""
    check, succeeded = DIRECT_ROLLS[kind]
    for seq, body in records:
        outcome = (body.get("result") or {}).get("outcome") or {}
        if body.get("check") == f"fireandice.{check}" and outcome.get(succeeded) is True:
            return seq
        if body.get("check") == "fireandice.foreign_aid" and any(
                isinstance(r, dict) and r.get("intervention") == kind and r.get("success") is True
                for r in outcome.get("intervention_rolls") or ()):
            return seq
    return None


def _not_rolled_again(kind: str):
    """What a recorded game says of intervention `kind`'s own roll once a roll made it happen: each
    intervention happens once (12.2.1: the Chinese, whose start may be delayed, and the RoC, the
    Atomic Release and the Soviets, whose effects are at once), so the roll is not offered again."""
    def once_only(scenario: str, records: list[tuple[int, dict]], side: str | None) -> str | None:
        seq = intervention_record(records, kind)
        if seq is None:
            return None
        what = f"{INTERVENTIONS[kind]} intervention" if kind != "atomic_release" else INTERVENTIONS[kind]
        return f"{what} happened with record #{seq} (12.2.1): it is not rolled for again"
    return once_only


register_offered_once("fireandice", "chinese_intervention")(_not_rolled_again("chinese"))
register_offered_once("fireandice", "roc_intervention")(_not_rolled_again("roc"))
register_offered_once("fireandice", "atomic_release")(_not_rolled_again("atomic_release"))
register_offered_once("fireandice", "soviet_intervention")(_not_rolled_again("soviet"))


@register_offered_once("fireandice", "atomic_strike")
def strikes_wait_for_release(scenario: str, records: list[tuple[int, dict]], side: str | None) -> str | None:
    """10.3.4: Atomic Strikes are launched only after Atomic Release; no scenario starts with it, so
    a recorded game offers them once its ledger holds a successful Atomic Release roll."""
    if intervention_record(records, "atomic_release") is not None:
        return None
    return ("Atomic Strikes need Atomic Release (10.3.4, 12.2.1): no Atomic Release roll in this game's ledger "
            "has succeeded yet")


# -- Foreign Aid (12.2.2) --------------------------------------------------------------------------


class ForeignAidRequest(InterventionSituation):
    side: SideId = board("side", description="The side asking for Foreign Aid (it must hold no VPs).")
    communist_vp: int = Field(default=0, ge=0, le=21, validation_alias=COMMUNIST_VP,
                              description="The Communist's VPs (0 if the UN holds VPs or at 0; old name com_vp).")
    chinese_intervened: bool = Field(default=False, description="The Chinese have intervened.")
    chinese_intervened_previous_turn: bool = Field(
        default=False, description="The Chinese intervened in a previous turn (15-20 band: Soviet roll).")

    @model_validator(mode="after")
    def _one_side(self):
        if self.un_vp and self.communist_vp:
            raise ValueError("VPs are zero-sum: only one side can hold them (12.1.1)")
        if self.chinese_intervened_previous_turn and not self.chinese_intervened:
            raise ValueError("chinese_intervened_previous_turn needs chinese_intervened")
        return self


def aid_band(g, enemy_vp: int) -> dict:
    t = data.table(g, "foreign_aid")
    for r in t.rows:
        low, high = (int(x) for x in r["enemy_vp"].split("-"))
        if low <= enemy_vp <= high:
            return dict(r)
    raise ValueError(f"no Foreign Aid band for {enemy_vp} enemy VPs")


@register_check(system="fireandice", name="foreign_aid", request=ForeignAidRequest, random=True,
                summary="Ask for Foreign Aid: the band's gains and the intervention rolls it triggers", rule="12.2.2",
                actor=named_side("side", rule="12.2", what="the side asking (side): only the side without VPs may"),
                example={"side": "communist", "un_vp": 12, "dice": [2]})
def foreign_aid(req: ForeignAidRequest, dice: Dice) -> CheckResult:
    g = data.game()
    own_vp = req.un_vp if req.side == "un" else req.communist_vp
    enemy_vp = req.communist_vp if req.side == "un" else req.un_vp
    if own_vp > 0 or enemy_vp == 0:
        why = "the VP marker is at 0" if enemy_vp == 0 and own_vp == 0 else "the asking side holds the VPs"
        return CheckResult(outcome={"allowed": False}, steps=[Step(
            f"No Foreign Aid: {why}; only the side without VPs may ask, and nobody at 0.", "12.2")])
    band = aid_band(g, enemy_vp)
    steps = [Step(f"Enemy VP total {enemy_vp}: band {band['enemy_vp']}. The {data.SIDE_NAMES[req.side]} receives: "
                  f"+{band['infrastructure']} Infrastructure, +{band['replacements']} "
                  f"{'UN' if req.side == 'un' else 'Chinese'} replacements, {band['quality_option']}, "
                  f"+{band['tank']} tank and +{band['artillery']} artillery support, "
                  f"{band['destroyed_to_replacements']} {'US' if req.side == 'un' else 'Communist'} unit(s) from the "
                  f"Destroyed Units box to the Replacements box, {band['reduced_aircraft_restored']} reduced aircraft "
                  "restored.", "12.2.2 Foreign Aid Table")]
    rolls = []
    text = band["intervention_rolls"].lower()
    forbidden = no_intervention_checks(g, req.scenario)
    if forbidden and text.strip() not in ("", "none"):
        steps.append(Step(f"No roll the band calls for is made ({band['intervention_rolls']}).", "12.2.2"))
        steps.append(forbidden)
        text = ""
    if req.side == "communist" and "communist: chinese" in text:
        already = chinese_already_in(g, req.scenario)
        if already:
            steps.append(Step("No Chinese Intervention roll.", "12.2.2"))
            steps.append(already)
        elif req.chinese_intervened:
            steps.append(Step("The Chinese have already intervened: no Chinese Intervention roll.", "12.2.2"))
        else:
            rolls.append("chinese")
    if req.side == "un" and "republic of china" in text:
        rolls.append("roc")
    if req.side == "un" and "atomic release" in text:
        rolls.append("atomic_release")
    # in a scenario the Chinese entered before it began, every later turn is after their intervention
    before = req.chinese_intervened_previous_turn or chinese_already_in(g, req.scenario) is not None
    if "soviet" in text and req.side == "communist" and before:
        rolls.append("soviet")
    results = [roll_intervention(g, key, req, dice, steps) for key in rolls]
    vp_to = "requesting" if "requesting" in band["vp"] else "enemy"
    gainer = req.side if vp_to == "requesting" else data.other_side(req.side)
    steps.append(Step(f"The {data.SIDE_NAMES[gainer]} player receives 1 VP ({band['vp']}).", "12.2.2"))
    return CheckResult(outcome={
        "allowed": True, "band": band["enemy_vp"], "infrastructure": int(band["infrastructure"]),
        "replacements": int(band["replacements"]), "quality_option": band["quality_option"],
        "tank": int(band["tank"]), "artillery": int(band["artillery"]),
        "destroyed_to_replacements": int(band["destroyed_to_replacements"]),
        "reduced_aircraft_restored": int(band["reduced_aircraft_restored"]),
        "intervention_rolls": results, "vp_to": gainer, "vp": 1}, steps=steps)
