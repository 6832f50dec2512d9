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
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any, Callable, Iterable, Iterator, Protocol

from pydantic import BaseModel, ConfigDict, Field, create_model

#: The game systems the service knows. Metadata (names, scenarios) comes from `systems.py`.
SYSTEM_IDS = ("kwb", "spi", "holdfast", "fireandice")

#: Names taken by game endpoints (`/games/<id>/ledger`, `/games/<id>/close`).
RESERVED_CHECK_NAMES = frozenset({"ledger", "close", "verify", "dice", "rulings"})

_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,47}$")

#: The largest number of dice a compute-mode request may carry (also bounds request size).
MAX_SUPPLIED_DICE = 64

#: request_id: what a client may use to make a game-mode call idempotent.
REQUEST_ID_PATTERN = r"^[A-Za-z0-9._:-]{1,100}$"

#: A log session's id: what the Adjudicator extension makes when a VASSAL log begins.
SESSION_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


class LogSession(BaseModel):
    """Which VASSAL log a ruling is asked from, and where that log stands in the game's files.

    A game by e-mail is a chain of log files: each player loads the file received and begins a
    new log. The extension gives each log session an id, remembers in the game's own state the
    session the loaded file was (`parent`) and how many files came before (`file`), and says
    where it began (`start`, a digest of that position). Sessions with the same parent and the
    same start began from the same position: one of them is a re-roll — unless they are two
    players' logs of one live session (`live`: played at one board over a VASSAL server), kept at
    the same time (docs/bridge.md, "The chain of logs").
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    id: str = Field(pattern=SESSION_ID_PATTERN, description="This log session's id.")
    parent: str | None = Field(default=None, pattern=SESSION_ID_PATTERN,
                               description="The session of the file this one continues (none: the setup).")
    start: str | None = Field(default=None, pattern=r"^[0-9a-f]{16,64}$",
                              description="A digest of the position the log began from (hex).")
    file: int | None = Field(default=None, ge=1, le=100_000,
                             description="This log's place in the game's chain of files (1: the first).")
    live: str | None = Field(default=None, pattern=SESSION_ID_PATTERN,
                             description="The live session this log is kept in: the players at one board in a "
                                         "room of a VASSAL server, each keeping his own log, all of them naming "
                                         "this id (none: a log kept alone, play by e-mail).")


#: Side ids that were once spelt differently: an old spelling on input reads as the current id.
#: (Fire and Ice called its Communist side "com" until every game said "communist".)
OLD_SIDE_SPELLINGS: dict[str, str] = {"com": "communist"}


def canonical_side(value: Any) -> Any:
    """A side id in its current spelling; anything else unchanged (the schema then judges it).

    Use it as a pydantic `BeforeValidator` on side fields, and wherever a side arrives from
    outside (a query parameter, an old game's token), so there is one spelling past the door.
    """
    return OLD_SIDE_SPELLINGS.get(value, value) if isinstance(value, str) else value


def side_label(side: str) -> str:
    """A side id as players say it: "UN", "Communist"."""
    return "UN" if side == "un" else side.replace("_", " ").capitalize()


#: What a board can fill in a request: the JSON-schema keyword `x-board` on a property names one
#: of these roles. A VASSAL game (the module's Adjudicator extension) and a saved game on the
#: players' pages fill those fields from the pieces; the player fills the rest. "Context" is what
#: the player pointed at: the piece right-clicked in VASSAL, the hex clicked on the page.
#: docs/api.md "Fields the board fills" has the mapping for every check.
BOARD_ROLES: dict[str, str] = {
    "scenario": "the scenario being played (a recorded game's own scenario)",
    "turn": "the game turn the module's turn track shows (its number)",
    "month": "the month of that game turn, YYYY-MM, for rules that go by month (the scenario's turn "
             "record gives it)",
    "side": "the side of the player asking (a recorded game: the side whose token is used)",
    "positions": "every unit on the board: a list of objects whose item roles say what to fill",
    "attackers": "the selected units (attacking the context hex, or flying the mission): a list of "
                 "unit objects or ids, or one unit object where the check takes one",
    "defenders": "the units standing in the context hex (the target): a list of unit objects or ids, "
                 "or one unit object where the check takes one",
    "target_hex": "the context hex, as printed (XXYY): the hex attacked, bombarded or struck",
    "unit": "a unit's id: at top level the context unit (on an object field: the context unit, its "
            "properties filled by their roles); in a list item or unit object, the unit that item is",
    "hex": "a unit's hex, as printed: at top level the context unit's hex; in a list item, that unit's",
    "step": "the step (side) a unit shows, by its name in the game's data ('' = full strength): at top "
            "level the context unit's; in a list item, that unit's",
    "sp": "the strength points a unit's step shows (block games: the number on the top edge): at top "
          "level the context unit's; in a list item, that unit's",
    "map": "the map a unit stands on (games with several maps): at top level the context unit's; in a "
           "list item, that unit's",
    "counters_not_in_play": "the units lying in the sides' boxes of counters not in play (SPI's: the counters a "
                            "breakdown places on the map), as unit ids",
    "track:<track id>:<marker id>": "the cell of a player-aid track a marker stands on (HoldFast's Weather "
                                    "marker on the Weather Track), as the field's choice of that name",
}

#: A track role: `track:<track id>:<marker id>` (see BOARD_ROLES).
_TRACK_ROLE_RE = re.compile(r"^track:[a-z0-9_-]+:[a-z0-9_-]+$")


def track_marker(role: str) -> str | None:
    """The marker id of a track role, or None for any other role."""
    return role.rsplit(":", 1)[1] if _TRACK_ROLE_RE.match(role) else None

#: Roles of whole collections of units: top-level fields only. `positions` is always a list;
#: `attackers` and `defenders` are a list, or one unit object where a check takes a single unit.
BOARD_LIST_ROLES = frozenset({"positions", "attackers", "defenders", "counters_not_in_play"})


def board(role: str, default: Any = ..., **field_args: Any) -> Any:
    """A pydantic `Field` the board can fill (see BOARD_ROLES); otherwise like `Field`."""
    if role not in BOARD_ROLES and track_marker(role) is None:
        raise ValueError(f"unknown board role {role!r}; known: {', '.join(BOARD_ROLES)}")
    extra = dict(field_args.pop("json_schema_extra", None) or {})
    extra["x-board"] = role
    if default is ... and "default_factory" in field_args:
        return Field(json_schema_extra=extra, **field_args)
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


def _check_board_roles(request: type[BaseModel]) -> tuple[tuple[str, str], ...]:
    """The request's board fields (see `board_fields`), once their roles are checked."""
    schema = request.model_json_schema()
    found = tuple(board_fields(schema))
    for pointer, role in found:
        if role not in BOARD_ROLES and track_marker(role) is None:
            raise ValueError(f"{request.__name__}{pointer}: unknown board role {role!r}")
        if track_marker(role) is not None and pointer.count("/") != 1:
            raise ValueError(f"{request.__name__}{pointer}: a track role is a top-level field's")
        if role in BOARD_LIST_ROLES and pointer.count("/") != 1:
            raise ValueError(f"{request.__name__}{pointer}: {role!r} is a top-level list role")
        if role == "positions" and _json_type(schema, pointer) != "array":
            raise ValueError(f"{request.__name__}{pointer}: 'positions' is a list of units")
    return found


def _json_type(schema: dict[str, Any], pointer: str) -> str | None:
    """The JSON type of a top-level property (the non-null one of an optional property)."""
    node = schema.get("properties", {}).get(pointer.strip("/"), {})
    options = [o for o in node.get("anyOf", [node]) if o.get("type") != "null"]
    return options[0].get("type") if len(options) == 1 else None


class CheckRequest(BaseModel):
    """Base of every check's request schema: unknown fields and loose types are errors.

    A misspelt field would otherwise quietly take its default, and `"un_vp": "14"` or
    `"roc_intervened": 0` would be coerced; both could give a wrong ruling without a word.
    NaN and Infinity are refused too: no rule counts with them, and canonical JSON
    (`adjudicator.canonical`) cannot record them.
    """

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


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


class Refusal(ValueError):
    """A rules check's refusal of one value of the request, said beside its field: the field's
    JSON pointer below the place the check ran (a model validator runs at the request's top:
    "/chit"), and the values it allows where the game's data names them (its chits, its
    markers). Raise it where a lookup knows the values (`Refusal(..., allowed=ids)`) and place it
    with `at_field`; `adjudicator.problems.validation_problem` answers each as a field error
    with its `allowed` values, which the pages and the VASSAL form show beside the field (by
    `allowed_names`, the values as players read them, where they are ids: "Communist Support Fire 1")."""

    def __init__(self, message: str, pointer: str = "", allowed: Iterable[str] = (), allowed_names: Iterable[str] = ()):
        super().__init__(message)
        self.pointer = pointer
        self.allowed = tuple(allowed)
        self.allowed_names = tuple(allowed_names)


@contextmanager
def at_field(pointer: str) -> Iterator[None]:
    """A ValueError raised inside is a `Refusal` of the field at `pointer` ("/attacker_support/1")."""
    try:
        yield
    except Refusal as refusal:
        raise Refusal(str(refusal), refusal.pointer or pointer, refusal.allowed, refusal.allowed_names) from None
    except ValueError as error:
        raise Refusal(str(error), pointer) from None


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


# -- who acts -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Actor:
    """Who acts in a check: the side that may ask for it in a recorded game, and so roll its dice.

    `who(request)` gives the ids of the sides that may act, derived from the request the way the
    rules say (the attacking side, the side a field names, the side the rules name), or None when
    either side may. `description` says it in words for players and clients, `rule` cites the rule
    that names who acts, and `side_field` is the request field that names the actor, if one does.
    Game mode refuses (403) a check asked with the other side's token and records the acting side.
    Build one with `either_side`, `named_side` or `the_side`; write an `Actor(...)` directly when
    the rules derive the side some other way (e.g. from the units' owner).
    """

    description: str
    rule: str
    who: Callable[[Any], Iterable[str] | None]
    side_field: str | None = None
    #: The sides that may ever act, whatever the request says (`the_side`); None: it depends on the request.
    only: tuple[str, ...] | None = None
    #: The owner of the units the request names acts (`adjudicator.rules.gamedata.owner_of`): a check
    #: about a unit is its owner's, never the other side's.
    owner_of_units: bool = False

    def sides(self, request: Any) -> frozenset[str] | None:
        """The sides that may act on `request` (a check's own request model); None = either."""
        found = self.who(request)
        return None if found is None else frozenset(canonical_side(side) for side in found)

    def to_json(self) -> dict[str, Any]:
        return {"description": self.description, "rule": self.rule, "field": self.side_field}


def either_side(rule: str, why: str = "") -> Actor:
    """Either player may ask: the rules leave it open, or the check establishes a fact of the board."""
    return Actor(f"either side{' (' + why + ')' if why else ''}", rule, lambda request: None)


def named_side(field_name: str, rule: str, what: str = "") -> Actor:
    """The side a request field names (e.g. `attacking_side`, `side`, `placer`)."""
    return Actor(what or f"the side named by {field_name}", rule,
                 lambda request: (getattr(request, field_name),), side_field=field_name)


def the_side(side: str, rule: str) -> Actor:
    """A side the rules name outright ("The Communist player rolls ...")."""
    return Actor(f"the {side_label(side)} player", rule, lambda request: (side,), only=(side,))


@dataclass(frozen=True)
class UnitKinds:
    """The units a check about one unit takes (the unit a player points at: a division broken
    down, an aircraft on a mission), in the game data's words: a unit fits when it is of one of
    the `types`, `sizes` and `nationalities` given, has one of the `flags` given and shows one of
    the `steps` named (its counter's side: Fire and Ice's declaring unit shows "fresh") (each left
    empty: any); `on_map` True takes only a unit on a hex of the map, False only one off it (in
    a box), None either. The catalog declares it (`GET /systems`, `applies.units`), so the
    module's menus and the pages offer the check on those units alone; the check's own
    validation stays the judge."""

    types: tuple[str, ...] = ()
    sizes: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    nationalities: tuple[str, ...] = ()
    on_map: bool | None = None
    steps: tuple[str, ...] = ()

    def fits(self, unit: Any, on_map: bool | None = None, step: str | None = None) -> bool:
        """Whether a unit of the game's data (scenarios.model.Unit) fits, standing on the map or not
        and showing `step` (by its name in the data) (either None: not known)."""
        return ((not self.types or unit.type in self.types) and (not self.sizes or unit.size in self.sizes)
                and (not self.flags or bool(set(self.flags) & set(unit.flags)))
                and (not self.nationalities or unit.nationality in self.nationalities)
                and (self.on_map is None or on_map is None or on_map == self.on_map)
                and (not self.steps or step is None or step in self.steps))

    def to_json(self) -> dict[str, Any]:
        return {"types": list(self.types), "sizes": list(self.sizes), "flags": list(self.flags),
                "nationalities": list(self.nationalities), "on_map": self.on_map, "steps": list(self.steps)}


_HOW_TO_DECLARE_ACTOR = (
    "declare who acts: actor=named_side('attacking_side', rule='7.1'), actor=the_side('un', "
    "rule='12.1.1'), actor=either_side(rule='5.5', why='either player rolls') or "
    "Actor(description, rule, who=request -> side ids) (adjudicator.checks; docs/api.md 'Who acts')"
)


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
    #: The scenario ids the check belongs to (empty: every scenario, unless `scenario_rule`).
    scenarios: tuple[str, ...]
    actor: Actor
    compute_model: type[BaseModel]
    game_model: type[BaseModel]
    #: A valid compute-mode request (with `dice` for a random check): the form's starting point,
    #: docs/examples and the API reference show it; the test suite runs every one.
    example: dict[str, Any] | None = None
    #: (JSON pointer, role) of every request field the board fills (`board_fields`).
    board: tuple[tuple[str, str], ...] = ()
    #: The check belongs to the scenarios for which this says yes (scenario id -> bool), from the
    #: game's data: a scenario a maintainer adds with the same special rule gets the check.
    scenario_rule: Callable[[str], bool] | None = None
    #: The rule the data names, in words, for messages ("its special rule un_supply_shortage").
    scenario_rule_text: str = ""
    #: The units a check about one unit takes (None: any unit the check's validation accepts).
    units: UnitKinds | None = None
    #: Of the scenarios the check belongs to, those where players are offered it (None: all of them):
    #: a scenario rule that makes its every answer "no roll" (Fire and Ice 16.0-18.0: no Foreign
    #: Intervention checks) keeps it out of menus and lists; asked anyway, it still answers, citing it.
    offered_rule: Callable[[str], bool] | None = None

    def belongs_to(self, scenario: str) -> bool:
        """Whether the check is part of `scenario` (by its ids, or by the scenario's data)."""
        if self.scenarios:
            return scenario in self.scenarios
        return self.scenario_rule is None or self.scenario_rule(scenario)

    def offered_in(self, scenario: str) -> bool:
        """Whether players of `scenario` are offered the check (a menu, a page's list)."""
        return self.belongs_to(scenario) and (self.offered_rule is None or self.offered_rule(scenario))

    @property
    def key(self) -> str:
        """The name recorded in the ledger, e.g. "kwb.un_supply_shortage_end"."""
        return f"{self.system}.{self.name}"

    def top_level_field(self, role: str) -> str | None:
        """The name of the top-level request field with board role `role`, if there is one."""
        return next((pointer[1:] for pointer, found in self.board
                     if found == role and pointer.count("/") == 1), None)


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
                default_factory=list,
                max_length=MAX_SUPPLIED_DICE,
                description="The dice rolled elsewhere, in the order the check uses them "
                "(see each die's `purpose` in the result). Some situations of a check need none; "
                "too few for the situation is refused, naming the die missing.",
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
        log_session=(
            LogSession | None,
            Field(default=None, description="The VASSAL log session the ruling is asked from (the "
                                            "Adjudicator extension sends it): the log check then knows "
                                            "which file must show the ruling."),
        ),
        restored_by=(
            list[Annotated[int, Field(ge=1, le=10_000_000)]] | None,
            Field(default=None, max_length=20,
                  description="Record numbers of the rulings that brought back units this request names "
                              "which the game's ledger eliminated (a rebuild the ledger does not read as one). "
                              "Without one, an eliminated unit named again gets a notice, and one that "
                              "attacks or defends is refused (the ruling's answer names the record)."),
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
    actor: Actor | None = None,
    scenarios: tuple[str, ...] = (),
    scenario_rule: tuple[Callable[[str], bool], str] | None = None,
    example: dict[str, Any] | None = None,
    units: UnitKinds | None = None,
    offered: Callable[[str], bool] | None = None,
) -> Callable[[Callable[[Any, Dice], CheckResult]], Callable[[Any, Dice], CheckResult]]:
    """Register a rules function as check `name` of game `system`.

    `actor` (required) says who acts (see `Actor`): game mode lets only that side ask.
    `scenarios` lists the scenario ids the check belongs to (empty: every scenario); a recorded
    game of another scenario refuses it. `scenario_rule` says it from the data instead: (scenario
    id -> whether the scenario has the rule, the rule in words), so a scenario a maintainer adds
    with that special rule gets the check without a code change. `example` is a valid compute-mode request (see
    `CheckSpec.example`). `units` says which units a check about one unit (a top-level field of
    board role `unit`) takes (see `UnitKinds`). `offered` (scenario id -> bool) narrows where players
    are offered it (see `CheckSpec.offered_rule`); it still answers where it belongs.
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

    if not isinstance(actor, Actor):
        raise ValueError(f"check {system}.{name}: {_HOW_TO_DECLARE_ACTOR}")
    board_fields_found = _check_board_roles(request)
    if units is not None and not any(role == "unit" and pointer.count("/") == 1 for pointer, role in board_fields_found):
        raise ValueError(f"check {system}.{name}: `units` is for a check about one unit (a top-level field of board role 'unit')")

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
            scenario_rule=scenario_rule[0] if scenario_rule else None,
            scenario_rule_text=scenario_rule[1] if scenario_rule else "",
            actor=actor,
            compute_model=compute_model,
            game_model=game_model,
            example=example,
            board=board_fields_found,
            units=units,
            offered_rule=offered,
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


def recorded_request(request: BaseModel) -> dict[str, Any]:
    """The request as a ledger record holds it: the check's members and `restored_by` when given
    (the request id and the log session are kept beside it)."""
    dumped = request.model_dump(mode="json", exclude={"request_id", "log_session"})
    if dumped.get("restored_by") is None:
        dumped.pop("restored_by", None)
    return dumped


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
