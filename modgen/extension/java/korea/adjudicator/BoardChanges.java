package korea.adjudicator;

import java.awt.Point;
import java.util.ArrayList;
import java.util.List;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.counters.GamePiece;
import VASSAL.counters.KeyCommand;
import VASSAL.counters.Properties;

/**
 * A ruling's unit changes applied to the board as a player applies them: through each piece's
 * own menu commands, so the module's reports say what happened in the chat and the moves are
 * sent and logged like any other. The module generator gives every unit "Step loss" and
 * "Restore step" (the Step layer one level on or back) and "Eliminate" (to its side's dead pile).
 * A placeholder a ruling reveals (KWB's '? 4' Scratch Units) gives its spot to the counter it turned
 * out to be, moved there from the box it lies in, and then goes by its own "Delete" (it was never a
 * unit of its own). A unit not on the board, or without the command it needs, is left alone and named.
 */
final class BoardChanges {
  static final String STEP_LOSS = "Step loss";
  static final String RESTORE_STEP = "Restore step";
  static final String ELIMINATE = "Eliminate";
  static final String DELETE = "Delete";

  /** What one change does to one piece, as the player is asked about it. */
  static final class Planned {
    final Ruling.Change change;
    final GamePiece piece;     // null: not on the board
    final String does;         // "depleted (Step loss)", "eliminated", "not on the board", "already so"
    final List<String> commands;
    final GamePiece counter;   // a placeholder revealed: the counter that takes its spot first (else null)

    Planned(Ruling.Change change, GamePiece piece, String does, List<String> commands, GamePiece counter) {
      this.change = change;
      this.piece = piece;
      this.does = does;
      this.commands = commands;
      this.counter = counter;
    }

    Planned(Ruling.Change change, GamePiece piece, String does, List<String> commands) {
      this(change, piece, does, commands, null);
    }

    boolean applies() {
      return !commands.isEmpty();
    }

    String name() {
      return piece == null ? change.unit : piece.getName();
    }
  }

  private BoardChanges() { }

  /** What applying the changes would do, piece by piece. Event thread. */
  static List<Planned> plan(List<Ruling.Change> changes) {
    final List<Planned> out = new ArrayList<>();
    for (final Ruling.Change c : changes) out.add(plan(c));
    return out;
  }

  static Planned plan(Ruling.Change c) {
    final GamePiece piece = BoardReader.pieceOfUnit(c.unit);
    if (piece == null) return new Planned(c, null, "not on the board", List.of());
    if (c.revealedAs != null) return revealed(c, piece);
    if (c.eliminated) return new Planned(c, piece, "eliminated", List.of(ELIMINATE));
    final String[] names = BoardReader.stepNames(piece);
    final String wanted = c.step != null ? c.step : c.sp != null ? String.valueOf(c.sp) : null;
    int target = -1;
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(wanted)) target = i + 1;
    }
    if (target < 0) return new Planned(c, piece, "no step '" + wanted + "' on its counter", List.of());
    final int now = currentLevel(piece);
    final List<String> commands = new ArrayList<>();
    for (int i = now; i < target; i++) commands.add(STEP_LOSS);
    for (int i = now; i > target; i--) commands.add(RESTORE_STEP);
    if (commands.isEmpty()) return new Planned(c, piece, "already " + wanted, List.of());
    return new Planned(c, piece, wanted + " (" + commands.size() + " x " + commands.get(0) + ")", commands);
  }

  /** A placeholder turned face up: the counter it turned out to be onto its spot, then the placeholder off. */
  private static Planned revealed(Ruling.Change c, GamePiece placeholder) {
    final GamePiece counter = BoardReader.pieceOfUnit(c.revealedAs);
    if (counter == null) {
      return new Planned(c, placeholder, "turned face up: " + c.revealedAs + ", a counter not in this game: put it "
                         + "in its place by hand", List.of());
    }
    return new Planned(c, placeholder, "turned face up: " + counter.getName(), List.of(DELETE), counter);
  }

  /**
   * Runs the planned commands of each piece (each sent and logged by the engine), a revealed
   * counter first moved onto its placeholder's spot. Event thread.
   */
  static List<String> apply(List<Planned> plan) {
    final List<String> problems = new ArrayList<>();
    for (final Planned p : plan) {
      if (p.counter != null && !turnFaceUp(p)) {
        problems.add(p.name() + ": not on a map, so " + p.counter.getName() + " has no spot to take");
        continue;
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
    }
    return problems;
  }

  /** The revealed counter onto the placeholder's spot (sent and logged), said in the chat. */
  private static boolean turnFaceUp(Planned p) {
    final Map map = p.piece.getMap();
    if (map == null) return false;
    final Point spot = new Point(p.piece.getPosition());
    final String where = map.locationName(spot);
    GameModule.getGameModule().sendAndLog(map.placeOrMerge(p.counter, spot));
    Chat.say(p.piece.getName() + " turned face up: " + p.counter.getName() + (where != null ? " (" + where + ")" : "")
             + ", as the ruling says");
    return true;
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
