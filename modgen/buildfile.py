"""buildFile.xml: the module's component tree, written with lxml.

Element names are the engine's Java class names; attribute names come from
the engine's own table (``vassalfmt`` checks them).  Each function below adds
one kind of component, so the tree reads top to bottom like the module's
toolbar: maps, palette, prototypes, dice, turn trackers, charts, inventory,
setups, help.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from modgen import extension
from modgen.images import ModuleImages
from modgen.pieces import Prototype
from scenarios.hexgrid import HexGrid
from scenarios.model import Game, GameMap, Scenario, Track
from vassalfmt import BoardPlacement, DeckSpec, Piece, named
from vassalfmt.buildfile import component as el
from vassalfmt.buildfile import new_module, plain, to_bytes
from vassalfmt.commands import board_command

M = "VASSAL.build.module."
MAP = M + "map."
BOARD = MAP + "boardPicker."
GRID = BOARD + "board."
WIDGET = "VASSAL.build.widget."
VASSAL_VERSION = "3.7.26"


#: The main window's map when a game has several maps (each setup picks its scenario's board).
MAIN_MAP = "Map"
#: The turn track window when a game has several scenarios (each setup picks its scenario's track).
TURN_TRACK_MAP = "Turn track"
#: The game's one turn tracker: a top level per scenario, the setup shows its scenario's.
TURN_TRACKER = "Turn"
TURN_TRACKER_ID = "TurnTracker0"
ZOOM_LEVELS = (0.25, 0.4, 0.5, 0.75, 1.0, 1.5)
#: Global properties each setup sets: where the main map's view opens (map pixels) and its zoom.
VIEW_X, VIEW_Y, VIEW_ZOOM = "StartViewX", "StartViewY", "StartViewZoom"
START_VIEW_KEY = named("Scenario view")


def main_map_name(game: Game) -> str:
    """The main map keeps a one-map game's map name (saved games name it on every piece)."""
    return next(iter(game.maps.values())).name if len(game.maps) == 1 else MAIN_MAP


def turn_track_board_name(scenario: Scenario) -> str:
    return f"{scenario.name} turn track"


def turn_track_map_name(game: Game) -> str:
    """A one-scenario game's turn track window keeps its scenario's name."""
    if len(game.scenarios) == 1:
        return turn_track_board_name(game.default_scenario)
    return TURN_TRACK_MAP


def track_cell_name(track: Track, cell: str) -> str:
    """A player-aid track cell's location name: "Victory Point Track 14"."""
    return f"{track.name} {cell}"


@dataclass(frozen=True)
class PaletteEntry:
    """One PieceSlot: where it goes in the palette and what it holds."""

    tab: str
    name: str
    gpid: str
    piece: Piece


def module_root(game: Game, version: str, next_gpid: int) -> etree._Element:
    root = new_module(game.name, version=version, description=game.description or game.name,
                      vassal_version=VASSAL_VERSION, next_piece_slot_id=next_gpid,
                      ModuleOther1="", ModuleOther2="")
    el(root, M + "BasicCommandEncoder")
    return root


def add_basics(root: etree._Element, game: Game, help_file: str) -> None:
    doc = el(root, M + "Documentation")
    el(doc, M + "documentation.HelpFile", title=f"{game.name}: module help", fileName=help_file, fileType="archive")
    roster = el(root, M + "PlayerRoster", buttonText="Retire", buttonToolTip="Switch sides, become observer",
                description="Player sides")
    for side in game.sides.values():
        plain(roster, "entry", side.name)
    el(root, M + "GlobalOptions", autoReport="Always", chatterHTMLSupport="Never", nonOwnerUnmaskable="Never",
       promptString="Opponents can unmask pieces", playerIdFormat="$PlayerName$",
       hotKeysOnClosedWindows="Never", inventoryForAll="Always", sendToLocationMoveTrails="Never",
       storeLeadingZeroIntegersAsStrings=True)
    el(root, M + "Chatter")
    el(root, M + "KeyNamer")


def _map_components(node: etree._Element) -> None:
    """The components that make pieces movable, selectable and right-clickable."""
    el(node, MAP + "StackMetrics", bottom="40,0", color="255,255,255", disabled=False, down="38,0",
       exSepX=12, exSepY=12, top="38,0", unexSepX=4, unexSepY=4, up="40,0")
    for name in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                 "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver"):
        el(node, MAP + name)
    el(node, MAP + "CounterDetailViewer", version=4, delay=700, hotkey="", bgColor="255,255,255",
       fgColor="0,0,0", minDisplayPieces=1, zoomlevel=1.0, showgraph=True, showgraphsingle=True,
       showtext=True, showtextsingle=True, fontSize=11, display="from top-most layer only",
       summaryReportFormat="$LocationName$", counterReportFormat="$Values$")
    el(node, MAP + "SelectionHighlighters")
    el(node, MAP + "HighlightLastMoved", color="255,0,0", enabled=True, thickness=2)
    el(node, MAP + "Zoomer", zoomLevels=",".join(map(str, ZOOM_LEVELS)),
       zoomStart=len(ZOOM_LEVELS) - ZOOM_LEVELS.index(1.0))


def hex_grid(board: etree._Element, grid: HexGrid) -> None:
    """HexGrid + HexGridNumbering with exactly the parameters of our geometry."""
    g = el(board, GRID + "HexGrid", sideways=grid.sideways, x0=grid.x0, y0=grid.y0, dx=float(grid.dx),
           dy=float(grid.dy), snapTo=True, edgesLegal=False, cornersLegal=False, visible=False,
           dotsVisible=False, color="0,0,0")
    el(g, GRID + "mapgrid.HexGridNumbering", first=grid.first, sep="", hType="N", hLeading=grid.h_leading,
       hOff=grid.h_off, hDescend=grid.h_descend, vType="N", vLeading=grid.v_leading, vOff=grid.v_off,
       vDescend=grid.v_descend, locationFormat="$gridLocation$", visible=False, fontSize=9,
       color="0,0,0", rotateText=0, hDrawOff=0, vDrawOff=0, stagger=grid.stagger)


def add_main_map(root: etree._Element, name: str, description: str, boards: list[tuple[GameMap, str]],
                 scale: int = 1) -> etree._Element:
    """The map in the main window, a board per game map (with its image): a scenario's setup
    picks its own board, a game started without a setup shows the first."""
    node = _map_window(root, name, description, launch=False, mark_moved="Always")
    picker = _board_picker(node, name, [game_map.name for game_map, _ in boards])
    grids = []
    for game_map, image in boards:
        board = el(picker, BOARD + "Board", name=game_map.name, image=image, reversible=False)
        grid = game_map.board_grid(scale)  # a scanned board's calibrated grid, or the drawn map's
        hex_grid(board, grid)
        grids.append(grid)
    _map_components(node)
    add_overview(node, max(g.width for g in grids), max(g.height for g in grids))
    return node


def add_plain_map(root: etree._Element, name: str, image: str, tooltip: str,
                  regions: dict[str, tuple[int, int]]) -> etree._Element:
    """An off-map board (the boxes) in its own window.

    Each box is a named region, so VASSAL reports a piece there as "UN dead
    pile" and pieces snap to the box centres.
    """
    node = _map_window(root, name, tooltip, launch=True, mark_moved="Never")
    board = el(_board_picker(node, name, [name]), BOARD + "Board", name=name, image=image, reversible=False)
    grid = el(board, GRID + "RegionGrid", snapto=True, visible=False, fontsize=9)
    for region, (x, y) in regions.items():
        el(grid, GRID + "Region", name=region, originx=x, originy=y)
    _map_components(node)
    return node


@dataclass(frozen=True)
class ZonedBoard:
    """A board of cells: its name, image and each cell's rectangle (left, top, right, bottom)."""

    name: str
    image: str
    zones: dict[str, tuple[int, int, int, int]]


def add_zoned_map(root: etree._Element, name: str, tooltip: str, boards: list[ZonedBoard]) -> etree._Element:
    """An off-map window of cells (the turn track, the player-aid tracks), a board each (a
    scenario's setup picks its own; a game started without one shows the first).

    Each cell is a rectangular zone without a grid of its own: VASSAL reports a piece anywhere
    in it as "Turn 3" or "Victory Point Track 14", and pieces stay where they are dropped, so
    a busy turn's stacks stand side by side.
    """
    node = _map_window(root, name, tooltip, launch=True, mark_moved="Never")
    picker = _board_picker(node, name, [b.name for b in boards])
    for zoned in boards:
        board = el(picker, BOARD + "Board", name=zoned.name, image=zoned.image, reversible=False)
        grid = el(board, GRID + "ZonedGrid")
        for zone, (left, top, right, bottom) in zoned.zones.items():
            el(grid, GRID + "mapgrid.Zone", name=zone, locationFormat="$name$",
               path=f"{left},{top};{right},{top};{right},{bottom};{left},{bottom}",
               useParentGrid=False, useHighlight=False, highlightProperty="")
    _map_components(node)
    return node


def _map_window(root: etree._Element, name: str, tooltip: str, launch: bool, mark_moved: str) -> etree._Element:
    """A Map element: in the main window (``launch`` False) or its own window behind a button."""
    return el(root, M + "Map", mapName=name, description=tooltip, markMoved=mark_moved, edgeWidth=0,
              edgeHeight=0, backgroundcolor="255,255,255", allowMultiple=False, color="255,0,0",
              thickness=3, launch=launch, buttonName=name if launch else "", tooltip=tooltip if launch else "",
              onlyReportChangedLocation=True,
              moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
              moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
              createFormat="$pieceName$ created in $location$ *", changeFormat="$message$")


def _board_picker(node: etree._Element, map_name: str, board_names: list[str]) -> etree._Element:
    """The map's BoardPicker; with several boards its default layout is the first board alone
    (so a new game never asks, and each setup's saved layout picks its own)."""
    picker = el(node, MAP + "BoardPicker", title="Choose board", addColumnText="Add column",
                addRowText="Add row", boardPrompt="Select board", slotWidth=125, slotHeight=125, slotScale=0.2)
    if len(board_names) > 1:
        plain(picker, "setup", board_command(map_name, [BoardPlacement(board_names[0])]))
    return picker


def add_start_view(root: etree._Element, main_map: etree._Element, x: int, y: int, zoom: float) -> None:
    """The main map opens on the scenario's units: a "Scenario view" button on its toolbar
    moves the view to the point and zoom held in three global properties (each setup sets its
    scenario's; these initial values are a new game's), and a startup command presses it as
    every game starts or loads (a local view change, not sent to the opponent)."""
    props = el(root, M + "properties.GlobalProperties")
    for name, value, what in ((VIEW_X, x, "x"), (VIEW_Y, y, "y"), (VIEW_ZOOM, zoom, "zoom")):
        el(props, M + "properties.GlobalProperty", name=name, initialValue=str(value), isNumeric=False,
           min="", max="", wrap=False, description=f"the scenario's opening view of the main map: {what}")
    el(main_map, MAP + "MoveCameraButton", text="Scenario view", hotkey=START_VIEW_KEY,
       tooltip="Zoom and scroll to where the scenario's units stand (as the game opened)", icon="",
       moveCameraMode="L", boardName="", xPos=f"${VIEW_X}$", yPos=f"${VIEW_Y}$", zoom=f"${VIEW_ZOOM}$",
       xOffset="0", yOffset="0", gridLocation="", zoneName="", regionName="", propertyFilter="")
    el(root, M + "StartupGlobalKeyCommand", name="Open on the scenario's units", buttonText="", tooltip="",
       icon="", whenToApply="everyLaunchOfSession", hotkeyOrKeyCommand="sendHotkey",
       globalHotkey=START_VIEW_KEY, reportFormat="")


def add_draw_piles(game_map: etree._Element, piles: list[tuple[DeckSpec, int, int]]) -> None:
    """A DrawPile (a cup) per spec, centred on (x, y) of the map; its contents come from
    the setups (a deck in each saved game), so the piles start empty in a new game."""
    for spec, x, y in piles:
        el(game_map, MAP + "DrawPile", **spec.drawpile_attributes(x=x, y=y))


#: Maps wider or taller than this (in pixels) get an overview window.
OVERVIEW_ABOVE = 2500
OVERVIEW_WIDTH = 320


def add_overview(game_map: etree._Element, width: int, height: int) -> None:
    """VASSAL's overview window (GlobalMap): the whole map small, the view's frame on it,
    click to move there; for maps too big to take in at once."""
    if max(width, height) <= OVERVIEW_ABOVE:
        return
    scale = round(OVERVIEW_WIDTH / width, 3)
    el(game_map, MAP + "GlobalMap", buttonText="Overview", tooltip="Show or hide the overview window",
       icon="/images/overview.gif", hotkey="", scale=scale, color="255,0,0")


def add_palette(root: etree._Element, entries: list[PaletteEntry]) -> None:
    """A piece palette with a tab per side/nationality and one for markers."""
    window = el(root, M + "PieceWindow", name="Counters", description="All units and markers",
                hidden=False, text="Counters", tooltip="Show the counter palette", scale=1.0)
    tabs = el(window, WIDGET + "TabWidget", entryName="Counters", description="by side and nationality")
    panels: dict[str, etree._Element] = {}
    for entry in entries:
        if entry.tab not in panels:
            panels[entry.tab] = el(tabs, WIDGET + "PanelWidget", entryName=entry.tab, description="",
                                   fixed=False, nColumns=8, vert=False, scale=1.0)
        el(panels[entry.tab], WIDGET + "PieceSlot", entry.piece.add_piece_command(None),
           entryName=entry.name, gpid=entry.gpid, height=0, width=0)


def add_prototypes(root: etree._Element, prototypes: list[Prototype]) -> None:
    container = el(root, M + "PrototypesContainer")
    for proto in prototypes:
        el(container, M + "PrototypeDefinition", proto.piece.add_piece_command(None),
           name=proto.name, description=proto.description)


def add_dice(root: etree._Element, game: Game) -> None:
    """A button per roll the game's players make (game.toml ``[[roll]]``), labelled with its
    dice, its tooltip saying what the rules roll it for; a pool whose size changes (``ask``)
    asks for the number of dice only, and reports the dice it rolled, sorted."""
    for roll in game.rolls:
        what = f": {roll.uses}" if roll.uses else ""
        if roll.ask:
            tooltip = f"Roll a pool of d{roll.sides} (asks how many, {roll.count} first){what}"
            report = "** $name$: $nDice$d$nSides$ = $result$ *** <$playerName$>"
        else:
            tooltip = f"Roll {roll.dice}{what}"
            report = ("** $name$ = $result$ *** <$playerName$>" if roll.name == roll.dice
                      else f"** $name$ ({roll.dice}) = $result$ *** <$playerName$>")
        el(root, M + "DiceButton", name=roll.name, text=roll.name, tooltip=tooltip, nDice=roll.count,
           nSides=roll.sides, plus=0, addToTotal=0, keepDice=False, keepOption=">", keepCount=1,
           reportTotal=False, sortDice=roll.ask, prompt=roll.ask, lockDice=False, lockSides=True,
           lockPlus=True, lockAdd=True, reportFormat=report)


def add_turn_tracker(root: etree._Element, game: Game) -> None:
    """The game's turn tracker: a top level per scenario (its turns with dates), each with the
    game's phases. A setup shows its scenario's level with only its turns in play, so the
    button reads the turn of the scenario being played and Next never leaves it."""
    tracker = el(root, M + "turn.TurnTracker", name=TURN_TRACKER, description="The game turn and phase",
                 buttonText=TURN_TRACKER, turnFormat="$level1$ $level2$",
                 reportFormat="<$playerName$> Turn: $newTurn$", tooltip="The game turn and phase",
                 lengthStyle="Maximum", length=-1, plusButtonSize=22, turnButtonHeight=22, fwdOnly=False)
    for scenario in game.scenarios.values():
        turns = ",".join(_list_item(f"Turn {t.number} ({t.date})" if t.date else f"Turn {t.number}")
                         for t in scenario.turns)
        level = el(tracker, M + "turn.ListTurnLevel", name=scenario.name, property="Turn", turnFormat="$value$",
                   list=turns, configList=False, configFirst=False, prompt="")
        if game.phases:
            el(level, M + "turn.ListTurnLevel", name="Phase", property="Phase", turnFormat="$value$",
               list=",".join(_list_item(p) for p in game.phases), configList=False, configFirst=False, prompt="")


def _list_item(text: str) -> str:
    """A comma-list item as VASSAL's string-array encoding escapes it."""
    return text.replace("\\", "\\\\").replace(",", "\\,")


def add_charts(root: etree._Element, game: Game, images: ModuleImages) -> None:
    if not images.charts:
        return
    window = el(root, M + "ChartWindow", name="Charts", description="Charts and tables", text="Charts",
                tooltip="Charts and tables")
    tabs = el(window, WIDGET + "TabWidget", entryName="Charts", description="")
    for table_id, image in images.charts.items():
        table = game.tables[table_id]
        el(tabs, WIDGET + "Chart", chartName=table.name, description=str(table.source), fileName=image)


def add_inventory(root: etree._Element) -> None:
    el(root, M + "Inventory", name="Inventory", text="Inventory", tooltip="Units by side and location",
       include="{UnitId!=\"\"}", groupBy="Side,Nationality", nonLeafFormat="$PropertyValue$",
       leafFormat="$PieceName$ [$Values$] $LocationName$", foldersOnly=False, sortPieces=True,
       sortFormat="$PieceName$", centerOnPiece=True, forwardKeystroke=True, showMenu=True,
       drawPieces=True, zoomOn=False, pieceZoom=0.33, pieceZoom2=0.5, pieceZoom3=0.6)


def add_notes(root: etree._Element) -> None:
    """VASSAL's notes window: the scenario's notes (each setup writes its scenario's), public
    notes, private notes and delayed notes (revealed later): what PBEM players write between
    turns, saved with the game."""
    el(root, M + "NotesWindow", buttonText="Notes", description="Notes",
       tooltip="Notes: the scenario's, public, private and delayed (saved with the game)")


def add_setups(root: etree._Element, setups: list[tuple[Scenario, str]]) -> None:
    for scenario, file_name in setups:
        el(root, M + "PredefinedSetup", name=scenario.name, description=scenario.description or scenario.name,
           isMenu=False, useFile=True, file=file_name)


def add_adjudicator(root: etree._Element, game: Game) -> None:
    """The Adjudicator extension's element (its classes are packed by modgen.build; see
    docs/vassal-extension.md). Last, so its toolbar menu comes after the module's own buttons.
    A plain lxml element: the class is the module's own, not in the engine's name table."""
    etree.SubElement(root, extension.COMPONENT_CLASS, extension.component_attributes(game))


def serialize(root: etree._Element) -> bytes:
    return to_bytes(root)

