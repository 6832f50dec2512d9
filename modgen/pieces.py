"""Game pieces: a scenario unit or marker as a VASSAL piece definition.

Each unit is a chain of traits (outermost first), sharing behaviour through
one-level prototypes:

  side prototype         Side marker, eliminate (send to the side's dead pile),
                         delete, clone, mark moved, report-to-chat of step
                         changes and eliminations
  nationality prototype  Nationality marker
  arm prototype          UnitType / Symbol markers
  the unit itself        ZOC highlight (games with ZOCs), the "Step" layer (one
                         image per printed step, step-loss and restore
                         commands), Marker properties that identify the unit to
                         software, a calculated "Values" property, BasicPiece

Block games (HoldFast) put a Mask on every unit, outside everything but a
guard on its key: blocks stand upright facing their owner, so the other side
sees only the block's back (``block_mask``, ``modgen.pools.owner_only_reveal``).
The pieces of a cup or random pool carry its mask instead (``modgen.pools``);
a sealed pool's placeholders (KWB's '? 4' scratch units) carry none: they are
all alike, and the adjudicator settles which counter each one is.

The Marker properties are what ``adjudicator``'s saved-game bridge reads:
UnitId, Side, Nationality, UnitType, Size, Designation, StepNames and
StepValues; the layer's level (``Step_Level``) tells which step is showing. StepCommands
names the layer's two commands (``Unit.step_commands``), which the extension issues.
"""

from __future__ import annotations

from dataclasses import dataclass

from art.render import block_back_image_name
from scenarios.boxboard import counters_box, dead_pile
from scenarios.model import Game, MarkerType, Side, Unit
from vassalfmt import (
    AreaOfEffect,
    BasicPiece,
    CalculatedProperty,
    Clone,
    Delete,
    Embellishment,
    Marker,
    MovementMarkable,
    Obscurable,
    Piece,
    ReportState,
    SendToLocation,
    UsePrototype,
    access_sides,
    key,
)
from modgen.pools import HIDE, owner_only_reveal

# Plain key strokes, not named commands: the engine gives named commands key
# codes in the order it first meets their names, so a named stroke never
# reads back the way it was written.  Menu texts come from each trait.
FLIP = key("Ctrl+F")
RESTORE = key("Ctrl+R")
ELIMINATE = key("Ctrl+E")
SET_ASIDE = key("Ctrl+B")
DELETE = key("DELETE")
CLONE = key("Ctrl+C")
MOVED = key("Ctrl+M")
ZOC = key("Ctrl+Z")

STEP_LAYER = "Step"
FACE_LAYER = "Face"
BOXES_MAP = "Boxes"
TRACKS_MAP = "Tracks"

# Games whose rules give units zones of control (a ZOC highlight is offered).
GAMES_WITH_ZOC = {"kwb", "spi", "holdfast", "fireandice"}

# Games whose units are blocks standing upright facing their owner (fog of
# war): each unit is masked from the other side (``block_mask``).
GAMES_WITH_BLOCKS = {"holdfast"}

# The mask's state after the owning side: the engine's ObscurableOptions as it
# encodes them (override "|" count of allowed ids) when the module's
# GlobalOptions say nonOwnerUnmaskable="Never" (``allowNone``: override false,
# nobody else may unmask).  The engine writes exactly this when a player masks
# a piece, so a setup block reads back unchanged.
MASK_OPTIONS = "false|0"


@dataclass(frozen=True)
class Prototype:
    name: str
    piece: Piece
    description: str = ""


def side_prototype_name(game: Game, side: str) -> str:
    return f"{game.sides[side].name} side"


def nationality_prototype_name(game: Game, nationality: str) -> str:
    return f"{game.nationalities[nationality].name} nationality"


def arm_prototype_name(game: Game, unit_type: str) -> str:
    return f"{game.unit_types[unit_type].name} arm"


def step_label(game: Game, step_index: int, step_name: str) -> str:
    """Layer level name: the first step keeps the piece name, later ones add a suffix."""
    return "" if step_index == 0 else f"+ ({step_name})"


def unit_piece_name(game: Game, unit: Unit) -> str:
    """What chat reports and the inventory call the unit: its long name with the
    nationality ("NK 6th Infantry Division"), or designation, arm and size."""
    nat = game.nationalities[unit.nationality]
    prefix = nat.letter or nat.id.upper()
    if unit.name:
        return unit.name if unit.name.startswith(prefix) else f"{prefix} {unit.name}"
    arm = game.unit_types[unit.type].name
    return " ".join(p for p in (prefix, unit.designation, arm, unit.size) if p)


def block_reports(game: Game, side: Side) -> list[ReportState]:
    """What the chat says when a block's owner changes it: no more than the fog of war lets the
    opponent read ("A UN block in 0520 lost a step"). The report is written on the owner's screen,
    where the piece's name is his (the block, its strength): both players' chats and logs get that
    text, so a block's report names only its side, what it is and where."""
    label = side.name.split(" (")[0]  # "UN (ROK, US and UN)" -> "UN"
    block = f"A {label} block"
    return [
        ReportState(keys=[FLIP], report_format=f"* {block} in $location$ lost a step",
                    description="report a step lost (the block not named: fog of war)"),
        ReportState(keys=[RESTORE], report_format=f"* {block} in $location$ regained a step",
                    description="report a step restored (the block not named: fog of war)"),
        ReportState(keys=[ELIMINATE, SET_ASIDE], report_format=f"* $menuCommand$: a {label} block, to $location$",
                    description="report an elimination or a counter set aside (the block not named: fog of war)"),
    ]


def build_prototypes(game: Game, box_centres: dict[str, tuple[int, int]]) -> list[Prototype]:
    """One prototype per side, per nationality and per arm (none nests another)."""
    protos: list[Prototype] = []
    for side in game.sides.values():
        traits: list = block_reports(game, side) if game.id in GAMES_WITH_BLOCKS else [
            ReportState(keys=[FLIP, RESTORE, ELIMINATE, SET_ASIDE],
                        report_format="* $menuCommand$: $oldPieceName$ -> $newPieceName$ ($location$)",
                        description="report step changes, eliminations and counters set aside"),
        ]
        box = dead_pile(game, side.id)
        if box is not None and box.id in box_centres:
            x, y = box_centres[box.id]
            traits.append(SendToLocation(command_name="Eliminate", key=ELIMINATE, map_id=BOXES_MAP,
                                         x=str(x), y=str(y), description=f"to {box.name}"))
        aside = counters_box(game, side.id)
        if aside is not None and aside.id in box_centres:  # a breakdown's or recombination's counter off the map
            x, y = box_centres[aside.id]
            traits.append(SendToLocation(command_name="Set aside", key=SET_ASIDE, map_id=BOXES_MAP,
                                         x=str(x), y=str(y), description=f"to {aside.name}"))
        traits += [
            Delete(command_name="Delete", key=DELETE),
            Clone(command_name="Clone", key=CLONE),
            MovementMarkable(command="Mark moved", key=MOVED),
            Marker.of(Side=side.name, SideId=side.id),
            BasicPiece(),
        ]
        protos.append(Prototype(side_prototype_name(game, side.id), Piece(traits), f"{side.name} units"))
    for nat in game.nationalities.values():
        protos.append(Prototype(nationality_prototype_name(game, nat.id),
                                Piece([Marker.of(Nationality=nat.name, NationalityId=nat.id), BasicPiece()])))
    for utype in game.unit_types.values():
        protos.append(Prototype(arm_prototype_name(game, utype.id),
                                Piece([Marker.of(UnitType=utype.name, Symbol=utype.symbol), BasicPiece()])))
    return protos


def block_mask(game: Game, unit: Unit, *, hidden: bool = True) -> Obscurable:
    """The fog-of-war Mask of a block: only the owning side sees the label.

    Access is "only the owning side" (``sides:<side>``, the engine's
    SpecifiedSideAccess).  The engine then records the masking side's roster
    name, not a player id, so a block can be placed already hidden before
    anybody has claimed the side, and whoever plays that side later sees it.
    Only that side may reveal or hide it: with "any side" (``side:``) the
    opponent could mask a revealed enemy block to himself and blind its owner.
    The opponent (and an observer) sees ``block_back_image_name`` and the
    name "<side> block"; the owner sees the label with a small back in the
    corner (inset style), meaning "hidden from the opponent".  Reveal/Hide
    (Ctrl+H) toggles it.
    """
    side = game.sides[unit.side]
    return Obscurable(
        key=HIDE,
        image=block_back_image_name(game, unit.side),
        hide_command="Reveal/Hide",
        display_style="I",
        mask_name=f"{side.name} block",
        access=access_sides([side.name]),
        description="fog of war: the opponent sees the block's back",
        obscured_by=side.name if hidden else None,
        options=MASK_OPTIONS if hidden else "",
    )


def values_expression(unit: Unit, *, masked: bool = False) -> str:
    """BeanShell expression giving the printed values of the step showing.

    ``masked`` (block games): "?" to a player the block is hidden from.  The
    engine's mask hides names and images but not properties (Obscurable's
    getProperty passes through), and the Inventory window prints this
    property for every unit; the engine evaluates it on the viewer's own
    client, with ``Obscured`` (the engine's "obscured to me") as that viewer
    sees the block.
    """
    expr = f'"{unit.steps[-1].text}"'
    for index in range(len(unit.steps) - 2, -1, -1):
        expr = f'({STEP_LAYER}_Level=={index + 1}?"{unit.steps[index].text}":{expr})'
    if masked:
        expr = f'(Obscured==true?"?":{expr})'
    return "{" + expr + "}"


def unit_piece(game: Game, unit: Unit, step_images: list[str], *, step: int = 0,
               gpid: str = "", map_id: str | None = None, x: int = 0, y: int = 0,
               hidden: bool = True, pool_traits: list | None = None) -> Piece:
    """The piece for one unit, showing ``step`` (0-based) at an optional position.

    In a block game the unit starts ``hidden`` from the other side (a block
    placed on the map, from the palette or by a setup, faces its owner).  A
    unit drawn from a pool carries that pool's ``pool_traits`` (its mask).
    """
    traits: list = list(pool_traits or [])
    if game.id in GAMES_WITH_BLOCKS:
        traits += [owner_only_reveal(game.sides[unit.side].name), block_mask(game, unit, hidden=hidden)]
    traits += [
        UsePrototype(side_prototype_name(game, unit.side)),
        UsePrototype(nationality_prototype_name(game, unit.nationality)),
        UsePrototype(arm_prototype_name(game, unit.type)),
    ]
    if game.id in GAMES_WITH_ZOC and not unit.has("no_zoc"):
        traits.append(AreaOfEffect(color=(200, 40, 40), transparency=35, radius=1, always_active=False,
                                   activate_command="Show ZOC", activate_key=ZOC, name="ZOC",
                                   description="zone of control highlight"))
    several = len(step_images) > 1
    traits.append(Embellishment(
        name=STEP_LAYER,
        image_names=list(step_images),
        level_names=[step_label(game, i, s.name) for i, s in enumerate(unit.steps)],
        always_active=True,
        loop_levels=len(step_images) == 2,
        increase_keystroke=FLIP if several else None,
        up_command=unit.step_commands[0] if several else "",
        decrease_keystroke=RESTORE if several else None,
        down_command=unit.step_commands[1] if several else "",
        version=1,
        description="printed steps",
        level=step + 1,
    ))
    traits.append(Marker.of(
        Game=game.id,
        UnitId=unit.id,
        Designation=unit.designation,
        Size=unit.size,
        StepNames="|".join(s.name for s in unit.steps),
        StepValues="|".join(s.text for s in unit.steps),
        StepCommands="|".join(unit.step_commands),
        Flags=" ".join(sorted(unit.flags)),
    ))
    masked = game.id in GAMES_WITH_BLOCKS or bool(pool_traits)
    traits.append(CalculatedProperty(name="Values", expression=values_expression(unit, masked=masked),
                                     description="printed values of the step showing"))
    traits.append(BasicPiece(image="", name=unit_piece_name(game, unit), map_id=map_id, x=x, y=y, gpid=gpid))
    return Piece(traits)


def marker_piece(game: Game, marker: MarkerType, face_images: list[str], *, face: int = 0,
                 gpid: str = "", map_id: str | None = None, x: int = 0, y: int = 0,
                 pool_traits: list | None = None) -> Piece:
    """The piece for a marker: its faces as a layer, flip, delete, clone.

    A marker drawn from a pool carries the pool's ``pool_traits`` (its mask) and
    reports no flips: a report names the faces, which would tell a hidden value.
    """
    traits: list = list(pool_traits or [])
    several = len(face_images) > 1
    if several and not pool_traits:
        traits.append(ReportState(keys=[FLIP], report_format="* $oldPieceName$ -> $newPieceName$ ($location$)",
                                  description="report flips"))
    traits.append(Embellishment(
        name=FACE_LAYER,
        image_names=list(face_images),
        level_names=["" if i == 0 else f"+ ({f})" for i, f in enumerate(marker.faces)][: len(face_images)],
        always_active=True,
        loop_levels=True,
        increase_keystroke=FLIP if several else None,
        up_command="Flip" if several else "",
        version=1,
        description="faces",
        level=face + 1,
    ))
    traits += [
        Delete(command_name="Delete", key=DELETE),
        Clone(command_name="Clone", key=CLONE),
        Marker.of(Game=game.id, MarkerId=marker.id, Side=game.sides[marker.side].name if marker.side else "",
                  Kind=marker.kind),
        BasicPiece(image="", name=marker.name, map_id=map_id, x=x, y=y, gpid=gpid),
    ]
    return Piece(traits)
