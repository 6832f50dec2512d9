"""The shared scenario model: what a game *is*, independent of VASSAL or HTTP.

Both halves of the project read these types: the module generator draws and
places them, the adjudicator applies rules to them.  They are plain frozen-ish
dataclasses so that a rules function can take one as an argument without
worrying that somebody else changes it underneath.

Every record that came from somewhere carries a ``source``: the rulebook
section it was transcribed from (``"12.1.2"``), or ``"stand-in: <reason>"``
when the rulebook does not give it and we had to supply something playable.
Stand-ins are never presented as the publisher's data; see ``Source``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from scenarios.hexgrid import Hex, HexGrid, Hexside

STAND_IN_PREFIX = "stand-in"


@dataclass(frozen=True)
class Source:
    """Where a datum came from.

    ``text`` is either a rulebook reference ("12.1.2", "Combat (J)") or starts
    with ``stand-in`` followed by the reason.  Keeping it a single string keeps
    the data files short; the helpers below keep the parsing in one place.
    """

    text: str = ""

    @property
    def is_stand_in(self) -> bool:
        return self.text.strip().lower().startswith(STAND_IN_PREFIX)

    @property
    def reason(self) -> str:
        """The stand-in's reason (empty for rulebook data)."""
        if not self.is_stand_in:
            return ""
        rest = self.text.strip()[len(STAND_IN_PREFIX):].strip()
        if rest.startswith("(") and rest.endswith(")"):  # "stand-in (why)"
            return rest[1:-1].strip()
        return rest.lstrip(" :-").strip()

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Side:
    id: str
    name: str


@dataclass(frozen=True)
class Nationality:
    """A nationality and the colours its counters are printed in (rulebook 2.3 etc.)."""

    id: str
    name: str
    side: str
    background: str  # "#rrggbb"
    text: str = "#000000"
    symbol: str = ""  # colour of the unit symbol where it differs from the text
    letter: str = ""  # nationality letter printed on the counter (SPI: S, B, T, P)
    source: Source = Source()


@dataclass(frozen=True)
class UnitType:
    """An arm of service and how its NATO symbol is drawn.

    ``symbol`` is a "+"-joined list of primitives the art package knows
    (infantry, armour, motorised, hq, engineer, airborne, marine, police,
    supply, cadre, artillery, reconnaissance, mountain, aircraft, naval...).
    """

    id: str
    name: str
    symbol: str
    mobile: bool = False


@dataclass(frozen=True)
class Step:
    """One printed side / strength level of a counter.

    ``values`` maps the game's value fields (``Game.value_fields``) to the
    printed numbers; a value the book prints as "?" stays a string.
    """

    name: str  # "full", "depleted", "spent", "4", ...
    values: Mapping[str, int | str]
    text: str  # the values as printed, e.g. "10-9-3"


#: A unit's size as its counter prints it (units.csv `size`): the echelon marks, battalion "II" to army
#: "XXXX" (and company "I", army group "XXXXX", which the counters can draw too); "" for none printed.
UNIT_SIZES = ("I", "II", "III", "X", "XX", "XXX", "XXXX", "XXXXX")


@dataclass(frozen=True)
class Unit:
    """One counter (or block) of the counter manifest."""

    id: str
    designation: str  # what is printed on the counter, e.g. "6" or "5/1M"
    side: str
    nationality: str
    type: str  # UnitType.id
    size: str  # "II", "III", "X", "XX", "XXX", "" ...
    steps: tuple[Step, ...]
    name: str = ""  # long name for reports, e.g. "6th Infantry Division"
    flags: frozenset[str] = frozenset()  # mobile, no_zoc, divisional, hq, generic, ...
    parent: str = ""  # formation id (regiment -> division) for breakdowns
    note: str = ""
    source: Source = Source()

    @property
    def full(self) -> Step:
        return self.steps[0]

    def step(self, name: str) -> Step:
        for s in self.steps:
            if s.name == name:
                return s
        raise KeyError(f"unit {self.id} has no step {name!r}")

    def has(self, flag: str) -> bool:
        return flag in self.flags

    @property
    def step_commands(self) -> tuple[str, str]:
        """What turning the counter to its next printed side and back is called (the module's menu,
        its chat report, the apply dialog): a step lost and restored, except where the two sides are a
        state, not strength: Fire and Ice's fresh and spent (units are "flipped to spent" at the start of
        their activation; the Monthly Phase flips "spent HQs to fresh"): "Step loss" there misnamed it."""
        if [s.name for s in self.steps] == ["fresh", "spent"]:
            return "Flip to spent", "Flip to fresh"
        return "Step loss", "Restore step"


@dataclass(frozen=True)
class MarkerType:
    """A non-unit counter: supply, support fire, status, track markers..."""

    id: str
    name: str
    faces: tuple[str, ...]  # printed text of each face, front first
    side: str = ""  # "" = neutral
    count: int = 1
    kind: str = "marker"  # marker, track, status, chit, aircraft, ...
    note: str = ""
    source: Source = Source()


#: How a cup or random pool (a box with ``draw``) gives out what it holds.
DRAW_OPEN = "open"  # drawn at random, shown to everyone (combat chits, SNAFU, random regiments)
DRAW_SECRET = "secret"  # drawn at random, seen only by the drawing side until it reveals it
DRAW_UNSEEN = "unseen"  # drawn at random, seen by nobody until the owning side reveals it
DRAW_KINDS = (DRAW_OPEN, DRAW_SECRET, DRAW_UNSEEN)


@dataclass(frozen=True)
class Box:
    """An off-map holding area (dead pile, replacement box, sea box, cup...).

    A box with ``draw`` is a cup or random pool: what a setup puts in it lies face down,
    shuffled, and is drawn at random (``DRAW_KINDS`` say who sees a drawn piece).
    ``returns`` says, in the rulebook's words, when a drawn piece goes back ("" = never).
    ``holds`` fills a pool without listing its contents in every setup: the units with that
    flag, or the markers of that kind, of the box's side that the scenario does not place
    or bring on elsewhere.  ``back`` is the label on the back of its pieces: what the players
    see (and the chat names) while a piece lies face down; ``reveal`` says, in the rulebook's
    words, when the owner of a hidden piece turns it face up.  ``placeholders`` (an ``unseen`` pool
    whose pieces nobody may know, not even their owner: KWB's Scratch Units) is a unit flag: the
    module shows each piece of the pool as one of these identical counters, and which counter it
    stands for is drawn by the adjudicator, committed when a recorded game is created and told when
    the rules reveal it (docs/draws.md); ``faces`` is the box where the module lays the pool's own
    counters, face up (all of them: which is which is the secret), for a placeholder to be turned into
    the one revealed.
    """

    id: str
    name: str
    side: str = ""
    kind: str = "box"  # box, deadpile, track, replacement, sea, cup, ...
    source: Source = Source()
    draw: str = ""  # "" (not a pool) or one of DRAW_KINDS
    returns: str = ""
    holds: str = ""  # a unit flag or a marker kind
    back: str = ""  # what a face-down piece of the pool shows (its back), e.g. "SNAFU"
    reveal: str = ""  # secret and unseen pools: when the owner turns a drawn piece face up
    placeholders: str = ""  # unseen pools settled by the adjudicator: the flag of the counters shown
    faces: str = ""  # with placeholders: the box the module lays the pool's own counters in, face up


@dataclass(frozen=True)
class Track:
    """A numbered (or named) track on a player aid: VP, resource points, support levels,
    weather.  Markers stand on one of its ``cells`` (``track:<id>:<cell>`` in a setup)."""

    id: str
    name: str
    cells: tuple[str, ...]
    source: Source = Source()
    note: str = ""


@dataclass(frozen=True)
class Roll:
    """A roll players make by hand (the module's dice button): how many dice of which kind,
    and what the rulebook rolls them for.  ``ask``: the number of dice changes from roll to
    roll (a HoldFast combat pool) and is asked each time, ``count`` being the usual one."""

    name: str  # the button's text: "1d6", "Combat dice"
    count: int
    sides: int
    uses: str  # what it is rolled for, with the rules' sections
    source: Source = Source()
    ask: bool = False

    @property
    def dice(self) -> str:
        """"4d6"."""
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True)
class TerrainType:
    id: str
    name: str
    char: str  # the character used for it in the terrain grid file
    colour: str  # fill colour for the map image
    source: Source = Source()
    water: bool = False  # sea, lake, reservoir: no land unit stands here (scenarios.facts)


@dataclass(frozen=True)
class HexFeature:
    """Something standing in a hex: a city, port, airfield, supply source..."""

    hex: Hex
    kind: str
    name: str = ""
    side: str = ""
    source: Source = Source()
    where: str = field(default="", compare=False)  # file:line of the row, for problems and reports


@dataclass(frozen=True)
class HexsideFeature:
    hexside: Hexside
    kind: str  # river, sea, red_line, parallel_38, bridge, ... (lines drawn on the map too)
    name: str = ""
    source: Source = Source()


@dataclass(frozen=True)
class MapPath:
    """A road, trail or railway as the chain of hexes it runs through."""

    kind: str  # road, trail, rail, ...
    hexes: tuple[Hex, ...]
    name: str = ""
    source: Source = Source()

    def hexsides(self) -> list[Hexside]:
        return [Hexside.between(a, b) for a, b in zip(self.hexes, self.hexes[1:])]


@dataclass(frozen=True)
class BoardPoint:
    """A hex centre the maintainer read off a scanned board: the hex and its pixel on the scan."""

    hex: Hex
    x: float
    y: float


@dataclass(frozen=True)
class Affine:
    """A plane's affine map, in pixels: (x, y) -> (a x + b y + c, d x + e y + f)."""

    a: float
    b: float
    c: float
    d: float
    e: float
    f: float

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f

    def inverse(self) -> "Affine":
        det = self.a * self.e - self.b * self.d
        a, b, d, e = self.e / det, -self.b / det, -self.d / det, self.a / det
        return Affine(a, b, -(a * self.c + b * self.f), d, e, -(d * self.c + e * self.f))


@dataclass(frozen=True)
class BoardImage:
    """The published map's scan as a map's board, straightened onto the map's own hex grid.

    ``points`` are the hex centres the maintainer read off the scan; ``modgen board``
    (scenarios.board) fits where the printed grid lies on the scan (turned, scaled, sheared as the
    scanner left it) and the module's board is the scan resampled (``to_scan``: each board pixel's
    place on the scan) so that ``grid``, the map's regular grid with the board's origin and size,
    lies on the printed hexes.  The module shows that board on this grid, and the saved-game
    bridge reads pixel positions with it.
    """

    path: str  # the scan (PNG, JPEG or GIF) next to the map's toml
    grid: HexGrid
    points: tuple[BoardPoint, ...]
    source: Source = Source()
    to_scan: Affine = Affine(1, 0, 0, 0, 1, 0)  # board pixel -> scan pixel (whole-pixel indices)


@dataclass
class GameMap:
    """A hex map: geometry plus what stands on it.

    Terrain is one type per hex; everything else is a feature list.  Derived
    lookups (features by hex, hexside sets) are built once in ``__post_init__``
    because rules functions query them in tight loops.
    """

    id: str
    name: str
    grid: HexGrid
    scale: str  # "5 km", "7 miles"
    terrain_types: dict[str, TerrainType]
    terrain: dict[Hex, str]  # hex -> TerrainType.id
    features: list[HexFeature] = field(default_factory=list)
    hexside_features: list[HexsideFeature] = field(default_factory=list)
    paths: list[MapPath] = field(default_factory=list)
    source: Source = Source()
    note: str = ""
    board: BoardImage | None = None  # a scanned board; None: the module draws the map from the data

    def __post_init__(self) -> None:
        self._features_by_hex: dict[Hex, list[HexFeature]] = {}
        for f in self.features:
            self._features_by_hex.setdefault(f.hex, []).append(f)
        self._sides: dict[Hexside, set[str]] = {}
        for hf in self.hexside_features:
            self._sides.setdefault(hf.hexside, set()).add(hf.kind)
        for path in self.paths:
            for side in path.hexsides():
                self._sides.setdefault(side, set()).add(path.kind)

    def __contains__(self, hex: Hex) -> bool:
        return hex in self.terrain

    def board_grid(self, scale: int = 1) -> HexGrid:
        """The grid of the board a module shows, in its pixels: a scanned board's (the map's grid on
        the straightened scan, which the art scale does not resize), else the map drawn from the
        data at the art scale."""
        if self.board is not None:
            return self.board.grid
        return self.grid.scaled(scale) if scale != 1 else self.grid

    def hexes(self) -> list[Hex]:
        return list(self.terrain)

    def terrain_at(self, hex: Hex) -> str:
        return self.terrain[hex]

    def is_water(self, hex: Hex) -> bool:
        """Sea, lake or reservoir (the legend's `water = true`)."""
        terrain = self.terrain_types.get(self.terrain.get(hex, ""))
        return bool(terrain and terrain.water)

    def is_edge(self, hex: Hex) -> bool:
        """On the map's edge: some neighbour lies off the map."""
        return len(self.grid.neighbours(hex)) < 6

    def path_kinds_at(self, hex: Hex) -> set[str]:
        """Kinds of the paths (road, rail, trail...) that run through the hex."""
        return {p.kind for p in self.paths if hex in p.hexes}

    def features_at(self, hex: Hex, kind: str | None = None) -> list[HexFeature]:
        found = self._features_by_hex.get(hex, [])
        return [f for f in found if kind is None or f.kind == kind]

    def hexes_with(self, kind: str) -> list[Hex]:
        return [f.hex for f in self.features if f.kind == kind]

    def hexside_kinds(self, a: Hex, b: Hex) -> set[str]:
        """What lies on or crosses the side between two adjacent hexes
        (rivers, roads, rails...)."""
        return self._sides.get(Hexside.between(a, b), set())

    def find_named(self, name: str) -> list[Hex]:
        wanted = name.strip().lower()
        return [f.hex for f in self.features if f.name.strip().lower() == wanted]


@dataclass(frozen=True)
class TerrainBan:
    """Terrain some units may not stand on (KWB 5.2.3: mobile units may not enter Rough hexes).

    ``units`` are unit type ids or unit flags; ``except_on`` are path kinds (road, rail...) or
    feature kinds (city...) that lift the ban in a hex (SPI Movement (O): armour "except on Road
    hexes")."""

    units: tuple[str, ...]
    terrain: tuple[str, ...]
    except_on: tuple[str, ...] = ()
    source: Source = Source()
    where: str = ""

    def applies_to(self, unit: Unit) -> bool:
        return unit.type in self.units or any(unit.has(u) for u in self.units)


@dataclass(frozen=True)
class Fact:
    """One hex and what the data demands of it."""

    map_id: str
    hex: Hex
    demands: tuple[str, ...]
    subject: str  # "port Pusan", "setup of us-7-1m (7th/1st Marines)"
    source: Source  # the rule section the row cites, or its stand-in reason
    where: str  # file:line of the row that states it
    unit: Unit | None = None  # for STAND

    @property
    def is_book(self) -> bool:
        """Stated by the rulebook (not one of our stand-in placements)."""
        return not self.source.is_stand_in


@dataclass(frozen=True)
class Turn:
    number: int
    date: str
    values: Mapping[str, str] = field(default_factory=dict)  # per-turn extras (support fire...)


@dataclass(frozen=True)
class MapArea:
    """A region the rules name without listing its hexes, drawn on a map: the land beyond the
    named border rivers (Fire and Ice's China, north of the Yalu and the Tumen)."""

    id: str
    map: str
    name: str
    beyond: tuple[str, ...]  # river names (hexside features) that bound it on the side away from north
    label: str  # printed on the map: what the rules say of it
    source: Source = Source()


#: Setup locations that are not on a hex map: an off-map box, a track cell, a turn track cell.
OFF_MAP_PREFIXES = ("box:", "track:", "turn:")


@dataclass(frozen=True)
class Placement:
    """A unit at setup: where it stands, on which step, under which rule."""

    unit: str  # a unit id, or "marker:<marker id>"
    location: str  # a hex label, "box:<box id>", "track:<track id>:<cell>" or "turn:<n>"
    step: str = ""  # "" = full strength
    choice: str = ""  # the placement freedom the rulebook allows, in words
    note: str = ""
    source: Source = Source()
    where: str = field(default="", compare=False)  # file:line of the setup row

    @property
    def is_on_map(self) -> bool:
        return not self.location.startswith(OFF_MAP_PREFIXES)

    @property
    def is_marker(self) -> bool:
        """A marker placement ("marker:<id>"); ``step`` then names the face showing."""
        return self.unit.startswith("marker:")

    @property
    def marker_id(self) -> str:
        return self.unit[len("marker:"):] if self.is_marker else ""


@dataclass(frozen=True)
class Arrival:
    """A reinforcement or withdrawal on a given turn."""

    turn: int
    unit: str
    action: str  # "arrive" | "withdraw"
    location: str = ""  # entry hex / box; empty for withdrawals
    step: str = ""
    note: str = ""
    source: Source = Source()
    where: str = field(default="", compare=False)  # file:line of the schedule row


@dataclass
class Scenario:
    id: str
    name: str
    maps: tuple[str, ...]
    first_player: str  # side that moves first each turn
    sets_up_first: str
    turns: list[Turn]
    setup: list[Placement]
    schedule: list[Arrival]
    special_rules: dict[str, dict] = field(default_factory=dict)
    victory: dict = field(default_factory=dict)
    supply_sources: dict[str, list[str]] = field(default_factory=dict)  # side -> hexes/edges
    description: str = ""
    note: str = ""
    source: Source = Source()
    order: int | None = None  # its place in the lists (the scenario toml's `order`); None: after those with one

    @property
    def length(self) -> int:
        return len(self.turns)

    def arrivals_on(self, turn: int) -> list[Arrival]:
        return [a for a in self.schedule if a.turn == turn and a.action == "arrive"]

    def withdrawals_on(self, turn: int) -> list[Arrival]:
        return [a for a in self.schedule if a.turn == turn and a.action == "withdraw"]


class MissingRow(KeyError, ValueError):
    """A table has no row for a key the rules looked up.

    Also a ValueError, so the service answers with this message instead of an unexplained error;
    `scenarios check` finds every key a table declares it uses (`[table.columns]`) before that.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class Table:
    """A table as printed: named columns, rows of cells (strings).

    Rules code reads cells through the helpers so a maintainer can replace a
    stand-in table by editing its CSV without touching code.
    """

    id: str
    name: str
    columns: tuple[str, ...]
    rows: tuple[Mapping[str, str], ...]
    key: str = ""  # column that identifies a row ("die", "turn"...)
    note: str = ""
    source: Source = Source()
    file: str = ""  # the CSV, relative to the game directory ("tables/crt.csv")
    row_lines: tuple[int, ...] = ()  # the CSV line of each row
    # What the rules read from a column (tables.toml [table.columns], scenarios.cells): column -> type;
    # "*" is every column but the key.
    column_types: Mapping[str, str] = field(default_factory=dict)
    needed_rows: tuple[str, ...] = ()  # keys the rules look up (tables.toml `rows`, e.g. die 1-6)

    @property
    def citation(self) -> str:
        """How a ruling cites this table: its rulebook reference, or "stand-in tables/crt.csv".

        A maintainer who installs the published table and sets its `source` changes every
        citation of it, with no code change."""
        if self.source.text and not self.source.is_stand_in:
            return self.source.text
        return f"stand-in {self.file or self.id}"

    def row(self, key_value: str | int) -> Mapping[str, str]:
        wanted = str(key_value)
        for r in self.rows:
            if r[self.key] == wanted:
                return r
        raise MissingRow(f"table {self.id} ({self.file or 'tables.toml'}) has no row {self.key}={wanted}")

    def cell(self, key_value: str | int, column: str) -> str:
        return self.row(key_value)[column]

    def where(self, key_value: str | int) -> str:
        """`file:line` of a row (the file alone when the line is not known)."""
        wanted = str(key_value)
        for r, line in zip(self.rows, self.row_lines):
            if r[self.key] == wanted:
                return f"{self.file}:{line}"
        return self.file


@dataclass
class Game:
    """A game system with everything the two halves need."""

    id: str
    name: str
    publisher: str
    year: int
    rulebook: str
    dice: tuple[str, ...]  # "d6", "d10"
    value_fields: tuple[str, ...]  # names of the printed values, in print order
    value_separator: str  # "-" for "10-9-3"
    sides: dict[str, Side]
    nationalities: dict[str, Nationality]
    unit_types: dict[str, UnitType]
    units: dict[str, Unit]
    markers: dict[str, MarkerType]
    boxes: dict[str, Box]
    maps: dict[str, GameMap]
    scenarios: dict[str, Scenario]
    tables: dict[str, Table]
    tracks: dict[str, Track] = field(default_factory=dict)
    map_areas: tuple[MapArea, ...] = ()
    rolls: tuple[Roll, ...] = ()  # the dice buttons (game.toml [[roll]])
    phases: tuple[str, ...] = ()
    step_names: tuple[str, ...] = ("full",)
    description: str = ""
    note: str = ""
    data_dir: str = ""
    # Every stand-in datum with its file:line, gathered by the loader, for
    # the stand-in listing, the module's help page and result warnings.
    stand_ins: list["StandIn"] = field(default_factory=list)
    # Terrain some units may not stand on (game.toml [[terrain_ban]]), and every fact the data
    # states about a hex (scenarios.facts), both checked by the loader on every map.
    terrain_bans: tuple[TerrainBan, ...] = ()
    hex_facts: list[Fact] = field(default_factory=list)
    default_scenario_id: str = ""  # game.toml `default_scenario`; empty: the first of `scenarios`

    @property
    def default_scenario(self) -> Scenario:
        """The scenario a game started without a setup shows: the module's main map opens on its
        first map, its turn track and its units' view (game.toml ``default_scenario``)."""
        return self.scenarios.get(self.default_scenario_id) or next(iter(self.scenarios.values()))

    def units_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def stand_ins_for(self, what_prefix: str) -> list["StandIn"]:
        """Stand-ins whose ``what`` starts with a prefix ("table crt").

        Remembered per prefix: a loaded game does not change, and the rules ask the same few
        prefixes for every ruling they warn about (Fire and Ice has ~1,000 stand-ins)."""
        found = self.__dict__.setdefault("_stand_ins_by_prefix", {})
        if what_prefix not in found:
            found[what_prefix] = [s for s in self.stand_ins if s.what.startswith(what_prefix)]
        return list(found[what_prefix])


@dataclass(frozen=True)
class StandIn:
    game: str
    what: str  # "table crt", "unit nk-6 values", "map pusan"
    where: str  # file:line
    reason: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}: {self.reason}"
