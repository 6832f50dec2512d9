package korea.adjudicator;

import java.awt.Point;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.module.map.boardPicker.board.MapGrid;
import VASSAL.build.widget.PieceSlot;
import VASSAL.counters.GamePiece;
import VASSAL.counters.KeyCommand;
import VASSAL.counters.PieceCloner;
import VASSAL.counters.Properties;

/**
 * A ruling's changes applied to the board as a player applies them, through each piece's own menu
 * commands where the module has one, so the module's reports say what happened in the chat and
 * the moves are sent and logged like any other. The server resolves every change into the piece
 * actions it takes (adjudicator.unit_changes, adjudicator.piece_actions: which piece, from where
 * to where, the step's name its counter must show, who makes it, the choices still open); this
 * class finds the pieces and makes exactly those actions, one planned entry each, and looks
 * nothing up of its own:
 *
 * <ul>
 * <li>show_step: "Step loss" / "Restore step" (as the counter names them) until the Step layer shows the step named;
 * <li>eliminate: the module's "Eliminate" when the action names it (the side's dead pile), else
 *   the piece moved into the box it names (a unit lying in another box goes too), or "Delete"
 *   with no box;
 * <li>set_aside: the module's "Set aside";
 * <li>place: a counter of the unit lying off the hex maps (in the box named, when one is) moved
 *   onto the spot the unit it replaces stood on (read before anything moves), then stepped to the
 *   step named (HoldFast 3: an army's 4-SP block placed showing 3 SP);
 * <li>move: the piece onto the hex's centre (and stepped);
 * <li>delete: the module's "Delete" (a placeholder turned face up: it was never a unit);
 * <li>place_marker: a new marker like the palette's placed on the unit's spot, flipped to the face named
 *   (one the owner puts on a unit of his choice: by hand); with no unit, one drawn from the top of the
 *   shuffled pool named (its DrawPile) onto the hex named, by the pool's side (Fire and Ice's News
 *   reporters, 5.5: an Objective marker of his colour on the combat hex, face up);
 * <li>move_marker: the track marker moved from the cell it stands on by the cells named (never below
 *   0), or onto the cell named; one of several markers, the side's choice, by hand;
 * <li>retreat and choose: open choices; the plan says whose they are and nothing is done.
 * </ul>
 *
 * Of two pieces of one unit, a change to the unit is made on the one on a map of hexes and a
 * counter placed is taken from those lying in a box. A piece the board hides from this player
 * (the opponent's masked block: VASSAL lets no command of another side reach it), and an open
 * choice owed by the other side (the defender's retreat), is its owner's: the plan says so ("to
 * be applied by its owner, the UN player"), and the owner applies it from his own extension
 * (Adjudicator > Apply the rulings' changes to my pieces). A unit not on the board, or without the
 * command it needs, is left alone and named.
 */
final class BoardChanges {
  static final String STEP_LOSS = "Step loss";
  static final String RESTORE_STEP = "Restore step";
  static final String DELETE = "Delete";
  static final String BOXES_MAP = "Boxes";
  static final String OWNERS = "to be applied by";

  /** A piece to move onto the spot another piece stands on now (a replacement), or onto a point. */
  static final class Move {
    final GamePiece piece;
    final GamePiece spotOf;  // the piece whose spot it takes (read before anything is moved); null: `point`
    final Map map;
    final Point point;
    final String where;      // in words: the hex or the box
    final String said;       // the chat line saying it (null: "* <piece> placed in <where> (as the ruling ordered)")

    Move(GamePiece piece, GamePiece spotOf, Map map, Point point, String where) {
      this(piece, spotOf, map, point, where, null);
    }

    Move(GamePiece piece, GamePiece spotOf, Map map, Point point, String where, String said) {
      this.piece = piece;
      this.spotOf = spotOf;
      this.map = map;
      this.point = point;
      this.where = where;
      this.said = said;
    }
  }

  /** What one action does to one piece, as the player is asked about it: its moves, then its commands. */
  static final class Planned {
    final Ruling.Change change;
    final Ruling.Action action;  // null: the change took no action the server resolved
    final GamePiece piece;       // null: not on the board
    final String does;           // "3 (1 x Step loss)", "eliminated (to ...)", "not on the board", "to be applied by ..."
    final List<String> commands;
    final List<Move> moves;

    Planned(Ruling.Change change, Ruling.Action action, GamePiece piece, String does, List<String> commands,
            List<Move> moves) {
      this.change = change;
      this.action = action;
      this.piece = piece;
      this.does = does;
      this.commands = commands;
      this.moves = moves;
    }

    Planned(Ruling.Change change, Ruling.Action action, GamePiece piece, String does, List<String> commands) {
      this(change, action, piece, does, commands, List.of());
    }

    boolean applies() {
      return !commands.isEmpty() || !moves.isEmpty();
    }

    /** An order whose details are its owner's choice (a retreat), or a choice still open. */
    boolean order() {
      return action != null && action.open();
    }

    /** A change the other side makes (his hidden piece, or his choice). */
    boolean owners() {
      return does.startsWith(OWNERS);
    }

    /** The side whose it is (owners()), "" when not said. */
    String owner() {
      return action != null && !action.appliedBy.isEmpty() ? action.appliedBy : change.appliedBy;
    }

    /**
     * The unit as this player reads it: its piece's name, else the name the server gave it (a
     * unit not on the board is read by its counter's name, never its id), else (an older server) its id.
     */
    String name() {
      if (piece != null) return Unseen.name(piece);
      if (action != null) return !action.name.isEmpty() ? action.name : action.unit.equals(change.unit) && !change.name.isEmpty()
        ? change.name : action.unit;
      return change.name.isEmpty() ? change.unit : change.name;
    }
  }

  private BoardChanges() { }

  /**
   * What applying the changes would do, action by action, for the player of {@code mySide} (null:
   * no side); {@code sideName} names a side id as players read it. Event thread.
   */
  static List<Planned> plan(List<Ruling.Change> changes, String mySide, UnaryOperator<String> sideName) {
    final List<Planned> out = new ArrayList<>();
    for (final Ruling.Change c : changes) {
      if (c.actions.isEmpty()) {
        out.add(new Planned(c, null, BoardReader.pieceOfUnit(c.unit), "nothing its counter can show", List.of()));
      }
      for (final Ruling.Action a : c.actions) out.add(plan(c, a, mySide, sideName));
    }
    return out;
  }

  private static Planned plan(Ruling.Change c, Ruling.Action a, String mySide, UnaryOperator<String> sideName) {
    if (Ruling.Action.PLACE.equals(a.does)) return place(c, a);
    if (a.unit.isEmpty() && Ruling.Action.PLACE_MARKER.equals(a.does)) return BoardTargets.onHex(c, a, mySide, sideName);
    if (Ruling.Action.MOVE_MARKER.equals(a.does)) return BoardTargets.onTrack(c, a, mySide, sideName);
    final GamePiece piece = Ruling.Action.ELIMINATE.equals(a.does) ? toEliminate(a) : pieceOnMap(a.unit);
    if (a.open()) return open(c, a, piece, mySide, sideName);
    if (piece == null) return new Planned(c, a, null, "not on the board", List.of());
    if (Boolean.TRUE.equals(piece.getProperty(Properties.OBSCURED_TO_ME))) {
      return new Planned(c, a, piece, OWNERS + " " + owner(a.appliedBy, mySide, sideName) + ": the piece is hidden from you",
                         List.of());
    }
    switch (a.does) {
      case Ruling.Action.SHOW_STEP:
        return step(c, a, piece, "");
      case Ruling.Action.ELIMINATE:
        return eliminate(c, a, piece);
      case Ruling.Action.SET_ASIDE:
        return offBoard(piece) ? new Planned(c, a, piece, "already off the board", List.of())
          : new Planned(c, a, piece, "set aside (" + (a.boxName.isEmpty() ? "counters not in play" : a.boxName) + ")",
                        List.of(a.command.isEmpty() ? "Set aside" : a.command));
      case Ruling.Action.MOVE:
        return moved(c, a, piece);
      case Ruling.Action.DELETE:
        return new Planned(c, a, piece, "removed (turned face up)", List.of(DELETE));
      case Ruling.Action.PLACE_MARKER:
        return marker(c, a, piece);
      case Ruling.Action.REMOVE_MARKER:
        return new Planned(c, a, piece, "take the " + a.markerName + " marker off its hex by hand", List.of());
      default:
        return new Planned(c, a, piece, "make it by hand: " + a.does, List.of());
    }
  }

  /**
   * A marker onto the unit's hex: a new one like the module's palette holds (its MarkerId), placed
   * on the unit's spot and flipped to the face named. A marker the owner puts on a unit of his
   * choice (a quality marker, 5.4.2, among several units) is his to place by hand.
   */
  private static Planned marker(Ruling.Change c, Ruling.Action a, GamePiece unit) {
    final String byHand = "place the " + a.markerName + " marker " + (a.what.isEmpty() ? "on its hex" : a.what) + " by hand";
    final GamePiece slot = a.chosenBy.isEmpty() && !offBoard(unit) ? paletteMarker(a.marker) : null;
    if (slot == null) return new Planned(c, a, unit, byHand, List.of());
    final GamePiece marker = PieceCloner.getInstance().clonePiece(slot);
    final List<String> flips = new ArrayList<>();
    for (int i = 1; i < a.face; i++) flips.add("Flip");
    final String hex = hexOf(unit);
    return new Planned(c, a, marker, "placed on " + Unseen.name(unit) + " (" + hex + "), showing " + a.markerName, flips,
                       List.of(new Move(marker, unit, null, null, hex)));
  }

  /** The palette's piece of a marker (by its MarkerId), or null. */
  private static GamePiece paletteMarker(String markerId) {
    for (final PieceSlot slot : GameModule.getGameModule().getAllDescendantComponentsOf(PieceSlot.class)) {
      final GamePiece piece = slot.getPiece();
      if (piece != null && markerId.equals(BoardReader.text(piece.getProperty("MarkerId")))) return piece;
    }
    return null;
  }

  static String owner(String side, String mySide, UnaryOperator<String> sideName) {
    return side.isEmpty() || side.equals(mySide) ? "its owner" : "its owner (the " + sideName.apply(side) + " player)";
  }

  /** A retreat or a choice still open: whose it is, and nothing done. */
  private static Planned open(Ruling.Change c, Ruling.Action a, GamePiece piece, String mySide,
                              UnaryOperator<String> sideName) {
    final String what = Ruling.Action.RETREAT.equals(a.does)
      ? "retreats " + a.hexes + " hex" + (a.hexes == 1 ? "" : "es") + ", as the ruling orders"
      : a.what;
    final String chooser = a.chosenBy.isEmpty() ? a.appliedBy : a.chosenBy;
    if (!chooser.isEmpty() && mySide != null && !chooser.equals(mySide)) {
      return new Planned(c, a, piece, OWNERS + " " + owner(chooser, mySide, sideName) + ": " + what
                         + (Ruling.Action.RETREAT.equals(a.does) ? ", the hexes are his choice" : ""), List.of());
    }
    return new Planned(c, a, piece, what + (Ruling.Action.RETREAT.equals(a.does)
                                            ? ": move it yourself, the hexes are your choice" : ""), List.of());
  }

  /** The step's name the action names, by the Step layer's commands from the level showing now. */
  private static Planned step(Ruling.Change c, Ruling.Action a, GamePiece piece, String before) {
    final List<String> commands = stepCommands(piece, a.step);
    if (commands == null) return new Planned(c, a, piece, before + "no step '" + a.step + "' on its counter", List.of());
    if (commands.isEmpty()) return new Planned(c, a, piece, before + "already " + a.step, List.of());
    return new Planned(c, a, piece, before + a.step + " (" + commands.size() + " x " + commands.get(0) + ")", commands);
  }

  /**
   * The Step layer's commands from the level showing to the step named (null: none so named; empty:
   * there), by the names the counter gives them (its StepCommands: Fire and Ice's fresh/spent
   * counters "Flip to spent"/"Flip to fresh"; a module built before says neither: "Step loss"/"Restore step").
   */
  private static List<String> stepCommands(GamePiece piece, String step) {
    final List<String> commands = new ArrayList<>();
    if (step == null) return commands;
    final int target = java.util.Arrays.asList(BoardReader.stepNames(piece)).indexOf(step) + 1;
    if (target < 1) return null;
    final String[] named = BoardReader.text(piece.getProperty("StepCommands")).split("\\|");
    final String up = named.length == 2 ? named[0] : STEP_LOSS;
    final String down = named.length == 2 ? named[1] : RESTORE_STEP;
    final int now = currentLevel(piece);
    for (int i = now; i < target; i++) commands.add(up);
    for (int i = now; i > target; i--) commands.add(down);
    return commands;
  }

  /** To the dead pile the action names: by the module's Eliminate, a move into the box, or Delete (no box). */
  private static Planned eliminate(Ruling.Change c, Ruling.Action a, GamePiece piece) {
    final String where = a.boxName.isEmpty() ? "its dead pile" : a.boxName;
    if (!a.boxName.isEmpty() && inBox(piece, a.boxName)) return new Planned(c, a, piece, "already in " + where, List.of());
    if (a.box.isEmpty()) return new Planned(c, a, piece, "removed (no dead pile)", List.of(DELETE));
    if (!a.command.isEmpty()) return new Planned(c, a, piece, "eliminated (to its dead pile)", List.of(a.command));
    final Map boxes = boxesMap();
    final Point point = boxes == null ? null : pointOf(boxes, a.boxName);
    if (point == null) return new Planned(c, a, piece, "put it in " + where + " by hand", List.of());
    return new Planned(c, a, piece, "eliminated (to " + where + ")", List.of(),
                       List.of(new Move(piece, null, boxes, point, where)));
  }

  /** A counter lying off the hex maps onto the spot of the unit it takes the place of (or of the hex named), stepped. */
  private static Planned place(Ruling.Change c, Ruling.Action a) {
    final GamePiece onMap = pieceOnMap(a.unit);
    if (!a.hex.isEmpty() && onMap != null && !offBoard(onMap)) return new Planned(c, a, onMap, "already on the map", List.of());
    final GamePiece spare = spareOf(a.unit, a.boxName);
    if (spare == null) {
      return new Planned(c, a, null, "no spare counter of it off the map: place one by hand"
                         + (a.step != null ? ", showing " + a.step : ""), List.of());
    }
    final GamePiece spot = a.beside.isEmpty() ? null : pieceOnMap(a.beside);
    final String hex = !a.hex.isEmpty() ? a.hex : spot == null ? null : hexOf(spot);
    if (spot == null || offBoard(spot)) {
      return new Planned(c, a, spare, "place it " + (a.hex.isEmpty() ? "where " + (a.besideName.isEmpty() ? a.beside : a.besideName) + " stood" : "in " + a.hex)
                         + " by hand" + (a.step != null ? ", showing " + a.step : ""), List.of());
    }
    // A placeholder turned face up (KWB's '? 4' Scratch Unit): the log says what it turned out to be, not
    // merely that a counter was placed where the placeholder stood.
    final String said = !Ruling.REVEALED.equals(c.kind) ? null
      : spot.getName() + " turned face up: " + spare.getName() + (hex != null ? " (" + hex + ")" : "")
        + ", as the ruling says";
    final List<String> commands = stepCommands(spare, a.step);
    if (commands == null) {
      return new Planned(c, a, spare, "placed in " + hex + "; no step '" + a.step + "' on its counter: set it by hand",
                         List.of(), List.of(new Move(spare, spot, null, null, hex, said)));
    }
    final String shown = a.step == null ? "" : ", showing " + a.step
      + (commands.isEmpty() ? "" : " (" + commands.size() + " x " + commands.get(0) + ")");
    return new Planned(c, a, spare, "placed in " + hex + shown, commands,
                       List.of(new Move(spare, spot, null, null, hex, said)));
  }

  /** A move the rules order (and the step it names: a fresh Fire and Ice unit that retreats is flipped spent). */
  private static Planned moved(Ruling.Change c, Ruling.Action a, GamePiece piece) {
    final Map map = piece.getMap();
    final Point point = map == null || a.hex.isEmpty() ? null : pointOf(map, a.hex);
    final List<String> commands = stepCommands(piece, a.step);
    final List<String> flips = commands == null ? List.of() : commands;
    final String shown = flips.isEmpty() ? "" : ", " + a.step + " (" + flips.size() + " x " + flips.get(0) + ")";
    if (point == null) return new Planned(c, a, piece, "move it to " + a.hex + " by hand" + shown, flips);
    if (point.equals(piece.getPosition())) return new Planned(c, a, piece, "already in " + a.hex + shown, flips);
    return new Planned(c, a, piece, "moved to " + a.hex + shown, flips, List.of(new Move(piece, null, map, point, a.hex)));
  }

  /**
   * Reads every spot a counter is placed on (before anything moves: a replaced unit leaves its
   * spot first), then makes each planned entry's moves and commands (each sent and logged by the
   * engine). Event thread.
   */
  static List<String> apply(List<Planned> plan) {
    final List<String> problems = new ArrayList<>();
    final java.util.Map<Move, Map> maps = new java.util.IdentityHashMap<>();
    final java.util.Map<Move, Point> spots = new java.util.IdentityHashMap<>();
    for (final Planned p : plan) {
      for (final Move m : p.moves) {
        maps.put(m, m.spotOf != null ? m.spotOf.getMap() : m.map);
        spots.put(m, m.spotOf != null ? new Point(m.spotOf.getPosition()) : m.point);
      }
    }
    for (final Planned p : plan) {
      for (final Move m : p.moves) {
        if (maps.get(m) == null) {
          problems.add(Unseen.name(m.piece) + ": no map to place it on");
          continue;
        }
        GameModule.getGameModule().sendAndLog(maps.get(m).placeOrMerge(m.piece, spots.get(m)));
        // both players read the line: a piece hidden from the opponent by the mask he sees, never by its name
        Chat.say(m.said != null ? m.said : "* " + Unseen.publicName(m.piece) + (m.spotOf != null ? " placed in " : " moved to ")
                 + (m.where != null ? m.where : maps.get(m).getMapName()) + " (as the ruling ordered)");
      }
      for (final String menu : p.commands) {
        final boolean reveal = BoardTargets.REVEAL.equals(menu);
        if (reveal && !Boolean.TRUE.equals(p.piece.getProperty(Properties.OBSCURED_TO_OTHERS))) continue;  // face up already
        final KeyCommand kc = reveal ? commandStarting(p.piece, menu) : command(p.piece, menu);
        if (kc == null) {
          problems.add(p.name() + ": no '" + menu + "' command");
          break;
        }
        // A menu the engine showed for a selection marks the piece's commands as for every selected
        // piece ("global"); this change is for this piece alone.
        final boolean global = kc.isGlobal();
        kc.setGlobal(false);
        try {
          kc.actionPerformed(null);
        }
        finally {
          kc.setGlobal(global);
        }
      }
    }
    return problems;
  }

  /** A unit lying in a box (a dead pile, a reinforcement box, a cup) is off the board. */
  private static boolean offBoard(GamePiece piece) {
    return piece.getMap() == null || BOXES_MAP.equals(piece.getMap().getMapName());
  }

  /** Whether the piece lies in the box of that name on the Boxes map. */
  private static boolean inBox(GamePiece piece, String boxName) {
    return piece.getMap() != null && BOXES_MAP.equals(piece.getMap().getMapName())
      && boxName.equals(piece.getMap().locationName(piece.getPosition()));
  }

  private static List<GamePiece> piecesOf(String unit) {
    final List<GamePiece> out = new ArrayList<>();
    if (unit.isEmpty()) return out;  // a choice among units: no piece yet
    for (final GamePiece p : BoardReader.pieces()) {
      if (unit.equals(BoardReader.text(p.getProperty("UnitId")))) out.add(p);
    }
    return out;
  }

  /** The unit's piece a change is made on: the one on a map of hexes, else the first (lying in a box); null: none. */
  private static GamePiece pieceOnMap(String unit) {
    final List<GamePiece> all = piecesOf(unit);
    for (final GamePiece p : all) {
      if (!offBoard(p)) return p;
    }
    return all.isEmpty() ? null : all.get(0);
  }

  /** The piece to eliminate: on a map of hexes, else one lying in a box other than its dead pile, else any. */
  private static GamePiece toEliminate(Ruling.Action a) {
    final GamePiece onMap = pieceOnMap(a.unit);
    if (onMap == null || !offBoard(onMap)) return onMap;
    for (final GamePiece p : piecesOf(a.unit)) {
      if (a.boxName.isEmpty() || !inBox(p, a.boxName)) return p;
    }
    return onMap;
  }

  /** A counter of the unit not on a map of hexes (in the box of that name when one is given and holds one), or null. */
  private static GamePiece spareOf(String unit, String boxName) {
    GamePiece any = null;
    for (final GamePiece p : piecesOf(unit)) {
      if (!offBoard(p)) continue;
      if (boxName.isEmpty() || inBox(p, boxName)) return p;
      if (any == null) any = p;
    }
    return any;
  }

  static Map boxesMap() {
    for (final Map m : Map.getMapList()) {
      if (BOXES_MAP.equals(m.getMapName())) return m;
    }
    return null;
  }

  private static String hexOf(GamePiece piece) {
    return piece.getMap() == null ? null : piece.getMap().locationName(piece.getPosition());
  }

  /**
   * The point of a location by its printed name (a hex label, a box's name) on one of the map's
   * boards, in map pixels; null if none has it.
   */
  static Point pointOf(Map map, String location) {
    for (final Board b : map.getBoards()) {
      if (b.getGrid() == null) continue;
      try {
        final Point p = b.getGrid().getLocation(location);
        if (p != null) return new Point(p.x + b.bounds().x, p.y + b.bounds().y);
      }
      catch (MapGrid.BadCoords e) {
        // not a location of this board
      }
    }
    return null;
  }

  private static int currentLevel(GamePiece piece) {
    try {
      return Math.abs(Integer.parseInt(BoardReader.text(piece.getProperty("Step_Level")).trim()));
    }
    catch (NumberFormatException e) {
      return 1;
    }
  }

  /** The piece's command whose name begins with `prefix` (a pool's "Reveal/Hide (when ...)"), or null. */
  private static KeyCommand commandStarting(GamePiece piece, String prefix) {
    final Object commands = piece.getProperty(Properties.KEY_COMMANDS);
    if (!(commands instanceof KeyCommand[])) return null;
    for (final KeyCommand kc : (KeyCommand[]) commands) {
      if (kc.getName() != null && kc.getName().startsWith(prefix) && kc.getKeyStroke() != null) return kc;
    }
    return null;
  }

  private static KeyCommand command(GamePiece piece, String menu) {
    final Object commands = piece.getProperty(Properties.KEY_COMMANDS);
    if (!(commands instanceof KeyCommand[])) return null;
    for (final KeyCommand kc : (KeyCommand[]) commands) {
      if (menu.equals(kc.getName()) && kc.getKeyStroke() != null) return kc;
    }
    return null;
  }
}
