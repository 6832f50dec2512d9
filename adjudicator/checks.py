"""The check registry: how a game's rules plug into the service.

Adding a check to a game is one pydantic request schema plus one pure function:

    class CombatRequest(CheckRequest):
        attack: int = Field(ge=0, le=99)
        defence: int = Field(ge=1, le=99)

    @register_check(system="holdfast", name="combat", request=CombatRequest, random=True,
                    summary="Resolve one combat", rule="9.2")
    def combat(req: CombatRequest, dice: Dice) -> CheckResult:
        (roll,) = dice.roll(6, purpose="combat")
        ...

The function must be pure: everything it needs comes from `req`, every random number comes
from `dice`. That is what lets the same function run in compute mode (players supply the dice
they rolled elsewhere) and in game mode (the server derives the dice from the game's secret
seed), and lets anyone re-run a recorded check after the seed is revealed.

The service derives two request models from the schema once, at registration:
`compute_model` (adds the `dice` list for random checks) and `game_model` (adds `request_id`).

This module is a leaf: it imports no rules. The rules packages register into it when they are
imported, and whoever assembles the service imports them (`adjudicator.rules.register_all_games`,
called by the app factory and the test suite's conftest); reading the registry before that is an error, not an empty answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from pydantic import BaseModel, ConfigDict, Field, create_model

#: The game systems the service knows. Metadata (names, scenarios) comes from `systems.py`.
SYSTEM_IDS = ("kwb", "spi", "holdfast", "fireandice")

#: Names taken by game endpoints (`/games/<id>/ledger`, `/games/<id>/close`).
RESERVED_CHECK_NAMES = frozenset({"ledger", "close", "verify"})

_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,47}$")

#: The largest number of dice a compute-mode request may carry (also bounds request size).
MAX_SUPPLIED_DICE = 64

#: request_id: what a client may use to make a game-mode call idempotent.
REQUEST_ID_PATTERN = r"^[A-Za-z0-9._:-]{1,100}$"

#: Side ids that were once spelt differently: an old spelling on input reads as the current id.
#: (Fire and Ice called its Communist side "com" until every game said "communist".)
OLD_SIDE_SPELLINGS: dict[str, str] = {"com": "communist"}


def canonical_side(value: Any) -> Any:
    """A side id in its current spelling; anything else unchanged (the schema then judges it).

    Use it as a pydantic `BeforeValidator` on side fields, and wherever a side arrives from
    outside (a query parameter, an old game's token), so there is one spelling past the door.
    """
    return OLD_SIDE_SPELLINGS.get(value, value) if isinstance(value, str) else value


#: What a board can fill in a request: the JSON-schema keyword `x-board` on a property names one
#: of these roles. A VASSAL game (the module's Adjudicator extension) and a saved game on the
#: players' pages fill those fields from the pieces; the player fills the rest. "Context" is what
#: the player pointed at: the piece right-clicked in VASSAL, the hex clicked on the page.
BOARD_ROLES: dict[str, str] = {
    "scenario": "the scenario being played (a recorded game's own scenario)",
    "turn": "the game turn the module's turn track shows",
    "side": "the side of the player asking (a recorded game: the side whose token is used)",
    "positions": "every unit on the board: a list of objects whose item roles say what to fill",
    "attackers": "the selected units (attacking the context hex): a list of unit objects or ids",
    "defenders": "the units standing in the context hex: a list of unit objects or ids",
    "target_hex": "the context hex, as printed (XXYY)",
    "unit": "a unit's id: at top level the context unit; in a list item, the unit that item is",
    "hex": "a unit's hex, as printed: at top level the context unit's hex; in a list item, that unit's",
    "step": "the step (side) the unit shows, by its name in the game's data ('' = full strength)",
    "sp": "the strength points the unit's step shows (block games: the number on the top edge)",
    "map": "the map the unit stands on (games with several maps)",
}

#: Roles only a list field may have; the others are scalars (or a list item's properties).
BOARD_LIST_ROLES = frozenset({"positions", "attackers", "defenders"})


def board(role: str, default: Any = ..., **field_args: Any) -> Any:
    """A pydantic `Field` the board can fill (see BOARD_ROLES); otherwise like `Field`."""
    if role not in BOARD_ROLES:
        raise ValueError(f"unknown board role {role!r}; known: {', '.join(BOARD_ROLES)}")
    extra = dict(field_args.pop("json_schema_extra", None) or {})
    extra["x-board"] = role
    return Field(default, json_schema_extra=extra, **field_args)


def board_fields(schema: dict[str, Any]) -> list[tuple[str, str]]:
    """Every board-filled property of a request's JSON schema: (JSON pointer, role).

    A list's item properties are reported under `/<list>/-/<property>`, and a nested object's
    under `/<object>/<property>`, following local `$ref`s; this is what a client walks to fill a
    request from pieces, so the service checks it at registration.
    """
    defs = schema.get("$defs", {})
    found: list[tuple[str, str]] = []

    def resolve(node: dict) -> dict:
        for key in ("allOf", "anyOf"):
            options = [o for o in node.get(key, ()) if o.get("type") != "null"]
            if len(options) == 1:
                node = {**options[0], **{k: v for k, v in node.items() if k != key}}
        if "$ref" in node:
            target = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return node

    def walk(node: dict, pointer: str, depth: int) -> None:
        node = resolve(node)
        if "x-board" in node and pointer:
            found.append((pointer, node["x-board"]))
        if depth > 4:
            return
        for name, child in node.get("properties", {}).items():
            walk(child, f"{pointer}/{name}", depth + 1)
        if isinstance(node.get("items"), dict):
            walk(node["items"], f"{pointer}/-", depth + 1)

    walk(schema, "", 0)
    return found


def _check_board_roles(request: type[BaseModel]) -> None:
    for pointer, role in board_fields(request.model_json_schema()):
        if role not in BOARD_ROLES:
            raise ValueError(f"{request.__name__}{pointer}: unknown board role {role!r}")
        if role in BOARD_LIST_ROLES and pointer.count("/") != 1:
            raise ValueError(f"{request.__name__}{pointer}: {role!r} is a top-level list role")


class CheckRequest(BaseModel):
    """Base of every check's request schema: unknown fields and loose types are errors.

    A misspelt field would otherwise quietly take its default, and `"un_vp": "14"` or
    `"roc_intervened": 0` would be coerced; both could give a wrong ruling without a word.
    """

    model_config = ConfigDict(extra="forbid", strict=True)


@dataclass(frozen=True)
class Step:
    """One step of the reasoning, with the rule it applies (e.g. "Combat, Case G")."""

    text: str
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "rule": self.rule}


@dataclass(frozen=True)
class DieUsed:
    """One die as it was used: its number of sides, why it was rolled, and its value."""

    sides: int
    purpose: str
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"sides": self.sides, "purpose": self.purpose, "value": self.value}


@dataclass
class CheckResult:
    """What a check returns: the outcome plus the reasoning that led to it.

    `dice_used` is filled in by the service from the `Dice` object, not by the rules
    function, so it always lists every die actually rolled.
    """

    outcome: dict[str, Any]
    steps: list[Step] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    dice_used: list[DieUsed] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "steps": [s.to_json() for s in self.steps],
            "warnings": list(self.warnings),
            "dice_used": [d.to_json() for d in self.dice_used],
        }


class SituationError(ValueError):
    """Raised by a rules function when the situation it was given cannot occur by the rules.

    The service answers 422 with the message; it treats any ValueError from a rules function
    the same way, since that is how rules code commonly refuses input. (Prefer a pydantic
    validator on the request schema where the check can be made before rolling.) Any other
    exception from a rules function is a bug: 500.
    """


class DiceError(ValueError):
    """Supplied dice do not fit the check: too few, too many, or a value out of range.

    `index` is the position in the request's `dice` list the problem is about (or None).
    """

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.index = index


class Dice(Protocol):
    """Where a rules function gets its random numbers."""

    def roll(self, sides: int, count: int = 1, purpose: str = "") -> list[int]:
        """Roll `count` dice with `sides` sides; `purpose` says why (it is recorded)."""
        ...


@dataclass(frozen=True)
class CheckSpec:
    """A registered check: its function, schemas and the documentation shown to users."""

    system: str
    name: str
    function: Callable[[Any, Dice], CheckResult]
    request: type[CheckRequest]
    random: bool
    summary: str
    rule: str
    scenarios: tuple[str, ...]
    compute_model: type[BaseModel]
    game_model: type[BaseModel]

    @property
    def key(self) -> str:
        """The name recorded in the ledger, e.g. "kwb.un_supply_shortage_end"."""
        return f"{self.system}.{self.name}"


_REGISTRY: dict[tuple[str, str], CheckSpec] = {}


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _derive_models(system: str, name: str, request: type[CheckRequest], random: bool):
    base = f"{_camel(system)}{_camel(name)}"
    compute_fields: dict[str, Any] = {}
    if random:
        compute_fields["dice"] = (
            list[int],
            Field(
                max_length=MAX_SUPPLIED_DICE,
                description="The dice rolled elsewhere, in the order the check uses them "
                "(see each die's `purpose` in the result).",
            ),
        )
    compute = create_model(f"{base}Compute", __base__=request, **compute_fields)
    game = create_model(
        f"{base}Roll",
        __base__=request,
        request_id=(
            str | None,
            Field(
                default=None,
                pattern=REQUEST_ID_PATTERN,
                description="Client-chosen id; repeating it returns the recorded result, "
                "never a new roll.",
            ),
        ),
    )
    return compute, game


def register_check(
    *,
    system: str,
    name: str,
    request: type[CheckRequest],
    random: bool,
    summary: str,
    rule: str,
    scenarios: tuple[str, ...] = (),
) -> Callable[[Callable[[Any, Dice], CheckResult]], Callable[[Any, Dice], CheckResult]]:
    """Register a rules function as check `name` of game `system`.

    `scenarios` lists the scenario ids the check belongs to (empty: every scenario); it is
    documentation, shown in `GET /api/v1/systems`.
    """
    if system not in SYSTEM_IDS:
        raise ValueError(f"unknown system {system!r}; known: {', '.join(SYSTEM_IDS)}")
    if not _NAME_RE.match(name):
        raise ValueError(f"check name {name!r} must match {_NAME_RE.pattern}")
    if not (isinstance(request, type) and issubclass(request, CheckRequest)):
        raise TypeError("request must be a subclass of adjudicator.checks.CheckRequest")
    if random is False and "dice" in request.model_fields:
        raise ValueError("a non-random check must not declare a 'dice' field")
    if name in RESERVED_CHECK_NAMES:
        raise ValueError(f"{name!r} is a game endpoint, not a possible check name")
    for reserved in ("dice", "request_id"):
        if reserved in request.model_fields:
            raise ValueError(f"{reserved!r} is added by the service; do not declare it")

    _check_board_roles(request)

    def decorator(function):
        if (system, name) in _REGISTRY:
            raise ValueError(f"check {system}.{name} is registered twice")
        compute_model, game_model = _derive_models(system, name, request, random)
        _REGISTRY[(system, name)] = CheckSpec(
            system=system,
            name=name,
            function=function,
            request=request,
            random=random,
            summary=summary,
            rule=rule,
            scenarios=tuple(scenarios),
            compute_model=compute_model,
            game_model=game_model,
        )
        return function

    return decorator


def unregister_check(system: str, name: str) -> None:
    """Remove a check again (for tests that register a temporary one)."""
    _REGISTRY.pop((system, name), None)


class RegistryNotFilled(RuntimeError):
    """The registry was read before any rules package registered into it."""


def _filled() -> dict[tuple[str, str], CheckSpec]:
    if not _REGISTRY:
        raise RegistryNotFilled(
            "no check is registered: call adjudicator.rules.register_all_games() (the service assembler does) first"
        )
    return _REGISTRY


def all_checks() -> list[CheckSpec]:
    """Every registered check, in a stable order (system, then name)."""
    return sorted(_filled().values(), key=lambda s: (SYSTEM_IDS.index(s.system), s.name))


def checks_for(system: str) -> list[CheckSpec]:
    return [spec for spec in all_checks() if spec.system == system]


def get_check(system: str, name: str) -> CheckSpec | None:
    return _filled().get((system, name))


def get_check_by_key(key: str) -> CheckSpec | None:
    """Look a check up by its recorded name, e.g. "kwb.un_supply_shortage_end"."""
    system, _, name = key.partition(".")
    return get_check(system, name)


def narrow_request(spec: CheckSpec, request: BaseModel) -> CheckRequest:
    """The check's own request model from an already validated compute/game model.

    Those models subclass the check's schema, so their validators (field and model) have run;
    re-validating would only repeat that work. Attribute values are taken as they are, so
    nested models stay models.
    """
    if type(request) is spec.request:
        return request
    names = spec.request.model_fields
    own = spec.request.model_construct(
        _fields_set=request.model_fields_set & set(names),
        **{name: getattr(request, name) for name in names},
    )
    # Private attributes are what validators computed on the way (e.g. a combat's situation);
    # the subclass has the same ones, and they describe the same field values.
    if request.__pydantic_private__ and spec.request.__private_attributes__:
        own.__pydantic_private__ = {
            name: value for name, value in request.__pydantic_private__.items()
            if name in spec.request.__private_attributes__
        }
    return own


def run_check(spec: CheckSpec, request: BaseModel, dice: Any) -> CheckResult:
    """Run a check's rules function and attach the dice it used.

    `request` may be any of the spec's models; it is narrowed to the check's own schema so
    the rules function never sees `dice` or `request_id`.
    """
    own = narrow_request(spec, request)
    result = spec.function(own, dice)
    if not isinstance(result, CheckResult):
        raise TypeError(f"check {spec.key} returned {type(result).__name__}, not CheckResult")
    result.dice_used = list(dice.used)
    return result
