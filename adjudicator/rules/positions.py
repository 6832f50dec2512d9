"""Positions and supply reports shared by every game's rules and the saved-game bridge.

A supply/LoC check takes the same kind of input in every game — which unit
stands in which hex, showing which step — and answers per unit: in supply or
not, the path traced or the reason there is none.  Keeping those types here
lets the bridge turn a VASSAL saved game into positions once and hand them to
whichever game's tracer, and lets every tracer's answer be shown the same way.

Each game registers its tracer with ``register_supply_tracer``; the tracer is a
pure function of (game, scenario id, side, positions, options).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict

from adjudicator.checks import board

from scenarios.model import Game


class PositionModel(BaseModel):
    """One unit on the map, as a request gives it."""

    model_config = ConfigDict(extra="forbid")

    unit: str = board("unit", min_length=1, max_length=60, description="Unit id from the game's data (e.g. 'nk-6').")
    hex: str = board("hex", min_length=3, max_length=8, pattern=r"^\d+$",
                     description="Hex label as printed, e.g. '0216'.")
    step: str = board("step", default="", max_length=20, description="Step showing ('' = full strength).")
    map: str = board("map", default="", max_length=40, description="Map id, for games with several maps.")


@dataclass(frozen=True)
class UnitAt:
    unit: str
    hex: str
    step: str = ""
    map: str = ""

    @classmethod
    def from_model(cls, model: PositionModel) -> "UnitAt":
        return cls(model.unit, model.hex, model.step, model.map)


@dataclass
class UnitSupply:
    """One unit's supply / line-of-communication status."""

    unit: str
    hex: str
    in_supply: bool
    path: list[str] = field(default_factory=list)  # hex labels from the unit to the source
    source: str = ""  # what it traced to (a hex label, "edge:north", an HQ id...)
    reason: str = ""  # why it is (or is not) in supply, with the rule section
    cost: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "hex": self.hex, "in_supply": self.in_supply, "path": self.path,
                "source": self.source, "reason": self.reason, "cost": self.cost}


@dataclass
class SupplyReport:
    """Every unit of a side at once, from one multi-source search where the rules allow."""

    side: str
    units: list[UnitSupply] = field(default_factory=list)
    steps: list[tuple[str, str]] = field(default_factory=list)  # (text, rule)
    warnings: list[str] = field(default_factory=list)

    @property
    def out_of_supply(self) -> list[UnitSupply]:
        return [u for u in self.units if not u.in_supply]

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "units": [u.to_json() for u in self.units],
                "in_supply": sum(u.in_supply for u in self.units),
                "out_of_supply": len(self.out_of_supply),
                "steps": [{"text": t, "rule": r} for t, r in self.steps], "warnings": list(self.warnings)}


SupplyTracer = Callable[[Game, str, str, list[UnitAt], dict[str, Any]], SupplyReport]

_TRACERS: dict[str, SupplyTracer] = {}


def register_supply_tracer(system: str) -> Callable[[SupplyTracer], SupplyTracer]:
    """Make ``function(game, scenario_id, side, positions, options)`` the system's tracer."""

    def decorator(function: SupplyTracer) -> SupplyTracer:
        if system in _TRACERS:
            raise ValueError(f"a supply tracer for {system} is registered twice")
        _TRACERS[system] = function
        return function

    return decorator


def supply_tracer(system: str) -> SupplyTracer | None:
    """The system's tracer, once its rules package was imported (see `adjudicator.rules`)."""
    return _TRACERS.get(system)
