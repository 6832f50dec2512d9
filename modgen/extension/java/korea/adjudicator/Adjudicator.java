package korea.adjudicator;

import java.awt.Component;
import java.awt.GridLayout;
import java.lang.reflect.InvocationTargetException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;

import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JLabel;
import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;
import javax.swing.SwingWorker;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

import VASSAL.build.Buildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.GameComponent;
import VASSAL.build.module.PlayerRoster;
import VASSAL.command.Command;
import VASSAL.counters.GamePiece;

/**
 * The Adjudicator extension: a toolbar menu (connect, create or join a recorded game, every
 * check of the game) and right-click entries on units (PieceMenu). A check's form comes from
 * the server's description of it (Catalog, FormFields), the board fills what it knows (Board),
 * the server rules, and its transcript goes to the chat as a chat command (Chat), so it is in
 * the log and reaches an online opponent. Network calls run off the event thread with bounded
 * timeouts (Server); a failure is a dialog and nothing goes into the log.
 *
 * The buildFile element (written by modgen) carries the game's id on the server ("game"), the
 * roster name of each side id ("sides", a JSON object) and the default server ("server").
 *
 * The public methods below are what the menus do, without the dialogs that ask for input; the
 * end-to-end test and the benchmark drive the extension through them in the real engine. They
 * wait for the server, so they must not be called on the event thread.
 */
public final class Adjudicator implements Buildable, GameComponent {
  private String game = "";
  private String defaultServer = Settings.DEFAULT_SERVER;
  private final Map<String, String> sideNames = new LinkedHashMap<>();  // side id -> roster name
  private final PieceMenu pieceMenu = new PieceMenu(this);
  private volatile Catalog catalog;
  private volatile String catalogServer = "";
  private JButton button;

  // ---- the component -------------------------------------------------------------------

  @Override
  public void build(Element e) {
    if (e == null) return;
    game = e.getAttribute("game");
    if (!e.getAttribute("server").isEmpty()) defaultServer = e.getAttribute("server");
    if (!e.getAttribute("sides").isEmpty()) {
      for (final Map.Entry<String, Object> side : Json.parseObject(e.getAttribute("sides")).entrySet()) {
        sideNames.put(side.getKey(), String.valueOf(side.getValue()));
      }
    }
  }

  @Override
  public Element getBuildElement(Document doc) {
    final Element e = doc.createElement(getClass().getName());
    e.setAttribute("game", game);
    e.setAttribute("server", defaultServer);
    e.setAttribute("sides", Json.write(sideNames));
    return e;
  }

  @Override
  public void addTo(Buildable parent) {
    final GameModule g = GameModule.getGameModule();
    Settings.register(defaultServer);
    button = new JButton("Adjudicator");
    button.setToolTipText("Ask the adjudicator: checks of " + game + ", recorded games");
    button.setFocusable(false);
    button.addActionListener(a -> showMenu());
    g.getToolBar().add(button);
    g.getGameState().addGameComponent(this);
  }

  @Override
  public void add(Buildable child) {
    // no children
  }

  @Override
  public void setup(boolean gameStarting) {
    if (gameStarting) pieceMenu.install();
  }

  /** Nothing of the extension is kept in saved games (the connection lives in the preferences). */
  @Override
  public Command getRestoreCommand() {
    return null;
  }

  // ---- what the menus do (also called by tests) ------------------------------------------

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
   * Creates a recorded game of this module's game and scenario ("" = the predefined setup being
   * played) for a side ("" = the side taken in VASSAL); keeps that side's token in the
   * preferences and answers the tokens to send the other players.
   */
  public Map<String, Object> createRecordedGame(String scenario, String side) {
    requireOffEventThread();
    try {
      final String chosenScenario = scenario.isEmpty() ? onEventThread(this::scenarioOfSetup) : scenario;
      final String chosenSide = side.isEmpty() ? onEventThread(this::mySide) : side;
      if (chosenScenario == null) throw new Server.Problem(0, "Which scenario?", "Start a scenario's predefined setup, or name the scenario.");
      if (chosenSide == null) throw new Server.Problem(0, "Which side?", "Take a side (or name the side) before creating a recorded game.");
      final Map<String, Object> body = new LinkedHashMap<>();
      body.put("system", game);
      body.put("scenario", chosenScenario);
      final Map<String, Object> created = server().post("/api/v1/games", body, null);
      final Map<String, Object> tokens = new LinkedHashMap<>(Schema.map(created.get("tokens")));
      final Object mine = tokens.remove(chosenSide);
      if (!(mine instanceof String)) throw new Server.Problem(0, "No such side", game + " has no side '" + chosenSide + "' (sides: " + tokens.keySet() + ").");
      final String gameId = String.valueOf(created.get("game_id"));
      Settings.setRecorded(new Settings.Recorded(gameId, (String) mine, chosenSide, chosenScenario));
      return ok("game_id", gameId, "scenario", chosenScenario, "side", chosenSide, "tokens_for_others", tokens);
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /** Joins a recorded game with a side's token (checked against the server, which names the game's scenario). */
  public Map<String, Object> joinRecordedGame(String gameId, String token, String side) {
    requireOffEventThread();
    try {
      final Map<String, Object> ledger = server().get("/api/v1/games/" + path(gameId.trim()) + "/ledger", token.trim());
      final Map<String, Object> header = Schema.map(ledger.get("game"));
      if (!game.equals(header.get("system"))) {
        throw new Server.Problem(0, "Another game", "Recorded game " + gameId + " is of " + header.get("system") + ", not " + game + ".");
      }
      final String chosenSide = side.isEmpty() ? onEventThread(this::mySide) : side;
      if (chosenSide == null) throw new Server.Problem(0, "Which side?", "Take a side (or name the side the token is for).");
      Settings.setRecorded(new Settings.Recorded(gameId.trim(), token.trim(), chosenSide, String.valueOf(header.get("scenario"))));
      return ok("game_id", gameId.trim(), "scenario", header.get("scenario"), "side", chosenSide);
    }
    catch (Server.Problem p) {
      return failed(p, token);
    }
  }

  /** Forgets the recorded game (its token too): checks are calculations again. */
  public Map<String, Object> leaveRecordedGame() {
    Settings.setRecorded(null);
    return ok();
  }

  /**
   * Asks a check as its menu entry does, with the piece {@code pieceId} as the unit pointed at
   * ("" = none) and the units selected now as the selection; {@code playerJson} holds what the
   * player would type in the form (a JSON object of request members). Posts the ruling to the
   * chat and answers {ok, lines, seq, request, ms: {board, server, chat}} (where the time went);
   * a failure is a dialog and {ok: false, title, detail}.
   */
  public Map<String, Object> check(String checkName, String pieceId, String playerJson) {
    requireOffEventThread();
    try {
      final Catalog.Check c = catalog().check(checkName);
      if (c == null) throw new Server.Problem(0, "No such check", game + " has no check '" + checkName + "'.");
      final long started = System.nanoTime();
      final Map<String, Object> request = onEventThread(() -> {
        final GamePiece target = pieceId.isEmpty() ? null : BoardReader.pieceById(pieceId);
        if (!pieceId.isEmpty() && target == null) throw new IllegalArgumentException("no piece with id " + pieceId);
        return boardPart(c, BoardReader.context(target, BoardReader.selection()));
      });
      if (!playerJson.isBlank()) request.putAll(Json.parseObject(playerJson));
      final long read = System.nanoTime();
      final Ruling ruling = send(c, request);
      final long answered = System.nanoTime();
      onEventThread(() -> {
        Chat.post(ruling.lines);
        return null;
      });
      final Map<String, Object> ms = new LinkedHashMap<>();
      ms.put("board", (read - started) / 1e6);
      ms.put("server", (answered - read) / 1e6);
      ms.put("chat", (System.nanoTime() - answered) / 1e6);
      return ok("lines", ruling.lines, "seq", ruling.seq, "request", request, "ms", ms);
    }
    catch (Server.Problem p) {
      return failed(p);
    }
  }

  /** The right-click entries a unit piece offers now (their labels). */
  public List<String> menuEntries(String pieceId) {
    requireOffEventThread();
    try {
      final Catalog c = catalog();
      return onEventThread(() -> {
        final List<String> labels = new ArrayList<>();
        final GamePiece p = BoardReader.pieceById(pieceId);
        if (p == null) return labels;
        for (final Catalog.Entry e : c.entries(BoardReader.context(p, BoardReader.selection()))) labels.add(e.label);
        return labels;
      });
    }
    catch (Server.Problem p) {
      return List.of();
    }
  }

  // ---- asking a check ------------------------------------------------------------------

  /** What the server ruled: the transcript's lines and, for a recorded game, the record's number. */
  private static final class Ruling {
    final List<String> lines;
    final Object seq;

    Ruling(List<String> lines, Object seq) {
      this.lines = lines;
      this.seq = seq;
    }
  }

  /** The request members the board fills for a check and a context. Event thread. */
  private Map<String, Object> boardPart(Catalog.Check c, Board.Context ctx) {
    final Settings.Recorded recorded = Settings.recorded();
    final String scenario = recorded != null && !recorded.scenario.isEmpty() ? recorded.scenario : scenarioOfSetup();
    final Integer turn = scenario == null ? null : BoardReader.turn(catalog.scenarios.get(scenario));
    final Board board = new Board(BoardReader.units(), scenario, turn, sideAsking(c, ctx, recorded));
    return board.fill(c.schema, ctx);
  }

  /**
   * The side a check is asked for: a side report's unit's side ("Supply of this side"); else the
   * recorded game's side (its token's); else the side taken in VASSAL; else the attackers' side.
   */
  private String sideAsking(Catalog.Check c, Board.Context ctx, Settings.Recorded recorded) {
    if (c.kind() == Catalog.Kind.SIDE_REPORT && ctx.unit != null) return ctx.unit.side;
    if (recorded != null) return recorded.side;
    final String mine = mySide();
    if (mine != null) return mine;
    final List<Board.Unit> attackers = Board.attackers(ctx);
    if (!attackers.isEmpty()) return attackers.get(0).side;
    return ctx.unit == null ? null : ctx.unit.side;
  }

  /**
   * Sends a check: to the recorded game when one is joined (the server rolls; a request id makes
   * a repeat after a lost answer return the same record, never a new roll), else as a
   * calculation. Off the event thread.
   */
  private Ruling send(Catalog.Check c, Map<String, Object> request) throws Server.Problem {
    final Settings.Recorded recorded = Settings.recorded();
    final Server server = server();
    final Map<String, Object> answer;
    if (recorded != null) {
      request.remove("dice");
      request.put("request_id", "vassal-" + UUID.randomUUID());
      final String path = "/api/v1/games/" + path(recorded.gameId) + "/" + path(c.name) + "?transcript=1";
      Map<String, Object> first;
      try {
        first = server.post(path, request, recorded.token);
      }
      catch (Server.Problem p) {
        if (p.status != 0) throw scrub(p, recorded.token);
        first = server.post(path, request, recorded.token);  // the same request id: never a second roll
      }
      answer = first;
    }
    else {
      answer = server.post("/api/v1/systems/" + path(game) + "/" + path(c.name) + "?transcript=1", request, null);
    }
    final List<String> lines = new ArrayList<>();
    for (final Object line : Schema.list(answer.get("transcript"))) lines.add(String.valueOf(line));
    if (lines.isEmpty()) {
      throw new Server.Problem(0, "No transcript", "The server answered without the ruling's chat lines (is it an older adjudicator?). Nothing was posted.");
    }
    return new Ruling(lines, answer.get("seq"));
  }

  /** The check's form, then the check in the background; the ruling or the problem when it answers. Event thread. */
  void askInteractively(Catalog.Check c, Board.Context ctx) {
    final Map<String, Object> filled = boardPart(c, ctx);
    final boolean recorded = Settings.recorded() != null;
    final Set<String> omit = new HashSet<>(List.of("request_id"));
    if (recorded) omit.add("dice");
    final String mode = recorded
      ? "Recorded game " + Settings.recorded().gameId + ": the server rolls the dice and records the ruling."
      : "A calculation: give the dice you rolled; nothing is recorded.";
    final Map<String, Object> typed = CheckForm.ask(window(), c, filled, FormFields.fields(c.schema, filled.keySet(), omit), mode);
    if (typed == null) return;
    final Map<String, Object> request = new LinkedHashMap<>(filled);
    request.putAll(typed);
    new SwingWorker<Ruling, Void>() {
      @Override
      protected Ruling doInBackground() throws Exception {
        return send(c, request);
      }

      @Override
      protected void done() {
        try {
          Chat.post(get().lines);
        }
        catch (Exception e) {
          showProblem(problemOf(e));
        }
      }
    }.execute();
  }

  // ---- the catalog of checks -------------------------------------------------------------

  /** This game's checks from the server, loaded once per server address. Off the event thread. */
  private Catalog catalog() throws Server.Problem {
    final Server server = server();
    final Catalog known = catalog;
    if (known != null && server.base().equals(catalogServer)) return known;
    final Map<String, Object> systems = server.get("/api/v1/systems", null);
    try {
      catalog = Catalog.of(systems, game);
    }
    catch (IllegalArgumentException e) {
      throw new Server.Problem(0, "Unknown game", "The server at " + server.base() + " does not know " + game + ".");
    }
    catalogServer = server.base();
    return catalog;
  }

  Catalog loadedCatalog() {
    return catalog;
  }

  void loadCatalogInBackground() {
    new SwingWorker<Catalog, Void>() {
      @Override
      protected Catalog doInBackground() throws Exception {
        return catalog();
      }

      @Override
      protected void done() {
        try {
          final Catalog c = get();
          JOptionPane.showMessageDialog(window(), c.checks.size() + " checks of " + c.name + " from " + catalogServer + ".",
                                        "Adjudicator", JOptionPane.INFORMATION_MESSAGE);
        }
        catch (Exception e) {
          showProblem(problemOf(e));
        }
      }
    }.execute();
  }

  // ---- the toolbar menu ------------------------------------------------------------------

  private void showMenu() {
    final JPopupMenu menu = new JPopupMenu();
    final Settings.Recorded recorded = Settings.recorded();
    final JMenuItem status = new JMenuItem(recorded == null
      ? "Calculations at " + Settings.server() + " (no recorded game)"
      : "Recorded game " + recorded.gameId + " as " + sideName(recorded.side) + " at " + Settings.server());
    status.setEnabled(false);
    menu.add(status);
    menu.add(item("Connect...", this::connectDialog));
    menu.add(item("Create recorded game...", this::createDialog));
    menu.add(item("Join recorded game...", this::joinDialog));
    final JMenuItem leave = item("Leave recorded game", () -> leaveRecordedGame());
    leave.setEnabled(recorded != null);
    menu.add(leave);
    menu.addSeparator();
    final JMenu checks = new JMenu("Checks");
    final Catalog c = catalog;
    if (c == null) {
      checks.add(item("Load the checks from the server", this::loadCatalogInBackground));
    }
    else {
      for (final Catalog.Check check : c.checks) {
        final JMenuItem i = item(check.words() + " (" + check.rule + ")", () -> askInteractively(check,
          BoardReader.context(null, BoardReader.selection())));
        i.setToolTipText(check.summary);
        checks.add(i);
      }
    }
    menu.add(checks);
    menu.show(button, 0, button.getHeight());
  }

  private void connectDialog() {
    final String address = (String) JOptionPane.showInputDialog(window(), "Adjudicator server address:", "Adjudicator: connect",
                                                                JOptionPane.PLAIN_MESSAGE, null, null, Settings.server());
    if (address == null) return;
    inBackground(() -> connect(address), answer -> JOptionPane.showMessageDialog(window(),
      answer.get("checks") + " checks of " + catalog.name + " at " + answer.get("server") + ".", "Adjudicator",
      JOptionPane.INFORMATION_MESSAGE));
  }

  private void createDialog() {
    if (!inBackgroundNeedsCatalog(this::createDialog)) return;
    final JComboBox<String> scenario = new JComboBox<>(catalog.scenarios.keySet().toArray(new String[0]));
    scenario.setSelectedItem(scenarioOfSetup());
    final JComboBox<String> side = new JComboBox<>(catalog.sides.toArray(new String[0]));
    side.setSelectedItem(mySide());
    final JPanel form = new JPanel(new GridLayout(0, 2, 4, 4));
    form.add(new JLabel("Scenario:"));
    form.add(scenario);
    form.add(new JLabel("Your side:"));
    form.add(side);
    if (JOptionPane.showConfirmDialog(window(), form, "Adjudicator: create a recorded game", JOptionPane.OK_CANCEL_OPTION,
                                      JOptionPane.PLAIN_MESSAGE) != JOptionPane.OK_OPTION) return;
    final String chosenScenario = String.valueOf(scenario.getSelectedItem());
    final String chosenSide = String.valueOf(side.getSelectedItem());
    inBackground(() -> createRecordedGame(chosenScenario, chosenSide), answer -> {
      final StringBuilder text = new StringBuilder("Recorded game " + answer.get("game_id") + " created; you play "
        + sideName(chosenSide) + ".\nSend each other player the game id and their token (keep yours to yourself):\n");
      for (final Map.Entry<String, Object> t : Schema.map(answer.get("tokens_for_others")).entrySet()) {
        text.append('\n').append(t.getKey()).append(": ").append(t.getValue());
      }
      final JTextArea area = new JTextArea(text.toString(), 8, 60);
      area.setEditable(false);
      JOptionPane.showMessageDialog(window(), area, "Adjudicator: recorded game created", JOptionPane.INFORMATION_MESSAGE);
    });
  }

  private void joinDialog() {
    if (!inBackgroundNeedsCatalog(this::joinDialog)) return;
    final JTextField gameId = new JTextField(24);
    final JTextField token = new JTextField(24);
    final JComboBox<String> side = new JComboBox<>(catalog.sides.toArray(new String[0]));
    side.setSelectedItem(mySide());
    final JPanel form = new JPanel(new GridLayout(0, 2, 4, 4));
    form.add(new JLabel("Game id:"));
    form.add(gameId);
    form.add(new JLabel("Your token:"));
    form.add(token);
    form.add(new JLabel("Your side:"));
    form.add(side);
    if (JOptionPane.showConfirmDialog(window(), form, "Adjudicator: join a recorded game", JOptionPane.OK_CANCEL_OPTION,
                                      JOptionPane.PLAIN_MESSAGE) != JOptionPane.OK_OPTION) return;
    final String chosenSide = String.valueOf(side.getSelectedItem());
    inBackground(() -> joinRecordedGame(gameId.getText(), token.getText(), chosenSide), answer ->
      JOptionPane.showMessageDialog(window(), "Joined recorded game " + answer.get("game_id") + " (" + answer.get("scenario")
        + ") as " + sideName(chosenSide) + ".", "Adjudicator", JOptionPane.INFORMATION_MESSAGE));
  }

  /** True when the checks are loaded; otherwise loads them and opens {@code then} again afterwards. */
  private boolean inBackgroundNeedsCatalog(Runnable then) {
    if (catalog != null) return true;
    inBackground(() -> {
      try {
        catalog();
        return ok();
      }
      catch (Server.Problem p) {
        return failed(p);
      }
    }, answer -> then.run());
    return false;
  }

  /** Runs one of the public actions off the event thread; its answer (on the event thread) to {@code then} when it went well. */
  private void inBackground(Callable<Map<String, Object>> action, java.util.function.Consumer<Map<String, Object>> then) {
    new SwingWorker<Map<String, Object>, Void>() {
      @Override
      protected Map<String, Object> doInBackground() throws Exception {
        return action.call();
      }

      @Override
      protected void done() {
        try {
          final Map<String, Object> answer = get();
          if (Boolean.TRUE.equals(answer.get("ok"))) then.accept(answer);
        }
        catch (Exception e) {
          showProblem(problemOf(e));
        }
      }
    }.execute();
  }

  private static JMenuItem item(String text, Runnable action) {
    final JMenuItem i = new JMenuItem(text);
    i.addActionListener(a -> action.run());
    return i;
  }

  // ---- small helpers ---------------------------------------------------------------------

  private Server server() throws Server.Problem {
    return new Server(Settings.server());
  }

  /** The scenario whose predefined setup is being played (the module names each setup file after its scenario). */
  private String scenarioOfSetup() {
    final String file = GameModule.getGameModule().getGameFile();
    if (file == null) return null;
    final String name = file.replaceAll("^.*/", "").replaceAll("\\.vsav$", "");
    final Catalog c = catalog;
    return c == null || c.scenarios.containsKey(name) ? name : null;
  }

  /** The side id of the side taken in VASSAL, or null (an observer). */
  private String mySide() {
    final String name = PlayerRoster.getMySide();
    for (final Map.Entry<String, String> e : sideNames.entrySet()) {
      if (e.getValue().equals(name)) return e.getKey();
    }
    return null;
  }

  private String sideName(String id) {
    return sideNames.getOrDefault(id, id);
  }

  private static String path(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static Component window() {
    return GameModule.getGameModule().getPlayerWindow();
  }

  private static Map<String, Object> ok(Object... pairs) {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("ok", true);
    for (int i = 0; i + 1 < pairs.length; i += 2) m.put(String.valueOf(pairs[i]), pairs[i + 1]);
    return m;
  }

  private Map<String, Object> failed(Server.Problem p, String... secrets) {
    final Settings.Recorded recorded = Settings.recorded();
    Server.Problem shown = recorded == null ? p : scrub(p, recorded.token);
    for (final String s : secrets) shown = scrub(shown, s);
    showProblem(shown);
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("ok", false);
    m.put("title", shown.title);
    m.put("detail", shown.detail);
    return m;
  }

  /** A problem without a token in its text (a token never appears in a dialog, the chat or a log). */
  private static Server.Problem scrub(Server.Problem p, String token) {
    if (token == null || token.isBlank()) return p;
    return new Server.Problem(p.status, p.title.replace(token, "(token)"), p.detail.replace(token, "(token)"));
  }

  private static Server.Problem problemOf(Exception e) {
    Throwable t = e;
    while ((t instanceof java.util.concurrent.ExecutionException || t instanceof InvocationTargetException) && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof Server.Problem) {
      final Settings.Recorded recorded = Settings.recorded();
      return recorded == null ? (Server.Problem) t : scrub((Server.Problem) t, recorded.token);
    }
    return new Server.Problem(0, "Unexpected error", t.getClass().getSimpleName() + ": " + t.getMessage());
  }

  /** The problem's dialog, shown without waiting for it to close. */
  private static void showProblem(Server.Problem p) {
    SwingUtilities.invokeLater(() -> JOptionPane.showMessageDialog(window(), p.detail, "Adjudicator: " + p.title,
                                                                   JOptionPane.ERROR_MESSAGE));
  }

  private static void requireOffEventThread() {
    if (SwingUtilities.isEventDispatchThread()) {
      throw new IllegalStateException("this waits for the server: call it off the event thread");
    }
  }

  /** Runs work on the event thread (where the engine's pieces live) and waits for its result. */
  private static <T> T onEventThread(Callable<T> work) throws Server.Problem {
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
