"""Air Commitment (10.1, 10.2; 11.4): which aircraft fly this month, from which airfields, at what rating.

"To fly missions, an available plane must use an airfield ... For strategic missions an improved airfield
must be used. Either an airfield or an improved airfield may be used for tactical missions. Each airfield
can support two aircraft" - four per airfield for the Communist once the Soviet Union intervenes (10.1).
Strategic missions: MiG Alley, Infrastructure Strike, Airfield Strike, Atomic Strike (10.3); tactical:
Top Cover, Interdiction, Ground Support (10.4). Naval aircraft use the 7th Fleet Carriers box, "always
considered to have an associated airfield ... (not an improved airfield - naval aircraft may never perform
strategic missions)" (11.4). Only undamaged airfields count (10.1).

Long range (10.1, 10.2): an aircraft flying from an airfield box listed for its type (table `aircraft`,
column `long_range_from`: F-80, F-84, F-86 from Japan; not the B-29), and every mission from Chinese
airfields except MiG Alley, is rated one less; a rating of 0 or less may not be placed on that mission.
Ratings and mission lists are the Air Displays' (table `aircraft`, a labelled stand-in).

Reading: tactical missions use plain airfields before improved ones, so a commitment fits whenever some
assignment of the aircraft to the airfields fits; aircraft beyond the slots are named in the order given
("some aircraft may not be able to fly this month": they stay in the Available Aircraft box).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from adjudicator.checks import CheckResult, Dice, Step, board, register_check
from adjudicator.rules.fireandice import data
from adjudicator.rules.fireandice.air import AircraftModel, WeatherMixin, rating, row, side_of

AirfieldBoxId = Literal["china", "north_korea", "japan", "south_korea"]
#: One enum (not AirfieldBoxId | Literal[...]): forms built from the schema offer it as one choice.
BaseId = Literal["china", "north_korea", "japan", "south_korea", "carriers"]
Mission = Literal["mig_alley", "infrastructure_strike", "airfield_strike", "atomic_strike", "top_cover",
                  "interdiction", "ground_support"]
STRATEGIC = ("mig_alley", "infrastructure_strike", "airfield_strike", "atomic_strike")
RATING_COLUMN = {"mig_alley": "air_combat", "top_cover": "air_combat", "infrastructure_strike": "strategic",
                 "airfield_strike": "strategic", "atomic_strike": "strategic", "interdiction": "interdiction",
                 "ground_support": "ground_support"}
BOXES_OF = {"un": ("japan", "south_korea", "carriers"), "communist": ("china", "north_korea")}
CARRIERS = "carriers"
#: 10.1: "Each airfield can support two aircraft ... This increases to 4 per airfield for the Communist player
#: when the Soviet Union intervenes."
AIRCRAFT_PER_AIRFIELD = 2
AIRCRAFT_PER_AIRFIELD_SOVIET = 4


class AirfieldBox(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    box: AirfieldBoxId = Field(description="The airfield box on the Air Display.")
    airfields: int = Field(default=0, ge=0, le=20, description="Undamaged Airfield markers in it.")
    improved: int = Field(default=0, ge=0, le=20, description="Undamaged Improved Airfield markers in it.")


class Commitment(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    unit: str = board("unit", max_length=40, description="Aircraft unit id (table aircraft).")
    reduced: bool = Field(default=False, description="Showing its reduced side (-1).")
    mission: Mission = Field(description="The mission box it is placed in.")
    airfield_box: BaseId = Field(description="Where its airfield is ('carriers': the "
                                                                          "7th Fleet Carriers box, naval aircraft).")


class AirCommitmentRequest(WeatherMixin):
    airfields: list[AirfieldBox] = Field(default_factory=list, max_length=4, description="The side's airfield boxes.")
    soviet_intervened: bool = Field(default=False, description="The Soviet Union has intervened (Communist: 4 "
                                                               "aircraft per airfield, 10.1).")
    commitments: list[Commitment] = Field(min_length=1, max_length=40, description="Every aircraft placed, in order.")

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo):
        g = data.game_in(info)
        if self.snow:
            raise ValueError("no aircraft fly in a Snow month (14.1)")
        seen: set[str] = set()
        for c in self.commitments:
            row(g, c.unit)
            if c.unit in seen:
                raise ValueError(f"{c.unit} is committed twice")
            seen.add(c.unit)
        sides = {side_of(g, c.unit) for c in self.commitments}
        if len(sides) != 1:
            raise ValueError("one side's Air Commitment at a time (the Communist commits first, 3.0 A 5-6)")
        side = sides.pop()
        for c in self.commitments:
            if c.airfield_box not in BOXES_OF[side]:
                raise ValueError(f"{c.unit} cannot use the {c.airfield_box.replace('_', ' ')} airfields: "
                                 f"{data.SIDE_NAMES[side]} boxes are {', '.join(BOXES_OF[side])}")
        boxes = [b.box for b in self.airfields]
        if len(set(boxes)) != len(boxes) or any(b not in BOXES_OF[side] for b in boxes):
            raise ValueError(f"airfields: each of the side's own airfield boxes at most once ({', '.join(BOXES_OF[side])})")
        return self


def is_naval(g, unit_id: str) -> bool:
    """Naval aircraft: the Carrier Air Groups (counters designated 'CVG', 11.4)."""
    return data.unit(g, unit_id).designation.startswith("CVG")


def long_range(g, c: Commitment) -> tuple[bool, str]:
    """10.1: the airfield box is on the type's long-range list, or a Chinese airfield except for MiG Alley."""
    listed = row(g, c.unit)["long_range_from"].split()
    if c.airfield_box in listed:
        return True, f"{row(g, c.unit)['plane']} from {c.airfield_box.replace('_', ' ')} is long range"
    if c.airfield_box == "china" and c.mission != "mig_alley":
        return True, "every mission from Chinese airfields except MiG Alley is long range"
    return False, ""


@register_check(system="fireandice", name="air_commitment", request=AirCommitmentRequest, random=False,
                summary="Air Commitment: missions within the airfields (2 per airfield, improved for strategic), long "
                        "range and ratings", rule="10.1; 10.2; 11.4",
                actor=data.owner("the committed aircraft", "10.2", lambda r: [c.unit for c in r.commitments]),
                example={"airfields": [{"box": "south_korea", "improved": 1, "airfields": 1}],
                         "commitments": [{"unit": "un-air-4fi", "mission": "mig_alley", "airfield_box": "south_korea"},
                                         {"unit": "un-air-18fb", "mission": "ground_support",
                                          "airfield_box": "south_korea"}]})
def air_commitment(req: AirCommitmentRequest, dice: Dice) -> CheckResult:
    g = data.game()
    side = side_of(g, req.commitments[0].unit)
    per_field = AIRCRAFT_PER_AIRFIELD_SOVIET if side == "communist" and req.soviet_intervened else AIRCRAFT_PER_AIRFIELD
    steps = [Step(f"Each undamaged airfield supports {per_field} aircraft"
                  + (" (the Soviet Union has intervened)" if per_field == AIRCRAFT_PER_AIRFIELD_SOVIET else "")
                  + "; strategic missions need an improved airfield.", "10.1 Airfields")]
    slots = {b.box: {"improved": b.improved * per_field, "airfield": b.airfields * per_field} for b in req.airfields}
    placed, grounded, refused = [], [], []
    # strategic first: only improved slots serve them; then tactical, plain slots before improved ones
    order = sorted(req.commitments, key=lambda c: c.mission not in STRATEGIC)
    for c in order:
        problem = _cannot_fly(g, c, req)
        if problem:
            refused.append({"unit": c.unit, "reason": problem[0]})
            steps.append(Step(f"{c.unit} may not fly {c.mission.replace('_', ' ')}: {problem[0]}.", problem[1]))
            continue
        far, why = long_range(g, c)
        aircraft = AircraftModel(unit=c.unit, reduced=c.reduced, long_range=far)
        value, text = rating(g, aircraft, RATING_COLUMN[c.mission], req.rain)
        if value <= 0:
            refused.append({"unit": c.unit, "reason": f"rating {value}"})
            steps.append(Step(f"{text}: a rating of 0 or less may not be placed on that mission.", "10.3.1; 10.1"))
            continue
        used = _take_slot(slots, c)
        if used is None:
            grounded.append(c.unit)
            steps.append(Step(f"{c.unit}: no free {'improved ' if c.mission in STRATEGIC else ''}airfield slot in the "
                              f"{c.airfield_box.replace('_', ' ')} box: it stays in the Available Aircraft box.", "10.1"))
            continue
        where = "the 7th Fleet Carriers" if used == CARRIERS else f"an {'improved ' if used == 'improved' else ''}airfield in " \
                f"{c.airfield_box.replace('_', ' ')}"
        steps.append(Step(f"{c.unit} to {c.mission.replace('_', ' ')} from {where}"
                          + (f" ({why}: the long-range box)" if far else "") + f"; {text}.", "10.1; 10.2"))
        placed.append({"unit": c.unit, "mission": c.mission, "airfield": used, "long_range": far, "rating": value})
    left = {box: sum(s.values()) for box, s in slots.items()}
    steps.append(Step("Free aircraft slots left: " + (", ".join(f"{b.replace('_', ' ')} {n}" for b, n in left.items())
                                                     or "none") + ".", "10.1"))
    return CheckResult(outcome={"fits": not grounded and not refused, "placed": placed, "no_airfield": grounded,
                                "refused": refused, "slots_left": left},
                       steps=steps, warnings=data.stand_in_warnings(g, "table aircraft"))


def _cannot_fly(g, c: Commitment, req: AirCommitmentRequest) -> tuple[str, str] | None:
    naval = is_naval(g, c.unit)
    if naval and c.airfield_box != CARRIERS:
        return "naval aircraft fly from the 7th Fleet Carriers box", "11.4"
    if not naval and c.airfield_box == CARRIERS:
        return "only naval aircraft use the carriers", "11.4"
    if naval and c.mission in STRATEGIC:
        return "naval aircraft may never perform strategic missions", "11.4"
    if c.mission not in row(g, c.unit)["missions"].split():
        return "its Air Display does not allow that mission", "10.3.1 (Air Display)"
    if c.mission == "atomic_strike" and row(g, c.unit)["plane"] != "B-29":
        return "only B-29s launch Atomic Strikes", "10.3.4"
    return None


def _take_slot(slots: dict[str, dict[str, int]], c: Commitment) -> str | None:
    """Use one aircraft slot of the commitment's airfield box: 'improved', 'airfield', 'carriers', or None."""
    if c.airfield_box == CARRIERS:
        return CARRIERS
    box = slots.get(c.airfield_box, {"improved": 0, "airfield": 0})
    kinds = ("improved",) if c.mission in STRATEGIC else ("airfield", "improved")
    for kind in kinds:
        if box[kind] > 0:
            box[kind] -= 1
            return kind
    return None

