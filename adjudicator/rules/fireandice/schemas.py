"""Request pieces shared by several Fire and Ice checks."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from adjudicator.checks import canonical_side

#: A side id; the old spelling "com" is read as "communist" (adjudicator.checks.OLD_SIDE_SPELLINGS).
SideId = Annotated[Literal["un", "communist"], BeforeValidator(canonical_side)]
CombatType = Literal["Meeting Engagement", "Hasty Attack", "Prepared Attack", "Deliberate Attack"]
LeadMarker = Literal["ammo_shortage", "ammo_out", "fuel_shortage", "fuel_out", "ooc", "disrupted", "routed",
                     "bug_out", "low_morale"]
Quality = Literal["elite", "poor"]


class AirUse(BaseModel):
    """One aircraft of the Ground Support box used in a combat (10.4.3)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    unit: str = Field(max_length=40, description="The aircraft's unit id (table aircraft).")
    rating: int = Field(ge=1, le=9, description="Its ground support value as it flies (after reduced / long range / "
                                                "rain, as on the Air Support marker's sum).")


class SideCombatModel(BaseModel):
    """One side of a combat: its Support Level Track and the state of its participating units."""

    model_config = ConfigDict(extra="forbid", strict=True)

    tank_level: int = Field(default=0, ge=0, le=19, description="Tank support level on the Support Level Track (8.1).")
    artillery_level: int = Field(default=0, ge=0, le=19, description="Artillery support level (8.1).")
    air_level: int = Field(default=0, ge=0, le=19,
                           description="Air Support marker: sum of the ground support values in the Ground Support box (10.4.3).")
    bombardment_level: int = Field(default=0, ge=0, le=19, description="UN only: bombardment level (5.3.2, 11.2).")
    use_tank: bool = Field(default=True, description="Use tank support (support is optional, 5.3.1).")
    use_artillery: bool = Field(default=True, description="Use artillery support.")
    use_air: bool = Field(default=True, description="Use air support.")
    air_used: list[AirUse] | None = Field(default=None, max_length=12, description=(
        "Partial use of ground support (10.4.3): the aircraft used, in order; they add their values up to the air "
        "available (level - planning deduction), the last one a partial value, and only they roll to stay on "
        "station. Omitted: the whole available level, aircraft not named."))
    use_bombardment: bool = Field(default=True, description="Use bombardment support (UN).")
    adjacent_units: int = Field(default=0, ge=0, le=6,
                                description="Friendly units adjacent to the combat hex chosen to support (not the "
                                            "declaring unit, not units in the combat hex; not Routed units) (5.3.3, 8.3).")
    lead_unit: str | None = Field(default=None, max_length=60,
                                  description="The declaring (attacker) or defending unit's id: a Task Force or the 187 RCT "
                                              "gets no support (14.2); a US unit needs its cadre in range.")
    lead_markers: list[LeadMarker] = Field(default_factory=list, max_length=9,
                                           description="Status markers on the declaring/defending unit (6.1, 6.2, 8.3).")
    quality: list[Quality] = Field(default_factory=list, max_length=2,
                                   description="Unit quality markers on participating units: 'elite' = Elite/Guards, "
                                               "'poor' = Poor/Penal (5.4.2).")
    unmarked_units: int = Field(default=1, ge=0, le=8,
                                description="Participating units without a quality marker (a natural 1 or 10/6 places one "
                                            "only if there is such a unit, 5.4.2).")
    combat_hex_loc: bool = Field(default=True, description="The combat hex traces an LoC to a friendly HQ or cadre "
                                                           "(needed for tank and artillery, 5.3.1).")
    cadre_in_range: bool = Field(default=True, description="A US lead unit is within 6 MP of its cadre (9.4, 14.5).")
    support_interdicted: bool = Field(default=False, description="The call for tank/artillery was interdicted (10.4.2).")
