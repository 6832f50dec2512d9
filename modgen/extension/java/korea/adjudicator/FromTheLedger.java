package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.swing.JOptionPane;
import javax.swing.SwingWorker;

/**
 * What the recorded game's ledger holds for this player, as the server gives it to his side: the
 * changes its rulings order to his pieces that only he can make (offered to apply), and the
 * rulings so far (Adjudicator > Rulings of this game).
 */
final class FromTheLedger {
  private final Adjudicator adj;

  FromTheLedger(Adjudicator adj) {
    this.adj = adj;
  }

  /**
   * The changes the recorded game's rulings order to this player's pieces that only he can make
   * (his pieces were hidden from the side that asked: the opponent's ruling eliminated his block),
   * as the server lists them (GET /games/{id}/board-changes): {ok, rulings: [{seq, headline,
   * piece_changes}]}. Off the event thread.
   */
  Map<String, Object> owedChanges() {
    EventThread.requireOff();
    try {
      final ActiveGame a = EventThread.call(adj::active);
      if (a == null) throw new Server.Problem(0, "Not a recorded game", "This game is no recorded game you hold a token of: "
                                              + "no ruling of the server changes your pieces.");
      final Map<String, Object> answer = new Server(a.server).get("/api/v1/games/" + Adjudicator.path(a.gameId) + "/board-changes", a.token);
      return Answers.ok("game_id", a.gameId, "rulings", Schema.list(answer.get("rulings")));
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /** The owed changes of every ruling ({@code onlySeq} null) or of one, offered; said in the chat when applied. */
  void offerOwed(Long onlySeq, String asker) {
    new SwingWorker<Map<String, Object>, Void>() {
      @Override
      protected Map<String, Object> doInBackground() {
        return owedChanges();
      }

      @Override
      protected void done() {
        final Map<String, Object> answer;
        try {
          answer = get();
        }
        catch (Exception e) {
          Adjudicator.showProblem(adj.problemOf(e));
          return;
        }
        if (!Boolean.TRUE.equals(answer.get("ok"))) return;  // its dialog is shown
        final Map<String, Ruling.Change> latest = new LinkedHashMap<>();  // a piece shows its last ruling's change
        final List<String> seqs = new ArrayList<>();
        for (final Object o : Schema.list(answer.get("rulings"))) {
          final Map<String, Object> r = Schema.map(o);
          if (onlySeq != null && !(r.get("seq") instanceof Number && ((Number) r.get("seq")).longValue() == onlySeq)) continue;
          seqs.add("#" + r.get("seq"));
          for (final Ruling.Change c : Ruling.changes(r.get("piece_changes"))) {
            final String key = c.unit + (Ruling.RETREAT.equals(c.kind) ? " retreat" : "");  // a retreat beside a step lost
            latest.remove(key);
            latest.put(key, c);
          }
        }
        final String question = onlySeq == null ? "apply the rulings' changes to your pieces?"
          : "apply the " + adj.info().sideName(asker) + " player's ruling #" + onlySeq + " to your pieces?";
        final Asking.Offered offered = latest.isEmpty() ? Asking.Offered.NOTHING
          : Asking.offerChanges(adj, new ArrayList<>(latest.values()), question, null);
        if (offered == Asking.Offered.APPLIED) {
          // to both (the asker sees the change pending until now) and into the log: no piece named, the fog keeps them
          Chat.say("the " + adj.info().sideName(adj.active() == null ? "" : adj.active().side) + " player applied the change"
                   + (seqs.size() == 1 ? " of ruling " : "s of rulings ") + String.join(", ", seqs) + " to his pieces.");
        }
        else if (offered == Asking.Offered.NOTHING && onlySeq == null) {
          JOptionPane.showMessageDialog(Adjudicator.window(), "No ruling of recorded game " + answer.get("game_id")
                                        + " has a change to your pieces left to make.", "Adjudicator: nothing to apply",
                                        JOptionPane.INFORMATION_MESSAGE);
        }
      }
    }.execute();
  }

  /**
   * The recorded game's rulings so far, as this player's side may see them (GET /games/{id}/rulings
   * with his token: the fog of war applies), oldest first: {ok, game_id, rulings: [{seq, side,
   * headline, lines}]}. What Adjudicator > Rulings of this game lists: a player who joins late reads
   * what came before him there. Off the event thread.
   */
  Map<String, Object> rulingsOfThisGame() {
    EventThread.requireOff();
    try {
      final GameRulings found = gameRulings();
      final List<Object> out = new ArrayList<>();
      for (int i = 0; i < found.rulings.size(); i++) {
        final Ruling r = found.rulings.get(i);
        final Map<String, Object> one = new LinkedHashMap<>();
        one.put("seq", r.seq);
        one.put("side", found.sides.get(i));
        one.put("headline", r.headline());
        one.put("lines", r.lines);
        out.add(one);
      }
      return Answers.ok("game_id", found.gameId, "rulings", out);
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /** A recorded game's rulings, each with the side that asked it. */
  static final class GameRulings {
    final String gameId;
    final List<Ruling> rulings = new ArrayList<>();
    final List<String> sides = new ArrayList<>();

    GameRulings(String gameId) {
      this.gameId = gameId;
    }
  }

  GameRulings gameRulings() throws Server.Problem {
    final ActiveGame a = EventThread.call(adj::reading);
    if (a == null) throw new Server.Problem(0, "Not a recorded game", "This game is no recorded game you hold a token of: "
                                            + "join it to list its rulings (Adjudicator > Join recorded game).");
    final GameRulings found = new GameRulings(a.gameId);
    final Server server = new Server(a.server, Settings.timeoutMs());
    Object next = 0L;
    for (int page = 0; next instanceof Number && page < 100; page++) {
      final Map<String, Object> answer = server.get("/api/v1/games/" + Adjudicator.path(a.gameId) + "/rulings?since="
                                                    + ((Number) next).longValue() + "&transcript=1", a.token);
      for (final Object o : Schema.list(answer.get("rulings"))) {
        final Map<String, Object> r = Schema.map(o);
        found.rulings.add(Ruling.of(r));
        found.sides.add(String.valueOf(r.get("side")));
      }
      next = answer.get("next");
    }
    return found;
  }

  /**
   * One ruling of the recorded game by its record number, as this player's side may see it (the
   * list's own request, GET /games/{id}/rulings, from the record before it): what the check form's
   * "Open #N" shows. Off the event thread.
   */
  Ruling ruling(long seq) throws Server.Problem {
    final ActiveGame a = EventThread.call(adj::reading);
    if (a == null) throw new Server.Problem(0, "Not a recorded game", "This game is no recorded game you hold a token of.");
    final Map<String, Object> answer = new Server(a.server, Settings.timeoutMs())
      .get("/api/v1/games/" + Adjudicator.path(a.gameId) + "/rulings?since=" + (seq - 1) + "&limit=1&transcript=1", a.token);
    for (final Object o : Schema.list(answer.get("rulings"))) {
      final Ruling r = Ruling.of(Schema.map(o));
      if (r.seq instanceof Number && ((Number) r.seq).longValue() == seq) return r;
    }
    throw new Server.Problem(404, "No such ruling", "Recorded game " + a.gameId + " has no ruling #" + seq + ".");
  }

  /** Adjudicator > Rulings of this game: the list in a window of its own, each ruling one click from its window. Event thread. */
  void showRulingsInteractively() {
    new SwingWorker<GameRulings, Void>() {
      @Override
      protected GameRulings doInBackground() throws Exception {
        return gameRulings();
      }

      @Override
      protected void done() {
        try {
          final GameRulings found = get();
          RulingsWindow.show(adj, found.gameId, found.rulings, found.sides);
        }
        catch (Exception e) {
          Adjudicator.showProblem(adj.problemOf(e));
        }
      }
    }.execute();
  }
}
