package korea.adjudicator;

import java.awt.Component;
import java.lang.reflect.InvocationTargetException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import javax.swing.JButton;
import javax.swing.JOptionPane;
import javax.swing.SwingUtilities;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

import VASSAL.build.Buildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.GameComponent;
import VASSAL.build.module.PlayerRoster;
import VASSAL.command.Command;
import VASSAL.command.CommandEncoder;

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
  /** What the component hands on to (the menus, the form and the chat call them directly). */
  final RecordedGames games = new RecordedGames(this);
  final CheckCalls checks = new CheckCalls(this);
  final FromTheLedger ledger = new FromTheLedger(this);
  final SessionRulings session = new SessionRulings(this);
  private JButton button;

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
    final ActiveGame a = active();
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
      final ActiveGame a = active();
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
    checks.waiting.heard(command);
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
   * rulings posted while not everyone was there (CatchUp); one who comes into a room another owns is
   * synchronised next (the engine does so on every such join): his log is about to end, so he catches
   * up once the room's game has started (gameStarted), into the log he begins for it. Event thread.
   */
  void seatChanged() {
    final Live.Seat was = seat;
    seat = Live.now();
    if (!seat.inRoom || !GameModule.getGameModule().getGameState().isGameStarted()) return;
    if (seat.owner && played.live.isEmpty()) change(played.withLive(LogSessions.newId()));
    final boolean cameIn = !was.inRoom || !was.room.equals(seat.room);
    if (cameIn && !seat.owner && seat.players > 1) return;  // synchronised next: gameStarted catches up
    if (cameIn || seat.players > was.players) catchUp.start();
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
    games.sayStarted(was);
  }

  /**
   * The recorded game checks go to now, or null: the game names one and this player holds a side's
   * token of it (the observer's token rolls nothing: see {@link #reading}). Event thread.
   */
  ActiveGame active() {
    if (!played.recorded()) return null;
    final Settings.Kept kept = Settings.game(played.gameId);
    if (kept == null) return null;
    final String vassalSide = mySide();
    String side = vassalSide != null && kept.tokens.containsKey(vassalSide) ? vassalSide : null;
    if (side == null) side = kept.tokens.keySet().stream().filter(s -> !OBSERVER.equals(s)).findFirst().orElse(null);
    return side == null ? null : ActiveGame.of(played, kept, side, logSession());  // no side's token: checks are calculations
  }

  /** The observer's side name (a token that reads a recorded game and rolls nothing). */
  static final String OBSERVER = "observer";

  /**
   * The recorded game this player may read: {@link #active} (a side's token), else the observer's
   * token of the game this game names; null when he holds neither. What Rulings of this game reads.
   */
  ActiveGame reading() {
    final ActiveGame a = active();
    if (a != null || !played.recorded()) return a;
    final Settings.Kept kept = Settings.game(played.gameId);
    return kept != null && kept.tokens.containsKey(OBSERVER) ? ActiveGame.of(played, kept, OBSERVER, logSession()) : null;
  }

  /** The scenario being played, or null when the game does not say (never a default). */
  String scenario() {
    return played.known() ? played.scenario : null;
  }

  /** The side this player asks as: the recorded game's token's, else the side taken in VASSAL; null when neither. */
  String askingSide() {
    final ActiveGame a = active();
    return a != null ? a.side : mySide();
  }

  // ---- what the menus do (also called by scripts) ------------------------------------------

  /** Sets the server address and loads its checks for this game: {ok, checks} or {ok: false, title, detail} (RecordedGames). */
  public Map<String, Object> connect(String address) {
    return games.connect(address);
  }

  /** Creates a recorded game of a scenario for a side and binds this game to it (RecordedGames.create). */
  public Map<String, Object> createRecordedGame(String scenario, String side) {
    return games.create(scenario, side);
  }

  /** Forgets this player's token of the recorded game this game names (RecordedGames.leave). */
  public Map<String, Object> leaveRecordedGame() {
    return games.leave();
  }

  /** Says which scenario this game is (RecordedGames.setScenario). */
  public Map<String, Object> setScenario(String scenario) {
    return games.setScenario(scenario);
  }

  /** Where a log of this game is replayed in the browser (RecordedGames.replayAddress). */
  public Map<String, Object> replayAddress() {
    return games.replayAddress();
  }

  /** Where the recorded game's after-action report is, in the browser (RecordedGames.reportAddress). */
  public Map<String, Object> reportAddress() {
    return games.reportAddress();
  }

  /** Asks a check as its menu entry does, without the form (CheckCalls.check). */
  public Map<String, Object> check(String checkName, String pieceId, String playerJson) {
    return checks.check(checkName, pieceId, playerJson);
  }

  /** The chances of a check as the form's Chances button asks them, without the form (CheckCalls.chances). */
  public Map<String, Object> chances(String checkName, String pieceId, String playerJson) {
    return checks.chances(checkName, pieceId, playerJson);
  }

  /** The right-click entries a unit piece offers now (CheckCalls.menuEntries). */
  public List<String> menuEntries(String pieceId) {
    return checks.menuEntries(pieceId);
  }

  /** The changes the recorded game's rulings order to this player's pieces (FromTheLedger.owedChanges). */
  public Map<String, Object> owedChanges() {
    return ledger.owedChanges();
  }

  /** The recorded game's rulings so far, as this player's side may see them (FromTheLedger.rulingsOfThisGame). */
  public Map<String, Object> rulingsOfThisGame() {
    return ledger.rulingsOfThisGame();
  }

  /** What the extension knows now: the game's scenario and recorded game, the side asking, the server (RecordedGames). */
  public Map<String, Object> status() {
    return games.status();
  }

  /**
   * Joins a recorded game with a token: the server says whose token it is (its side) and of
   * which game and scenario; a closed game, another game's or another scenario's are refused with
   * the reason; the observer's token reads the recorded game this game already is. Binds this
   * VASSAL game to it when it names none (RecordedGames.join).
   */
  public Map<String, Object> joinRecordedGame(String gameId, String token) {
    return games.join(gameId, token, "", true);
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
   * Adjudicator > Apply the rulings' changes to my pieces: the changes the server lists
   * ({@link #owedChanges()}), the latest of each piece's, planned against the board (those already
   * made are "already so") and offered in one dialog; Yes runs the pieces' own commands. Event thread.
   */
  void applyOwedChangesInteractively() {
    ledger.offerOwed(null, null);
  }

  /**
   * Live play: the extension of the player who asked ruling {@code seq} (side {@code asker}) asks
   * the owner of pieces it changes that were hidden from him to apply them (OwnerAsked; CatchUp for a
   * ruling posted while this player was away). When this player holds the owner's token of that
   * recorded game, the ruling's changes to his pieces are offered now; the chat tells both players
   * when he has applied them. Event thread.
   */
  void ownerAsked(String gameId, long seq, String owner, String asker) {
    final ActiveGame a = active();
    if (a == null || !a.gameId.equals(gameId) || !a.side.equals(owner)) return;
    ledger.offerOwed(seq, asker);
  }

  /** The last ruling delivered's page (its verify address), or "" (SessionRulings). */
  public String rulingPage() {
    return session.rulingPage();
  }

  /** Opens the last ruling's page in the desktop's browser: {ok, url} or {ok: false, ...} (SessionRulings). */
  public Map<String, Object> openRulingPage() {
    return session.openRulingPage();
  }

  // ---- asking a check ------------------------------------------------------------------

  /** The check's form, then the check; the ruling or the problem when it answers. Event thread. */
  void askInteractively(Catalog.Check c, Board.Context ctx) {
    new Asking(this, c, ctx).start();
  }

  // ---- the catalog of checks (CheckCalls) -------------------------------------------------

  /** This game's checks from the server, loaded once per server address. Off the event thread. */
  Catalog catalog() throws Server.Problem {
    return checks.catalog();
  }

  /** The checks loaded so far, or null. */
  Catalog loadedCatalog() {
    return checks.loadedCatalog();
  }

  /** Loads the checks off the event thread; then runs {@code then} (event thread). */
  void loadCatalogInBackground(Runnable then) {
    checks.loadCatalogInBackground(then);
  }

  // ---- small helpers ---------------------------------------------------------------------

  CatchUp catchUp() {
    return catchUp;
  }

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
    final Catalog c = loadedCatalog();
    return c != null && !c.name.isEmpty() ? c.name : GameModule.getGameModule().getGameName();
  }

  /** A scenario's name: the server's, else the one the module carries (no server reached yet), else its id. */
  String scenarioName(String id) {
    final Catalog c = loadedCatalog();
    final String carried = info.scenarioNames.getOrDefault(id, id);
    return c == null ? carried : c.scenarios.getOrDefault(id, carried);
  }

  /** The server checks go to now: the active recorded game's, else the address set. */
  Server server() throws Server.Problem {
    return new Server(EventThread.anywhere(this::serverAddress));
  }

  /** The address of {@link #server()}, as the menus name it. Event thread. */
  String serverAddress() {
    final ActiveGame a = active();
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

  Map<String, Object> failed(Server.Problem p, String... secrets) {
    Server.Problem shown = p;
    for (final String s : secrets) shown = Answers.scrub(shown, s);
    shown = Answers.scrubTokens(shown);
    showProblem(shown);
    return Answers.refusal(shown);
  }

  Server.Problem problemOf(Exception e) {
    Throwable t = e;
    while ((t instanceof java.util.concurrent.ExecutionException || t instanceof InvocationTargetException) && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof Server.Problem) return Answers.scrubTokens((Server.Problem) t);
    return new Server.Problem(0, "Unexpected error", t.getClass().getSimpleName() + ": " + t.getMessage());
  }

  /** The problem's dialog, shown without waiting for it to close. */
  static void showProblem(Server.Problem p) {
    SwingUtilities.invokeLater(() -> JOptionPane.showMessageDialog(window(), FormText.message(p.detail), "Adjudicator: " + p.title,
                                                                   JOptionPane.ERROR_MESSAGE));
  }

}
