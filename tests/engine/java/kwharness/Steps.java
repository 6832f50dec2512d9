package kwharness;

import java.awt.Component;
import java.awt.Point;
import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import java.awt.event.InputEvent;
import java.awt.event.MouseEvent;

import javax.swing.Action;
import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;
import javax.swing.MenuElement;
import javax.swing.MenuSelectionManager;
import javax.swing.SwingUtilities;

import VASSAL.build.AbstractBuildable;
import VASSAL.build.GameModule;
import VASSAL.build.module.BasicLogger;
import VASSAL.build.module.GameSetupStep;
import VASSAL.build.module.GameState;
import VASSAL.build.module.GlobalOptions;
import VASSAL.build.module.PlayerRoster;
import VASSAL.build.module.PredefinedSetup;
import VASSAL.command.Command;
import VASSAL.configure.NamedHotKeyConfigurer;
import VASSAL.counters.Deck;
import VASSAL.counters.Decorator;
import VASSAL.counters.DragBuffer;
import VASSAL.counters.GamePiece;
import VASSAL.counters.KeyBuffer;
import VASSAL.counters.KeyCommand;
import VASSAL.counters.PieceIterator;
import VASSAL.counters.Properties;

/**
 * The script's steps. Each takes the step's JSON object and returns what it found; a problem
 * is an exception (the step fails and the script stops). Steps that touch the engine run on
 * the event thread, as the engine's own menu actions do; waiting steps run on the driver's thread.
 */
final class Steps {
  private final ScriptedFileChooser chooser;
  private Person person;

  Steps(ScriptedFileChooser chooser) {
    this.chooser = chooser;
  }

  /** The person at the keyboard and mouse (java.awt.Robot on the X display), made on first use. */
  private Person person() throws Exception {
    if (person == null) person = new Person();
    return person;
  }

  private Rooms rooms() throws Exception {
    return new Rooms(person());
  }

  interface EdtTask { Object run() throws Exception; }

  /** Runs a task on the event thread and hands back its result or its exception. */
  static Object onEdt(EdtTask task) throws Exception {
    final Object[] out = new Object[1];
    final Exception[] err = new Exception[1];
    SwingUtilities.invokeAndWait(() -> {
      try {
        out[0] = task.run();
      }
      catch (Exception e) {
        err[0] = e;
      }
    });
    if (err[0] != null) throw err[0];
    return out[0];
  }

  /** Lets the event thread finish what a click or a key started (shorter than settle: a person's pace). */
  static void settleShort() {
    try {
      Thread.sleep(60);
      SwingUtilities.invokeAndWait(() -> { });
    }
    catch (Exception ignored) {
      // interrupted: the next step waits anyway
    }
  }

  /** Lets queued event-thread work and background loads finish. */
  static void settle() {
    for (int i = 0; i < 3; i++) {
      try {
        Thread.sleep(150);
        SwingUtilities.invokeAndWait(() -> { });
      }
      catch (Exception ignored) {
        return;
      }
    }
  }

  Object run(Map<String, Object> step) throws Exception {
    final String what = str(step, "do");
    switch (what) {
    case "new_game": return onEdt(this::newGame);
    case "setup": return setup(str(step, "name"));
    case "load": return load(file(step, "file"));
    case "replay": return replay(file(step, "file"));
    case "pieces": return onEdt(() -> pieces(step));
    case "side": return onEdt(() -> side(str(step, "side")));
    case "key": return onEdt(() -> key(step));
    case "select": return onEdt(() -> select(step));
    case "right_click": return onEdt(() -> rightClick(step));
    case "draw": return onEdt(() -> draw(step));
    case "move": return onEdt(() -> move(step));
    case "pref": return onEdt(() -> pref(str(step, "key"), step.get("value")));
    case "chat": return onEdt(() -> chat(str(step, "text")));
    case "call": return call(step);
    case "answer": return answer(step);
    case "wait_chat": return waitFor(Capture.CHAT, step);
    case "wait_dialog": return waitFor(Capture.DIALOGS, step);
    case "save": return onEdt(() -> save(file(step, "file")));
    case "log_begin": return onEdt(() -> logBegin(file(step, "file")));
    case "log_end": return onEdt(this::logEnd);
    case "toolbar": return onEdt(() -> Map.of("buttons", Toolbar.list()));
    case "press": return onEdt(() -> Toolbar.press(str(step, "text"), step.get("item")));
    case "maps": return onEdt(() -> Map.of("maps", Views.list()));
    case "settle": settle(); return null;
    case "person": return person(step);
    case "click": return click(step);
    case "click_if": return clickIf(step);
    case "type": return type(step);
    case "choose": return choose(step);
    case "toolbar_click": return toolbarClick(step);
    case "menu": person().menu(stringList(step.get("path"))); return null;
    case "main_menu": person().mainMenu(stringList(step.get("path"))); return null;
    case "press_key": person().press(str(step, "key")); return null;
    case "wait_window": return waitWindow(step);
    case "read_window": return onEdt(() -> readWindow(str(step, "window")));
    case "file_answer": chooser.answerNext(file(step, "file")); return Map.of("file", str(step, "file"));
    case "piece_click": return pieceClick(step);
    case "chat_click": return chatClick(step);
    case "show_map": return showMap(str(step, "map"));
    case "sleep": Thread.sleep(((Number) step.getOrDefault("ms", 500L)).longValue()); return null;
    case "http": return Http.request(step);
    case "server_connect": return rooms().connect(step);
    case "server_disconnect": return rooms().disconnect();
    case "room_create": return rooms().create(str(step, "name"));
    case "room_join": return rooms().join(str(step, "name"));
    case "wait_room": return rooms().waitPlayers(step);
    case "room": return Rooms.room();
    case "signal": return Rooms.signal(str(step, "name"), (String) step.get("text"));
    case "wait_signal": return Rooms.waitSignal(str(step, "name"), ((Number) step.getOrDefault("timeout", 60L)).doubleValue());
    case "wait_piece": return waitPiece(step);
    default: throw new IllegalArgumentException("unknown step '" + what + "'");
    }
  }

  // ---- games ---------------------------------------------------------------------------

  /**
   * Turns off the questions a person answers around games (start a log? save first? comment?)
   * and drops the side-picking wizard step; a side is taken with the "side" step instead.
   */
  static void quietPrompts() {
    final GameModule g = GameModule.getGameModule();
    for (final String key : new String[] {
      BasicLogger.PROMPT_NEW_LOG_START, BasicLogger.PROMPT_NEW_LOG_END, BasicLogger.PROMPT_LOG_COMMENT }) {
      g.getPrefs().setValue(key, prompts && !key.equals(BasicLogger.PROMPT_LOG_COMMENT));
    }
    final GameState gs = g.getGameState();
    if (gs.isGameStarted() && !prompts) gs.setModified(false);
    if (prompts) return;  // a person chooses the side in the wizard
    final List<GameSetupStep> steps = new ArrayList<>();
    gs.getUnfinishedSetupSteps().forEachRemaining(steps::add);
    for (final GameSetupStep s : steps) {
      if (s instanceof PlayerRoster) gs.removeGameSetupStep(s);
    }
  }

  private Object newGame() {
    quietPrompts();
    final GameState gs = GameModule.getGameModule().getGameState();
    gs.setup(false);
    gs.setup(true);
    return gameSummary();
  }

  /** Starts a predefined setup the way its menu entry does (PredefinedSetup.launch). */
  private Object setup(String name) throws Exception {
    onEdt(() -> {
      quietPrompts();
      PredefinedSetup found = null;
      for (final PredefinedSetup ps : GameModule.getGameModule().getAllDescendantComponentsOf(PredefinedSetup.class)) {
        if (name.equals(ps.getConfigureName()) && ps.isUseFile() && !ps.isMenu()) found = ps;
      }
      if (found == null) throw new IllegalArgumentException("no predefined setup with a file named '" + name + "'");
      GameModule.getGameModule().getGameState().setup(false);
      found.launch();
      return null;
    });
    waitForLoad();
    return onEdt(Steps::gameSummary);
  }

  /** Opens a saved game (or a log) the way File > Open does, the file chooser answered by the script. */
  private Object load(File f) throws Exception {
    onEdt(() -> {
      quietPrompts();
      chooser.answerNext(f);
      GameModule.getGameModule().getGameState().loadGame(false);
      return null;
    });
    waitForLoad();
    return onEdt(Steps::gameSummary);
  }

  /** Opens a log and presses Step until its end; the step's chat and dialogs are what it showed. */
  private Object replay(File f) throws Exception {
    load(f);
    final int[] stepped = { 0 };
    while (Boolean.TRUE.equals(onEdt(() -> GameModule.getGameModule().getBasicLogger().isReplaying()))) {
      onEdt(() -> {
        final Action step = (Action) field(BasicLogger.class, "stepAction").get(GameModule.getGameModule().getBasicLogger());
        step.actionPerformed(null);
        stepped[0]++;
        return null;
      });
    }
    settle();
    final Map<String, Object> out = new LinkedHashMap<>();
    out.put("commands_stepped", stepped[0]);
    out.putAll(Cast.object(onEdt(Steps::gameSummary)));
    return out;
  }

  private static void waitForLoad() throws Exception {
    final long end = System.currentTimeMillis() + 120_000;
    while (Boolean.TRUE.equals(onEdt(() -> GameModule.getGameModule().getGameState().isLoadingInBackground()))) {
      if (System.currentTimeMillis() > end) throw new IllegalStateException("the game is still loading after 120 s");
      Thread.sleep(50);
    }
    settle();
  }

  static Map<String, Object> gameSummary() {
    final GameModule g = GameModule.getGameModule();
    final Map<String, Object> out = new LinkedHashMap<>();
    out.put("game_started", g.getGameState().isGameStarted());
    int total = 0;
    for (final GamePiece p : g.getGameState().getAllPieces()) {
      if (!(p instanceof VASSAL.counters.Stack)) total++;
    }
    out.put("total_pieces", total);
    return out;
  }

  // ---- pieces --------------------------------------------------------------------------

  @SuppressWarnings("unchecked")
  private Object pieces(Map<String, Object> step) {
    final List<String> props = new ArrayList<>();
    for (final Object o : (List<Object>) step.getOrDefault("properties", List.of())) props.add(String.valueOf(o));
    if (!step.containsKey("as")) return Pieces.listAll(props);
    return Pieces.viewAs(str(step, "as"), () -> Pieces.listAll(props));
  }

  /** Takes a side as a player does in the side-picking step (the roster change is sent and logged). */
  private Object side(String side) {
    final GameModule g = GameModule.getGameModule();
    final PlayerRoster roster = g.getPlayerRoster();
    if (roster == null) throw new IllegalArgumentException("the module has no player roster");
    if (!Pieces.OBSERVER.equals(side) && !roster.getSides().contains(side)) {
      throw new IllegalArgumentException("no side '" + side + "'; the roster has " + roster.getSides());
    }
    final Command c = Pieces.OBSERVER.equals(side)
      ? new PlayerRoster.Remove(roster, GameModule.getActiveUserId())
      : new PlayerRoster.Add(roster, GameModule.getActiveUserId(), GlobalOptions.getInstance().getPlayerId(), side);
    c.execute();
    g.sendAndLog(c);
    return Map.of("side", Pieces.mySide());
  }

  /** A piece's command by its menu text (as the right-click menu runs it) or by key stroke. */
  private Object key(Map<String, Object> step) {
    final GamePiece p = Pieces.find(step.get("piece"));
    final GamePiece outer = Decorator.getOutermost(p);
    if (step.containsKey("menu")) {
      final String menu = str(step, "menu");
      final KeyCommand kc = findCommand((KeyCommand[]) outer.getProperty(Properties.KEY_COMMANDS), menu);
      if (kc == null) throw new IllegalArgumentException("piece '" + p.getName() + "' has no command '" + menu + "'");
      final boolean global = kc.isGlobal();  // a menu shown for a selection marks commands for every selected piece
      kc.setGlobal(false);
      try {
        kc.actionPerformed(null);
      }
      finally {
        kc.setGlobal(global);
      }
    }
    else {
      final Command c = outer.keyEvent(NamedHotKeyConfigurer.decode(str(step, "key")).getKeyStroke());
      GameModule.getGameModule().sendAndLog(c);
    }
    return Pieces.piece(p, p.getMap(), stringList(step.get("properties")));
  }

  /** The command with this menu text (commands in sub-menus are in the same list). */
  private static KeyCommand findCommand(KeyCommand[] commands, String menu) {
    if (commands == null) return null;
    for (final KeyCommand kc : commands) {
      if (menu.equals(kc.getName()) && kc.getKeyStroke() != null) return kc;
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private Object select(Map<String, Object> step) {
    final KeyBuffer buffer = KeyBuffer.getBuffer();
    buffer.clear();
    for (final Object selector : (List<Object>) step.getOrDefault("pieces", List.of())) {
      buffer.add(Pieces.find(selector));
    }
    return Map.of("selected", buffer.asList().size());
  }

  /**
   * Right-clicks a piece on its map (a real mouse event through the map's listeners, as a
   * person's click) and reads the menu that opens: every item, sub-menu items as
   * "Sub-menu/Item". With "choose", clicks that item; "shift": true keeps the selection.
   */
  private Object rightClick(Map<String, Object> step) {
    final GamePiece p = Pieces.find(step.get("piece"));
    final VASSAL.build.module.Map map = p.getMap();
    if (!map.getView().isShowing()) throw new IllegalStateException("map '" + map.getMapName() + "' is not showing");
    final Point at = map.mapToComponent(p.getPosition());
    final int modifiers = InputEvent.BUTTON3_DOWN_MASK | (Boolean.TRUE.equals(step.get("shift")) ? InputEvent.SHIFT_DOWN_MASK : 0);
    final long now = System.currentTimeMillis();
    map.getView().dispatchEvent(new MouseEvent(map.getView(), MouseEvent.MOUSE_PRESSED, now, modifiers, at.x, at.y, 1, true, MouseEvent.BUTTON3));
    map.getView().dispatchEvent(new MouseEvent(map.getView(), MouseEvent.MOUSE_RELEASED, now, modifiers, at.x, at.y, 1, false, MouseEvent.BUTTON3));
    final MenuElement[] path = MenuSelectionManager.defaultManager().getSelectedPath();
    if (path.length == 0 || !(path[0] instanceof JPopupMenu)) throw new IllegalStateException("no menu opened");
    final JPopupMenu popup = (JPopupMenu) path[0];
    final Map<String, JMenuItem> items = new LinkedHashMap<>();
    menuItems(popup.getSubElements(), "", items);
    final Object choose = step.get("choose");
    if (choose != null) {
      final JMenuItem item = items.get(String.valueOf(choose));
      if (item == null) throw new IllegalArgumentException("the menu has no item '" + choose + "': " + items.keySet());
      MenuSelectionManager.defaultManager().clearSelectedPath();
      item.doClick(0);
    }
    else {
      MenuSelectionManager.defaultManager().clearSelectedPath();
    }
    return Map.of("items", new ArrayList<>(items.keySet()));
  }

  private static void menuItems(MenuElement[] elements, String prefix, Map<String, JMenuItem> out) {
    for (final MenuElement e : elements) {
      if (e instanceof JMenu) {
        menuItems(((JMenu) e).getPopupMenu().getSubElements(), prefix + ((JMenu) e).getText() + "/", out);
      }
      else if (e instanceof JMenuItem) {
        out.put(prefix + ((JMenuItem) e).getText(), (JMenuItem) e);
      }
    }
  }

  /**
   * Draws from a deck as a drag off it does: the deck picks the pieces (at random when it
   * shuffles), the map's PieceMover moves them to the destination; the move is sent and logged.
   */
  @SuppressWarnings("unchecked")
  private Object draw(Map<String, Object> step) {
    final Deck deck = Pieces.deck(str(step, "deck"));
    final Map<String, Object> to = (Map<String, Object>) step.get("to");
    if (to == null) throw new IllegalArgumentException("draw needs \"to\": {\"map\", \"location\" | \"x\", \"y\"}");
    final VASSAL.build.module.Map map = Pieces.map(str(to, "map"));
    final Point point = Pieces.point(map, to);
    final int count = ((Number) step.getOrDefault("count", 1L)).intValue();
    final DragBuffer drag = DragBuffer.getBuffer();
    final List<GamePiece> drawn = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      drag.clear();
      final PieceIterator it = deck.drawCards();
      if (!it.hasMoreElements()) break;
      final GamePiece p = it.nextPiece();
      p.setProperty(Properties.OBSCURED_BY, p.getProperty(Properties.OBSCURED_BY_PRE_DRAW));
      drag.add(p);
      final Command c = map.getPieceMover().movePieces(map, point);
      GameModule.getGameModule().sendAndLog(c);
      drawn.add(p);
    }
    drag.clear();
    final List<Object> out = new ArrayList<>();
    for (final GamePiece p : drawn) out.add(Pieces.piece(p, p.getMap(), stringList(step.get("properties"))));
    return Map.of("drawn", out, "left", deck.getPieceCount());
  }

  /**
   * Moves a piece as a drag and drop does: the map's PieceMover takes it from the drag buffer to
   * the point (snapping it to the grid as a drop does); the move is sent and logged.
   */
  @SuppressWarnings("unchecked")
  private Object move(Map<String, Object> step) {
    final GamePiece p = Pieces.find(step.get("piece"));
    final Map<String, Object> to = (Map<String, Object>) step.get("to");
    if (to == null) throw new IllegalArgumentException("move needs \"to\": {\"map\", \"location\" | \"x\", \"y\"}");
    final VASSAL.build.module.Map map = Pieces.map(str(to, "map"));
    final DragBuffer drag = DragBuffer.getBuffer();
    drag.clear();
    drag.add(p);
    final Command c = map.getPieceMover().movePieces(map, Pieces.point(map, to));
    GameModule.getGameModule().sendAndLog(c);
    drag.clear();
    return Pieces.piece(p, p.getMap(), stringList(step.get("properties")));
  }

  // ---- module, chat, files ---------------------------------------------------------------

  private Object pref(String key, Object value) {
    final GameModule g = GameModule.getGameModule();
    if (g.getPrefs().getOption(key) == null) throw new IllegalArgumentException("no preference '" + key + "'");
    g.getPrefs().setValue(key, value instanceof String || value instanceof Boolean ? value : String.valueOf(value));
    return Map.of("value", String.valueOf(g.getPrefs().getValue(key)));
  }

  /** A chat line as a player types it and presses Enter (the engine adds the player's name). */
  private Object chat(String text) {
    final VASSAL.build.module.Chatter chatter = GameModule.getGameModule().getChatter();
    chatter.getInputField().setText(text);
    chatter.keyCommand(javax.swing.KeyStroke.getKeyStroke(java.awt.event.KeyEvent.VK_ENTER, 0, true));
    return null;
  }

  private Object save(File f) throws Exception {
    GameModule.getGameModule().getGameState().saveGame(f);
    return Map.of("file", f.getPath(), "bytes", f.length());
  }

  /** Begins a log as the File menu's "Begin logfile" does, the file chooser answered by the script. */
  private Object logBegin(File f) throws Exception {
    final BasicLogger bl = GameModule.getGameModule().getBasicLogger();
    final Action begin = (Action) field(BasicLogger.class, "newLogAction").get(bl);
    if (!begin.isEnabled()) throw new IllegalStateException("Begin logfile is disabled (no game, or a log is being written)");
    chooser.answerNext(f);
    begin.actionPerformed(null);
    if (!bl.isLogging()) throw new IllegalStateException("the engine did not begin a log");
    return Map.of("logging", true);
  }

  private Object logEnd() throws Exception {
    final BasicLogger bl = GameModule.getGameModule().getBasicLogger();
    final File out = (File) field(BasicLogger.class, "outputFile").get(bl);
    ((Action) field(BasicLogger.class, "endLogAction").get(bl)).actionPerformed(null);
    return Map.of("file", String.valueOf(out), "bytes", out == null ? 0 : out.length());
  }

  // ---- a person at the keyboard and mouse ---------------------------------------------------

  /**
   * "on": true (default): from now on dialogs stay open for the script to answer with the mouse
   * and keys, as a person does (each is still recorded once, when it first shows); false: they
   * are recorded and closed again. "prompts": true also turns the engine's own questions around
   * games back on (the "Start new logfile?" prompt after a setup loads).
   */
  private Object person(Map<String, Object> step) throws Exception {
    person();
    Capture.autoClose = !Boolean.TRUE.equals(step.getOrDefault("on", Boolean.TRUE));
    if (Boolean.TRUE.equals(step.get("prompts"))) {
      prompts = true;
      onEdt(() -> {
        quietPrompts();  // the log's questions on, the file comment's off
        return null;
      });
    }
    return Map.of("dialogs_stay", !Capture.autoClose, "prompts", prompts);
  }

  /** Whether the engine's questions around games are asked (person mode with "prompts"). */
  static boolean prompts;

  /** A left click on a button or field (by name, text or label) in the window matching "window" (regex; default any). */
  private Object click(Map<String, Object> step) throws Exception {
    final String window = (String) step.get("window");
    final Component c = person().waitComponent(window, str(step, "on"));
    final long pressed = person().click(c);
    final Map<String, Object> out = new java.util.LinkedHashMap<>();
    out.put("clicked", str(step, "on"));
    if (pressed >= 0) out.put("pressed_at_ms", Capture.ms(pressed));  // the robot's press (a benchmark's start)
    return out;
  }

  /**
   * A click on "on" in the window matching "window" if that window shows within "timeout"
   * seconds (default 3): a question that only some outcomes ask. Answers whether it clicked and,
   * as "click" does, when the robot pressed (a benchmark times from the last click before a ruling).
   */
  private Object clickIf(Map<String, Object> step) throws Exception {
    final long timeout = (long) (((Number) step.getOrDefault("timeout", 3L)).doubleValue() * 1000);
    final long end = System.currentTimeMillis() + timeout;
    final String window = str(step, "window");
    while (onEdt(() -> Person.window(window)) == null) {
      if (System.currentTimeMillis() > end) return Map.of("clicked", false);
      Thread.sleep(50);
    }
    final long pressed = person().click(person().waitComponent(window, str(step, "on")));
    return pressed >= 0 ? Map.of("clicked", true, "pressed_at_ms", Capture.ms(pressed)) : Map.of("clicked", true);
  }

  /**
   * A click on the chat window's text: on "on" (a text) in the last line matching "match" (a
   * regex), the chat scrolled to show it. Answers the line clicked and when the robot pressed.
   */
  private Object chatClick(Map<String, Object> step) throws Exception {
    final Pattern match = Pattern.compile(str(step, "match"));
    final String on = str(step, "on");
    final Object[] found = (Object[]) onEdt(() -> {
      final javax.swing.JTextPane pane = chatPane(GameModule.getGameModule().getChatter());
      final javax.swing.text.Document doc = pane.getDocument();
      final String text = doc.getText(0, doc.getLength());
      int start = -1;
      String line = null;
      for (int from = 0; from < text.length(); ) {
        int end = text.indexOf('\n', from);
        if (end < 0) end = text.length();
        final String l = text.substring(from, end);
        if (match.matcher(l).find() && l.contains(on)) {
          start = from + l.indexOf(on) + Math.min(2, on.length() - 1);
          line = l.strip();
        }
        from = end + 1;
      }
      if (start < 0) throw new IllegalArgumentException("no chat line matches /" + match + "/ with '" + on + "'");
      final java.awt.Rectangle r = pane.modelToView2D(start).getBounds();
      pane.scrollRectToVisible(r);
      return new Object[] {pane, start, line};
    });
    final javax.swing.JTextPane pane = (javax.swing.JTextPane) found[0];
    final int offset = (Integer) found[1];
    final long pressed = person().clickAt(pane, () -> (Point) onEdt(() -> {
      final java.awt.Rectangle r = pane.modelToView2D(offset).getBounds();
      final Point p = new Point(r.x + 1, r.y + r.height / 2);
      SwingUtilities.convertPointToScreen(p, pane);
      return p;
    }));
    final Map<String, Object> out = new LinkedHashMap<>();
    out.put("line", found[2]);
    out.put("pressed_at_ms", Capture.ms(pressed));
    return out;
  }

  private static javax.swing.JTextPane chatPane(java.awt.Component c) {
    if (c instanceof javax.swing.JTextPane) return (javax.swing.JTextPane) c;
    if (c instanceof java.awt.Container) {
      for (final java.awt.Component k : ((java.awt.Container) c).getComponents()) {
        final javax.swing.JTextPane found = chatPane(k);
        if (found != null) return found;
      }
    }
    return null;
  }

  /** Types "text" into a field (by name or label) of the window matching "window"; "clear" (default true) replaces what is there. */
  private Object type(Map<String, Object> step) throws Exception {
    final Component c = person().waitComponent((String) step.get("window"), str(step, "field"));
    person().type(c, str(step, "text"), !Boolean.FALSE.equals(step.get("clear")));
    return Map.of("typed", str(step, "text"));
  }

  /** Chooses "item" in a list field (by name or label) of the window matching "window". */
  private Object choose(Map<String, Object> step) throws Exception {
    final Component c = person().waitComponent((String) step.get("window"), str(step, "field"));
    person().choose(c, str(step, "item"));
    return Map.of("chose", str(step, "item"));
  }

  /** Clicks a toolbar button of the main window (by its text) and, with "path", through the menu it opens. */
  private Object toolbarClick(Map<String, Object> step) throws Exception {
    final String button = str(step, "button");
    final Component c = (Component) Person.waitFor(() -> Person.walk(GameModule.getGameModule().getToolBar(),
      k -> k instanceof javax.swing.AbstractButton && k.isShowing() && button.equals(((javax.swing.AbstractButton) k).getText())),
      "no toolbar button '" + button + "'");
    person().waitActive(GameModule.getGameModule().getPlayerWindow());
    for (int attempt = 0; ; attempt++) {  // a click the closing dialog before it swallowed is clicked again, as a person would
      person().click(c);
      if (!step.containsKey("path") || Person.openMenu(1500) != null) break;
      if (attempt == 2) {
        throw new IllegalStateException("the toolbar button '" + button + "' opened no menu; active window: "
          + onEdt(() -> String.valueOf(java.awt.KeyboardFocusManager.getCurrentKeyboardFocusManager().getActiveWindow()))
          + "; showing: " + onEdt(Person::showing));
      }
    }
    final long pressed = step.containsKey("path") ? person().menu(stringList(step.get("path"))) : -1;
    if (!Boolean.TRUE.equals(step.get("read"))) {
      // when the robot pressed on the path's last item (a benchmark's start: the fetch a menu entry makes)
      return pressed >= 0 ? Map.of("pressed_at_ms", Capture.ms(pressed)) : null;
    }
    // "read": the menu the path ends in is read (its items, the disabled ones apart) and closed
    Thread.sleep(200);
    return onEdt(() -> {
      final MenuElement[] open = MenuSelectionManager.defaultManager().getSelectedPath();
      JPopupMenu deepest = null;
      for (final MenuElement e : open) if (e instanceof JPopupMenu) deepest = (JPopupMenu) e;
      if (deepest == null) throw new IllegalStateException("no menu is open to read");
      final List<String> disabled = new ArrayList<>();
      for (final MenuElement e : deepest.getSubElements()) {
        if (e instanceof JMenuItem && !((JMenuItem) e).isEnabled()) disabled.add(((JMenuItem) e).getText());
      }
      final Map<String, Object> out = new LinkedHashMap<>();
      out.put("items", Person.items(deepest));
      out.put("disabled", disabled);
      MenuSelectionManager.defaultManager().clearSelectedPath();
      return out;
    });
  }

  /** Waits until a window matching "window" shows (or, "gone": true, no longer shows); answers what it shows. */
  private Object waitWindow(Map<String, Object> step) throws Exception {
    final long timeout = (long) (((Number) step.getOrDefault("timeout", 30L)).doubleValue() * 1000);
    if (Boolean.TRUE.equals(step.get("gone"))) {
      person().waitGone(str(step, "window"), timeout);
      return null;
    }
    final java.awt.Window w = person().waitWindow(str(step, "window"), timeout);
    return onEdt(() -> {
      final Map<String, Object> out = Person.describe(w);
      final Long opened = Capture.openedAt(w);  // when it opened (a benchmark leaves out a person's time at a dialog)
      if (opened != null) out.put("opened_at_ms", Capture.ms(opened));
      return out;
    });
  }

  private static Object readWindow(String regex) {
    final java.awt.Window w = Person.window(regex);
    if (w == null) throw new IllegalStateException("no window matching /" + regex + "/; showing: " + Person.showing());
    return Person.describe(w);
  }

  /** Opens a map's window with its toolbar button, as a person does when it is not showing (nothing when it is). */
  private Object showMap(String name) throws Exception {
    final VASSAL.build.module.Map map = (VASSAL.build.module.Map) onEdt(() -> Pieces.map(name));
    if ((Boolean) onEdt(() -> map.getView().isShowing())) return Map.of("opened", false);
    final Component button = (Component) onEdt(map::getLaunchButton);
    person().click(button);
    Person.waitFor(() -> map.getView().isShowing() ? Boolean.TRUE : null, "the map '" + name + "' did not open");
    return Map.of("opened", true);
  }

  /** A real click on a piece: "right": true opens its menu (and "choose" clicks "Sub-menu/Item"); "shift" adds to the selection. */
  private Object pieceClick(Map<String, Object> step) throws Exception {
    final GamePiece p = (GamePiece) onEdt(() -> Pieces.find(step.get("piece")));
    final boolean shift = Boolean.TRUE.equals(step.get("shift"));
    if (!Boolean.TRUE.equals(step.get("right"))) {
      person().leftClick(p, shift);
      return onEdt(() -> Map.of("selected", KeyBuffer.getBuffer().asList().size()));
    }
    JPopupMenu popup = null;
    for (int attempt = 0; popup == null; attempt++) {  // a click a closing dialog swallowed is clicked again
      if (attempt == 3) throw new IllegalStateException("no menu opened on the right click");
      person().rightClick(p, shift);
      popup = Person.openMenu(1500);
    }
    final JPopupMenu opened = popup;
    @SuppressWarnings("unchecked")
    final Map<String, JMenuItem> items = (Map<String, JMenuItem>) onEdt(() -> {
      final Map<String, JMenuItem> found = new LinkedHashMap<>();
      menuItems(opened.getSubElements(), "", found);
      return found;
    });
    final Map<String, Object> out = new LinkedHashMap<>();
    out.put("items", new ArrayList<>(items.keySet()));
    final List<String> disabled = new ArrayList<>();
    onEdt(() -> {
      for (final Map.Entry<String, JMenuItem> e : items.entrySet()) if (!e.getValue().isEnabled()) disabled.add(e.getKey());
      return null;
    });
    out.put("disabled", disabled);
    if (step.containsKey("choose")) person().menu(List.of(str(step, "choose").split("/")));
    else person().press("ESCAPE");
    return out;
  }

  // ---- module components ---------------------------------------------------------------

  /**
   * Calls a public method of the module's component of a class (found by class name among the
   * module's components, so a class the module itself ships is reached the way the engine built
   * it). "thread": "edt" (default) or "background" for a method that waits.
   */
  private Object call(Map<String, Object> step) throws Exception {
    final String className = str(step, "class");
    final String method = str(step, "method");
    final List<Object> args = Cast.list(step.getOrDefault("args", List.of()));
    final Object target = onEdt(() -> component(className));
    final Method m = method(target.getClass(), method, args.size());
    final Object[] converted = convert(m, args);
    final EdtTask task = () -> {
      try {
        return m.invoke(target, converted);
      }
      catch (InvocationTargetException e) {
        throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
      }
    };
    final Object result = "background".equals(step.get("thread")) ? task.run() : onEdt(task);
    return m.getReturnType() == void.class ? null : Map.of("returned", plain(result));
  }

  /** The module's components found by class name (looked up once: a module has thousands of components). */
  private static final Map<String, Object> COMPONENTS = new java.util.HashMap<>();

  private static Object component(String className) {
    final Object known = COMPONENTS.get(className);
    if (known != null) return known;
    for (final Object b : GameModule.getGameModule().getAllDescendantComponentsOf(AbstractBuildable.class)) {
      if (b.getClass().getName().equals(className)) {
        COMPONENTS.put(className, b);
        return b;
      }
    }
    for (final Object b : GameModule.getGameModule().getBuildables()) {
      if (b.getClass().getName().equals(className)) {
        COMPONENTS.put(className, b);
        return b;
      }
    }
    throw new IllegalArgumentException("the module has no component of class " + className);
  }

  private static Method method(Class<?> c, String name, int arity) {
    for (final Method m : c.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == arity && Modifier.isPublic(m.getModifiers())) return m;
    }
    throw new IllegalArgumentException(c.getName() + " has no public method " + name + " with " + arity + " arguments");
  }

  private static Object[] convert(Method m, List<Object> args) {
    final Class<?>[] types = m.getParameterTypes();
    final Object[] out = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      final Object a = args.get(i);
      final Class<?> t = types[i];
      if (a == null) out[i] = null;
      else if (t == int.class || t == Integer.class) out[i] = ((Number) a).intValue();
      else if (t == long.class || t == Long.class) out[i] = ((Number) a).longValue();
      else if (t == double.class || t == Double.class) out[i] = ((Number) a).doubleValue();
      else if (t == boolean.class || t == Boolean.class) out[i] = a;
      else if (t == String.class) out[i] = a instanceof String ? a : Json.write(a);
      else out[i] = a; // Map, List, Object: as parsed
    }
    return out;
  }

  /** A return value as JSON can carry it. */
  private static Object plain(Object o) {
    if (o == null || o instanceof Number || o instanceof Boolean || o instanceof String) return o;
    if (o instanceof Map || o instanceof List) return o;
    if (o instanceof GamePiece) return Pieces.piece((GamePiece) o, ((GamePiece) o).getMap(), List.of());
    return String.valueOf(o);
  }

  /**
   * The next dialogs whose title matches "title" (a regular expression) get their button
   * "button" pressed instead of being closed: {"answers": [{"title", "button", "fields"}, ...]};
   * "fields" are typed first, each {"label": regex, "value"} (the text field after that label)
   * or {"tab": title, "value"} (the first text field on that tab).
   */
  @SuppressWarnings("unchecked")
  private Object answer(Map<String, Object> step) {
    for (final Object a : (List<Object>) step.getOrDefault("answers", List.of())) {
      final Map<String, Object> one = (Map<String, Object>) a;
      str(one, "title");
      str(one, "button");
      Capture.ANSWERS.add(one);
    }
    return Map.of("waiting", Capture.ANSWERS.size());
  }

  // ---- waiting ---------------------------------------------------------------------------

  /**
   * Waits until entries (chat lines; dialogs by title and text) match "match" (a regular
   * expression) "count" times (default 1) within "timeout" seconds (default 30).
   */
  private Object waitFor(List<Map<String, Object>> list, Map<String, Object> step) throws Exception {
    final Pattern p = Pattern.compile(str(step, "match"));
    final int want = ((Number) step.getOrDefault("count", 1L)).intValue();
    final long end = System.currentTimeMillis() + (long) (((Number) step.getOrDefault("timeout", 30L)).doubleValue() * 1000);
    while (true) {
      onEdt(() -> {
        Capture.takeChat();
        Capture.closeDialogs();
        return null;
      });
      final List<Object> hits = new ArrayList<>();
      synchronized (list) {
        for (final Map<String, Object> m : list) {
          final String seen = (m.containsKey("title") ? m.get("title") + "\n" : "") + m.get("text");
          if (p.matcher(seen).find()) hits.add(m);
        }
      }
      if (hits.size() >= want) return Map.of("matched", hits);
      if (System.currentTimeMillis() > end) {
        throw new IllegalStateException("nothing matched /" + p + "/ " + want + " time(s) within the timeout (" + hits.size() + " did)");
      }
      Thread.sleep(50);
    }
  }

  /**
   * wait_piece {piece, map, location, properties, timeout}: waits until the piece (a selector) is
   * on that map (and location) with those property values (as strings): what another player's
   * move, received from the room, or a ruling applied does to it. Answers the piece.
   */
  @SuppressWarnings("unchecked")
  private Object waitPiece(Map<String, Object> step) throws Exception {
    final Map<String, Object> want = (Map<String, Object>) step.getOrDefault("properties", Map.of());
    final long end = System.currentTimeMillis() + (long) (((Number) step.getOrDefault("timeout", 30L)).doubleValue() * 1000);
    String last = "";
    while (true) {
      final Object seen = onEdt(() -> {
        final GamePiece p;
        try {
          p = Pieces.find(step.get("piece"));
        }
        catch (IllegalArgumentException e) {
          return e.getMessage();
        }
        final Map<String, Object> piece = Pieces.piece(p, p.getMap(), new ArrayList<>(want.keySet()));
        if (step.containsKey("map") && !step.get("map").equals(piece.get("map"))) return piece;
        if (step.containsKey("location") && !step.get("location").equals(piece.get("location"))) return piece;
        if (!want.equals(piece.get("properties"))) return piece;
        return Map.of("piece", piece);
      });
      if (seen instanceof Map && ((Map<String, Object>) seen).containsKey("piece")) return ((Map<String, Object>) seen).get("piece");
      last = String.valueOf(seen);
      if (System.currentTimeMillis() > end) throw new IllegalStateException("the piece is not so within the timeout: " + last);
      Thread.sleep(50);
    }
  }

  // ---- small helpers -------------------------------------------------------------------

  private static Field field(Class<?> c, String name) throws NoSuchFieldException {
    final Field f = c.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }

  static String str(Map<String, Object> step, String key) {
    final Object v = step.get(key);
    if (v == null) throw new IllegalArgumentException("step needs \"" + key + "\"");
    return String.valueOf(v);
  }

  private static File file(Map<String, Object> step, String key) {
    return new File(str(step, key)).getAbsoluteFile();
  }

  private static List<String> stringList(Object o) {
    final List<String> out = new ArrayList<>();
    if (o instanceof List) for (final Object x : (List<?>) o) out.add(String.valueOf(x));
    return out;
  }
}
