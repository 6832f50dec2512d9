"""What one viewer sees of a piece: its identity when the rules let him see it, else only its back.

A replay is built for one pair of eyes (`Viewer`): a side of a recorded game, an observer, or
everyone once the game is closed. Whatever the viewer may not see never leaves the server: the
browser gets a `PieceView` — a label, a title, colours — that for a hidden piece is the piece's
back ("Communist block", "NK ?-4", "face down in UN Objectives"), never its id or strength.

Who may see a piece follows VASSAL where the module says it (a Mask trait: ``sides:`` access, the
side that masked it, or the player who did; a card in a face-down pile is seen by no one) and the
game's fog of war where the rules are stricter (`adjudicator.fog`: a unit hidden from its owner
too). A piece without a mask whose identity the fog hides is hidden as the fog says.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.bridge.identify import NameIndex, identify
from adjudicator.bridge.locate import BOX, HEX, NOT_ON_A_MAP, OFF_GRID, TRACK, TURN_TRACK, UNKNOWN_MAP, locate
from adjudicator.fog import Fog, hidden_side
from adjudicator.words.names import UnitNames
from adjudicator.logs.replay.pictures import back_picture, marker_picture, unit_picture
from adjudicator.logs.replay.board import Where
from scenarios.model import Game, MarkerType, Unit
from vassalfmt import Obscurable, VassalFormatError, parse_piece
from vassalfmt.piece import StateSplits, nested_states

HIDDEN_FILL = "#5f6368"
HIDDEN_TEXT = "#ffffff"
MARKER_FILL = "#f3e9c6"
OTHER_FILL = "#dddddd"


@dataclass(frozen=True)
class Viewer:
    """Whose eyes: a side (its id and roster name), an observer (no side), or everyone (a closed
    game shows every piece to all)."""

    side: str | None = None
    side_name: str | None = None
    sees_all: bool = False

    @property
    def label(self) -> str:
        if self.sees_all:
            return "everyone (the game is closed)"
        return self.side_name or self.side or "an observer"


@dataclass(frozen=True)
class Mask:
    """A Mask trait's settings and state: who masked it (None: not masked), who may see it."""

    obscured_by: str | None
    access: str
    name: str
    image: str = ""  # the picture the masked piece shows those it is hidden from


@dataclass(frozen=True)
class Identity:
    """What a piece is, read from its definition (server side only)."""

    kind: str  # "unit", "marker" or "other"
    name: str  # the piece's own name
    unit: Unit | None = None
    step_index: int | None = None
    marker: MarkerType | None = None
    face: str = ""
    masks: tuple[Mask, ...] = ()

    @property
    def step(self) -> str | None:
        """The step showing ("" when the piece does not say); None for a piece that is no unit."""
        if self.unit is None:
            return None
        steps = self.unit.steps
        index = self.step_index if self.step_index is not None else 0
        return steps[index].name if 0 <= index < len(steps) else ""


@dataclass(frozen=True)
class PieceView:
    """A piece as the viewer sees it: all the browser is told of it."""

    label: str  # the unit id or the marker's (programs: the page's data attributes), or the back's name
    title: str  # longer, for the tooltip and the step's words
    side: str  # side id, "" when not shown
    fill: str
    text: str
    hidden: bool = False
    kind: str = "unit"
    step: str = ""  # the step's name, "" when hidden or not a unit
    image: str = ""  # the module's picture of what the viewer sees (`adjudicator.logs.replay.pictures`), "" for none
    #: What the words and a counter without a picture call it (a unit as its counter reads, a marker
    #: by its name); "" when that is its label (a back).
    name: str = ""

    @property
    def called(self) -> str:
        return self.name or self.label

    def to_json(self) -> dict:
        out = {"l": self.label, "t": self.title, "b": self.fill, "f": self.text, "k": self.kind}
        if self.image:
            out["i"] = self.image
        if self.side:
            out["s"] = self.side
        if self.hidden:
            out["h"] = 1
        if self.step:
            out["st"] = self.step
        if self.name and self.name != self.label:
            out["n"] = self.name  # what the page writes of it: never the id in "l"
        return out


class Identifier:
    """Reads pieces' identities against one game, each definition once."""

    def __init__(self, game: Game):
        self.game = game
        self._names = NameIndex(game)
        self._cache: dict[tuple[str, str], Identity] = {}
        self._by_traits: dict[tuple[str, tuple[str, ...]], Identity] = {}

    def of(self, type_: str, state: str, splits: StateSplits | None = None) -> Identity:
        """What the piece is; `splits`: its file's states split already (`vassalfmt.piece.StateSplits`)."""
        key = (type_, state)
        found = self._cache.get(key)
        if found is None:
            # A piece's state ends with where it stands (its BasicPiece's): a step change sends the
            # whole state, so the same unit at the same step is a new state at every hex. What it is
            # depends on its traits' states only: read once per those.
            traits = (type_, self._trait_states(state, splits))
            found = self._by_traits.get(traits)
            if found is None:
                found = self._by_traits[traits] = self._read(type_, state)
            if len(self._cache) > 50_000:
                self._cache.clear()
                self._by_traits.clear()
            self._cache[key] = found
        return found

    def _trait_states(self, state: str, splits: StateSplits | None) -> tuple[str, ...]:
        """The states of the piece's traits, its BasicPiece's (where it stands) left out."""
        if not state:
            return ()
        try:
            return (splits.of(state) if splits is not None else nested_states(state))[:-1]
        except VassalFormatError:
            return (state,)

    def _read(self, type_: str, state: str) -> Identity:
        try:
            piece = parse_piece(type_, state)
        except VassalFormatError:
            return Identity("other", "(a piece whose definition cannot be read)")
        masks = masks_of(piece)
        identity = identify(self.game, piece, self._names)
        if identity.unit is not None:
            return Identity("unit", piece.name, unit=identity.unit, step_index=identity.step_index, masks=masks)
        if identity.marker:
            return Identity("marker", piece.name, marker=self.game.markers.get(identity.marker), face=identity.face,
                            masks=masks)
        return Identity("other", piece.name, masks=masks)


def masks_of(piece) -> tuple[Mask, ...]:
    """A piece's Mask traits: who masked it, who may see it, and what the others see."""
    return tuple(Mask(t.obscured_by, t.access, t.mask_name,
                      t.others_image if (t.display_style or "")[:1] == "G" and t.others_image else t.image)
                 for t in piece.find(Obscurable))


def mask_hides(mask: Mask, viewer: Viewer, players: dict[str, str]) -> bool:
    """Whether an active mask hides the piece from the viewer (``Obscurable`` and its access)."""
    if mask.obscured_by is None or viewer.sees_all:
        return False
    if viewer.side_name is None:
        return True  # an observer sees no masked piece
    if mask.access.startswith("sides:"):
        return viewer.side_name not in mask.access[len("sides:"):].split(":")
    if mask.access.startswith("side:"):
        return mask.obscured_by != viewer.side_name
    return players.get(mask.obscured_by) != viewer.side_name  # player: the masking player's side


def hidden_from(identity: Identity, where: Where, viewer: Viewer, fog: Fog | None, players: dict[str, str]) -> bool:
    """Whether the viewer may not see what the piece is."""
    if viewer.sees_all:
        return False
    if where.face_down:
        return True
    unit = identity.unit.id if identity.unit else ""
    owner = fog.unit_owner(unit) if fog and unit else None
    active = [m for m in identity.masks if m.obscured_by is not None]
    if active:
        if any(mask_hides(m, viewer, players) for m in active):
            return True
        return owner is not None and hidden_side(fog, unit, owner) is not None  # the rules hide it from its owner too
    if identity.masks:
        return False  # its mask is off: revealed, as on every player's screen
    return bool(unit) and hidden_side(fog, unit, viewer.side) is not None


def view_of(game: Game, identity: Identity, where: Where, hidden: bool) -> PieceView:
    """The piece as the viewer sees it (`hidden`: its back only)."""
    unit = identity.unit
    if hidden:
        mask = next((m for m in identity.masks if m.obscured_by is not None), None)
        back = mask.name if mask else ""
        side = unit.side if unit is not None else (identity.marker.side if identity.marker else "")
        image = back_picture(game, side, mask.image if mask else next((m.image for m in identity.masks), ""))
        if where.face_down:  # the pile shows the back its pieces' mask names (their pool's)
            label = next((m.name for m in identity.masks if m.name), "") or "face down"
            return PieceView(label, f"{label}, face down in {where.pile}", "", HIDDEN_FILL, HIDDEN_TEXT, True, "hidden",
                             image=image)
        side_name = game.sides[side].name if side in game.sides else ""
        label = back or (f"{side_name} unit" if side_name else "hidden")
        return PieceView(label, f"{label} (hidden from you)", side, HIDDEN_FILL, HIDDEN_TEXT, True, "hidden",
                         image=image)
    if unit is not None:
        nat = game.nationalities.get(unit.nationality)
        step = identity.step or ""
        values = next((s.text for s in unit.steps if s.name == step), "")
        full = unit.steps[0].name if unit.steps else ""
        shown = f", {step}" if step and step != full and step != values else ""
        name = UnitNames.of(game.id).name(unit.id)  # the words say it as its counter reads, never by id
        title = f"{identity.name or unit.name or name} ({name}{shown}{', ' + values if values else ''})"
        return PieceView(unit.id, title, unit.side, nat.background if nat else OTHER_FILL,
                         nat.text if nat else "#000000", False, "unit", step, unit_picture(game, unit, step), name)
    if identity.marker is not None:
        marker = identity.marker
        face = f": {identity.face}" if identity.face else ""
        return PieceView(marker.id, f"{marker.name}{face}", marker.side, MARKER_FILL, "#000000", False, "marker",
                         image=marker_picture(game, marker, identity.face), name=marker.name)
    return PieceView(identity.name or "piece", identity.name or "a piece", "", OTHER_FILL, "#000000", False, "other")


@dataclass(frozen=True)
class Place:
    """Where a piece stands in the game's terms: a hex of a map, or a place off the maps."""

    map: str = ""  # GameMap id, for a hex
    hex: str = ""
    off: str = ""  # the place off the hex maps, in words ("" on a hex)
    box: str = ""  # the box it lies in (Box id), on the Boxes map
    track: str = ""  # the player-aid track it stands on (Track id) and its cell there
    cell: str = ""


class Placer:
    """Where pieces stand in the game's terms, each map pixel located once."""

    def __init__(self, game: Game, scale: int, boards: dict[str, str] | None = None):
        self.game = game
        self.scale = scale
        self.boards = boards or {}  # VASSAL map -> the one board it shows (the module's main map)
        self._cache: dict[Where, Place] = {}

    def of(self, where: Where) -> Place:
        found = self._cache.get(where)
        if found is None:
            found = self._cache[where] = self._place(where)
        return found

    def _place(self, where: Where) -> Place:
        game = self.game
        if where.pile:  # a cup's pile is named as its box
            return Place(off=f"pile: {where.pile}", box=next((b.id for b in game.boxes.values() if b.name == where.pile), ""))
        location = locate(game, self.boards.get(where.map, where.map), where.x, where.y, self.scale)
        kind = location.kind
        if kind == HEX:
            return Place(location.map, location.hex)
        if kind == BOX:
            box = game.boxes.get(location.box)
            return Place(off=box.name if box else "the Boxes (off-map boxes)", box=location.box)
        if kind == TRACK:
            track = game.tracks.get(location.track)
            return Place(off=f"{track.name if track else location.track}: {location.cell}", track=location.track,
                         cell=location.cell)
        if kind == TURN_TRACK:
            scenario = game.scenarios.get(location.scenario)
            return Place(off=f"{scenario.name if scenario else 'the'} turn track")
        if kind == OFF_GRID:
            return Place(off=f"{game.maps[location.map].name}, beside the printed hexes")
        if kind == NOT_ON_A_MAP:
            return Place(off="off the board")
        assert kind == UNKNOWN_MAP
        return Place(off=f"window {where.map}")
