"""Request pieces shared by several Fire and Ice checks."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from adjudicator.checks import board, canonical_side
from adjudicator.rules.gamedata import choice_of
from scenarios.model import Game

#: A side id; the old spelling "com" is read as "communist" (adjudicator.checks.OLD_SIDE_SPELLINGS).
SideId = Annotated[Literal["un", "communist"], BeforeValidator(canonical_side)]
CombatType = Literal["Meeting Engagement", "Hasty Attack", "Prepared Attack", "Deliberate Attack"]
LeadMarker = Literal["ammo_shortage", "ammo_out", "fuel_shortage", "fuel_out", "ooc", "disrupted", "routed",
                     "bug_out", "low_morale"]
Quality = Literal["elite", "poor"]


def months(g: Game) -> list[str]:
    """The months of the Game Turn Record Track (YYYY-MM), in order (table weather_track)."""
    return [r["month"] for r in g.tables["weather_track"].rows]


def chit_ids(g: Game) -> list[str]:
    """The combat chits of both mugs (5.2.1; table combat_chits)."""
    return [r["chit"] for r in g.tables["combat_chits"].rows]


def hex_terrains(g: Game) -> list[str]:
    """The terrain a land hex of the map can be (the map's legend, without the all-sea hex): the
    Terrain Effects Chart rows a combat hex may have."""
    first = next(iter(g.maps.values()))
    return [t.id for t in first.terrain_types.values() if not t.water]


def invasion_boxes(g: Game) -> list[str]:
    """The Invasion boxes (11.3.1; table invasion_boxes), by id."""
    return [r["box"] for r in g.tables["invasion_boxes"].rows]


def invasion_ports(g: Game) -> list[str]:
    """The hexes of the Invasion boxes' ports (11.3.1; table invasion_boxes)."""
    return [r["port_hex"] for r in g.tables["invasion_boxes"].rows]


#: A month of the Game Turn Record Track, as a choice (YYYY-MM).
Month = choice_of("fireandice", months)
#: A combat chit of either mug (its id in table combat_chits), as a choice.
ChitId = choice_of("fireandice", chit_ids)
#: An Invasion box, as a choice; its port's hex, as a choice.
InvasionBox = choice_of("fireandice", invasion_boxes)
InvasionPort = choice_of("fireandice", invasion_ports)
#: The terrain of a combat hex: a Terrain Effects Chart row a land hex can be, as a choice.
HexTerrain = choice_of("fireandice", hex_terrains)


class UnitInCombat(BaseModel):
    """A unit taking part in a combat as the board shows it: which counter, its hex, the side it shows
    (fresh or spent, 2.2)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    unit: str = board("unit", min_length=1, max_length=60,
                      description="The unit: its counter's name ('ROK 6') or its id ('rok-6').")
    hex: str | None = board("hex", default=None, pattern=r"^\d{4}$", description="Its hex, as printed.")
    step: Literal["", "fresh", "spent"] = board("step", default="", description=(
        "The side it shows: fresh, or spent ('HQ or unit that has ended its activation this game turn and is no "
        "longer available to be active', Glossary); '' = not said (fresh)."))


class AirUse(BaseModel):
    """One aircraft of the Ground Support box used in a combat (10.4.3)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    unit: str = Field(max_length=40, description="The aircraft's unit id (table aircraft).")
    rating: int = Field(ge=1, le=9, description="Its ground support value as it flies (after reduced / long range / "
                                                "rain, as on the Air Support marker's sum).")


class SideCombatModel(BaseModel):
    """One side of a combat: the support it chooses to use and the state of its participating units (its
    levels are the markers on the Support Level Track: the request's top-level levels)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    use_tank: bool = Field(default=True, description="Use tank support (support is optional, 5.3.1).")
    use_artillery: bool = Field(default=True, description="Use artillery support.")
    use_air: bool = Field(default=True, description="Use air support.")
    air_used: list[AirUse] | None = Field(default=None, max_length=12, description=(
        "Partial use of ground support (10.4.3): the aircraft used, in order; they add their values up to the air "
        "available (level - planning deduction), the last one a partial value, and only they roll to stay on "
        "station. Omitted: the whole available level, aircraft not named."))
    use_bombardment: bool = Field(default=True, description="Use bombardment support (UN).")
    adjacent_units: int | None = Field(default=None, ge=0, le=6, description=(
        "How many friendly units adjacent to the combat hex support it (not the declaring unit, not units in the "
        "combat hex; not Routed units) (5.3.3, 8.3). Left out: the supporting units named (the attacker's selected "
        "units after the declaring one; defender_supporting), else none."))
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
