package korea.adjudicator;

import java.awt.Point;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.module.map.boardPicker.board.MapGrid;
import VASSAL.command.Command;
import VASSAL.counters.GamePiece;
import VASSAL.counters.KeyCommand;
import VASSAL.counters.Properties;

/**
 * A ruling's changes (adjudicator.unit_changes) applied to the board as a player applies them:
 * through each piece's own menu commands, so the module's reports say what happened in the chat
 * and the moves are sent and logged like any other. The module generator gives every unit "Step
 * loss" and "Restore step" (the Step layer one level on or back) and "Eliminate" (to its side's
 * dead pile on the Boxes map). A replacement eliminates the unit and moves a spare counter of each
 * replacement unit (one off the hex maps: in a box or a cup) onto the spot it stood on; a move the
 * rules order puts the piece on that hex. A placeholder a ruling reveals (KWB's '? 4' Scratch
 * Units) goes by its own "Delete" (it was never a unit, so no dead pile) and the counter it turned
 * out to be is moved from the box it lies in onto its spot, as a replacement is; a change to that
 * counter (a Dummy eliminated at once) follows from there.
 *
 * A piece the board hides from this player (the opponent's masked block: VASSAL lets no command
 * of another side reach it) is its owner's to change: the plan says so ("to be applied by its
 * owner, the UN player"), and the owner applies it from his own extension (Adjudicator > Apply
 * the rulings' changes to my pieces). A unit not on the board, or without the command it needs,
 * is left alone and named.
 */
final class BoardChanges {
  static final String STEP_LOSS = "Step loss";
  static final String RESTORE_STEP = "Restore step";
  static final String ELIMINATE = "Eliminate";
  static final String SET_ASIDE = "Set aside";
  static final String DELETE = "Delete";
  static final String BOXES_MAP = "Boxes";

  /** A piece to move onto the spot another piece stands on now (a replacement), or onto a point. */
  static final class Move {
    final GamePiece piece;
    final GamePiece spotOf;  // the piece whose spot it takes (read before that piece is moved away); null: `point`
    final Map map;
    final Point point;
    final String where;      // in words: the hex
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

  /** What one change does to one piece, as the player is asked about it. */
  static final class Planned {
    final Ruling.Change change;
    final GamePiece piece;     // null: not on the board
    final String does;         // "depleted (1 x Step loss)", "eliminated", "not on the board", "to be applied by ..."
    final List<String> commands;
    final List<Move> moves;

    Planned(Ruling.Change change, GamePiece piece, String does, List<String> commands, List<Move> moves) {
      this.change = change;
      this.piece = piece;
      this.does = does;
      this.commands = commands;
      this.moves = moves;
    }

    Planned(Ruling.Change change, GamePiece piece, String does, List<String> commands) {
      this(change, piece, does, commands, List.of());
    }

    boolean applies() {
      return !commands.isEmpty() || !moves.isEmpty();
    }

    String name() {
      return piece == null ? change.unit : piece.getName();
    }
  }

  private BoardChanges() { }

  /**
   * What applying the changes would do, piece by piece, for the player of {@code mySide} (null:
   * no side); {@code sideName} names a side id as players read it. Event thread.
   */
  static List<Planned> plan(List<Ruling.Change> changes, String mySide, UnaryOperator<String> sideName) {
    final List<Planned> out = new ArrayList<>();
    final List<String> revealed = new ArrayList<>();  // counters a reveal puts on the board before their own change
    for (final Ruling.Change c : changes) {
      final Planned p = plan(c, mySide, sideName, revealed.contains(c.unit));
      if (Ruling.REVEALED.equals(c.kind) && p.applies()) revealed.add(c.revealedAs);
      out.add(p);
      if (!p.applies()) continue;
      if (Ruling.BROKEN_DOWN.equals(c.kind)) {  // the parts lost at once: from the box to their dead pile
        for (final String lost : c.lost) out.add(partPlan(c, lost, "lost at once (to its dead pile)", ELIMINATE));
      }
      if (Ruling.RECOMBINED.equals(c.kind)) {  // the parts that formed it: set aside
        for (final String part : c.parts) out.add(partPlan(c, part, "set aside (it recombines into " + c.unit + ")", SET_ASIDE));
      }
    }
    return out;
  }

  /** One part of a breakdown or a recombination, changed through its own piece's command. */
  private static Planned partPlan(Ruling.Change c, String unit, String does, String command) {
    final GamePiece piece = BoardReader.pieceOfUnit(unit);
    final Ruling.Change part = new Ruling.Change(c.kind, unit, false, null, null, null, List.of(), null, c.appliedBy);
    return piece == null ? new Planned(part, null, "not on the board", List.of()) : new Planned(part, piece, does, List.of(command));
  }

  static Planned plan(Ruling.Change c, String mySide, UnaryOperator<String> sideName) {
    return plan(c, mySide, sideName, false);
  }

  /** {@code placedFirst}: a reveal planned before puts the piece on the board (now in its box). */
  private static Planned plan(Ruling.Change c, String mySide, UnaryOperator<String> sideName, boolean placedFirst) {
    final GamePiece piece = BoardReader.pieceOfUnit(c.unit);
    if (Ruling.RETURNED.equals(c.kind)) {
      return new Planned(c, piece, "back in play: place it when the rules say (a reinforcement)", List.of());
    }
    if (Ruling.RETREAT.equals(c.kind)) {
      return new Planned(c, piece, "retreats " + c.hexes + " hex" + (c.hexes == 1 ? "" : "es") + ", as the ruling orders: "
                         + "move it yourself, the hexes are your choice", List.of());
    }
    if (piece == null) return new Planned(c, null, "not on the board", List.of());
    if (Boolean.TRUE.equals(piece.getProperty(Properties.OBSCURED_TO_ME))) {
      final String owner = c.appliedBy.isEmpty() || c.appliedBy.equals(mySide) ? "its owner"
        : "its owner (the " + sideName.apply(c.appliedBy) + " player)";
      return new Planned(c, piece, "to be applied by " + owner + ": the piece is hidden from you", List.of());
    }
    switch (c.kind) {
      case Ruling.ELIMINATED:
        return offBoard(piece) && !placedFirst ? new Planned(c, piece, "already off the board", List.of())
          : new Planned(c, piece, "eliminated (to its dead pile)", List.of(ELIMINATE));
      case Ruling.REPLACED:
        return replaced(c, piece);
      case Ruling.REVEALED:
        return revealed(c, piece);
      case Ruling.MOVED:
        return moved(c, piece);
      case Ruling.BROKEN_DOWN:
        return brokenDown(c, piece);
      case Ruling.RECOMBINED:
        return recombined(c, piece);
      default:
        return step(c, piece);
    }
  }

  /** A unit broken down (SPI): set aside in its box of counters not in play, the counters that replace it onto its spot. */
  private static Planned brokenDown(Ruling.Change c, GamePiece piece) {
    if (offBoard(piece)) return new Planned(c, piece, "already off the board", List.of());
    final List<Move> moves = new ArrayList<>();
    final String hex = hexOf(piece);
    final List<String> said = new ArrayList<>();
    for (final java.util.Map.Entry<String, GamePiece> e : spares(c, piece, hex, moves).entrySet()) {
      said.add(e.getValue() == null ? "no counter of " + e.getKey() + " off the map: place one by hand" : e.getValue().getName());
    }
    return new Planned(c, piece, "broken down: set aside (counters not in play); in its place" + (hex != null ? " in " + hex : "")
                       + ": " + String.join(", ", said), List.of(SET_ASIDE), moves);
  }

  /**
   * A spare counter (one off the hex maps) of each unit a change places in a piece's stead, by unit (null: none),
   * each one's move onto the piece's spot added to {@code moves}.
   */
  private static java.util.Map<String, GamePiece> spares(Ruling.Change c, GamePiece piece, String hex, List<Move> moves) {
    final java.util.Map<String, GamePiece> found = new java.util.LinkedHashMap<>();
    for (final Ruling.Placed p : c.replacements) {
      final GamePiece spare = spareOf(p.unit);
      found.put(p.unit, spare);
      if (spare != null) moves.add(new Move(spare, piece, null, null, hex));
    }
    return found;
  }

  /** A unit recombined (SPI): its counter from the box onto the spot of its first part; the parts are set aside after. */
  private static Planned recombined(Ruling.Change c, GamePiece whole) {
    if (!offBoard(whole)) return new Planned(c, whole, "already on the map", List.of());
    final GamePiece first = c.parts.isEmpty() ? null : BoardReader.pieceOfUnit(c.parts.get(0));
    if (first == null || offBoard(first)) return new Planned(c, whole, "place it in " + c.hex + " by hand", List.of());
    return new Planned(c, whole, "recombined: placed in " + c.hex, List.of(), List.of(new Move(whole, first, null, null, c.hex)));
  }

  private static Planned step(Ruling.Change c, GamePiece piece) {
    final String[] names = BoardReader.stepNames(piece);
    final String wanted = c.step != null ? c.step : c.sp != null ? String.valueOf(c.sp) : null;
    int target = "".equals(wanted) ? 1 : -1;  // "": the first step (full strength)
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(wanted)) target = i + 1;
    }
    final String shown = "".equals(wanted) && names.length > 0 ? names[0] : wanted;
    if (target < 0) return new Planned(c, piece, "no step '" + wanted + "' on its counter", List.of());
    final int now = currentLevel(piece);
    final List<String> commands = new ArrayList<>();
    for (int i = now; i < target; i++) commands.add(STEP_LOSS);
    for (int i = now; i > target; i--) commands.add(RESTORE_STEP);
    if (commands.isEmpty()) return new Planned(c, piece, "already " + shown, List.of());
    return new Planned(c, piece, shown + " (" + commands.size() + " x " + commands.get(0) + ")", commands);
  }

  private static Planned replaced(Ruling.Change c, GamePiece piece) {
    if (offBoard(piece)) return new Planned(c, piece, "already off the board", List.of());
    final List<Move> moves = new ArrayList<>();
    final List<String> said = new ArrayList<>();
    final String hex = hexOf(piece);
    for (final java.util.Map.Entry<String, GamePiece> e : spares(c, piece, hex, moves).entrySet()) {
      said.add(e.getValue() == null ? "no spare counter of " + e.getKey() + " off the map: place it by hand"
               : e.getValue().getName() + " placed in its stead" + (hex != null ? " (" + hex + ")" : ""));
    }
    return new Planned(c, piece, "eliminated; " + String.join("; ", said), List.of(ELIMINATE), moves);
  }

  /** A placeholder turned face up: deleted, and the counter it turned out to be onto its spot. */
  private static Planned revealed(Ruling.Change c, GamePiece placeholder) {
    if (offBoard(placeholder)) {
      return new Planned(c, placeholder, "turned face up: " + c.revealedAs + ", but it lies in a box: put the counter "
                         + "in its place by hand", List.of());
    }
    final GamePiece counter = spareOf(c.revealedAs);
    if (counter == null) {
      return new Planned(c, placeholder, "turned face up: " + c.revealedAs + ", a counter not in a box of this game: "
                         + "put it in its place by hand", List.of());
    }
    final String hex = hexOf(placeholder);
    final String said = placeholder.getName() + " turned face up: " + counter.getName()
      + (hex != null ? " (" + hex + ")" : "") + ", as the ruling says";
    return new Planned(c, placeholder, "turned face up: " + counter.getName() + " in its place", List.of(DELETE),
                       List.of(new Move(counter, placeholder, null, null, hex, said)));
  }

  /** A move the rules order (and the step it names: a fresh Fire and Ice unit that retreats is flipped spent). */
  private static Planned moved(Ruling.Change c, GamePiece piece) {
    final Map map = piece.getMap();
    final Point point = map == null || c.hex == null ? null : pointOf(map, c.hex);
    final Planned flip = c.step == null ? null : step(c, piece);
    final List<String> commands = flip == null ? List.of() : flip.commands;
    final String shown = commands.isEmpty() ? "" : ", " + flip.does;
    if (point == null) return new Planned(c, piece, "move it to " + c.hex + " by hand" + shown, commands);
    if (point.equals(piece.getPosition())) return new Planned(c, piece, "already in " + c.hex + shown, commands);
    return new Planned(c, piece, "moved to " + c.hex + shown, commands, List.of(new Move(piece, null, map, point, c.hex)));
  }

  /**
   * Runs the planned commands of each piece (each sent and logged by the engine), then its moves
   * (a replacement onto the spot its unit stood on, read before the unit left it). Event thread.
   */
  static List<String> apply(List<Planned> plan) {
    final List<String> problems = new ArrayList<>();
    for (final Planned p : plan) {
      final List<Point> spots = new ArrayList<>();
      final List<Map> maps = new ArrayList<>();
      for (final Move m : p.moves) {
        final GamePiece anchor = m.spotOf != null ? m.spotOf : m.piece;
        maps.add(m.spotOf != null ? anchor.getMap() : m.map);
        spots.add(m.spotOf != null ? new Point(anchor.getPosition()) : m.point);
      }
      for (final String menu : p.commands) {
        final KeyCommand kc = command(p.piece, menu);
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
      for (int i = 0; i < p.moves.size(); i++) {
        final Move m = p.moves.get(i);
        if (maps.get(i) == null) {
          problems.add(m.piece.getName() + ": no map to place it on");
          continue;
        }
        final Command c = maps.get(i).placeOrMerge(m.piece, spots.get(i));
        GameModule.getGameModule().sendAndLog(c);
        Chat.say(m.said != null ? m.said : "* " + m.piece.getName() + (m.spotOf != null ? " placed in " : " moved to ")
                 + (m.where != null ? m.where : maps.get(i).getMapName()) + " (as the ruling ordered)");
      }
    }
    return problems;
  }

  /** A unit lying in a box (a dead pile, a reinforcement box, a cup) is off the board. */
  private static boolean offBoard(GamePiece piece) {
    return piece.getMap() == null || BOXES_MAP.equals(piece.getMap().getMapName());
  }

  /** A counter of the unit not on a hex map (in a box or a cup), or null. */
  private static GamePiece spareOf(String unit) {
    for (final GamePiece p : BoardReader.pieces()) {
      if (unit.equals(BoardReader.text(p.getProperty("UnitId"))) && offBoard(p)) return p;
    }
    return null;
  }

  private static String hexOf(GamePiece piece) {
    return piece.getMap() == null ? null : piece.getMap().locationName(piece.getPosition());
  }

  /** The centre of a hex (by its printed label) on one of the map's boards, in map pixels; null if none has it. */
  private static Point pointOf(Map map, String hex) {
    for (final Board b : map.getBoards()) {
      if (b.getGrid() == null) continue;
      try {
        final Point p = b.getGrid().getLocation(hex);
        if (p != null) return new Point(p.x + b.bounds().x, p.y + b.bounds().y);
      }
      catch (MapGrid.BadCoords e) {
        // not a hex of this board
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

  private static KeyCommand command(GamePiece piece, String menu) {
    final Object commands = piece.getProperty(Properties.KEY_COMMANDS);
    if (!(commands instanceof KeyCommand[])) return null;
    for (final KeyCommand kc : (KeyCommand[]) commands) {
      if (menu.equals(kc.getName()) && kc.getKeyStroke() != null) return kc;
    }
    return null;
  }
}
