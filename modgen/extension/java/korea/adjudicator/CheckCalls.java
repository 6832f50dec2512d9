package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.swing.SwingWorker;

import VASSAL.counters.GamePiece;

/**
 * A check or its chances asked of the server: to the recorded game when one is active, else as a
 * calculation (send, odds; Asking's form uses them), and the scripts' way to ask them without the
 * form (check, chances) and to list a unit's right-click entries.
 */
final class CheckCalls {
  private final Adjudicator adj;
  private volatile Catalog catalog;
  private volatile String catalogServer = "";
  /** The checks each recorded game does not offer yet (the menus leave them out). */
  final Waiting waiting = new Waiting();

  CheckCalls(Adjudicator adj) {
    this.adj = adj;
  }

  /**
   * Asks a check as its menu entry does, without the form, with the piece {@code pieceId} as the
   * unit pointed at ("" = none) and the units selected now as the selection; {@code playerJson}
   * holds what the player would enter (a JSON object of request members). Posts the ruling and
   * answers {ok, lines, seq, request, ms: {board, server, chat}} (where the time went); a failure
   * is shown and {ok: false, title, detail}.
   */
  Map<String, Object> check(String checkName, String pieceId, String playerJson) {
    EventThread.requireOff();
    try {
      final Catalog.Check c = catalog().check(checkName);
      if (c == null) throw new Server.Problem(0, "No such check", adj.info().game + " has no check '" + checkName + "'.");
      final long started = System.nanoTime();
      final ActiveGame[] recorded = new ActiveGame[1];
      final String[] side = new String[1];
      final Map<String, Object> request = EventThread.call(() -> {
        final GamePiece target = pieceId.isEmpty() ? null : BoardReader.pieceById(pieceId);
        if (!pieceId.isEmpty() && target == null) throw new IllegalArgumentException("no piece with id " + pieceId);
        recorded[0] = adj.active();
        side[0] = adj.askingSide();
        return boardPart(c, adj.reader().context(target, BoardReader.selection()));
      });
      if (!playerJson.isBlank()) request.putAll(Json.parseObject(playerJson));
      final long read = System.nanoTime();
      final Ruling ruling = send(c, request, "vassal-" + UUID.randomUUID(), Settings.timeoutMs(), recorded[0], side[0]);
      final long answered = System.nanoTime();
      EventThread.call(() -> {
        Asking.deliver(adj, ruling, false);
        return null;
      });
      final Map<String, Object> ms = new LinkedHashMap<>();
      ms.put("board", (read - started) / 1e6);
      ms.put("server", (answered - read) / 1e6);
      ms.put("chat", (System.nanoTime() - answered) / 1e6);
      return Answers.ok("lines", ruling.lines, "private_lines", ruling.privateLines, "details", ruling.details, "seq", ruling.seq,
                "request", request, "ms", ms, "notices", ruling.notices);
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /** The right-click entries a unit piece offers now (their labels; one that cannot be asked yet in brackets). */
  List<String> menuEntries(String pieceId) {
    EventThread.requireOff();
    try {
      final Catalog c = catalog();
      return EventThread.call(() -> {
        final List<String> labels = new ArrayList<>();
        final GamePiece p = BoardReader.pieceById(pieceId);
        if (p == null) return labels;
        for (final Catalog.Entry e : c.entries(adj.reader().context(p, BoardReader.selection()), adj.askingSide(), adj.scenario(),
                                                   waiting.notYet(adj.active()))) {
          labels.add(e.enabled ? e.label : "[" + e.label + "]");
        }
        return labels;
      });
    }
    catch (Server.Problem p) {
      return List.of();
    }
  }

  /**
   * The chances of a check as the form's Chances button asks them, without the form: the board
   * part for the piece {@code pieceId} ("" = none) and the selection, plus {@code playerJson}.
   * Answers {ok, odds} or {ok: false, title, detail} (shown in a dialog).
   */
  Map<String, Object> chances(String checkName, String pieceId, String playerJson) {
    EventThread.requireOff();
    try {
      final Catalog.Check c = catalog().check(checkName);
      if (c == null) throw new Server.Problem(0, "No such check", adj.info().game + " has no check '" + checkName + "'.");
      final ActiveGame[] recorded = new ActiveGame[1];
      final String[] side = new String[1];
      final Map<String, Object> request = EventThread.call(() -> {
        final GamePiece target = pieceId.isEmpty() ? null : BoardReader.pieceById(pieceId);
        recorded[0] = adj.active();
        side[0] = adj.askingSide();
        return boardPart(c, adj.reader().context(target, BoardReader.selection()));
      });
      if (!playerJson.isBlank()) request.putAll(Json.parseObject(playerJson));
      return Answers.ok("odds", odds(c, request, recorded[0], side[0]));
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /**
   * The odds of a request (adjudicator.odds): in a recorded game the game's own (its token: the
   * server refuses what the fog of war hides from this side), else a calculation's, which says
   * the side asking ({@code side}; null: none) so the server refuses a peek the same way. Off
   * the event thread.
   */
  Map<String, Object> odds(Catalog.Check c, Map<String, Object> request, ActiveGame recorded, String side) throws Server.Problem {
    final Map<String, Object> body = new LinkedHashMap<>(request);
    body.remove("dice");
    body.remove("request_id");
    if (recorded != null) {
      return new Server(recorded.server, Settings.timeoutMs()).post("/api/v1/games/" + Adjudicator.path(recorded.gameId) + "/" + Adjudicator.path(c.name) + "/odds",
                                                                   body, recorded.token);
    }
    return new Server(Settings.server(), Settings.timeoutMs()).post("/api/v1/systems/" + Adjudicator.path(adj.info().game) + "/" + Adjudicator.path(c.name)
                                                                    + "/odds?side=" + Adjudicator.path(side == null ? "" : side), body, null);
  }

  /**
   * Sends a check: to the recorded game when one is active (the server rolls; the request id
   * makes a repeat return the same record, never a new roll), else as a calculation. A lost
   * connection is asked once more with the same id; a timeout is the player's to repeat. A
   * recorded check carries the log session it is asked in; a calculation says the side asking
   * ({@code side}, null: none), which in a game with hidden units decides what the ruling's
   * private lines show. Off the event thread.
   */
  Ruling send(Catalog.Check c, Map<String, Object> request, String requestId, int timeoutMs, ActiveGame recorded, String side)
      throws Server.Problem {
    final Map<String, Object> answer;
    if (recorded != null) {
      final Server server = new Server(recorded.server, timeoutMs);
      final Map<String, Object> body = new LinkedHashMap<>(request);
      body.remove("dice");
      body.put("request_id", requestId);
      if (recorded.logSession != null) body.put("log_session", recorded.logSession);
      final String path = "/api/v1/games/" + Adjudicator.path(recorded.gameId) + "/" + Adjudicator.path(c.name) + "?transcript=1&changes=1";
      Map<String, Object> first;
      try {
        first = server.post(path, body, recorded.token);
      }
      catch (Server.Problem p) {
        if (p.status != 0 || p.timedOut) throw Answers.scrub(p, recorded.token);
        first = server.post(path, body, recorded.token);  // the same request id: never a second roll
      }
      answer = first;
      waiting.afterRuling(recorded);
    }
    else {
      answer = new Server(Settings.server(), timeoutMs).post("/api/v1/systems/" + Adjudicator.path(adj.info().game) + "/" + Adjudicator.path(c.name)
                                                               + "?transcript=1&changes=1" + (side == null ? "" : "&side=" + Adjudicator.path(side)),
                                                             request, null);
    }
    try {
      return Ruling.of(answer);
    }
    catch (IllegalArgumentException e) {
      throw new Server.Problem(0, "No transcript", "The server answered without the ruling's chat lines (is it an older adjudicator?). Nothing was posted.");
    }
  }

  /** This game's checks from the server, loaded once per server address. Off the event thread. */
  Catalog catalog() throws Server.Problem {
    final Server server = adj.server();
    final Catalog known = catalog;
    if (known != null && server.base().equals(catalogServer)) return known;
    final Map<String, Object> systems = server.get("/api/v1/systems", null);
    try {
      catalog = Catalog.of(systems, adj.info().game).withSideNames(adj.info().sideNames);
    }
    catch (IllegalArgumentException e) {
      throw new Server.Problem(0, "Unknown game", "The server at " + server.base() + " does not know " + adj.info().game + ".");
    }
    catalogServer = server.base();
    return catalog;
  }

  Catalog loadedCatalog() {
    return catalog;
  }

  /** Loads the checks off the event thread; then runs {@code then} (event thread), or says what went wrong when a player asked. */
  void loadCatalogInBackground(Runnable then) {
    new SwingWorker<Catalog, Void>() {
      @Override
      protected Catalog doInBackground() throws Exception {
        return catalog();
      }

      @Override
      protected void done() {
        try {
          get();
          if (then != null) then.run();
        }
        catch (Exception e) {
          if (then != null) Adjudicator.showProblem(adj.problemOf(e));  // at start-up, a server not running yet is no news
        }
      }
    }.execute();
  }

  /** The request members the board fills for a check and a context. Event thread. */
  Map<String, Object> boardPart(Catalog.Check c, Board.Context ctx) {
    final String scenario = adj.scenario();
    final Catalog known = catalog;
    final boolean byTurn = c.schema.roles().contains("turn") || c.schema.roles().contains("month");
    final Integer turn = scenario == null || known == null || !byTurn ? null : BoardReader.turn(known.scenarios.get(scenario));
    final String month = known == null ? null : known.month(scenario, turn);
    final Board board = new Board(adj.reader()::units, scenario, turn, month, sideAsking(c, ctx), adj.reader()::marks)
      .withAsideBoxes(adj.info().asideBoxes.keySet());
    return board.fill(c.schema, ctx);
  }

  /**
   * The side a check is asked for: a side report's unit's side ("Supply of this side"); else the
   * recorded game's (its token's); else the side taken in VASSAL; else the attackers' side.
   */
  String sideAsking(Catalog.Check c, Board.Context ctx) {
    if (c.kind() == Catalog.Kind.SIDE_REPORT && ctx.unit != null) return ctx.unit.side;
    final String mine = adj.askingSide();
    if (mine != null) return mine;
    final List<Board.Unit> attackers = Board.attackers(ctx);
    if (!attackers.isEmpty()) return attackers.get(0).side;
    return ctx.unit == null ? null : ctx.unit.side;
  }
}
