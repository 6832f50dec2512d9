package korea.adjudicator;

import java.util.List;

import VASSAL.build.GameModule;
import VASSAL.build.module.Chatter;
import VASSAL.command.Command;

/**
 * Posts a ruling to the chat as one chat command: shown here, sent to an online opponent and
 * written into the log being recorded, so whoever replays the log sees it. The lines are the
 * server's own transcript (?transcript=1); nothing is composed here.
 */
final class Chat {
  private Chat() { }

  /** Must run on the event thread. */
  static void post(List<String> lines) {
    final GameModule g = GameModule.getGameModule();
    Command ruling = null;
    for (final String line : lines) {
      // a command string cannot carry control characters (the server sends none)
      final Command one = new Chatter.DisplayText(g.getChatter(), line.replaceAll("[\\x00-\\x1f\\x7f]", " "));
      ruling = ruling == null ? one : ruling.append(one);
    }
    if (ruling == null) return;
    ruling.execute();
    g.sendAndLog(ruling);
  }
}
