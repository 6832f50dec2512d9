"""Request parts shared by several HoldFast Korea checks (pydantic, documented fields)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from adjudicator.checks import board

SideName = Literal["communist", "un"]
WeatherName = Literal["clear", "overcast", "snow"]
#: The weather's board role: the Weather marker's cell on the Weather Track (3; 7).
WEATHER_MARKER = "track:weather:weather"
SupportName = Literal["air", "armor", "naval"]

HEX_LABEL = Field(pattern=r"^\d{4}$", description="Hex label as printed on the board, e.g. '1121'.")


class Block(BaseModel):
    """One block revealed for combat: which block it is and the SP on its top edge."""

    model_config = ConfigDict(extra="forbid")

    unit: str = board("unit", min_length=1, max_length=40, description="Block id from units.csv, e.g. 'nkpa-1', "
                      "'cpa-50' (8-SP block) or 'cpa-50-r' (its 4-SP block), 'usmc-1'.")
    sp: int = board("sp", ge=1, le=8, description="Current SP: the number on the block's top edge (4).")
    hex: str | None = board("hex", default=None, pattern=r"^\d{4}$",
                            description="Hex the block stands in (lets the engine read terrain, rivers and "
                            "coast from the map). Optional when the terrain facts are given explicitly.")


class Attacker(Block):
    across_river: bool | None = Field(
        default=None,
        description="Whether this block attacks across a river hexside (2: -1 die per attacking unit). "
        "Null = read from the map (needs `hex` and the defender's `hex`).",
    )


def unique(values: list) -> bool:
    return len(values) == len(set(values))
