package korea.adjudicator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.swing.SwingWorker;

import VASSAL.build.GameModule;
import VASSAL.command.Command;

/**
 * Nothing asked is lost on the way (live play). The engine sends a player's commands to the others
 * in his room and nothing while his connection is down, and a player who synchronises gets the
 * board, never the chat: a ruling posted while someone was away reaches only those who were there.
 * So each player's extension catches up from the ledger (GET /games/{id}/rulings): when he comes
 * back to the room (a synchronisation), and when another player comes in (what that player asked
 * while away), it asks for the recorded game's rulings after the last one it knows he was there
 * for, and shows and logs (never sends) those his chat has not shown: the very lines their asker
 * posted, with the hidden parts his own side may see. A change such a ruling makes to his hidden
 * pieces is offered to him as its owner.
 *
 * Why the ledger and not the asker resending what went out while he was away: the VASSAL server
 * acknowledges nothing, so the asker cannot know what arrived; what he kept would die with his
 * VASSAL; and only the ledger holds every ruling of the game, for whoever comes. A player who joins
 * late is not shown the rulings before him (the board he synchronised already shows them): he lists
 * them (Adjudicator > Rulings of this game).
 */
final class CatchUp {
  /** The most pages one catching up reads (100 rulings each). */
  private static final int MAX_PAGES = 20;

  private final Adjudicator adjudicator;
  /** Recorded game id -> the last ruling this player was at the board for (he joined or saw it). */
  private final Map<String, Long> known = new HashMap<>();
  /** Rulings delivered while he kept no log: the next log he begins holds them, after its session line. */
  private final List<Command> forLog = new ArrayList<>();
  private boolean running;
  private boolean again;

  CatchUp(Adjudicator adjudicator) {
    this.adjudicator = adjudicator;
  }

  /** This player is at the board of a recorded game from record {@code seq} on (he created or joined it). */
  synchronized void know(String gameId, long seq) {
    known.putIfAbsent(gameId, seq);
  }

  private synchronized Long since(String gameId) {
    return known.get(gameId);
  }

  private synchronized void saw(String gameId, long seq) {
    known.merge(gameId, seq, Math::max);
  }

  /** Catches up the active recorded game's rulings this player has not seen (once at a time). Event thread. */
  void start() {
    final ActiveGame a = adjudicator.active();
    if (a == null) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    new SwingWorker<List<Map<String, Object>>, Void>() {
      @Override
      protected List<Map<String, Object>> doInBackground() throws Exception {
        final Server server = new Server(a.server, Settings.timeoutMs());
        final Long since = since(a.gameId);
        if (since == null) {  // first seen here (a save with the player's token): from now on
          final Object records = server.get("/api/v1/games/" + Adjudicator.path(a.gameId), a.token).get("records");
          know(a.gameId, records instanceof Number ? ((Number) records).longValue() - 1 : 0);
          return List.of();
        }
        final List<Map<String, Object>> found = new ArrayList<>();
        Object next = since;
        for (int page = 0; next instanceof Number && page < MAX_PAGES; page++) {
          final Map<String, Object> answer = server.get("/api/v1/games/" + Adjudicator.path(a.gameId) + "/rulings?since="
                                                        + ((Number) next).longValue() + "&transcript=1&changes=1", a.token);
          for (final Object r : Schema.list(answer.get("rulings"))) found.add(Schema.map(r));
          next = answer.get("next");
        }
        if (!found.isEmpty()) adjudicator.checks.waiting.afterRuling(a);  // a ruling asked elsewhere may offer a check now
        return found;
      }

      @Override
      protected void done() {
        running = false;
        try {
          deliver(a, get());
        }
        catch (Exception e) {
          // no server now: the next return to the room, or the list of rulings, catches up
        }
        if (again) {
          again = false;
          start();
        }
      }
    }.execute();
  }

  /** The rulings this player's chat has not shown: shown and logged here, their owner's changes offered. Event thread. */
  private void deliver(ActiveGame a, List<Map<String, Object>> answers) {
    final String seen = Shown.text(GameModule.getGameModule().getChatter());
    for (final Map<String, Object> answer : answers) {
      final Ruling ruling;
      try {
        ruling = Ruling.of(answer);
      }
      catch (IllegalArgumentException e) {
        continue;
      }
      if (ruling.seq instanceof Number) saw(a.gameId, ((Number) ruling.seq).longValue());
      if (seen.contains(Ruling.tag(ruling.lines.get(0)))) continue;
      Chat.local("ruling #" + ruling.seq + " of recorded game " + a.gameId + " was posted while you were not at the board "
                 + "(your room connection was down, or its asker's): here it is, from the ledger.");
      final Command shown = Chat.show(ruling.lines);
      if (LogSessions.logging()) GameModule.getGameModule().getLogger().log(shown);
      else forLog.add(shown);
      adjudicator.session.delivered(ruling);
      final String asker = String.valueOf(answer.get("side"));
      if (!a.side.equals(asker) && ruling.seq instanceof Number) adjudicator.ownerAsked(a.gameId, ((Number) ruling.seq).longValue(), a.side, asker);
    }
  }

  /** A log has begun: the rulings caught up before it go into it. Event thread. */
  void logDelivered() {
    if (!LogSessions.logging()) return;
    for (final Command c : forLog) GameModule.getGameModule().getLogger().log(c);
    forLog.clear();
  }

  /** The game ended: what was kept for its log is no more this game's. */
  void gameEnded() {
    forLog.clear();
  }
}
