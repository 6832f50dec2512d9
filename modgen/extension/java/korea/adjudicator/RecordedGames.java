package korea.adjudicator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The recorded game of this VASSAL game, as the menus and scripts handle it (Adjudicator's public
 * methods hand on to these): the server to ask, creating a recorded game or joining one with a
 * token, forgetting the token, naming the scenario, and where a log is replayed. They wait for
 * the server, so they run off the event thread.
 */
final class RecordedGames {
  private final Adjudicator adj;

  RecordedGames(Adjudicator adj) {
    this.adj = adj;
  }

  /** Sets the server address and loads its checks for this game: {ok, checks} or {ok: false, title, detail}. */
  Map<String, Object> connect(String address) {
    EventThread.requireOff();
    try {
      new Server(address);
      Settings.setServer(address.trim());
      final Catalog c = adj.catalog();
      return Answers.ok("server", Settings.server(), "checks", c.checks.size());
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /**
   * Creates a recorded game of this game's scenario ("" = the one the game says; it must say
   * one) for a side ("" = the side taken in VASSAL); keeps that side's token in the preferences,
   * binds this VASSAL game to it (logged and sent: no token) and answers the tokens: this
   * player's own (to keep) and the others' (to send).
   */
  Map<String, Object> create(String scenario, String side) {
    EventThread.requireOff();
    try {
      final String chosenScenario = scenario.isEmpty() ? EventThread.call(adj::scenario) : scenario;
      final String chosenSide = side.isEmpty() ? EventThread.call(adj::mySide) : side;
      if (chosenScenario == null) {
        throw new Server.Problem(0, "Which scenario?", "This game does not say which scenario it is: choose it (Adjudicator > "
                                 + "Scenario of this game), or start the scenario's predefined setup.");
      }
      if (chosenSide == null) throw new Server.Problem(0, "Which side?", "Take a side (or name the side) before creating a recorded game.");
      final String current = EventThread.call(adj::scenario);
      if (current != null && !current.equals(chosenScenario)) {
        throw new Server.Problem(0, "Another scenario", "This game is " + adj.scenarioName(current) + ", not " + adj.scenarioName(chosenScenario) + ".");
      }
      final Server server = adj.server();
      final Map<String, Object> body = new LinkedHashMap<>();
      body.put("system", adj.info().game);
      body.put("scenario", chosenScenario);
      final Map<String, Object> created = server.post("/api/v1/games", body, null);
      final Map<String, Object> tokens = new LinkedHashMap<>(Schema.map(created.get("tokens")));
      final Object own = tokens.remove(chosenSide);
      if (!(own instanceof String)) throw new Server.Problem(0, "No such side", adj.info().game + " has no side '" + chosenSide + "' (sides: " + tokens.keySet() + ").");
      final String gameId = String.valueOf(created.get("game_id"));
      final Map<String, Object> about = server.get("/api/v1/games/" + Adjudicator.path(gameId), (String) own);
      Settings.keep(gameId, chosenScenario, server.base(), chosenSide, (String) own);
      adj.checks.waiting.read(gameId, about);
      adj.catchUp().know(gameId, 0);
      final String publicUrl = String.valueOf(about.getOrDefault("public_url", server.base()));
      EventThread.call(() -> {
        adj.change(adj.played().withScenario(chosenScenario).withGameId(gameId).withServer(publicUrl));
        Chat.say("this game is recorded game " + gameId + " (" + adj.scenarioName(chosenScenario) + ") at " + publicUrl
                 + ": the server rolls and records its checks. Side " + adj.info().sideName(chosenSide) + " is played here; the other "
                 + "sides join with their own tokens (Adjudicator > Join recorded game).");
        adj.announceSession();
        return null;
      });
      return Answers.ok("game_id", gameId, "scenario", chosenScenario, "side", chosenSide, "your_token", own,
                "tokens_for_others", tokens, "public_url", publicUrl);
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /**
   * {@link #joinRecordedGame}, at {@code address} ("": the recorded game's own server, as the game
   * says, else the address set; the chat says which when they differ); a refusal shown in a dialog
   * of its own when {@code showProblem} (the menu's join dialog shows it itself, with what was
   * typed). The answer says when the token's side is not the side taken in VASSAL ("warning").
   */
  Map<String, Object> join(String gameId, String token, String address, boolean showProblem) {
    EventThread.requireOff();
    final String id = gameId.trim();
    final String secret = token.trim();
    try {
      if (id.isEmpty() || secret.isEmpty()) throw new Server.Problem(0, "Game id and token", "Give the recorded game's id and your token.");
      final String chosen = address.isBlank() ? EventThread.call(() -> adj.joinServer(id)) : address.trim();
      final String preferred = Settings.server();
      if (address.isBlank() && !Server.same(chosen, preferred)) {
        EventThread.call(() -> {
          Chat.local("joining recorded game " + id + " at its own server " + chosen + " (as this game says), not at "
                     + preferred + " (your address, Adjudicator > Connect).");
          return null;
        });
      }
      final Server server = new Server(chosen);
      final Map<String, Object> about = server.get("/api/v1/games/" + Adjudicator.path(id), secret);
      if (!adj.info().game.equals(about.get("system"))) {
        throw new Server.Problem(0, "Another game", "Recorded game " + id + " is of " + about.get("system") + ", not " + adj.info().game + ".");
      }
      final String role = String.valueOf(about.get("role"));
      if (Adjudicator.OBSERVER.equals(role)) return joinAsObserver(id, secret, server, about);
      if (!Boolean.TRUE.equals(about.get("may_roll"))) {
        throw new Server.Problem(0, "The game is closed", "Recorded game " + id + " is " + about.get("status") + ": no more checks are rolled in it.");
      }
      final String scenario = String.valueOf(about.get("scenario"));
      final PlayedGame now = EventThread.call(adj::played);
      if (now.known() && !now.scenario.equals(scenario)) {
        throw new Server.Problem(0, "Another scenario", "Recorded game " + id + " is " + adj.scenarioName(scenario) + "; this game is "
                                 + adj.scenarioName(now.scenario) + ". Load the game that belongs to it.");
      }
      if (now.recorded() && !now.gameId.equals(id)) {
        throw new Server.Problem(0, "Another recorded game", "This game is recorded game " + now.gameId + ", not " + id
                                 + ". Load the game that belongs to " + id + ", or start its scenario anew.");
      }
      Settings.keep(id, scenario, server.base(), role, secret);
      adj.checks.waiting.read(id, about);
      adj.catchUp().know(id, about.get("records") instanceof Number ? ((Number) about.get("records")).longValue() - 1 : 0);
      final String publicUrl = String.valueOf(about.getOrDefault("public_url", server.base()));
      final String seat = EventThread.call(adj::mySide);
      final String warning = seat == null || seat.equals(role) ? ""
        : "This token is " + adj.info().sideName(role) + "'s, but you took " + adj.info().sideName(seat) + " in VASSAL: your checks are "
          + "asked as " + adj.info().sideName(role) + " (the token's side). Take " + adj.info().sideName(role) + " in VASSAL, or join with "
          + adj.info().sideName(seat) + "'s token.";
      EventThread.call(() -> {
        if (!now.recorded()) {
          adj.change(adj.played().withScenario(scenario).withGameId(id).withServer(publicUrl));
          Chat.say("this game is recorded game " + id + " (" + adj.scenarioName(scenario) + ") at " + publicUrl
                   + ": the server rolls and records its checks.");
        }
        else if (adj.played().server.isEmpty()) {
          adj.change(adj.played().withServer(publicUrl));  // a game of an older extension learns its server
        }
        adj.announceSession();
        // to everyone at the board (the creator learns that a side joined) and into the log: no token
        Chat.say("the " + adj.info().sideName(role) + " player joined recorded game " + id + ".");
        if (!warning.isEmpty()) Chat.local(warning);
        return null;
      });
      try {
        adj.catalog();  // the checks of the game's own server (the address set may be another's, or none)
      }
      catch (Server.Problem p) {
        // the first right-click offers to load them
      }
      return Answers.ok("game_id", id, "scenario", scenario, "side", role, "public_url", publicUrl, "warning", warning);
    }
    catch (Server.Problem p) {
      return showProblem ? adj.failed(p, secret) : Answers.refusal(Answers.scrubTokens(Answers.scrub(p, secret)));
    }
  }

  /**
   * The observer's token joined: it reads the recorded game this game already is (a file loaded, a
   * room synchronised) — its rulings in Rulings of this game, each in its window — and rolls
   * nothing: checks stay calculations, and the game's state is left as it is (an observer binds no
   * game). Off the event thread.
   */
  private Map<String, Object> joinAsObserver(String id, String secret, Server server, Map<String, Object> about)
      throws Server.Problem {
    final PlayedGame now = EventThread.call(adj::played);
    if (!now.recorded()) {
      throw new Server.Problem(0, "An observer's token", "That token is the observer's: it reads recorded game " + id
                               + " and rolls nothing. Load the game's file or join its room first, then join with it to read "
                               + "its rulings; to play, join with your side's token.");
    }
    if (!now.gameId.equals(id)) {
      throw new Server.Problem(0, "Another recorded game", "This game is recorded game " + now.gameId + ", not " + id + ".");
    }
    final String scenario = String.valueOf(about.get("scenario"));
    Settings.keep(id, scenario, server.base(), Adjudicator.OBSERVER, secret);
    EventThread.call(() -> {
      Chat.local("you follow recorded game " + id + " as its observer: Adjudicator > Rulings of this game lists its rulings "
                 + "(read-only); checks are calculations.");
      return null;
    });
    return Answers.ok("game_id", id, "scenario", scenario, "side", Adjudicator.OBSERVER, "public_url",
                      String.valueOf(about.getOrDefault("public_url", server.base())), "warning", "");
  }

  /** Forgets this player's token of the recorded game this game names (without asking: the menu asks first). */
  Map<String, Object> leave() {
    try {
      final ActiveGame a = EventThread.anywhere(adj::reading);
      if (a == null) return Answers.ok();
      Settings.forget(a.gameId, a.side);
      EventThread.anywhere(() -> {
        Chat.local("your token of recorded game " + a.gameId + " is forgotten: checks are calculations until you join again.");
        return null;
      });
      return Answers.ok("game_id", a.gameId, "side", a.side);
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /** Says which scenario this game is (when it does not say), for the other players and the log too. */
  Map<String, Object> setScenario(String scenario) {
    try {
      EventThread.anywhere(() -> {
        if (adj.played().recorded()) throw new Server.Problem(0, "A recorded game", "This game is recorded game " + adj.played().gameId + ": its scenario is the recorded game's.");
        adj.change(adj.played().withScenario(scenario));
        Chat.say("this game is " + adj.scenarioName(scenario) + ".");
        return null;
      });
      return Answers.ok("scenario", scenario);
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /**
   * Where a log of this game is replayed in the browser: the recorded game's replay at the
   * server's public address (the page asks for the player's token), else the game's replay of
   * any log at the server checks go to. Off the event thread (asks the server its public address).
   */
  Map<String, Object> replayAddress() {
    EventThread.requireOff();
    try {
      final ActiveGame a = EventThread.call(adj::active);
      if (a == null) return Answers.ok("url", Settings.server().replaceAll("/+$", "") + "/systems/" + Adjudicator.path(adj.info().game) + "/replay");
      return Answers.ok("url", gamePage(a, "replay"));
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /**
   * The after-action report of the recorded game this player joined, at the server's public
   * address (the page asks for the player's token; once the game is closed a side may make it
   * public); a calculation has no report. Off the event thread (asks the server its public address).
   */
  Map<String, Object> reportAddress() {
    EventThread.requireOff();
    try {
      final ActiveGame a = EventThread.call(adj::reading);  // the observer's token reads it too
      if (a == null) {
        return adj.failed(new Server.Problem(0, "No recorded game", "The after-action report is a recorded game's: join the "
                                             + "game first (Adjudicator > Join recorded game...)."));
      }
      return Answers.ok("url", gamePage(a, "report"));
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /** A page of the recorded game at the server's public address (the server says it). Off the event thread. */
  private static String gamePage(ActiveGame a, String page) throws Server.Problem {
    final Map<String, Object> about = new Server(a.server).get("/api/v1/games/" + Adjudicator.path(a.gameId), a.token);
    final String base = String.valueOf(about.getOrDefault("public_url", a.server)).replaceAll("/+$", "");
    return base + "/games/" + Adjudicator.path(a.gameId) + "/" + page;
  }

  /** What the extension knows now: the game's scenario and recorded game, the side asking, the server. */
  Map<String, Object> status() {
    try {
      return EventThread.anywhere(() -> {
        final ActiveGame a = adj.active();
        return Answers.ok("scenario", adj.played().scenario, "game_id", adj.played().gameId, "recorded", a != null, "side",
                  a != null ? a.side : adj.mySide(), "server", a != null ? a.server : Settings.server(),
                  "checks_loaded", adj.loadedCatalog() != null, "stand_ins_stated", adj.played().standInsStated);
      });
    }
    catch (Server.Problem p) {
      return adj.failed(p);
    }
  }

  /** The chat says what a game that has started is to the extension ({@code was}: the recorded game the last one was). Event thread. */
  void sayStarted(String was) {
    if (adj.played().recorded()) {
      final ActiveGame a = adj.active();
      if (a != null) {
        Chat.local("this game is recorded game " + a.gameId + " (" + adj.scenarioName(a.scenario) + ") at " + a.server
                   + ": you play " + adj.info().sideName(a.side) + "; the server rolls and records its checks.");
      }
      else {
        Chat.local("this game is recorded game " + adj.played().gameId + (adj.played().server.isEmpty() ? "" : " at " + adj.played().server)
                   + ": to roll in it, join it (Adjudicator > Join recorded game; the game id" + (adj.played().server.isEmpty() ? " is"
                   : " and its server are") + " filled in). Until then checks are calculations.");
      }
    }
    else if (!was.isEmpty()) {
      Chat.local("this game is not recorded game " + was + ": checks are calculations with your own dice until you create "
                 + "or join a recorded game for it.");
    }
    if (!adj.played().known()) {
      Chat.local("which scenario is this game? The checks need it: Adjudicator > Scenario of this game.");
    }
  }
}
