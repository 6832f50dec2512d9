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
from vassalfmt import DeckSpec, Piece
from vassalfmt.buildfile import component as el
from vassalfmt.buildfile import new_module, plain, to_bytes

M = "VASSAL.build.module."
MAP = M + "map."
BOARD = MAP + "boardPicker."
GRID = BOARD + "board."
WIDGET = "VASSAL.build.widget."
VASSAL_VERSION = "3.7.26"


def turn_track_map_name(scenario: Scenario) -> str:
    return f"{scenario.name} turn track"


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
    el(node, MAP + "Zoomer", zoomLevels="0.25,0.4,0.5,0.75,1.0,1.5", zoomStart=2)


def hex_grid(board: etree._Element, grid: HexGrid) -> None:
    """HexGrid + HexGridNumbering with exactly the parameters of our geometry."""
    g = el(board, GRID + "HexGrid", sideways=grid.sideways, x0=grid.x0, y0=grid.y0, dx=float(grid.dx),
           dy=float(grid.dy), snapTo=True, edgesLegal=False, cornersLegal=False, visible=False,
           dotsVisible=False, color="0,0,0")
    el(g, GRID + "mapgrid.HexGridNumbering", first=grid.first, sep="", hType="N", hLeading=grid.h_leading,
       hOff=grid.h_off, hDescend=grid.h_descend, vType="N", vLeading=grid.v_leading, vOff=grid.v_off,
       vDescend=grid.v_descend, locationFormat="$gridLocation$", visible=False, fontSize=9,
       color="0,0,0", rotateText=0, hDrawOff=0, vDrawOff=0, stagger=grid.stagger)


def add_game_map(root: etree._Element, game_map: GameMap, image: str, launch: bool,
                 scale: int = 1) -> etree._Element:
    node = el(root, M + "Map", mapName=game_map.name, description=f"{game_map.name} ({game_map.scale} per hex)",
              markMoved="Always", edgeWidth=0, edgeHeight=0, backgroundcolor="255,255,255",
              allowMultiple=False, color="255,0,0", thickness=3, launch=launch, buttonName=game_map.name,
              tooltip=f"Show the {game_map.name} map", onlyReportChangedLocation=True,
              moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
              moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
              createFormat="$pieceName$ created in $location$ *", changeFormat="$message$")
    picker = el(node, MAP + "BoardPicker", title="Choose board",
                addColumnText="Add column", addRowText="Add row", boardPrompt="Select board",
                slotWidth=125, slotHeight=125, slotScale=0.2)
    board = el(picker, BOARD + "Board", name=game_map.name, image=image, reversible=False)
    grid = game_map.board_grid(scale)  # a scanned board's calibrated grid, or the drawn map's
    hex_grid(board, grid)
    _map_components(node)
    add_overview(node, grid.width, grid.height)
    return node


def add_plain_map(root: etree._Element, name: str, image: str, tooltip: str,
                  regions: dict[str, tuple[int, int]]) -> etree._Element:
    """An off-map board (the boxes) in its own window.

    Each box is a named region, so VASSAL reports a piece there as "UN dead
    pile" and pieces snap to the box centres.
    """
    node, board = _off_map_window(root, name, image, tooltip)
    grid = el(board, GRID + "RegionGrid", snapto=True, visible=False, fontsize=9)
    for region, (x, y) in regions.items():
        el(grid, GRID + "Region", name=region, originx=x, originy=y)
    _map_components(node)
    return node


def add_zoned_map(root: etree._Element, name: str, image: str, tooltip: str,
                  zones: dict[str, tuple[int, int, int, int]]) -> etree._Element:
    """An off-map board of cells (a turn track, the player-aid tracks) in its own window.

    Each cell is a rectangular zone (left, top, right, bottom) without a grid of its own:
    VASSAL reports a piece anywhere in it as "Turn 3" or "Victory Point Track 14", and
    pieces stay where they are dropped, so a busy turn's stacks stand side by side.
    """
    node, board = _off_map_window(root, name, image, tooltip)
    grid = el(board, GRID + "ZonedGrid")
    for zone, (left, top, right, bottom) in zones.items():
        el(grid, GRID + "mapgrid.Zone", name=zone, locationFormat="$name$",
           path=f"{left},{top};{right},{top};{right},{bottom};{left},{bottom}",
           useParentGrid=False, useHighlight=False, highlightProperty="")
    _map_components(node)
    return node


def _off_map_window(root: etree._Element, name: str, image: str, tooltip: str):
    """The Map element of an off-map board and its one Board (the caller adds the grid)."""
    node = el(root, M + "Map", mapName=name, description=tooltip, markMoved="Never", edgeWidth=0,
              edgeHeight=0, backgroundcolor="255,255,255", allowMultiple=False, color="255,0,0",
              thickness=3, launch=True, buttonName=name, tooltip=tooltip, onlyReportChangedLocation=True,
              moveWithinFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
              moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
              createFormat="$pieceName$ created in $location$ *", changeFormat="$message$")
    picker = el(node, MAP + "BoardPicker", title="Choose board", addColumnText="Add column",
                addRowText="Add row", boardPrompt="Select board", slotWidth=125, slotHeight=125, slotScale=0.2)
    board = el(picker, BOARD + "Board", name=name, image=image, reversible=False)
    return node, board


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
    """A button per die the game uses; HoldFast's pools ask how many dice."""
    for die in game.dice:
        sides = int(die.lstrip("dD"))
        el(root, M + "DiceButton", name=f"1{die}", text=f"1{die}", tooltip=f"Roll one {die}",
           nDice=1, nSides=sides, plus=0, addToTotal=0, keepDice=1, keepOption=">", keepCount=1,
           reportTotal=False, sortDice=False, prompt=False,
           reportFormat="** $name$ = $result$ *** <$playerName$>")
    if game.id == "holdfast":
        el(root, M + "DiceButton", name="Dice pool", text="Dice pool", tooltip="Roll a pool of d6 (asks how many)",
           nDice=4, nSides=6, plus=0, addToTotal=0, keepDice=1, keepOption=">", keepCount=1,
           reportTotal=False, sortDice=True, prompt=True,
           reportFormat="** $name$ ($nDice$d6) = $result$ *** <$playerName$>")


def add_turn_trackers(root: etree._Element, game: Game) -> None:
    """One tracker per scenario (its turns with dates), each with the game's phases."""
    names = []
    for scenario in game.scenarios.values():
        name = f"{scenario.name} turn"
        names.append(name)
        tracker = el(root, M + "turn.TurnTracker", name=name, description=f"Turns of {scenario.name}",
                     buttonText=f"{scenario.name} turn", turnFormat="$level1$ $level2$",
                     reportFormat="<$playerName$> Turn: $newTurn$", tooltip=f"Turn tracker, {scenario.name}",
                     lengthStyle="Maximum", length=-1, plusButtonSize=22, turnButtonHeight=22, fwdOnly=False)
        turns = ",".join(_list_item(f"Turn {t.number} ({t.date})" if t.date else f"Turn {t.number}")
                         for t in scenario.turns)
        level = el(tracker, M + "turn.ListTurnLevel", name="Turn", property="Turn", turnFormat="$value$",
                   list=turns, configList=False, configFirst=False, prompt="")
        if game.phases:
            el(level, M + "turn.ListTurnLevel", name="Phase", property="Phase", turnFormat="$value$",
               list=",".join(_list_item(p) for p in game.phases), configList=False, configFirst=False, prompt="")
    if len(names) > 1:
        add_toolbar_menu(root, "Turn", "Turn trackers of each scenario", [f"{n}" for n in names])


def add_toolbar_menu(root: etree._Element, text: str, tooltip: str, button_texts: list[str]) -> None:
    """Folds toolbar buttons (by their text) into one drop-down."""
    el(root, M + "ToolbarMenu", text=text, tooltip=tooltip, description=tooltip,
       menuItems=",".join(_list_item(n) for n in button_texts))


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

