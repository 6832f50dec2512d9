package korea.adjudicator;

import java.util.List;

import VASSAL.build.GameModule;
import VASSAL.build.module.Chatter;
import VASSAL.command.Command;

/**
 * The chat. A ruling is posted as one chat command: shown here, sent to an online opponent and
 * written into the log being recorded, so whoever replays the log sees it; its lines are the
 * server's own transcript (?transcript=1), composed there. Other lines the extension says to
 * both players (a recorded game joined, the stand-ins a game's rulings use, the server's
 * notices) start with "Adjudicator:" and carry no ruling's tag, so the log check never reads
 * them as rulings. What concerns only this player (a game that is not the recorded game this
 * player holds a token for) is shown here only, as the engine's own notices are.
 */
final class Chat {
  private Chat() { }

  /**
   * Posts lines as one command (shown, sent, logged): one chat command a line, so a replayed log
   * and the other player show each line as the engine shows any chat line. Here they are shown
   * at once (Shown), as the engine would show them one by one. Must run on the event thread.
   */
  static void post(List<String> lines) {
    final Command all = show(lines);
    if (all != null) GameModule.getGameModule().sendAndLog(all);
  }

  /**
   * Lines shown here as a ruling's lines are (Shown), and handed back as the command the player's
   * log keeps: never sent. What a player catches up from the ledger (CatchUp): every player who
   * missed a ruling catches it up for himself, so sending it would show it twice to the others.
   * Event thread.
   */
  static Command show(List<String> lines) {
    final GameModule g = GameModule.getGameModule();
    Command all = null;
    final List<String> clean = new java.util.ArrayList<>();
    for (final String line : lines) {
      // a command string cannot carry control characters (the server sends none)
      final String text = line.replaceAll("[\\x00-\\x1f\\x7f]", " ");
      clean.add(text);
      final Command one = new Chatter.DisplayText(g.getChatter(), text);
      all = all == null ? one : all.append(one);
    }
    if (all != null && !Shown.all(g.getChatter(), clean)) all.execute();
    return all;
  }

  /** "Adjudicator: ..." to both players (shown, sent, logged), long text wrapped. Event thread. */
  static void say(String text) {
    post(Lines.wrap("Adjudicator: " + text));
  }

  /** A line for this player only (not sent, not logged). Event thread or not. */
  static void local(String text) {
    GameModule.getGameModule().warn("Adjudicator: " + text);
  }
}
