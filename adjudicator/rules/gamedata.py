"""Looking things up in a game's data, the same way for every rules package.

Rules functions take the loaded ``Game`` as an argument; these helpers turn
an unknown scenario or turn into a ``ValueError`` with a message the service
shows as a 422, instead of a ``KeyError`` it would show as a 500.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Iterable, Literal

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationInfo
from pydantic_core import core_schema

from adjudicator.checks import Actor, Dice
from scenarios import DataError, load_game
from scenarios.hexgrid import Hex
from scenarios.model import Box, Game, GameMap, Scenario, Table, Turn, Unit
from scenarios.pools import pool_contents


def game_in(info, game_id: str) -> Game:
    """The game a request is validated against: the loaded game, or a test's own game passed
    as pydantic validation context (`Model.model_validate(body, context={"game": g})`)."""
    context = getattr(info, "context", None) or {}
    return context.get("game") or load_game(game_id)


def cite(*parts: str | Table) -> str:
    """A step's rule citation: rule sections and tables joined by "; ", each table cited by its own
    `source` (`Table.citation`): "7.6; stand-in tables/crt_results.csv" until a maintainer installs
    the published table and names its section, then "7.6; Standard Rules 7.4". Repeats are dropped."""
    said: list[str] = []
    for part in parts:
        text = part.citation if isinstance(part, Table) else part
        if text and text not in said:
            said.append(text)
    return "; ".join(said)


def whole_number(table: Table, key: str, column: str) -> int:
    """A cell the rules read as a whole number; anything else is refused naming its file and line
    (a maintainer's edit of a parameter table), not an unexplained "invalid literal"."""
    cell = table.cell(key, column).strip()
    try:
        return int(cell)
    except ValueError:
        raise ValueError(f"game data {table.where(key)}: {column} of {key} is {cell!r}; the rules read a whole "
                         "number there") from None


def hex_on_map(gm: GameMap, text: str) -> Hex:
    """A printed hex label on this map, or ValueError with the reason (every game's `board.parse`)."""
    try:
        h = gm.grid.parse(text)
    except (ValueError, IndexError, TypeError):
        raise ValueError(f"{text!r} is not a hex label of map {gm.id}") from None
    if h not in gm:
        raise ValueError(f"hex {text} is not on map {gm.id}")
    return h


def hex_label(gm: GameMap, h: Hex) -> str:
    """A hex as its map prints it (every game's `board.label`)."""
    return gm.grid.label(h)


def scenario(g: Game, scenario_id: str) -> Scenario:
    try:
        return g.scenarios[scenario_id]
    except KeyError:
        raise ValueError(f"unknown scenario {scenario_id!r}; known: {', '.join(sorted(g.scenarios))}") from None


def with_special_rule(game: Callable[[], Game], rule: str) -> tuple[Callable[[str], bool], str]:
    """A check's `scenario_rule`: the scenarios whose data has `[special_rules.<rule>]` (a scenario a
    maintainer adds with it gets the check)."""
    return (lambda scenario_id: scenario_id in game().scenarios and bool(special(game(), scenario_id, rule)),
            f"the special rule {rule}")


def draw_at_random(pool: list, count: int, dice: Dice, purpose: Callable[[int, int], str]) -> list:
    """`count` items drawn from `pool` without replacement (taken out of it), each with one die of as
    many faces as items are left, so a draw from a cup is a recorded roll like any other;
    `purpose(n, left)` says what the n-th die is for."""
    drawn = []
    for n in range(1, count + 1):
        (face,) = dice.roll(len(pool), purpose=purpose(n, len(pool)))
        drawn.append(pool.pop(face - 1))
    return drawn


def placeholder_pool(g: Game, unit_id: str) -> Box | None:
    """The sealed pool whose pieces a placeholder unit stands for (`Box.placeholders`: KWB's '? 4'
    Scratch Units), or None for any other unit."""
    unit = g.units.get(unit_id)
    if unit is None:
        return None
    return next((b for b in g.boxes.values() if b.placeholders and unit.has(b.placeholders) and b.side == unit.side),
                None)


def pool_counters(g: Game, scenario_id: str, box: Box) -> list[str]:
    """The counters a sealed pool holds in a scenario (what a placeholder may turn out to be)."""
    return pool_contents(g, scenario(g, scenario_id)).get(box.id, [])


def special(g: Game, scenario_id: str, rule: str) -> dict:
    """One `[special_rules.<rule>]` table of a scenario TOML ({} when the scenario has none)."""
    return scenario(g, scenario_id).special_rules.get(rule, {})


def rule_of(g: Game, scenario_id: str, rule: str) -> dict:
    """A scenario's special rule a check applies (its data's table); ValueError naming the scenario
    when its data has none, so a check asked for another scenario says why it does not apply."""
    found = special(g, scenario_id, rule)
    if not found:
        raise ValueError(f"{scenario(g, scenario_id).name} has no special rule {rule} (scenarios/{scenario_id}.toml): "
                         "this check does not apply to it")
    return found


def turn_record(g: Game, scenario_id: str, number: int) -> Turn:
    sc = scenario(g, scenario_id)
    for t in sc.turns:
        if t.number == number:
            return t
    raise ValueError(f"turn {number} is not a turn of {sc.name} (1-{sc.length})")


class _ScenarioOf:
    """A request's `scenario`: any scenario of the game's data (scenarios/<id>.toml), so a scenario a
    maintainer adds is accepted with no code change. Its JSON schema lists them as an `enum`."""

    def __init__(self, game_id: str):
        self.game_id = game_id

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.with_info_after_validator_function(self.validate, core_schema.str_schema(max_length=60))

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler) -> dict:
        json_schema = handler(schema)
        try:
            json_schema["enum"] = list(load_game(self.game_id).scenarios)
        except (DataError, KeyError):  # no data, or data that does not load: validation says why
            pass
        return json_schema

    def validate(self, value: str, info: ValidationInfo) -> str:
        scenario(game_in(info, self.game_id), value)
        return value


def scenario_id(game_id: str) -> Any:
    """The type of a request field naming a scenario of `game_id` (see _ScenarioOf)."""
    return Annotated[str, _ScenarioOf(game_id)]


def choice_of(game_id: str, values: Callable[[Game], Iterable[str]]) -> Any:
    """The type of a request field taking one of `values(game)`: rows of the game's data (a table's
    keys, a track's cells) as a `Literal`, so its JSON schema lists them (a form offers a choice) and
    a value the data does not have is refused naming those it has. They are read when the rules are
    imported: each server worker imports them from the data its master serves, so a maintainer's
    reloaded data gives the new workers its choices. Data that does not load leaves a plain string
    (the data's own checks say what is wrong)."""
    try:
        found = tuple(values(load_game(game_id)))
    except (DataError, KeyError):
        return str
    return Literal[found] if found else str


def owner_of(game_id: str, what: str, rule: str, units: Callable[[Any], Iterable[str]]) -> Actor:
    """Who acts: the owner of the units a request names (the attacking units, the moving unit...).

    Units of both sides in one request have no single owner: no side may ask for it alone
    (game mode says so and names the units' sides), so neither can roll the other's dice.
    """

    def who(request: Any) -> set[str]:
        g = load_game(game_id)
        owners = {g.units[u].side for u in units(request) if u in g.units}
        return owners if len(owners) == 1 else set()

    return Actor(f"the owner of {what}", rule, who, owner_of_units=True)


def hexes(count: int) -> str:
    """"1 hex", "3 hexes": a count of hexes as a step or reason says it."""
    return f"{count} hex" if count == 1 else f"{count} hexes"


# -- what every game's data module starts with ------------------------------------------------------


class GameFront:
    """The lookups every rules package's ``data`` module offers, the same in every game but for the
    game's id, its two sides and how its refusals name an unknown unit or table. A ``data`` module
    binds them as its own names (``game = FRONT.game``), so the rules code and the tests keep calling
    ``data.game()``, ``data.unit(g, id)``... (and a test may still put its own game in ``data.game``)."""

    def __init__(self, game_id: str, sides: tuple[str, str], unit_noun: str, data_noun: str = "the game data"):
        self.game_id = game_id
        self.sides = sides
        self.unit_noun = unit_noun  # "Korean War Battles unit": how a refusal names an unknown unit
        self.data_noun = data_noun  # "the Fire and Ice data": ... and the data an unknown table is not in

    def game(self) -> Game:
        """The loaded game (cached and read-only: rules functions never change it)."""
        return load_game(self.game_id)

    def game_in(self, info) -> Game:
        """The game a request is validated against (see gamedata.game_in)."""
        return game_in(info, self.game_id)

    def owner(self, what: str, rule: str, units: Callable[[Any], Iterable[str]]) -> Actor:
        """Who acts: the owner of the units `units(request)` names (see gamedata.owner_of)."""
        return owner_of(self.game_id, what, rule, units)

    def other_side(self, side: str) -> str:
        """The side that is not `side` (each game has two)."""
        first, second = self.sides
        return second if side == first else first

    def unit(self, g: Game, unit_id: str) -> Unit:
        try:
            return g.units[unit_id]
        except KeyError:
            raise ValueError(f"unknown {self.unit_noun} {unit_id!r}") from None

    def table(self, g: Game, table_id: str) -> Table:
        try:
            return g.tables[table_id]
        except KeyError:
            raise ValueError(f"{self.data_noun} has no table {table_id!r}") from None


#: The table of numbers a game's rules state in prose, one per row (its `value` column): what
#: ``parameter`` reads (tables/rule_parameters.csv of KWB and SPI Korea).
PARAMETERS = "rule_parameters"


def parameter(g: Game, key: str) -> str:
    """A value of tables/rule_parameters.csv (numbers the rules state in prose, each row its section)."""
    return g.tables[PARAMETERS].cell(key, "value")


def int_parameter(g: Game, key: str) -> int:
    return whole_number(g.tables[PARAMETERS], key, "value")


def scenario_map(g: Game, scenario_id: str) -> GameMap:
    """The map a scenario is played on (its first: KWB 12.0 'each one is played on a separate map')."""
    return g.maps[scenario(g, scenario_id).maps[0]]


def table_warnings(g: Game, table_ids: Iterable[str], published: str = "the published table") -> list[str]:
    """'Stand-in ...' warnings for each table used whose source is a stand-in; `published` names
    what would replace it."""
    out = []
    for tid in table_ids:
        for s in g.stand_ins_for(f"table {tid}"):
            if s.what == f"table {tid}":
                out.append(f"Stand-in table {tid} ({s.where}): {s.reason}. Replace its CSV with {published} "
                           "to adjudicate by the Standard Rules.")
    return out


def map_warnings(g: Game, map_id: str, derived: str) -> list[str]:
    """One summary warning for a map whose terrain, rivers or roads are stand-ins; `derived` lists
    what the map's stand-in items are ("terrain, rivers, roads")."""
    items = g.stand_ins_for(f"map {map_id}")
    if not items:
        return []
    head = next((s for s in items if s.what == f"map {map_id}"), items[0])
    return [f"Stand-in map {map_id} ({head.where}): {head.reason}; {len(items)} stand-in map items "
            f"({derived} derived from geography, not the published map)."]
