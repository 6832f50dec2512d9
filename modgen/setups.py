"""Predefined setups: each scenario as a saved game with every unit and marker in place.

Starting units stand on their setup hex (or off-map box) showing their starting step;
markers stand on their track cell (``track:vp:14``) or turn (``turn:1``); reinforcements wait
on the turn track in the cell of the turn they arrive, in stacks of at most
``art.maps.STACK_DEPTH`` side by side; what a cup or random pool holds lies in its draw pile,
shuffled and face down.  Beyond its pieces a setup carries what the scenario shows: its own
board on the main map and the turn track window, its turns on the turn tracker, the view the
main map opens on, and its notes.  The save ends with VASSAL's "not a new game" marker so that
the engine does not place at-start stacks on top.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from art.maps import STACK_DEPTH
from modgen import extension
from modgen.buildfile import (
    TURN_TRACKER_ID,
    VIEW_X,
    VIEW_Y,
    VIEW_ZOOM,
    main_map_name,
    turn_track_board_name,
    turn_track_map_name,
)
from modgen.images import ModuleImages
from modgen.pieces import BOXES_MAP, marker_piece, unit_piece
from modgen.places import Spot, locate
from modgen.pools import PoolPlan, deck_spec
from modgen.view import start_view
from scenarios.model import Game, Placement, Scenario
from scenarios.pools import MARKER_PREFIX, laid_faces, shown_contents
from vassalfmt import BoardPlacement, ModuleData, Piece, SavedGameWriter
from vassalfmt.commands import board_command
from vassalfmt.state import ListLevelState, global_property_command, scenario_notes_command, turn_tracker_command


@dataclass
class SetupReport:
    placed: int = 0
    waiting: int = 0
    pooled: int = 0
    problems: list[str] = field(default_factory=list)


class TurnCells:
    """Hands out places in a scenario's turn-track cells: each turn's pieces fill its slots
    in order, ``STACK_DEPTH`` to a slot (the layout made the cells big enough for the
    busiest turn)."""

    def __init__(self, game: Game, scenario: Scenario, images: ModuleImages) -> None:
        self.map_name = turn_track_map_name(game)
        track = images.turn_tracks.get(scenario.id)
        self.slots = track.slots if track else {}
        self.used: dict[int, int] = {}

    def next_spot(self, turn: int) -> Spot | None:
        slots = self.slots.get(turn)
        if not slots:
            return None
        n = self.used.get(turn, 0)
        self.used[turn] = n + 1
        x, y = slots[min(n // STACK_DEPTH, len(slots) - 1)]
        return Spot(self.map_name, x, y)


def step_index(game: Game, unit_id: str, step: str) -> int:
    unit = game.units[unit_id]
    if not step:
        return 0
    return [s.name for s in unit.steps].index(step)


def build_setup(game: Game, scenario: Scenario, images: ModuleImages, gpids: dict[str, str],
                module: ModuleData, prototypes: dict[str, Piece], pools: PoolPlan) -> tuple[bytes, SetupReport]:
    """The .vsav bytes of one scenario and what was placed.

    Pieces are written with their prototypes expanded, as the engine itself
    saves pieces: a ``prototype;`` trait keeps no state, so unexpanded pieces
    would lose their moved flags and ZOC toggles in play.
    """
    writer = SavedGameWriter(prototypes=prototypes)
    report = SetupReport()
    turn_cells = TurnCells(game, scenario, images)
    pool_ids = {box.id for box in game.boxes.values() if box.draw}
    markers_last: list[tuple[int, Placement]] = []
    for number, placement in enumerate(scenario.setup, start=1):
        if placement.location.startswith("box:") and placement.location[4:] in pool_ids:
            continue  # in its draw pile, below
        if placement.location.startswith("turn:"):
            markers_last.append((number, placement))  # on top of the turn's arrivals
            continue
        spot = locate(game, scenario, placement.location, images)
        if spot is None:
            report.problems.append(f"{scenario.id}: {placement.unit} at {placement.location!r} has no map position")
            continue
        _place(writer, game, images, gpids, pools, placement, number, spot)
        report.placed += 1
    placed = {p.unit for p in scenario.setup}
    for arrival in scenario.schedule:
        if arrival.action != "arrive" or arrival.unit in placed:
            continue
        spot = turn_cells.next_spot(arrival.turn)
        if spot is None:
            report.problems.append(f"{scenario.id}: no turn-track cell for turn {arrival.turn}")
            continue
        writer.add_piece(arrival.unit, _unit_at(game, images, gpids, pools, arrival.unit, arrival.step, spot))
        placed.add(arrival.unit)
        report.waiting += 1
    for number, placement in markers_last:
        spot = turn_cells.next_spot(int(placement.location[len("turn:"):]))
        if spot is None:
            report.problems.append(f"{scenario.id}: no turn-track cell for {placement.location!r}")
            continue
        _place(writer, game, images, gpids, pools, placement, number, spot)
        report.placed += 1
    report.pooled = _fill_pools(writer, game, scenario, images, gpids, pools)
    report.placed += _lay_faces(writer, game, scenario, images, gpids, pools)
    for command in scenario_state(game, scenario, images):
        writer.add_command(command)
    writer.add_command(extension.game_state_command(scenario.id))  # the game says its scenario (Adjudicator extension)
    return writer.to_bytes(module), report


def scenario_state(game: Game, scenario: Scenario, images: ModuleImages) -> list[str]:
    """What the scenario shows beyond its pieces: its board on the main map and its turn track
    (where the module has several), its turns on the turn tracker, the view the main map opens
    on, and its notes."""
    commands = []
    if len(game.maps) > 1:
        commands.append(board_layout(main_map_name(game), game.maps[scenario.maps[0]].name))
    if len(game.scenarios) > 1:
        commands.append(board_layout(turn_track_map_name(game), turn_track_board_name(scenario)))
    commands.append(turn_tracker_command(TURN_TRACKER_ID, list(game.scenarios).index(scenario.id), [
        ListLevelState(len(s.turns), active=s.id == scenario.id,
                       sub_levels=(ListLevelState(len(game.phases)),) if game.phases else ())
        for s in game.scenarios.values()]))
    view = start_view(game, scenario, images)
    commands += [global_property_command(VIEW_X, str(view.x)), global_property_command(VIEW_Y, str(view.y)),
                 global_property_command(VIEW_ZOOM, str(view.zoom))]
    commands.append(scenario_notes_command(scenario_notes(game, scenario)))
    return commands


def board_layout(map_name: str, board: str) -> str:
    return board_command(map_name, [BoardPlacement(board)])


def scenario_notes(game: Game, scenario: Scenario) -> str:
    """The notes window's Scenario tab: what the scenario is, who sets up and moves first."""
    sides = game.sides
    lines = [f"{scenario.name} ({game.name}, rules {scenario.source.text})", "", scenario.description.strip(), ""]
    if scenario.sets_up_first in sides:
        lines.append(f"Sets up first: {sides[scenario.sets_up_first].name}.")
    if scenario.first_player in sides:
        lines.append(f"Moves first: {sides[scenario.first_player].name}.")
    if scenario.note:
        lines += ["", scenario.note.strip()]
    return "\n".join(lines).strip()


def _place(writer: SavedGameWriter, game: Game, images: ModuleImages, gpids: dict[str, str], pools: PoolPlan,
           placement: Placement, number: int, spot: Spot) -> None:
    if placement.is_marker:
        marker = game.markers[placement.marker_id]
        face = marker.faces.index(placement.step) if placement.step else 0
        piece = marker_piece(game, marker, images.marker_faces[marker.id], face=face,
                             gpid=gpids.get(f"marker:{marker.id}", ""), map_id=spot.map_name, x=spot.x, y=spot.y,
                             pool_traits=pools.traits(placement.unit))
        writer.add_piece(f"{placement.unit}#{number}", piece)
        return
    writer.add_piece(placement.unit, _unit_at(game, images, gpids, pools, placement.unit, placement.step, spot))


def _unit_at(game: Game, images: ModuleImages, gpids: dict[str, str], pools: PoolPlan, unit_id: str, step: str,
             spot: Spot):
    """A unit's piece showing `step`, standing at `spot`."""
    unit = game.units[unit_id]
    return unit_piece(game, unit, images.unit_steps[unit.id], step=step_index(game, unit.id, step),
                      gpid=gpids.get(unit.id, ""), map_id=spot.map_name, x=spot.x, y=spot.y,
                      pool_traits=pools.traits(unit.id))


def _lay_faces(writer: SavedGameWriter, game: Game, scenario: Scenario, images: ModuleImages,
               gpids: dict[str, str], pools: PoolPlan) -> int:
    """Each sealed pool's own counters, face up in its `faces` box (KWB's Scratch Units): the pieces the
    Adjudicator extension turns a placeholder into when a ruling reveals which it is. Returns how many."""
    count = 0
    for box_id, counters in laid_faces(game, scenario).items():
        x, y = images.box_centres[box_id]
        for unit_id in counters:
            writer.add_piece(unit_id, _unit_at(game, images, gpids, pools, unit_id, "", Spot(BOXES_MAP, x, y)))
            count += 1
    return count


def _fill_pools(writer: SavedGameWriter, game: Game, scenario: Scenario, images: ModuleImages,
                gpids: dict[str, str], pools: PoolPlan) -> int:
    """Each pool's draw pile with what it holds in this scenario, in an order shuffled once
    per scenario (the pile shuffles at every draw anyway; this keeps the saved order from
    telling what was added last).  Returns how many pieces went into piles."""
    count = 0
    for box_id, contents in shown_contents(game, scenario).items():
        if not contents:
            continue
        x, y = images.box_centres[box_id]
        card_ids = []
        for n, entry in enumerate(contents, start=1):
            if entry.startswith(MARKER_PREFIX):
                marker = game.markers[entry[len(MARKER_PREFIX):]]
                piece = marker_piece(game, marker, images.marker_faces[marker.id], gpid=gpids.get(entry, ""),
                                     map_id=BOXES_MAP, x=x, y=y, pool_traits=pools.traits(entry))
                piece_id = f"{entry}#{box_id}-{n}"
            else:
                unit = game.units[entry]
                piece = unit_piece(game, unit, images.unit_steps[unit.id], gpid=gpids.get(entry, ""),
                                   map_id=BOXES_MAP, x=x, y=y, pool_traits=pools.traits(entry))
                piece_id = entry
            writer.add_piece(piece_id, piece)
            card_ids.append(piece_id)
        random.Random(f"{scenario.id}/{box_id}").shuffle(card_ids)
        writer.add_deck(f"deck:{box_id}", deck_spec(game, game.boxes[box_id], images.counter_size),
                        BOXES_MAP, x, y, card_ids)
        count += len(card_ids)
    return count
