package korea.adjudicator;

import java.awt.Component;
import java.lang.reflect.InvocationTargetException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

import javax.swing.JButton;
import javax.swing.JOptionPane;
import javax.swing.SwingUtilities;
import javax.swing.SwingWorker;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

import VASSAL.build.Buildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.GameComponent;
import VASSAL.build.module.PlayerRoster;
import VASSAL.command.Command;
import VASSAL.command.CommandEncoder;
import VASSAL.counters.GamePiece;

/**
 * The Adjudicator extension: a toolbar menu (connect, create or join a recorded game, every
 * check of the game; Menu), right-click entries on units (PieceMenu), the form of a check
 * (Asking, CheckForm), and what the VASSAL game says it is (PlayedGame, kept in the game's own
 * state and restored with it). The server rules; its transcript goes to the chat as a chat
 * command (Chat), so it is in the log and reaches an online opponent. Network calls run off the
 * event thread with bounded timeouts (Server); a failure is shown and nothing goes into the log.
 *
 * A recorded game belongs to the VASSAL game it was created or joined in: the game names it
 * (PlayedGame.gameId), the player's preferences hold the tokens of the recorded games they play
 * (Settings), and a check is recorded only when the game being played names a recorded game
 * this player holds a token for. Another game, or a save of another game, names another one
 * (or none), and the chat says so.
 *
 * The public methods below are what the menus do, without the dialogs that ask for input; the
 * benchmark and scripts drive the extension through them in the real engine. They wait for the
 * server, so they must not be called on the event thread.
 */
public final class Adjudicator implements Buildable, GameComponent, CommandEncoder {
  private ModuleInfo info = ModuleInfo.none();
  private BoardReader reader = new BoardReader(info);
  private final PieceMenu pieceMenu = new PieceMenu(this);
  private volatile Catalog catalog;
  private volatile String catalogServer = "";
  private PlayedGame played = PlayedGame.none();
  /**
   * This player's own log session: the log he is writing now, begun by him (null: none). Never
   * taken from a state another player sends: in live play each player keeps his own log.
   */
  private PlayedGame.LogSession mine;
  private List<String> mineChain = List.of();
  /** The recorded game the last game played was (so the next one can say it is not). */
  private String endedRecordedGame = "";
  /** The log session (and live session) whose line this player's log already shows. */
  private String announcedSession = "";
  /** Where this player sat at the last look (live play: a room of a VASSAL server). */
  private Live.Seat seat = Live.Seat.NONE;
  private final CatchUp catchUp = new CatchUp(this);
  /** The rulings delivered in this session, by their tag ("[ADJ g#4]"), the last one last: the ruling window's. */
  private final Map<String, Ruling> rulings = new LinkedHashMap<>();
  private JButton button;

  /**
   * The recorded game checks go to now: its id, scenario, the side whose token is used, the
   * token, the server, and the log session a check asked now is made in (null: no log is kept).
   */
  static final class Active {
    final String gameId;
    final String scenario;
    final String side;
    final String token;
    final String server;
    final Map<String, Object> logSession;

    Active(String gameId, String scenario, String side, String token, String server, Map<String, Object> logSession) {
      this.gameId = gameId;
      this.scenario = scenario;
      this.side = side;
      this.token = token;
      this.server = server;
      this.logSession = logSession;
    }
  }

  // ---- the component -------------------------------------------------------------------

  @Override
  public void build(Element e) {
    if (e == null) return;
    info = ModuleInfo.of(e);
    reader = new BoardReader(info);
  }

  @Override
  public Element getBuildElement(Document doc) {
    final Element e = doc.createElement(getClass().getName());
    info.write(e);
    return e;
  }

  @Override
  public void addTo(Buildable parent) {
    final GameModule g = GameModule.getGameModule();
    Settings.register(info.defaultServer);
    button = new JButton("Adjudicator");
    button.setName("Adjudicator");
    button.setToolTipText("Ask the adjudicator: checks of " + info.game + ", recorded games");
    button.setFocusable(false);
    button.addActionListener(a -> new Menu(this).show(button));
    g.getToolBar().add(button);
    g.getGameState().addGameComponent(this);
    g.addCommandEncoder(this);
    if (g.getPlayerRoster() != null) g.getPlayerRoster().addSideChangeListenerToInstance((was, now) -> sideChanged());
    loadCatalogInBackground(null);  // the checks are there by the first right-click
    ChatLinks.install(this);
    Live.listen(this::seatChanged);
  }

  /** The player took another side in VASSAL: the chat says which side checks are asked as (a token's side is the server's). */
  private void sideChanged() {
    final Active a = active();
    final String now = mySide();
    if (a == null || now == null || now.equals(a.side)) return;
    Chat.local("you play " + info.sideName(now) + " in VASSAL, but your token of recorded game " + a.gameId + " is "
               + info.sideName(a.side) + "'s: checks are asked as " + info.sideName(a.side) + " until you join with "
               + info.sideName(now) + "'s token.");
  }

  @Override
  public void add(Buildable child) {
    // no children
  }

  @Override
  public void setup(boolean gameStarting) {
    if (gameStarting) {
      pieceMenu.install();
      ChatLinks.install(this);
      Live.listen(this::seatChanged);
      gameStarted();
    }
    else {  // a game ends (closed, or cleared before another loads: then the one that ended is kept)
      final Active a = active();
      if (a != null) endedRecordedGame = a.gameId;
      played = PlayedGame.none();
      mine = null;
      mineChain = List.of();
      announcedSession = "";
      catchUp.gameEnded();
    }
  }

  /**
   * What this game says it is, written into every save, at the start of every log and into the
   * state a player synchronising in a room receives, with the position's place in the chain of
   * logs. Asked while a log begins, it begins this player's new log session (LogSessions), whose
   * line the log then begins with.
   */
  @Override
  public Command getRestoreCommand() {
    if (LogSessions.beginning()) {
      played = played.withNewSession(LogSessions.newId(), LogSessions.positionDigest());
      mine = played.session;
      mineChain = played.chain;
      SwingUtilities.invokeLater(this::announceSession);  // once the engine has taken the log's beginning
    }
    else if (mine != null && LogSessions.logging()) {
      played = played.withSession(mine, mineChain);  // a save while logging: the position is this log's
    }
    return new PlayedGame.Change(this, played, true);
  }

  /**
   * The log's first line names its session and the sessions before it, once the game is a
   * recorded game (it may become one later in the log: then at that moment), and again with its
   * live session when the game goes live while the log is kept. Event thread.
   */
  void announceSession() {
    if (mine == null || !played.recorded() || !LogSessions.logging()) return;
    final String said = mine.id + " " + (mine.live == null ? "" : mine.live);
    if (said.equals(announcedSession)) return;
    announcedSession = said;
    Chat.post(List.of(LogSessions.line(played.gameId, mine, mineChain, askingSide())));
    catchUp.logDelivered();  // rulings caught up before this log began go into it, after its line
  }

  /** The log session a ruling asked now is made in (this player's own), or null when no log is kept. Event thread. */
  Map<String, Object> logSession() {
    return mine != null && LogSessions.logging() ? mine.toJson() : null;
  }

  @Override
  public Command decode(String command) {
    final PlayedGame state = PlayedGame.decode(command);
    if (state != null) return new PlayedGame.Change(this, state, state.saysPosition);
    return OwnerAsked.decode(this, command);
  }

  @Override
  public String encode(Command c) {
    if (c instanceof PlayedGame.Change) return ((PlayedGame.Change) c).encoded();
    return c instanceof OwnerAsked ? ((OwnerAsked) c).encoded() : null;
  }

  // ---- what the game is ----------------------------------------------------------------

  /**
   * Sets what the game says it is: from its saved state, a log or a synchronisation (with the
   * position's place in the chain of logs), or from another player (without: it leaves this
   * player's log session and the position's as they are). Event thread.
   */
  void played(PlayedGame state) {
    played = state.saysPosition ? state : state.withPositionOf(played);
    if (mine != null && !played.live.isEmpty() && !played.live.equals(mine.live)) {
      mine = mine.withLive(played.live);  // the game went live while this log was kept: its line says so
      announceSession();
    }
  }

  PlayedGame played() {
    return played;
  }

  /** Changes what the game says it is: here, for the other players, and in the log. Event thread. */
  void change(PlayedGame state) {
    if (state.equals(played)) return;
    final Command c = new PlayedGame.Change(this, state, false);
    c.execute();
    GameModule.getGameModule().sendAndLog(c);
  }

  // ---- live play -------------------------------------------------------------------------

  /**
   * The room connection changed (Live): in a game room, the room's owner names the sitting's live
   * session when the game has none (sent to the room: every player's log of it names it); when this
   * player comes back to the room, or another player enters it, each catches up from the ledger the
   * rulings posted while not everyone was there (CatchUp). Event thread.
   */
  void seatChanged() {
    final Live.Seat was = seat;
    seat = Live.now();
    if (!seat.inRoom || !GameModule.getGameModule().getGameState().isGameStarted()) return;
    if (seat.owner && played.live.isEmpty()) change(played.withLive(LogSessions.newId()));
    if (!was.inRoom || !was.room.equals(seat.room) || seat.players > was.players) catchUp.start();
  }

  /**
   * A game has started (a setup, a save, a log, a new game, a synchronisation in a room): the chat
   * says what it is to the extension. A game started outside a room is no sitting's: its live
   * session, if the save had one, is for the next sitting to name anew.
   */
  private void gameStarted() {
    final String was = endedRecordedGame;
    endedRecordedGame = "";
    seat = Live.now();
    if (!seat.inRoom && !played.live.isEmpty()) played = played.withLive("");
    else if (seat.inRoom) catchUp.start();  // a synchronisation: what was posted while this player was away
    if (played.recorded()) {
      final Active a = active();
      if (a != null) {
        Chat.local("this game is recorded game " + a.gameId + " (" + scenarioName(a.scenario) + ") at " + a.server
                   + ": you play " + info.sideName(a.side) + "; the server rolls and records its checks.");
      }
      else {
        Chat.local("this game is recorded game " + played.gameId + (played.server.isEmpty() ? "" : " at " + played.server)
                   + ": to roll in it, join it (Adjudicator > Join recorded game; the game id" + (played.server.isEmpty() ? " is"
                   : " and its server are") + " filled in). Until then checks are calculations.");
      }
    }
    else if (!was.isEmpty()) {
      Chat.local("this game is not recorded game " + was + ": checks are calculations with your own dice until you create "
                 + "or join a recorded game for it.");
    }
    if (!played.known()) {
      Chat.local("which scenario is this game? The checks need it: Adjudicator > Scenario of this game.");
    }
  }

  /** The recorded game checks go to now, or null: the game names one and this player holds a token of it. Event thread. */
  Active active() {
    if (!played.recorded()) return null;
    final Settings.Kept kept = Settings.game(played.gameId);
    if (kept == null) return null;
    final String vassalSide = mySide();
    String side = vassalSide != null && kept.tokens.containsKey(vassalSide) ? vassalSide : null;
    if (side == null) side = kept.tokens.keySet().stream().filter(s -> !OBSERVER.equals(s)).findFirst().orElse(null);
    if (side == null) return null;  // no side's token: checks are calculations (the observer's reads, never rolls)
    return activeAs(kept, side);
  }

  /** The observer's side name (a token that reads a recorded game and rolls nothing). */
  static final String OBSERVER = "observer";

  /**
   * The recorded game this player may read: {@link #active} (a side's token), else the observer's
   * token of the game this game names; null when he holds neither. What Rulings of this game reads.
   */
  Active reading() {
    final Active a = active();
    if (a != null || !played.recorded()) return a;
    final Settings.Kept kept = Settings.game(played.gameId);
    return kept != null && kept.tokens.containsKey(OBSERVER) ? activeAs(kept, OBSERVER) : null;
  }

  private Active activeAs(Settings.Kept kept, String side) {
    final String scenario = played.known() ? played.scenario : kept.scenario;
    return new Active(played.gameId, scenario, side, kept.tokens.get(side), kept.server.isEmpty() ? Settings.server() : kept.server,
                      logSession());
  }

  /** The scenario being played, or null when the game does not say (never a default). */
  String scenario() {
    return played.known() ? played.scenario : null;
  }

  /**
   * The side a check is asked for: a side report's unit's side ("Supply of this side"); else the
   * recorded game's (its token's); else the side taken in VASSAL; else the attackers' side.
   */
  String sideAsking(Catalog.Check c, Board.Context ctx) {
    if (c.kind() == Catalog.Kind.SIDE_REPORT && ctx.unit != null) return ctx.unit.side;
    final String mine = askingSide();
    if (mine != null) return mine;
    final List<Board.Unit> attackers = Board.attackers(ctx);
    if (!attackers.isEmpty()) return attackers.get(0).side;
    return ctx.unit == null ? null : ctx.unit.side;
  }

  /** The side this player asks as: the recorded game's token's, else the side taken in VASSAL; null when neither. */
  String askingSide() {
    final Active a = active();
    return a != null ? a.side : mySide();
  }

  /** The request members the board fills for a check and a context. Event thread. */
  Map<String, Object> boardPart(Catalog.Check c, Board.Context ctx) {
    final String scenario = scenario();
    final Catalog known = catalog;
    final boolean byTurn = c.schema.roles().contains("turn") || c.schema.roles().contains("month");
    final Integer turn = scenario == null || known == null || !byTurn ? null : BoardReader.turn(known.scenarios.get(scenario));
    final String month = known == null ? null : known.month(scenario, turn);
    final Board board = new Board(reader::units, scenario, turn, month, sideAsking(c, ctx), reader::marks)
      .withAsideBoxes(info.asideBoxes.keySet());
    return board.fill(c.schema, ctx);
  }

  // ---- what the menus do (also called by scripts) ------------------------------------------

  /** Sets the server address and loads its checks for this game: {ok, checks} or {ok: false, title, detail}. */
  public Map<String, Object> connect(String address) {
    requireOffEventThread();
    try {
      new Server(address);
      Settings.setServer(address.trim());
      final Catalog c = catalog();
      return ok("server", Settings.server(), "checks", c.checks.size());
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /**
   * Creates a recorded game of this game's scenario ("" = the one the game says; it must say
   * one) for a side ("" = the side taken in VASSAL); keeps that side's token in the preferences,
   * binds this VASSAL game to it (logged and sent: no token) and answers the tokens: this
   * player's own (to keep) and the others' (to send).
   */
  public Map<String, Object> createRecordedGame(String scenario, String side) {
    requireOffEventThread();
    try {
      final String chosenScenario = scenario.isEmpty() ? onEventThread(this::scenario) : scenario;
      final String chosenSide = side.isEmpty() ? onEventThread(this::mySide) : side;
      if (chosenScenario == null) {
        throw new Server.Problem(0, "Which scenario?", "This game does not say which scenario it is: choose it (Adjudicator > "
                                 + "Scenario of this game), or start the scenario's predefined setup.");
      }
      if (chosenSide == null) throw new Server.Problem(0, "Which side?", "Take a side (or name the side) before creating a recorded game.");
      final String current = onEventThread(this::scenario);
      if (current != null && !current.equals(chosenScenario)) {
        throw new Server.Problem(0, "Another scenario", "This game is " + scenarioName(current) + ", not " + scenarioName(chosenScenario) + ".");
      }
      final Server server = server();
      final Map<String, Object> body = new LinkedHashMap<>();
      body.put("system", info.game);
      body.put("scenario", chosenScenario);
      final Map<String, Object> created = server.post("/api/v1/games", body, null);
      final Map<String, Object> tokens = new LinkedHashMap<>(Schema.map(created.get("tokens")));
      final Object own = tokens.remove(chosenSide);
      if (!(own instanceof String)) throw new Server.Problem(0, "No such side", info.game + " has no side '" + chosenSide + "' (sides: " + tokens.keySet() + ").");
      final String gameId = String.valueOf(created.get("game_id"));
      final Map<String, Object> about = server.get("/api/v1/games/" + path(gameId), (String) own);
      Settings.keep(gameId, chosenScenario, server.base(), chosenSide, (String) own);
      catchUp.know(gameId, 0);
      final String publicUrl = String.valueOf(about.getOrDefault("public_url", server.base()));
      onEventThread(() -> {
        change(played.withScenario(chosenScenario).withGameId(gameId).withServer(publicUrl));
        Chat.say("this game is recorded game " + gameId + " (" + scenarioName(chosenScenario) + ") at " + publicUrl
                 + ": the server rolls and records its checks. Side " + info.sideName(chosenSide) + " is played here; the other "
                 + "sides join with their own tokens (Adjudicator > Join recorded game).");
        announceSession();
        return null;
      });
      return ok("game_id", gameId, "scenario", chosenScenario, "side", chosenSide, "your_token", own,
                "tokens_for_others", tokens, "public_url", publicUrl);
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /**
   * Joins a recorded game with a token: the server says whose token it is (its side) and of
   * which game and scenario; an observer's token, a closed game, another game's or another
   * scenario's are refused with the reason. Binds this VASSAL game to it when it names none.
   */
  public Map<String, Object> joinRecordedGame(String gameId, String token) {
    return join(gameId, token, "", true);
  }

  /**
   * The server a join sends the token to when the player does not choose: the recorded game's
   * own, as the game says (a player who synchronised in a room, or loaded a file, gets it with the
   * game), else the address set (Adjudicator > Connect). Event thread.
   */
  String joinServer(String gameId) {
    return gameId.equals(played.gameId) && !played.server.isEmpty() ? played.server : Settings.server();
  }

  /**
   * {@link #joinRecordedGame}, at {@code address} ("": the recorded game's own server, as the game
   * says, else the address set; the chat says which when they differ); a refusal shown in a dialog
   * of its own when {@code showProblem} (the menu's join dialog shows it itself, with what was
   * typed). The answer says when the token's side is not the side taken in VASSAL ("warning").
   */
  Map<String, Object> join(String gameId, String token, String address, boolean showProblem) {
    requireOffEventThread();
    final String id = gameId.trim();
    final String secret = token.trim();
    try {
      if (id.isEmpty() || secret.isEmpty()) throw new Server.Problem(0, "Game id and token", "Give the recorded game's id and your token.");
      final String chosen = address.isBlank() ? onEventThread(() -> joinServer(id)) : address.trim();
      final String preferred = Settings.server();
      if (address.isBlank() && !Server.same(chosen, preferred)) {
        onEventThread(() -> {
          Chat.local("joining recorded game " + id + " at its own server " + chosen + " (as this game says), not at "
                     + preferred + " (your address, Adjudicator > Connect).");
          return null;
        });
      }
      final Server server = new Server(chosen);
      final Map<String, Object> about = server.get("/api/v1/games/" + path(id), secret);
      if (!info.game.equals(about.get("system"))) {
        throw new Server.Problem(0, "Another game", "Recorded game " + id + " is of " + about.get("system") + ", not " + info.game + ".");
      }
      final String role = String.valueOf(about.get("role"));
      if (OBSERVER.equals(role)) return joinAsObserver(id, secret, server, about);
      if (!Boolean.TRUE.equals(about.get("may_roll"))) {
        throw new Server.Problem(0, "The game is closed", "Recorded game " + id + " is " + about.get("status") + ": no more checks are rolled in it.");
      }
      final String scenario = String.valueOf(about.get("scenario"));
      final PlayedGame now = onEventThread(this::played);
      if (now.known() && !now.scenario.equals(scenario)) {
        throw new Server.Problem(0, "Another scenario", "Recorded game " + id + " is " + scenarioName(scenario) + "; this game is "
                                 + scenarioName(now.scenario) + ". Load the game that belongs to it.");
      }
      if (now.recorded() && !now.gameId.equals(id)) {
        throw new Server.Problem(0, "Another recorded game", "This game is recorded game " + now.gameId + ", not " + id
                                 + ". Load the game that belongs to " + id + ", or start its scenario anew.");
      }
      Settings.keep(id, scenario, server.base(), role, secret);
      catchUp.know(id, about.get("records") instanceof Number ? ((Number) about.get("records")).longValue() - 1 : 0);
      final String publicUrl = String.valueOf(about.getOrDefault("public_url", server.base()));
      final String seat = onEventThread(this::mySide);
      final String warning = seat == null || seat.equals(role) ? ""
        : "This token is " + info.sideName(role) + "'s, but you took " + info.sideName(seat) + " in VASSAL: your checks are "
          + "asked as " + info.sideName(role) + " (the token's side). Take " + info.sideName(role) + " in VASSAL, or join with "
          + info.sideName(seat) + "'s token.";
      onEventThread(() -> {
        if (!now.recorded()) {
          change(played.withScenario(scenario).withGameId(id).withServer(publicUrl));
          Chat.say("this game is recorded game " + id + " (" + scenarioName(scenario) + ") at " + publicUrl
                   + ": the server rolls and records its checks.");
        }
        else if (played.server.isEmpty()) {
          change(played.withServer(publicUrl));  // a game of an older extension learns its server
        }
        announceSession();
        // to everyone at the board (the creator learns that a side joined) and into the log: no token
        Chat.say("the " + info.sideName(role) + " player joined recorded game " + id + ".");
        if (!warning.isEmpty()) Chat.local(warning);
        return null;
      });
      try {
        catalog();  // the checks of the game's own server (the address set may be another's, or none)
      }
      catch (Server.Problem p) {
        // the first right-click offers to load them
      }
      return ok("game_id", id, "scenario", scenario, "side", role, "public_url", publicUrl, "warning", warning);
    }
    catch (Server.Problem p) {
      return showProblem ? failed(p, secret) : refusal(scrubTokens(scrub(p, secret)));
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
    final PlayedGame now = onEventThread(this::played);
    if (!now.recorded()) {
      throw new Server.Problem(0, "An observer's token", "That token is the observer's: it reads recorded game " + id
                               + " and rolls nothing. Load the game's file or join its room first, then join with it to read "
                               + "its rulings; to play, join with your side's token.");
    }
    if (!now.gameId.equals(id)) {
      throw new Server.Problem(0, "Another recorded game", "This game is recorded game " + now.gameId + ", not " + id + ".");
    }
    final String scenario = String.valueOf(about.get("scenario"));
    Settings.keep(id, scenario, server.base(), OBSERVER, secret);
    onEventThread(() -> {
      Chat.local("you follow recorded game " + id + " as its observer: Adjudicator > Rulings of this game lists its rulings "
                 + "(read-only); checks are calculations.");
      return null;
    });
    return ok("game_id", id, "scenario", scenario, "side", OBSERVER, "public_url",
              String.valueOf(about.getOrDefault("public_url", server.base())), "warning", "");
  }

  /** Forgets this player's token of the recorded game this game names (without asking: the menu asks first). */
  public Map<String, Object> leaveRecordedGame() {
    try {
      final Active a = onEventThreadAnywhere(this::reading);
      if (a == null) return ok();
      Settings.forget(a.gameId, a.side);
      onEventThreadAnywhere(() -> {
        Chat.local("your token of recorded game " + a.gameId + " is forgotten: checks are calculations until you join again.");
        return null;
      });
      return ok("game_id", a.gameId, "side", a.side);
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /** Says which scenario this game is (when it does not say), for the other players and the log too. */
  public Map<String, Object> setScenario(String scenario) {
    try {
      onEventThreadAnywhere(() -> {
        if (played.recorded()) throw new Server.Problem(0, "A recorded game", "This game is recorded game " + played.gameId + ": its scenario is the recorded game's.");
        change(played.withScenario(scenario));
        Chat.say("this game is " + scenarioName(scenario) + ".");
        return null;
      });
      return ok("scenario", scenario);
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /** What the extension knows now: the game's scenario and recorded game, the side asking, the server. */
  public Map<String, Object> status() {
    try {
      return onEventThreadAnywhere(() -> {
        final Active a = active();
        return ok("scenario", played.scenario, "game_id", played.gameId, "recorded", a != null, "side",
                  a != null ? a.side : mySide(), "server", a != null ? a.server : Settings.server(),
                  "checks_loaded", catalog != null, "stand_ins_stated", played.standInsStated);
      });
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /**
   * Asks a check as its menu entry does, without the form, with the piece {@code pieceId} as the
   * unit pointed at ("" = none) and the units selected now as the selection; {@code playerJson}
   * holds what the player would enter (a JSON object of request members). Posts the ruling and
   * answers {ok, lines, seq, request, ms: {board, server, chat}} (where the time went); a failure
   * is shown and {ok: false, title, detail}.
   */
  public Map<String, Object> check(String checkName, String pieceId, String playerJson) {
    requireOffEventThread();
    try {
      final Catalog.Check c = catalog().check(checkName);
      if (c == null) throw new Server.Problem(0, "No such check", info.game + " has no check '" + checkName + "'.");
      final long started = System.nanoTime();
      final Active[] recorded = new Active[1];
      final String[] side = new String[1];
      final Map<String, Object> request = onEventThread(() -> {
        final GamePiece target = pieceId.isEmpty() ? null : BoardReader.pieceById(pieceId);
        if (!pieceId.isEmpty() && target == null) throw new IllegalArgumentException("no piece with id " + pieceId);
        recorded[0] = active();
        side[0] = askingSide();
        return boardPart(c, reader.context(target, BoardReader.selection()));
      });
      if (!playerJson.isBlank()) request.putAll(Json.parseObject(playerJson));
      final long read = System.nanoTime();
      final Ruling ruling = send(c, request, "vassal-" + UUID.randomUUID(), Settings.timeoutMs(), recorded[0], side[0]);
      final long answered = System.nanoTime();
      onEventThread(() -> {
        Asking.deliver(this, ruling, false);
        return null;
      });
      final Map<String, Object> ms = new LinkedHashMap<>();
      ms.put("board", (read - started) / 1e6);
      ms.put("server", (answered - read) / 1e6);
      ms.put("chat", (System.nanoTime() - answered) / 1e6);
      return ok("lines", ruling.lines, "private_lines", ruling.privateLines, "details", ruling.details, "seq", ruling.seq,
                "request", request, "ms", ms, "notices", ruling.notices);
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /**
   * The changes the recorded game's rulings order to this player's pieces that only he can make
   * (his pieces were hidden from the side that asked: the opponent's ruling eliminated his block),
   * as the server lists them (GET /games/{id}/board-changes): {ok, rulings: [{seq, headline,
   * piece_changes}]}. Off the event thread.
   */
  public Map<String, Object> owedChanges() {
    requireOffEventThread();
    try {
      final Active a = onEventThread(this::active);
      if (a == null) throw new Server.Problem(0, "Not a recorded game", "This game is no recorded game you hold a token of: "
                                              + "no ruling of the server changes your pieces.");
      final Map<String, Object> answer = new Server(a.server).get("/api/v1/games/" + path(a.gameId) + "/board-changes", a.token);
      return ok("game_id", a.gameId, "rulings", Schema.list(answer.get("rulings")));
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /**
   * Adjudicator > Apply the rulings' changes to my pieces: the changes the server lists
   * ({@link #owedChanges()}), the latest of each piece's, planned against the board (those already
   * made are "already so") and offered in one dialog; Yes runs the pieces' own commands. Event thread.
   */
  void applyOwedChangesInteractively() {
    offerOwed(null, null);
  }

  /**
   * Live play: the extension of the player who asked ruling {@code seq} (side {@code asker}) asks
   * the owner of pieces it changes that were hidden from him to apply them (OwnerAsked; CatchUp for a
   * ruling posted while this player was away). When this player holds the owner's token of that
   * recorded game, the ruling's changes to his pieces are offered now; the chat tells both players
   * when he has applied them. Event thread.
   */
  void ownerAsked(String gameId, long seq, String owner, String asker) {
    final Active a = active();
    if (a == null || !a.gameId.equals(gameId) || !a.side.equals(owner)) return;
    offerOwed(seq, asker);
  }

  /** The owed changes of every ruling ({@code onlySeq} null) or of one, offered; said in the chat when applied. */
  private void offerOwed(Long onlySeq, String asker) {
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
          showProblem(problemOf(e));
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
          : "apply the " + info.sideName(asker) + " player's ruling #" + onlySeq + " to your pieces?";
        final Asking.Offered offered = latest.isEmpty() ? Asking.Offered.NOTHING
          : Asking.offerChanges(Adjudicator.this, new ArrayList<>(latest.values()), question, null);
        if (offered == Asking.Offered.APPLIED) {
          // to both (the asker sees the change pending until now) and into the log: no piece named, the fog keeps them
          Chat.say("the " + info.sideName(active() == null ? "" : active().side) + " player applied the change"
                   + (seqs.size() == 1 ? " of ruling " : "s of rulings ") + String.join(", ", seqs) + " to his pieces.");
        }
        else if (offered == Asking.Offered.NOTHING && onlySeq == null) {
          JOptionPane.showMessageDialog(window(), "No ruling of recorded game " + answer.get("game_id")
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
  public Map<String, Object> rulingsOfThisGame() {
    requireOffEventThread();
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
      return ok("game_id", found.gameId, "rulings", out);
    }
    catch (Server.Problem p) {
      return failed(p);
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

  private GameRulings gameRulings() throws Server.Problem {
    final Active a = onEventThread(this::reading);
    if (a == null) throw new Server.Problem(0, "Not a recorded game", "This game is no recorded game you hold a token of: "
                                            + "join it to list its rulings (Adjudicator > Join recorded game).");
    final GameRulings found = new GameRulings(a.gameId);
    final Server server = new Server(a.server, Settings.timeoutMs());
    Object next = 0L;
    for (int page = 0; next instanceof Number && page < 100; page++) {
      final Map<String, Object> answer = server.get("/api/v1/games/" + path(a.gameId) + "/rulings?since="
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
          RulingsWindow.show(Adjudicator.this, found.gameId, found.rulings, found.sides);
        }
        catch (Exception e) {
          showProblem(problemOf(e));
        }
      }
    }.execute();
  }

  /** The right-click entries a unit piece offers now (their labels; one that cannot be asked yet in brackets). */
  public List<String> menuEntries(String pieceId) {
    requireOffEventThread();
    try {
      final Catalog c = catalog();
      return onEventThread(() -> {
        final List<String> labels = new ArrayList<>();
        final GamePiece p = BoardReader.pieceById(pieceId);
        if (p == null) return labels;
        for (final Catalog.Entry e : c.entries(reader.context(p, BoardReader.selection()), askingSide(), scenario())) {
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
  public Map<String, Object> chances(String checkName, String pieceId, String playerJson) {
    requireOffEventThread();
    try {
      final Catalog.Check c = catalog().check(checkName);
      if (c == null) throw new Server.Problem(0, "No such check", info.game + " has no check '" + checkName + "'.");
      final Active[] recorded = new Active[1];
      final String[] side = new String[1];
      final Map<String, Object> request = onEventThread(() -> {
        final GamePiece target = pieceId.isEmpty() ? null : BoardReader.pieceById(pieceId);
        recorded[0] = active();
        side[0] = askingSide();
        return boardPart(c, reader.context(target, BoardReader.selection()));
      });
      if (!playerJson.isBlank()) request.putAll(Json.parseObject(playerJson));
      return ok("odds", odds(c, request, recorded[0], side[0]));
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /**
   * The odds of a request (adjudicator.odds): in a recorded game the game's own (its token: the
   * server refuses what the fog of war hides from this side), else a calculation's, which says
   * the side asking ({@code side}; null: none) so the server refuses a peek the same way. Off
   * the event thread.
   */
  Map<String, Object> odds(Catalog.Check c, Map<String, Object> request, Active recorded, String side) throws Server.Problem {
    final Map<String, Object> body = new LinkedHashMap<>(request);
    body.remove("dice");
    body.remove("request_id");
    if (recorded != null) {
      return new Server(recorded.server, Settings.timeoutMs()).post("/api/v1/games/" + path(recorded.gameId) + "/" + path(c.name) + "/odds",
                                                                   body, recorded.token);
    }
    return new Server(Settings.server(), Settings.timeoutMs()).post("/api/v1/systems/" + path(info.game) + "/" + path(c.name)
                                                                    + "/odds?side=" + path(side == null ? "" : side), body, null);
  }

  /** The last ruling delivered's page (its verify address), or "" (none yet, or a calculation). */
  public String rulingPage() {
    final Ruling last = lastRuling();
    final String page = last == null ? null : last.page();
    return page == null ? "" : page;
  }

  /** Opens the last ruling's page in the desktop's browser (Browser); {ok, url} or {ok: false, ...}. */
  public Map<String, Object> openRulingPage() {
    final String url = rulingPage();
    if (url.isEmpty()) {
      return failed(new Server.Problem(0, "No ruling page", "The last ruling has no page: it was a calculation, or no check was "
                                       + "asked yet. Its lines in full: Adjudicator > The last ruling in full."));
    }
    Browser.open(url);
    return ok("url", url);
  }

  /**
   * Where a log of this game is replayed in the browser: the recorded game's replay at the
   * server's public address (the page asks for the player's token), else the game's replay of
   * any log at the server checks go to. Off the event thread (asks the server its public address).
   */
  public Map<String, Object> replayAddress() {
    requireOffEventThread();
    try {
      final Active a = onEventThread(this::active);
      if (a == null) return ok("url", Settings.server().replaceAll("/+$", "") + "/systems/" + path(info.game) + "/replay");
      final Map<String, Object> about = new Server(a.server).get("/api/v1/games/" + path(a.gameId), a.token);
      final String base = String.valueOf(about.getOrDefault("public_url", a.server)).replaceAll("/+$", "");
      return ok("url", base + "/games/" + path(a.gameId) + "/replay");
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /**
   * The after-action report of the recorded game this player joined, at the server's public
   * address (the page asks for the player's token; once the game is closed a side may make it
   * public); a calculation has no report. Off the event thread (asks the server its public address).
   */
  public Map<String, Object> reportAddress() {
    requireOffEventThread();
    try {
      final Active a = onEventThread(this::reading);  // the observer's token reads it too
      if (a == null) {
        return failed(new Server.Problem(0, "No recorded game", "The after-action report is a recorded game's: join the "
                                         + "game first (Adjudicator > Join recorded game...)."));
      }
      final Map<String, Object> about = new Server(a.server).get("/api/v1/games/" + path(a.gameId), a.token);
      final String base = String.valueOf(about.getOrDefault("public_url", a.server)).replaceAll("/+$", "");
      return ok("url", base + "/games/" + path(a.gameId) + "/report");
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /** A ruling was posted: kept for the ruling window and the chat's clicks (the last 50 of this session). Event thread. */
  void delivered(Ruling ruling) {
    final String tag = Ruling.tag(ruling.lines.get(0));
    rulings.remove(tag);
    rulings.put(tag, ruling);
    while (rulings.size() > 50) rulings.remove(rulings.keySet().iterator().next());
  }

  /** The last ruling delivered in this session, or null. */
  Ruling lastRuling() {
    Ruling last = null;
    for (final Ruling r : rulings.values()) last = r;
    return last;
  }

  /** A ruling delivered in this session by its tag ("[ADJ g#4]"), or null. */
  Ruling ruling(String tag) {
    return rulings.get(tag);
  }

  // ---- asking a check ------------------------------------------------------------------

  /**
   * Sends a check: to the recorded game when one is active (the server rolls; the request id
   * makes a repeat return the same record, never a new roll), else as a calculation. A lost
   * connection is asked once more with the same id; a timeout is the player's to repeat. A
   * recorded check carries the log session it is asked in; a calculation says the side asking
   * ({@code side}, null: none), which in a game with hidden units decides what the ruling's
   * private lines show. Off the event thread.
   */
  Ruling send(Catalog.Check c, Map<String, Object> request, String requestId, int timeoutMs, Active recorded, String side)
      throws Server.Problem {
    final Map<String, Object> answer;
    if (recorded != null) {
      final Server server = new Server(recorded.server, timeoutMs);
      final Map<String, Object> body = new LinkedHashMap<>(request);
      body.remove("dice");
      body.put("request_id", requestId);
      if (recorded.logSession != null) body.put("log_session", recorded.logSession);
      final String path = "/api/v1/games/" + path(recorded.gameId) + "/" + path(c.name) + "?transcript=1&changes=1";
      Map<String, Object> first;
      try {
        first = server.post(path, body, recorded.token);
      }
      catch (Server.Problem p) {
        if (p.status != 0 || p.timedOut) throw scrub(p, recorded.token);
        first = server.post(path, body, recorded.token);  // the same request id: never a second roll
      }
      answer = first;
    }
    else {
      answer = new Server(Settings.server(), timeoutMs).post("/api/v1/systems/" + path(info.game) + "/" + path(c.name)
                                                               + "?transcript=1&changes=1" + (side == null ? "" : "&side=" + path(side)),
                                                             request, null);
    }
    try {
      return Ruling.of(answer);
    }
    catch (IllegalArgumentException e) {
      throw new Server.Problem(0, "No transcript", "The server answered without the ruling's chat lines (is it an older adjudicator?). Nothing was posted.");
    }
  }

  /** The check's form, then the check; the ruling or the problem when it answers. Event thread. */
  void askInteractively(Catalog.Check c, Board.Context ctx) {
    new Asking(this, c, ctx).start();
  }

  // ---- the catalog of checks -------------------------------------------------------------

  /** This game's checks from the server, loaded once per server address. Off the event thread. */
  Catalog catalog() throws Server.Problem {
    final Server server = server();
    final Catalog known = catalog;
    if (known != null && server.base().equals(catalogServer)) return known;
    final Map<String, Object> systems = server.get("/api/v1/systems", null);
    try {
      catalog = Catalog.of(systems, info.game);
    }
    catch (IllegalArgumentException e) {
      throw new Server.Problem(0, "Unknown game", "The server at " + server.base() + " does not know " + info.game + ".");
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
          if (then != null) showProblem(problemOf(e));  // at start-up, a server not running yet is no news
        }
      }
    }.execute();
  }

  // ---- small helpers ---------------------------------------------------------------------

  ModuleInfo info() {
    return info;
  }

  BoardReader reader() {
    return reader;
  }

  PieceMenu pieceMenu() {
    return pieceMenu;
  }

  String gameName() {
    final Catalog c = catalog;
    return c != null && !c.name.isEmpty() ? c.name : GameModule.getGameModule().getGameName();
  }

  /** A scenario's name: the server's, else the one the module carries (no server reached yet), else its id. */
  String scenarioName(String id) {
    final Catalog c = catalog;
    final String carried = info.scenarioNames.getOrDefault(id, id);
    return c == null ? carried : c.scenarios.getOrDefault(id, carried);
  }

  /** The server checks go to now: the active recorded game's, else the address set. */
  Server server() throws Server.Problem {
    return new Server(onEventThreadAnywhere(this::serverAddress));
  }

  /** The address of {@link #server()}, as the menus name it. Event thread. */
  String serverAddress() {
    final Active a = active();
    return a != null ? a.server : Settings.server();
  }

  /** The side id of the side taken in VASSAL, or null (an observer). */
  String mySide() {
    return info.sideId(PlayerRoster.getMySide());
  }

  static String path(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static Component window() {
    return GameModule.getGameModule().getPlayerWindow();
  }

  /** The player's window as the owner of a window of ours. */
  static java.awt.Window ownerWindow() {
    final Component w = window();
    return w instanceof java.awt.Window ? (java.awt.Window) w : w == null ? null : SwingUtilities.getWindowAncestor(w);
  }

  static Map<String, Object> ok(Object... pairs) {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("ok", true);
    for (int i = 0; i + 1 < pairs.length; i += 2) m.put(String.valueOf(pairs[i]), pairs[i + 1]);
    return m;
  }

  private Map<String, Object> failed(Server.Problem p, String... secrets) {
    Server.Problem shown = p;
    for (final String s : secrets) shown = scrub(shown, s);
    shown = scrubTokens(shown);
    showProblem(shown);
    return refusal(shown);
  }

  /** {ok: false, title, detail} for a problem (no token in it). */
  private static Map<String, Object> refusal(Server.Problem p) {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("ok", false);
    m.put("title", p.title);
    m.put("detail", p.detail);
    return m;
  }

  /** A problem without any token this player holds in its text (a token never appears in a dialog, the chat or a log). */
  private static Server.Problem scrubTokens(Server.Problem p) {
    Server.Problem out = p;
    for (final Settings.Kept k : Settings.games().values()) {
      for (final String t : k.tokens.values()) out = scrub(out, t);
    }
    return out;
  }

  static Server.Problem scrub(Server.Problem p, String token) {
    if (token == null || token.isBlank()) return p;
    return new Server.Problem(p.status, p.title.replace(token, "(token)"), p.detail.replace(token, "(token)"), p.timedOut, p.errors);
  }

  Server.Problem problemOf(Exception e) {
    Throwable t = e;
    while ((t instanceof java.util.concurrent.ExecutionException || t instanceof InvocationTargetException) && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof Server.Problem) return scrubTokens((Server.Problem) t);
    return new Server.Problem(0, "Unexpected error", t.getClass().getSimpleName() + ": " + t.getMessage());
  }

  /** The problem's dialog, shown without waiting for it to close. */
  static void showProblem(Server.Problem p) {
    SwingUtilities.invokeLater(() -> JOptionPane.showMessageDialog(window(), p.detail, "Adjudicator: " + p.title,
                                                                   JOptionPane.ERROR_MESSAGE));
  }

  private static void requireOffEventThread() {
    if (SwingUtilities.isEventDispatchThread()) {
      throw new IllegalStateException("this waits for the server: call it off the event thread");
    }
  }

  /** Runs work on the event thread (where the engine's pieces live): at once when on it, else waiting for its result. */
  static <T> T onEventThreadAnywhere(Callable<T> work) throws Server.Problem {
    if (!SwingUtilities.isEventDispatchThread()) return onEventThread(work);
    try {
      return work.call();
    }
    catch (Server.Problem p) {
      throw p;
    }
    catch (Exception e) {
      throw new Server.Problem(0, "Cannot read the board", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  /** Runs work on the event thread and waits for its result (off the event thread). */
  static <T> T onEventThread(Callable<T> work) throws Server.Problem {
    final List<T> result = new ArrayList<>(1);
    final List<Exception> error = new ArrayList<>(1);
    try {
      SwingUtilities.invokeAndWait(() -> {
        try {
          result.add(work.call());
        }
        catch (Exception e) {
          error.add(e);
        }
      });
    }
    catch (InterruptedException | InvocationTargetException e) {
      throw new Server.Problem(0, "Interrupted", String.valueOf(e.getMessage()));
    }
    if (!error.isEmpty()) {
      if (error.get(0) instanceof Server.Problem) throw (Server.Problem) error.get(0);
      throw new Server.Problem(0, "Cannot read the board", error.get(0).getClass().getSimpleName() + ": " + error.get(0).getMessage());
    }
    return result.get(0);
  }
}
