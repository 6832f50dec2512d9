package korea.adjudicator;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import javax.swing.SwingWorker;

/**
 * The checks a recorded game does not offer yet, as its server says (GET /api/v1/games/{id}:
 * {@code waiting_checks}, check -> why): Fire and Ice's Atomic Strike before its ledger holds a
 * successful Atomic Release. What the ledger holds is the server's to say, so the menus never
 * guess it: they leave these checks out of the toolbar's and the pieces' menus. Read when the game
 * is created or joined, and again while the game waits for something after each ruling recorded
 * here, caught up or heard from another player; a game loaded with a kept token is read in the
 * background when a menu first asks. Asked anyway (a script), such a check still answers: the server stays the judge.
 */
final class Waiting {
  /** A recorded game's side (its id, a tab, the side) -> its checks not offered that side now -> why. */
  private final Map<String, Map<String, String>> byGame = new ConcurrentHashMap<>();
  private final Set<String> reading = ConcurrentHashMap.newKeySet();
  /** The recorded game the menus last asked about (what a ruling heard from another player may change). */
  private volatile ActiveGame last;

  /**
   * Takes what a GET /api/v1/games/{id} answer says for the token's side (its {@code role}: what
   * waits depends on the side, a combat's losses being the loser's); a server without the field:
   * nothing waits.
   */
  void read(String gameId, Map<String, Object> about) {
    final Map<String, String> waiting = new ConcurrentHashMap<>();
    for (final Map.Entry<String, Object> e : Schema.map(about.get("waiting_checks")).entrySet()) {
      waiting.put(e.getKey(), String.valueOf(e.getValue()));
    }
    byGame.put(key(gameId, String.valueOf(about.get("role"))), waiting);
  }

  private static String key(String gameId, String side) {
    return gameId + "\t" + side;
  }

  /** The names of the checks {@code active} does not offer yet (none: no recorded game, or not read yet: then read it). */
  Set<String> notYet(ActiveGame active) {
    if (active == null) return Set.of();
    last = active;
    final Map<String, String> known = byGame.get(key(active.gameId, active.side));
    if (known == null) {
      readInBackground(active);
      return Set.of();
    }
    return Set.copyOf(known.keySet());
  }

  /** Whether the game waits for something for {@code side} now (then a ruling may change it: read it again). */
  boolean waits(String gameId, String side) {
    final Map<String, String> known = byGame.get(key(gameId, side));
    return known != null && !known.isEmpty();
  }

  /** Reads the game again after a ruling of it, when it waits for something. Off the event thread. */
  void afterRuling(ActiveGame recorded) {
    if (recorded == null || !waits(recorded.gameId, recorded.side)) return;
    try {
      readNow(recorded);
    }
    catch (Server.Problem p) {
      // the ruling stands; the menus are read again after the next one
    }
  }

  /**
   * A command received (live play: another player's chat, a log stepped through): a ruling's
   * receipt line may be one that offers a check now (the opponent's combat its losses to this
   * side), so the game waiting for something is read again, before the player's next right-click.
   */
  void heard(String command) {
    final ActiveGame a = last;
    if (a == null || command == null || !command.startsWith("CHAT") || !command.contains("] receipt: record ")) return;
    if (waits(a.gameId, a.side)) readInBackground(a);
  }

  private void readNow(ActiveGame a) throws Server.Problem {
    read(a.gameId, new Server(a.server, Settings.timeoutMs()).get("/api/v1/games/" + Adjudicator.path(a.gameId), a.token));
  }

  private void readInBackground(ActiveGame a) {
    if (!reading.add(key(a.gameId, a.side))) return;
    new SwingWorker<Void, Void>() {
      @Override
      protected Void doInBackground() throws Exception {
        readNow(a);
        return null;
      }

      @Override
      protected void done() {
        reading.remove(key(a.gameId, a.side));
      }
    }.execute();
  }
}
