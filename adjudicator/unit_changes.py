"""What a ruling does to the board: one typed description, read by every client that shows or
applies a ruling — the VASSAL extension's "apply to the board" (the answer's ``piece_changes``),
the `.vlog` write-back, the log check (did the player do it?), the ledger's own view of the units
(`adjudicator.ledger.board`) and the ruling's headline.

A change has a kind:

==============  ===================================================================================
``step``        the unit shows another step (``step``, by its name) or strength (``sp``, blocks)
``eliminated``  the unit goes to its side's dead pile (``dead_pile``, a box id), as the module's own
                Eliminate command sends it; a piece deleted from the game counts as eliminated too
``replaced``    the unit goes out (to ``dead_pile``) and its ``replacements`` (units, each at a step
                or SP) are placed in the hex it stood in (KWB 7.6: a depleted division replaced by a
                random unnumbered regiment; HoldFast 3: an army's block swapped for its reduced one)
``moved``       the unit goes to ``hex``, a hex the rules order (not one the player chooses)
``returned``    the unit comes back into play (rebuilt): nothing to do on the board now; its owner
                places it when the rules say (a reinforcement)
``revealed``    a placeholder turned face up (KWB 12.21: a '? 4' Scratch Unit, `adjudicator.ledger.draws`):
                the placeholder is deleted (no dead pile: it was never a unit) and the counter it
                turned out to be (``revealed_as``, its one replacement, a spare lying face up in
                the pool's box) is placed on its spot; a change to the counter itself (a Dummy
                eliminated at once) follows as a change of its own
``broken_down`` the unit is set aside in its side's box of counters not in play (``box``: SPI's
                "remove the unit(s) to be replaced, and place the unit(s) which replace it on the
                same hex", Stacking & Unit Breakdown) and its ``replacements``, counters lying in
                that box, are placed on the hex it stood in; the parts ``lost`` at once (a D1's
                regiment) go from that box to their dead pile, and a part broken down again (an
                Army's division) stays in the box, its own parts placed in its stead
``recombined``  the unit, a counter lying in the box of counters not in play, is placed on ``hex``
                and its ``parts`` (the units that formed it) are set aside in that box
``retreat``     the unit must retreat ``hexes`` hexes (SPI's Pursuit table; KWB's CRT results with a
                retreat, AR, DR and the like): an order its owner carries out, choosing the hexes
                (``applied_by`` is the owner); a log shows it as the unit that far from where it
                stood
``marked``      markers go onto the unit's hex (``markers``: their names as the rules say them, e.g.
                Fire and Ice's Disrupted, Bug Out after a retreat, 5.6 and 6.2 e-g; a quality marker,
                Elite/Guards or Poor/Penal, 5.4.2, on "one of his participating units without a
                quality marker": ``unit`` is the side's lead unit, ``choices`` the units he may
                put it on, his choice when there are several); made by the unit's owner
``to_choose``   a choice the rules leave to the unit's owner, still open: SPI's defender chooses which
                of his units (``choices``) lose a combat's ``regiments`` (Combat (J): the book names no
                chooser, so each player takes his own); the board changes when he has made it
                (``spi.combat_losses``, his ruling's own changes); ``unit`` is ""
``on_hex``      a marker goes onto a hex, not onto a unit (``hex``; "" when the outcome names none:
                the combat hex): Fire and Ice's News reporters, an Objective marker of a side's
                colour drawn at random from his pool (``box``) and placed face up (5.5; 12.1.3);
                ``markers`` its name, ``unit`` ""; made by that side
``track``       a track marker moves (``track``, ``marker``: ``by`` cells, or to ``cell`` showing
                ``face``): Fire and Ice's support levels, replacements, the VP marker (5.3.1, 5.5,
                5.6, 12.1.1; 13.2), HoldFast's Weather block (7), KWB's VP markers (11.0); no
                marker: one of ``choices``, the side's choice; ``unit`` ""
==============  ===================================================================================

and says who makes it on the board: ``applied_by``, the side asking, or the unit's owner where
the board hides the piece from the asker (a HoldFast block: the module masks it, and only its
owner's commands reach a masked piece), so the owner applies it in his next file.

Rules functions name unit states in their outcomes in a few shapes, read here (`_walk`):

* an object with ``unit`` (or ``block``) and ``step`` naming one of its steps: that step; a step
  ``deadpile``/``eliminated``/``destroyed``, or ``eliminated: true``, is an elimination, with
  ``replaced_by`` (a unit id, or a list) a replacement, with ``destination`` (a box id) a dead
  pile other than the side's (HoldFast's "removed" Marines);
* an object with ``unit`` and ``sp`` (block games): that strength; with ``swapped: true`` and
  ``block`` another block, the unit replaced by that block at that strength;
* an object with ``unit`` and ``to_hex``: the unit moved to that hex (with ``step``, also showing
  that step: a fresh Fire and Ice unit that retreats is flipped spent);
* an object with ``unit`` and ``broken_down_into`` (unit ids): the unit broken down into them; with
  ``into``, ``components`` and ``hex``: ``into`` recombined from the components on that hex; with
  ``unit`` and ``retreat_hexes``: the unit ordered to retreat that many hexes (an order, kept beside
  a change the unit is part of);
* lists named ``eliminated`` (unit ids): eliminated; ``flipped_spent``: their ``spent`` step;
  ``undepleted``: their first step (full strength: step ``""``); ``rebuilt`` (an id or a list):
  returned;
* a list named ``revealed`` of objects ``{"unit": placeholder, "revealed_as": counter}``: each
  placeholder revealed. These come first, so the counter's own change follows its placing.

Orders a ruling gives beside the units' states are read after them (`adjudicator.ruled_orders`),
each a change of its own:

* ``retreat_hexes`` beside a unit (SPI's Pursuit table; a Fire and Ice retreat chosen without its
  hexes, ``retreats_to_make``), and a combat's ``defender_retreat_hexes`` / ``attacker_retreat_hexes``
  beside its ``defenders`` / ``attackers`` (KWB's CRT: the survivors of that side, a unit replaced
  through its replacement): a retreat;
* ``markers`` (unit -> the markers its retreat earns: Fire and Ice 5.6; 6.2 e-g) and
  ``quality_markers_placed`` (a side and a marker, on one of its ``participants``: 5.4.2): marked;
* ``defender_losses_to_choose`` (SPI: the side, the regiments, the units in the hex): to_choose;
* ``markers_on_hexes`` (a marker, its pool, its side, the hex): on_hex; ``track_moves`` (a track, its
  marker, by or to): track. Each carries its ``rule``.

A step ``""`` is the unit's first step (full strength), whatever its counter calls it.

A unit named as another's replacement is part of that change, not a change of its own. Where units
stand is the board's business: the readers find the pieces.

Every change is resolved here, once, into the piece actions it takes (`resolve`,
`adjudicator.piece_actions`: which piece, from where to where, the step's name its counter must
show, by the one step lookup `step_name`, who makes it, and the choices still open); the answer
carries them (``actions`` of each ``piece_changes`` entry, ``shows`` beside each step and
replacement). The readers read those actions, never the kinds' details: the extension's
``BoardChanges.java`` applies them, ``bridge/writeback.py`` writes them as commands,
``logs.board`` checks the log shows them, ``ledger.board`` folds the unit's state after them and
``words.transcript._change_text`` says them. Adding a kind: a constant and its line in the
table above; the outcome shape that names it, read in `_walk` (or first, as `revealed_changes`
reads a reveal; an order beside the units' states: `adjudicator.ruled_orders`); any field it
needs in `UnitChange` and in `to_json` (new keys only); its actions in `_actions` (a new action:
its line in `adjudicator.piece_actions` and in each reader). A kind or action a reader does not
know is left alone by it.

Canonical order (`canonical_outcome`: an outcome with its keys sorted, as the ledger stores it)
lives here too, beside the description: a live answer and a ledger record give their changes in
the same order to every reader.

This module is a leaf: the game's facts it needs (a unit's side, a side's dead pile, what the
board hides) come in as an `Owners` (`adjudicator.unit_owners.owners_of` builds one).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, Sequence

from adjudicator.piece_actions import (  # canonical order and the step lookup: every reader imports them from here
    CHOOSE, DELETE, ELIMINATE, ELIMINATE_COMMAND, MOVE, PLACE, PLACE_MARKER, RETREAT_ORDER, SET_ASIDE, SET_ASIDE_COMMAND,
    MOVE_MARKER, SHOW_STEP, PieceAction, canonical, canonical_outcome, step_name,
)
from adjudicator.ruled_orders import (
    GONE_STEPS, hex_marker_orders, ids as _ids, integer as _int, loss_choices, marker_orders, retreat_orders, track_orders,
)


from adjudicator.request_units import stated_units

STEP, ELIMINATED, REPLACED, MOVED, RETURNED = "step", "eliminated", "replaced", "moved", "returned"
REVEALED = "revealed"
BROKEN_DOWN, RECOMBINED, RETREAT = "broken_down", "recombined", "retreat"
MARKED, TO_CHOOSE = "marked", "to_choose"
ON_HEX, TRACK = "on_hex", "track"
#: Kinds whose target is a hex or a track, not a unit (``unit`` is "").
BOARD_TARGETS = frozenset({ON_HEX, TRACK})
#: Kinds a piece shows now (a unit returned to play is placed later, by its owner; a retreat's hexes
#: are its owner's choice).
ON_BOARD = (STEP, ELIMINATED, REPLACED, MOVED, REVEALED, BROKEN_DOWN, RECOMBINED)
#: Kinds that take the unit off the board.
GONE_KINDS = frozenset({ELIMINATED, REPLACED, REVEALED, BROKEN_DOWN})
#: Kinds that bring counters onto the unit's hex (`replacements`): the unit's own change holds them.
PLACING = frozenset({REPLACED, BROKEN_DOWN})
#: Kinds that send the unit to a dead pile (a placeholder revealed is deleted instead).
TO_DEAD_PILE = frozenset({ELIMINATED, REPLACED})


@dataclass(frozen=True)
class Placed:
    """A unit a replacement puts on the board, at a step or SP (both None: as its counter comes)."""

    unit: str
    step: str | None = None
    sp: int | None = None
    shows: str | None = None  # the step's name its counter shows (resolved: `step_name`)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit, "step": self.step, "sp": self.sp}
        if self.shows is not None:
            out["shows"] = self.shows
        return out


@dataclass(frozen=True)
class UnitChange:
    """One change a ruling makes to one unit on the board (see the module's table of kinds)."""

    kind: str
    unit: str
    step: str | None = None  # STEP: the step's name
    sp: int | None = None  # STEP: the strength (block games)
    dead_pile: str = ""  # ELIMINATED, REPLACED: the box the unit goes to ("": the side's, or none known)
    replacements: tuple[Placed, ...] = ()  # REPLACED; REVEALED: the one counter revealed
    hex: str = ""  # MOVED, RECOMBINED
    applied_by: str = ""  # the side that makes the change on the board ("": not known)
    box: str = ""  # BROKEN_DOWN, RECOMBINED: the side's box of counters not in play
    parts: tuple[str, ...] = ()  # RECOMBINED: the units set aside
    lost: tuple[str, ...] = ()  # BROKEN_DOWN: the parts eliminated at once (to their dead pile)
    hexes: int = 0  # RETREAT: how many hexes
    shows: str | None = None  # STEP, MOVED: the step's name the counter shows (resolved: `step_name`)
    markers: tuple[str, ...] = ()  # MARKED: the markers placed, by the rules' names
    choices: tuple[str, ...] = ()  # MARKED, TO_CHOOSE: the units the owner chooses among
    regiments: int = 0  # TO_CHOOSE: the losses he chooses the units of
    where: str = ""  # TO_CHOOSE: the hex they stand in
    track: str = ""  # TRACK: the track's id
    marker: str = ""  # TRACK: the marker's id ("": one of `choices`)
    by: int = 0  # TRACK: cells up (negative: down)
    cell: str = ""  # TRACK: the cell it goes to
    face: str = ""  # TRACK: the face it shows there
    rule: str = ""  # ON_HEX, TRACK: the rule that orders it
    actions: tuple[PieceAction, ...] = field(default=(), compare=False)  # resolved (`resolve`)

    @property
    def eliminated(self) -> bool:
        """The unit leaves the board (eliminated, replaced, or a placeholder revealed)."""
        return self.kind in GONE_KINDS

    @property
    def replaced_by(self) -> str:
        """A replacement's first unit ("" for none): what the answers said before `replacements`."""
        return self.replacements[0].unit if self.replacements and self.kind in PLACING else ""

    @property
    def revealed_as(self) -> str:
        """A placeholder revealed: the counter that takes its spot ("" for other kinds)."""
        return self.replacements[0].unit if self.replacements and self.kind == REVEALED else ""

    def to_json(self) -> dict[str, Any]:
        """The answer's ``piece_changes`` entry. ``unit``, ``eliminated``, ``step``, ``sp`` and
        ``replaced_by`` are as before kinds existed (clients that read only those keep working);
        a placeholder revealed has ``revealed_as`` (its counter) and no dead pile."""
        out: dict[str, Any] = {"kind": self.kind, "unit": self.unit, "eliminated": self.eliminated,
                               "step": self.step, "sp": self.sp, "applied_by": self.applied_by}
        if self.kind in TO_DEAD_PILE:
            out["dead_pile"] = self.dead_pile
        if self.kind == REVEALED:
            out["revealed_as"] = self.revealed_as
        elif self.replacements:
            out["replaced_by"] = self.replaced_by
            out["replacements"] = [p.to_json() for p in self.replacements]
        if self.kind in (MOVED, RECOMBINED):
            out["hex"] = self.hex
        if self.kind in (BROKEN_DOWN, RECOMBINED):
            out["box"] = self.box
        if self.kind == RECOMBINED:
            out["parts"] = list(self.parts)
        if self.kind == BROKEN_DOWN:
            out["lost"] = list(self.lost)
        if self.kind == RETREAT:
            out["hexes"] = self.hexes
        if self.kind == MARKED:
            out["markers"] = list(self.markers)
            out["choices"] = list(self.choices)
        if self.kind == TO_CHOOSE:
            out.update(choices=list(self.choices), regiments=self.regiments, hex=self.where)
        if self.kind == ON_HEX:
            out.update(hex=self.hex, markers=list(self.markers), box=self.box, rule=self.rule)
        if self.kind == TRACK:
            out.update(track=self.track, marker=self.marker, markers=list(self.markers), by=self.by, cell=self.cell,
                       face=self.face, choices=list(self.choices), rule=self.rule)
        if self.shows is not None:
            out["shows"] = self.shows
        out["actions"] = [a.to_json() for a in self.actions]
        return out


@dataclass(frozen=True)
class Owners:
    """What a game says about who changes a piece and where an eliminated one goes."""

    side_of: Callable[[str], str | None]  # unit id -> its side (None: not a unit of the game)
    dead_pile_of: Callable[[str], str]  # side id -> its dead pile's box id ("" if none)
    hidden_owner: Callable[[str], str | None]  # unit id -> its side when the board hides its piece from the other side
    counters_box_of: Callable[[str], str] = lambda side: ""  # side id -> its box of counters not in play ("" if none)
    steps_of: Callable[[str], Sequence[Any]] = lambda unit: ()  # unit id -> its steps (`scenarios.model.Step`)
    box_name: Callable[[str], str] = lambda box: ""  # box id -> the box's name as the module shows it
    marker_of: Callable[[str], tuple[str, str, int]] = lambda name: ("", "", 0)  # rules' name -> (marker, face, its number)

    def applier(self, unit: str, asker: str) -> str:
        """Who makes a change to `unit` on the board: its owner when its piece is hidden from the
        asker, else the asker (a calculation with no side: the unit's owner)."""
        owner = self.hidden_owner(unit)
        if owner is not None and owner != asker:
            return owner
        return asker or self.side_of(unit) or ""


def ruled_changes(outcome: Any, owners: Owners | None = None, asker: str = "") -> list[UnitChange]:
    """One change per unit the outcome names (the last state named wins), in the order first met;
    with `owners`, each says who applies it (`asker`: the side that asked) and where an
    eliminated unit goes. Walk a canonical (sorted-key) outcome to get the same order from a live
    answer and a ledger record."""
    out = outcome_changes(outcome)
    if owners is not None:
        out = [_owned(change, owners, asker) for change in out]
    return [resolve(change, owners or NO_OWNERS) for change in out]


def outcome_changes(outcome: Any) -> list[UnitChange]:
    """`ruled_changes` before it says who makes each change and with which piece actions: what a
    change does to its units (kind, step, strength, replacements), then the orders the outcome
    gives (retreats, markers, choices, hexes and tracks)."""
    out = _with_retreats(state_changes(outcome), dict(retreat_orders(outcome))) + list(_markers(outcome)) \
        + list(_choices(outcome))
    return out + list(_board_targets(outcome))


def state_changes(outcome: Any) -> list[UnitChange]:
    """The changes an outcome makes to its units' states (`outcome_changes` without the orders,
    which leave every unit as it is): all the ledger's board folds (`adjudicator.ledger.board`),
    once per record per process, its own and other processes' (issue 53)."""
    changes: dict[str, UnitChange] = {c.unit: c for c in revealed_changes(outcome)}
    for change in _walk(outcome):
        kept = changes.get(change.unit)
        if kept is not None and kept.kind == REVEALED:
            continue  # a placeholder's one change is its reveal
        if kept is not None and kept.kind == REPLACED and not change.replacements and change.eliminated:
            change = replace(change, kind=REPLACED, replacements=kept.replacements)
        if kept is not None and kept.kind in (BROKEN_DOWN, RECOMBINED) and change.kind not in (BROKEN_DOWN, RECOMBINED):
            continue  # a unit broken down or recombined: that is its change
        changes[change.unit] = change
    for unit in list(changes):
        if unit in changes and changes[unit].kind == BROKEN_DOWN:
            changes[unit] = _folded(changes[unit], changes)
    placed = {p.unit for c in changes.values() if c.kind in PLACING for p in c.replacements}
    placed |= {p for c in changes.values() if c.kind == RECOMBINED for p in c.parts}
    out = []
    for change in changes.values():
        if change.unit in placed and not change.eliminated and change.kind != RETREAT:
            continue  # a replacement coming in (or a part set aside): part of the change that brings it
        if change.kind == REPLACED:
            change = replace(change, replacements=tuple(_placed_as(p, changes) for p in change.replacements))
        out.append(change)
    return out


NO_OWNERS = Owners(lambda unit: None, lambda side: "", lambda unit: None)


def _with_retreats(changes: list[UnitChange], retreats: dict[str, int]) -> list[UnitChange]:
    """The changes and, after them, a change ``retreat`` for each retreat the outcome orders
    (`adjudicator.ruled_orders.retreat_orders`) of a unit still on the board: its own change, made by its owner, who chooses the
    hexes (a unit that lost a step and retreats has both)."""
    gone = {c.unit for c in changes if c.eliminated}
    return changes + [UnitChange(RETREAT, unit, hexes=hexes) for unit, hexes in retreats.items() if unit not in gone]


def _markers(outcome: Any) -> Iterator[UnitChange]:
    """The markers an outcome orders onto units (`adjudicator.ruled_orders.marker_orders`), each a
    change ``marked`` (no unit named: the side's choice of his participating units)."""
    for order in marker_orders(outcome):
        yield UnitChange(MARKED, order.unit, markers=order.markers, choices=order.choices, applied_by=order.side)


def _choices(outcome: Any) -> Iterator[UnitChange]:
    """The choices an outcome leaves open to a unit's owner (`adjudicator.ruled_orders.loss_choices`)."""
    for choice in loss_choices(outcome):
        yield UnitChange(TO_CHOOSE, "", choices=choice.units, regiments=choice.regiments, where=choice.hex,
                         applied_by=choice.side)


def _board_targets(outcome: Any) -> Iterator[UnitChange]:
    """The orders an outcome gives a hex or a track (`adjudicator.ruled_orders.hex_marker_orders`,
    `track_orders`): a marker placed on a hex, a track marker moved."""
    for on_hex in hex_marker_orders(outcome):
        yield UnitChange(ON_HEX, "", hex=on_hex.hex, markers=(on_hex.marker,), box=on_hex.pool,
                         applied_by=on_hex.side, rule=on_hex.rule)
    for move in track_orders(outcome):
        yield UnitChange(TRACK, "", track=move.track, marker=move.marker, markers=(move.marker_name,), by=move.by,
                         cell=move.to, face=move.face, choices=move.choices, applied_by=move.side, rule=move.rule)


def resolve(change: UnitChange, owners: Owners = NO_OWNERS) -> UnitChange:
    """The change with what it takes on the board: the step names its counters show (`step_name`
    over the unit's steps; a game whose steps are not known keeps the name the outcome gave) and
    its piece actions (`adjudicator.piece_actions`), each made by the change's ``applied_by``."""
    shows = _shows(owners, change.unit, change.step, change.sp)
    replacements = tuple(replace(p, shows=_shows(owners, p.unit, p.step, p.sp)) for p in change.replacements)
    change = replace(change, shows=shows if change.kind in (STEP, MOVED) else None, replacements=replacements)
    return replace(change, actions=tuple(replace(a, applied_by=change.applied_by) for a in _actions(change, owners)))


def _shows(owners: Owners, unit: str, step: str | None, sp: int | None) -> str | None:
    steps = owners.steps_of(unit)
    if steps:
        return step_name(steps, step, sp)
    return step if sp is None else str(sp)


def _actions(change: UnitChange, owners: Owners) -> list[PieceAction]:
    """The piece actions of one change (the table in `adjudicator.piece_actions`), in the order
    they are made: the unit's own first, then the counters put in its place."""
    kind, unit = change.kind, change.unit
    placing = [PieceAction(PLACE, p.unit, step=p.shows, beside=unit) for p in change.replacements]
    if kind == STEP:
        return [PieceAction(SHOW_STEP, unit, step=change.shows)] if change.shows is not None else []
    if kind in TO_DEAD_PILE:
        return [_eliminate(unit, change.dead_pile, owners)] + placing
    if kind == MOVED:
        return [PieceAction(MOVE, unit, step=change.shows, hex=change.hex)]
    if kind == REVEALED:
        return [PieceAction(DELETE, unit)] + placing
    if kind == BROKEN_DOWN:
        aside = [PieceAction(SET_ASIDE, unit, box=change.box, box_name=owners.box_name(change.box),
                             command=SET_ASIDE_COMMAND)]
        from_box = [replace(p, box=change.box, box_name=owners.box_name(change.box)) for p in placing]
        lost = [_eliminate(part, owners.dead_pile_of(owners.side_of(part) or ""), owners) for part in change.lost]
        return aside + from_box + lost
    if kind == RECOMBINED:
        whole = PieceAction(PLACE, unit, hex=change.hex, box=change.box, box_name=owners.box_name(change.box),
                            beside=change.parts[0] if change.parts else "")
        return [whole] + [PieceAction(SET_ASIDE, part, box=change.box, box_name=owners.box_name(change.box),
                                      command=SET_ASIDE_COMMAND) for part in change.parts]
    if kind == RETREAT:
        return [PieceAction(RETREAT_ORDER, unit, hexes=change.hexes, chosen_by=owners.side_of(unit) or change.applied_by)]
    if kind == MARKED:
        chooser = owners.side_of(unit) or change.applied_by if len(change.choices) != 1 else ""
        return [PieceAction(PLACE_MARKER, unit, marker=(found := owners.marker_of(name))[0] or name,
                            marker_name=found[1] or name, face=found[2], chosen_by=chooser,
                            what="on one of his participating units without a quality marker (5.4.2)" if chooser else "")
                for name in change.markers]
    if kind == TO_CHOOSE:
        return [PieceAction(CHOOSE, unit, chosen_by=change.applied_by,
                            what=f"which of his units in {change.where} lose {change.regiments} regiment"
                                 f"{'s' if change.regiments != 1 else ''}: his 'Combat losses' with this combat's record "
                                 "(Combat (J))")]
    if kind == ON_HEX:
        pool = owners.box_name(change.box) or change.box
        return [PieceAction(PLACE_MARKER, "", hex=change.hex, box=change.box, box_name=pool,
                            marker_name=change.markers[0] if change.markers else "",
                            what=f"drawn at random from its pool, face up, on {change.hex or 'the combat hex'} "
                                 f"({change.rule})")]
    if kind == TRACK:
        return [_track_action(change, owners)]
    if kind == RETURNED:
        return [PieceAction(CHOOSE, unit, chosen_by=owners.side_of(unit) or change.applied_by,
                            what="back in play: its owner places it when the rules say (a reinforcement)")]
    return []


def _track_action(change: UnitChange, owners: Owners) -> PieceAction:
    """A track marker's move: to a cell showing a face (its number looked up), or by some cells; no
    marker named: one of the side's, his choice."""
    name = change.markers[0] if change.markers else change.marker
    if not change.marker:
        return PieceAction(MOVE_MARKER, "", track=change.track, by=change.by, cell=change.cell, marker_name=name,
                           chosen_by=change.applied_by,
                           what=f"one of his {name} markers, his choice ({change.rule})")
    face = owners.marker_of(change.face) if change.face else ("", "", 0)
    return PieceAction(MOVE_MARKER, "", marker=change.marker, marker_name=change.face or name, face=face[2],
                       track=change.track, by=change.by, cell=change.cell, what=change.rule)


def _eliminate(unit: str, box: str, owners: Owners) -> PieceAction:
    """To the dead pile `box` ("": deleted): by the module's Eliminate when that is where it sends
    the unit (its side's dead pile), else moved into the box."""
    own = owners.dead_pile_of(owners.side_of(unit) or "")
    return PieceAction(ELIMINATE, unit, box=box, box_name=owners.box_name(box),
                       command=ELIMINATE_COMMAND if box and box == own else "")


def changing(changes: list[UnitChange], request: Any) -> list[UnitChange]:
    """The changes that change something: a step or strength other than the one the request gave
    the unit. A combat's outcome names every unit that fought, those it left as they stood too; such
    an echo is nothing to apply, and never a change its owner is asked to make."""
    stated = dict(_stated(request))
    return [c for c in changes if not (c.kind == STEP and c.unit in stated and stated[c.unit] in ((c.step, None), (None, c.sp)))]


def _stated(request: Any) -> Iterator[tuple[str, tuple[str | None, int | None]]]:
    """(unit, (step, sp)) for every object of a request naming a unit (``unit`` or ``block``) at a
    step or strength."""
    for said in stated_units(request):  # adjudicator.request_units: what a request says a unit is
        if said.step or said.sp is not None:
            yield said.unit, (said.step or None, said.sp)


def _folded(change: UnitChange, changes: dict[str, UnitChange]) -> UnitChange:
    """A breakdown with what befalls its parts at once: a part eliminated is `lost` (from the box to its
    dead pile), a part broken down again stays in the box and its own parts come in its stead; their
    changes are the breakdown's, not their own."""
    kept, lost = [], list(change.lost)
    for part in change.replacements:
        own = changes.get(part.unit)
        if own is not None and own.kind == ELIMINATED:
            lost.append(part.unit)
            del changes[part.unit]
        elif own is not None and own.kind == BROKEN_DOWN:
            del changes[part.unit]
            again = _folded(own, changes)
            kept += again.replacements
            lost += again.lost
        else:
            kept.append(part)
    return replace(change, replacements=tuple(kept), lost=tuple(lost))


def revealed_changes(outcome: Any) -> list[UnitChange]:
    """The placeholders a ruling reveals (its outcome's ``revealed``), each leaving the board for the
    counter it turned out to be."""
    items = outcome.get("revealed") if isinstance(outcome, dict) else None
    out = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("unit"), str) and isinstance(item.get("revealed_as"), str):
            out.append(UnitChange(REVEALED, item["unit"], replacements=(Placed(item["revealed_as"]),)))
    return out


def _placed_as(placed: Placed, changes: dict[str, UnitChange]) -> Placed:
    """A replacement with the step or SP the outcome names for it elsewhere (KWB lists the
    regiment drawn with its step)."""
    own = changes.get(placed.unit)
    if own is not None and own.kind == STEP and placed.step is None and placed.sp is None:
        return Placed(placed.unit, own.step, own.sp)
    return placed


def _owned(change: UnitChange, owners: Owners, asker: str) -> UnitChange:
    dead_pile = change.dead_pile
    side = owners.side_of(change.unit) or ""
    if change.kind in TO_DEAD_PILE and not dead_pile:
        dead_pile = owners.dead_pile_of(side)
    box = owners.counters_box_of(side) if change.kind in (BROKEN_DOWN, RECOMBINED) else change.box
    # a retreat, a marker on his unit, his choice, his marker on a hex or a track: the owner's
    owners_own = change.kind in (RETREAT, MARKED, TO_CHOOSE, ON_HEX, TRACK)
    by = (side or change.applied_by or asker) if owners_own else owners.applier(change.unit, asker)
    return replace(change, applied_by=by, dead_pile=dead_pile, box=box)


def _walk(outcome: Any) -> Iterator[UnitChange]:
    if isinstance(outcome, list):
        for item in outcome:
            yield from _walk(item)
        return
    if not isinstance(outcome, dict):
        return
    change = _change_of(outcome)
    if change is not None:
        yield change
    for key, value in outcome.items():
        if key == "eliminated" and isinstance(value, list):
            yield from (UnitChange(ELIMINATED, u) for u in _ids(value))
        elif key == "flipped_spent" and isinstance(value, list):
            yield from (UnitChange(STEP, u, step="spent") for u in _ids(value))
        elif key == "undepleted" and isinstance(value, list):
            yield from (UnitChange(STEP, u, step="") for u in _ids(value))
        elif key == "rebuilt" and isinstance(value, (str, list)):
            yield from (UnitChange(RETURNED, u) for u in _ids(value))
        elif key == "revealed" and isinstance(value, list):
            continue  # read first, by `revealed_changes`
        elif isinstance(value, (dict, list)):
            yield from _walk(value)


def _change_of(node: dict[str, Any]) -> UnitChange | None:
    """The change one object of an outcome names for its unit, if it names one."""
    into, hex_ = node.get("into"), node.get("hex")
    if isinstance(into, str) and isinstance(hex_, str) and "components" in node:
        return UnitChange(RECOMBINED, into, hex=hex_, parts=_ids(node["components"]))
    unit = node.get("unit") or node.get("block")
    if not isinstance(unit, str):
        return None
    step, sp = node.get("step"), _int(node.get("sp"))
    if node.get("eliminated") is True or step in GONE_STEPS:
        destination = node.get("destination") if isinstance(node.get("destination"), str) else ""
        replacements = tuple(Placed(u) for u in _ids(node.get("replaced_by")))
        return UnitChange(REPLACED if replacements else ELIMINATED, unit, dead_pile=destination,
                          replacements=replacements)
    if isinstance(node.get("to_hex"), str) and node["to_hex"]:
        return UnitChange(MOVED, unit, hex=node["to_hex"], step=step if isinstance(step, str) else None)
    if "broken_down_into" in node:
        return UnitChange(BROKEN_DOWN, unit, replacements=tuple(Placed(u) for u in _ids(node["broken_down_into"])))
    if node.get("swapped") is True and isinstance(node.get("block"), str) and node["block"] != unit:
        return UnitChange(REPLACED, unit, replacements=(Placed(node["block"], sp=sp),))
    if isinstance(step, str):
        return UnitChange(STEP, unit, step=step)
    if sp is not None:
        return UnitChange(STEP, unit, sp=sp)
    return None
