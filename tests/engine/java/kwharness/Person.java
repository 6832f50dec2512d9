package kwharness;

import java.awt.AWTException;
import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.Frame;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Window;
import java.awt.event.InputEvent;
import java.awt.event.KeyEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import javax.swing.AbstractButton;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JMenu;
import javax.swing.JMenuBar;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;
import javax.swing.JViewport;
import javax.swing.MenuElement;
import javax.swing.MenuSelectionManager;
import javax.swing.SwingUtilities;
import javax.swing.text.JTextComponent;

import VASSAL.build.GameModule;
import VASSAL.counters.GamePiece;

/**
 * A person at the keyboard and mouse: every step here is real input through the X display
 * (java.awt.Robot), so the engine and the module's own listeners see what they see when a
 * person plays: the mouse moves to a button, a field or a piece on the screen and clicks, keys
 * are pressed one by one. Components are found on the screen by what a person reads (a
 * window's title or text, a button's text, a field's label) or by their component name. The
 * driver's thread does the input; the event thread only answers where things are.
 */
final class Person {
  private static final long WAIT_MS = 20_000;
  private final Robot robot;

  /** Clicks the pointer could not be put in place for, done by the component's own Swing method instead. */
  static final java.util.concurrent.atomic.AtomicInteger UNDELIVERED = new java.util.concurrent.atomic.AtomicInteger();

  Person() throws AWTException {
    robot = new Robot();
    robot.setAutoDelay(8);
    java.awt.Toolkit.getDefaultToolkit().addAWTEventListener(e -> LAST_MOVED = (java.awt.event.MouseEvent) e,
                                                             java.awt.AWTEvent.MOUSE_MOTION_EVENT_MASK);
  }

  /** The last mouse movement the toolkit delivered (its word for what is under the pointer, and where). */
  static volatile java.awt.event.MouseEvent LAST_MOVED;
  /** When the robot last pressed a mouse button (System.nanoTime). */
  private static volatile long lastPress;

  // ---- windows ----------------------------------------------------------------------------------

  /**
   * A showing window whose title matches {@code regex} (a dialog: its title and text, a line
   * apart), the newest first; null when none. The main window is matched by its title only (its
   * chat holds every word).
   */
  static Window window(String regex) {
    final Pattern p = Pattern.compile(regex == null ? "" : regex, Pattern.DOTALL);
    final Window[] all = Window.getWindows();
    for (int i = all.length - 1; i >= 0; i--) {
      final Window w = all[i];
      if (!w.isShowing()) continue;
      if (regex == null || p.matcher(w instanceof Dialog ? title(w) + "\n" + text(w) : title(w)).find()) return w;
    }
    return null;
  }

  static String title(Window w) {
    if (w instanceof Dialog) return String.valueOf(((Dialog) w).getTitle());
    if (w instanceof Frame) return String.valueOf(((Frame) w).getTitle());
    return "";
  }

  /** What a person reads in a window: its labels, text, buttons and chosen items, a line each. */
  static String text(Component c) {
    final StringBuilder sb = new StringBuilder();
    collect(c, sb);
    return sb.toString().trim();
  }

  private static void collect(Component c, StringBuilder sb) {
    if (!c.isVisible()) return;
    if (c instanceof JComponent && ((JComponent) c).getBorder() instanceof javax.swing.border.TitledBorder) {
      sb.append(plain(((javax.swing.border.TitledBorder) ((JComponent) c).getBorder()).getTitle())).append('\n');  // a group's title
    }
    if (c instanceof JLabel && ((JLabel) c).getText() != null) sb.append(plain(((JLabel) c).getText())).append('\n');
    else if (c instanceof JTextComponent) sb.append(((JTextComponent) c).getText()).append('\n');
    else if (c instanceof AbstractButton && !(c instanceof JMenuItem)) sb.append('[').append(((AbstractButton) c).getText()).append("]\n");
    else if (c instanceof JComboBox && ((JComboBox<?>) c).getSelectedItem() != null) {
      sb.append(((JComboBox<?>) c).getSelectedItem()).append('\n');
      return;
    }
    else if (c instanceof javax.swing.JList) {  // a list's rows, as a person reads them
      final javax.swing.ListModel<?> rows = ((javax.swing.JList<?>) c).getModel();
      for (int i = 0; i < rows.getSize(); i++) sb.append(plain(String.valueOf(rows.getElementAt(i)))).append('\n');
      return;
    }
    if (c instanceof Container) for (final Component k : ((Container) c).getComponents()) collect(k, sb);
  }

  /** A label's or a list row's HTML as a person reads it: a line per {@code <br>}, no tags, entities as shown. */
  static String plain(String html) {
    return html.replaceAll("<br>", "\n").replaceAll("<[^>]+>", "").replace("&nbsp;", " ").replace("&lt;", "<")
        .replace("&gt;", ">").replace("&amp;", "&");
  }

  /** Waits (off the event thread) until a window matching {@code regex} shows; IllegalStateException naming what shows. */
  Window waitWindow(String regex, long timeoutMs) throws Exception {
    final long end = System.currentTimeMillis() + timeoutMs;
    while (true) {
      final Window w = (Window) Steps.onEdt(() -> window(regex));
      if (w != null) return w;
      if (System.currentTimeMillis() > end) {
        throw new IllegalStateException("no window matching /" + regex + "/ within " + timeoutMs / 1000 + " s; showing: " + Steps.onEdt(Person::showing));
      }
      Thread.sleep(50);
    }
  }

  /** Waits (at most 3 s) until a window is the active one again, as after a dialog closes a person looks back at it. */
  void waitActive(Window w) throws Exception {
    final long end = System.currentTimeMillis() + 3000;
    while (!(Boolean) Steps.onEdt(w::isActive) && System.currentTimeMillis() < end) Thread.sleep(40);
  }

  /** Waits until no window matches {@code regex}. */
  void waitGone(String regex, long timeoutMs) throws Exception {
    final long end = System.currentTimeMillis() + timeoutMs;
    while (Steps.onEdt(() -> window(regex)) != null) {
      if (System.currentTimeMillis() > end) {
        throw new IllegalStateException("a window matching /" + regex + "/ is still showing: "
                                        + Steps.onEdt(() -> window(regex) == null ? "" : text(window(regex))));
      }
      Thread.sleep(50);
    }
  }

  /** Titles (and first text line) of the showing windows, for a failure's message. */
  static List<String> showing() {
    final List<String> out = new ArrayList<>();
    for (final Window w : Window.getWindows()) {
      if (w.isShowing()) out.add(title(w) + ": " + text(w).split("\n", 2)[0]);
    }
    return out;
  }

  // ---- finding what to click -----------------------------------------------------------------------

  /**
   * A showing component of a window: by component name, else a button (or check box) by its
   * text, else an input by the label in front of it; null when none.
   */
  static Component find(Window w, String what) {
    Component c = walk(w, k -> what.equals(k.getName()) && k.isShowing());
    if (c == null) c = walk(w, k -> k instanceof AbstractButton && !(k instanceof JMenuItem) && what.equals(((AbstractButton) k).getText()) && k.isShowing());
    if (c == null) {
      final Component label = walk(w, k -> k instanceof JLabel && k.isShowing() && ((JLabel) k).getText() != null
        && labelMatches(plain(((JLabel) k).getText()), what));
      if (label != null) c = ((JLabel) label).getLabelFor() != null ? ((JLabel) label).getLabelFor() : nextInput(w, label);
    }
    return c;
  }

  private static boolean labelMatches(String label, String what) {
    final String l = bare(label);
    final String w = bare(what);
    return l.equals(w) || l.startsWith(w + " (");
  }

  /** A label as compared: without its "required" star and closing colon. */
  private static String bare(String label) {
    return label.trim().replaceAll("\\s*\\*$", "").replaceAll(":$", "").trim();
  }

  /** The first input after a label in the window's component order (a JOptionPane form has no labelFor). */
  private static Component nextInput(Window w, Component label) {
    final List<Component> all = new ArrayList<>();
    flatten(w, all);
    for (int i = all.indexOf(label) + 1; i < all.size(); i++) {
      final Component k = all.get(i);
      if (k instanceof JTextComponent || k instanceof JComboBox || k instanceof AbstractButton) return k;
    }
    return null;
  }

  private static void flatten(Component c, List<Component> out) {
    out.add(c);
    if (c instanceof Container) for (final Component k : ((Container) c).getComponents()) flatten(k, out);
  }

  interface Test { boolean ok(Component c); }

  static Component walk(Component c, Test t) {
    if (t.ok(c)) return c;
    if (c instanceof Container) {
      for (final Component k : ((Container) c).getComponents()) {
        final Component found = walk(k, t);
        if (found != null) return found;
      }
    }
    return null;
  }

  /** The component named {@code what} in the window matching {@code window}, waited for. */
  Component waitComponent(String window, String what) throws Exception {
    final long end = System.currentTimeMillis() + WAIT_MS;
    while (true) {
      final Component c = (Component) Steps.onEdt(() -> {
        final Window w = window(window);
        if (w == null) return null;
        return find(w, what);
      });
      if (c != null) return c;
      if (System.currentTimeMillis() > end) {
        throw new IllegalStateException("no '" + what + "' in a window matching /" + window + "/; showing: " + Steps.onEdt(Person::showing));
      }
      Thread.sleep(50);
    }
  }

  // ---- input -----------------------------------------------------------------------------------------

  /**
   * A left click in the middle of a component, once the pointer is seen over it (pointAt). A
   * button says when it was pressed: a click it did not take is clicked again. When the pointer
   * cannot be put over the component (the X server and the toolkit do not agree where a window
   * is, or a grab a closed list left behind takes the events: seen on these machines under load),
   * the component's own Swing method does what the click would (a button's doClick, a field's
   * focus), and the report counts it (clicks_not_delivered); no click is ever made blind.
   * Answers when the robot pressed the mouse for the click that was heard (System.nanoTime), or
   * -1 when the component's own method did it.
   */
  long click(Component c) throws Exception {
    if (!pointAt(c)) {
      pressWithoutMouse(c);
      return -1;
    }
    if (!(c instanceof AbstractButton) || c instanceof JMenu) {  // a menu opens, it fires nothing
      pressHere(InputEvent.BUTTON1_DOWN_MASK);
      return lastPress;
    }
    final AbstractButton button = (AbstractButton) c;
    final java.util.concurrent.atomic.AtomicBoolean pressed = new java.util.concurrent.atomic.AtomicBoolean();
    final java.awt.event.ActionListener heard = a -> pressed.set(true);
    Steps.onEdt(() -> {
      button.addActionListener(heard);
      return null;
    });
    try {
      for (int attempt = 0; attempt < 3 && !pressed.get(); attempt++) {
        if (attempt > 0 && (!(Boolean) Steps.onEdt(button::isShowing) || !pointAt(button))) break;
        pressHere(InputEvent.BUTTON1_DOWN_MASK);
        final long end = System.currentTimeMillis() + 1000;
        while (!pressed.get() && System.currentTimeMillis() < end && (Boolean) Steps.onEdt(button::isShowing)) Thread.sleep(20);
      }
      if (pressed.get()) return lastPress;
      if ((Boolean) Steps.onEdt(button::isShowing)) {
        pressWithoutMouse(button);
        final long wait = System.currentTimeMillis() + 2000;
        while (!pressed.get() && System.currentTimeMillis() < wait) Thread.sleep(20);
      }
      return -1;
    }
    finally {
      Steps.onEdt(() -> {
        button.removeActionListener(heard);
        return null;
      });
    }
  }

  /** What a click on a component does, done by the component itself (counted: clicks_not_delivered). */
  private void pressWithoutMouse(Component c) throws Exception {
    UNDELIVERED.incrementAndGet();
    if (c instanceof JMenu && SwingUtilities.getAncestorOfClass(JPopupMenu.class, c) != null) {
      final JMenu sub = (JMenu) c;
      final JPopupMenu parent = (JPopupMenu) SwingUtilities.getAncestorOfClass(JPopupMenu.class, c);
      Steps.onEdt(() -> {
        MenuSelectionManager.defaultManager().setSelectedPath(new MenuElement[] {parent, sub, sub.getPopupMenu()});
        return null;
      });
    }
    else if (c instanceof AbstractButton) {
      SwingUtilities.invokeLater(((AbstractButton) c)::doClick);  // later: a modal dialog it opens must not hold this thread
    }
    else {
      Steps.onEdt(() -> {
        c.requestFocusInWindow();
        if (c instanceof JComboBox) ((JComboBox<?>) c).showPopup();
        return null;
      });
    }
    Steps.settleShort();
  }

  /**
   * Moves the pointer onto a component, as a person does before clicking, and waits until the
   * toolkit says the pointer is over it, at the point aimed at: a window the X server has not yet
   * put where the toolkit draws it would otherwise take a click meant for another place.
   * Tries for about 3 s, aiming again each time; false when it never was.
   */
  boolean pointAt(Component c) throws Exception {
    return pointAt(c, () -> aim(c));
  }

  /** A place on the screen, found again each time it is aimed at. */
  interface Where { Point get() throws Exception; }

  /** The same for a point within a component (a piece on a map, an item of a list). */
  boolean pointAt(Component c, Where where) throws Exception {
    for (int attempt = 0; attempt < 6; attempt++) {
      final Point p = where.get();
      LAST_MOVED = null;
      robot.mouseMove(p.x + 2, p.y + 1);
      robot.mouseMove(p.x, p.y);
      robot.waitForIdle();
      final long end = System.currentTimeMillis() + 500;
      while (System.currentTimeMillis() < end) {
        final java.awt.event.MouseEvent moved = LAST_MOVED;
        if (moved != null && moved.getLocationOnScreen().distance(p) <= 2
            && (moved.getComponent() == c || SwingUtilities.isDescendingFrom(moved.getComponent(), c))) {
          return true;
        }
        Thread.sleep(20);
      }
    }
    return false;
  }

  /** A press and release where the pointer is. */
  /** A left click at a place within a component, once the pointer is seen there; when the robot pressed (System.nanoTime). */
  long clickAt(Component c, Where where) throws Exception {
    if (!pointAt(c, where)) throw new IllegalStateException("the pointer cannot be put over " + describeComponent(c));
    pressHere(InputEvent.BUTTON1_DOWN_MASK);
    return lastPress;
  }

  /** A double click at a place within a component (a room of a server's room tree), once the pointer is seen there. */
  void doubleClickAt(Component c, Where where) throws Exception {
    if (!pointAt(c, where)) throw new IllegalStateException("the pointer cannot be put over " + describeComponent(c));
    lastPress = System.nanoTime();
    for (int i = 0; i < 2; i++) {
      robot.mousePress(InputEvent.BUTTON1_DOWN_MASK);
      robot.delay(20);
      robot.mouseRelease(InputEvent.BUTTON1_DOWN_MASK);
      robot.delay(40);
    }
    robot.waitForIdle();
    Steps.settleShort();
  }

  /** A right click at a place within a component (a player's name in a room tree), once the pointer is seen there. */
  void rightClickAt(Component c, Where where) throws Exception {
    if (!pointAt(c, where)) throw new IllegalStateException("the pointer cannot be put over " + describeComponent(c));
    pressHere(InputEvent.BUTTON3_DOWN_MASK);
  }

  private void pressHere(int button) throws Exception {
    lastPress = System.nanoTime();
    robot.mousePress(button);
    robot.delay(20);
    robot.mouseRelease(button);
    robot.waitForIdle();
    Steps.settleShort();
  }

  /** The point to click a component at, once a click there reaches it (at most 3 s); IllegalStateException saying what is there instead. */
  static Point aim(Component c) throws Exception {
    final long end = System.currentTimeMillis() + 3000;
    while (true) {
      final Point p = centre(c);
      final Object reached = Steps.onEdt(() -> reached(p));
      if (reached == c || (reached instanceof Component && SwingUtilities.isDescendingFrom((Component) reached, c))) return p;
      if (System.currentTimeMillis() > end) {
        throw new IllegalStateException("a click on '" + describeComponent(c) + "' at " + p + " would reach " + describeComponent(reached));
      }
      Thread.sleep(100);
    }
  }

  /** The deepest component a click at a screen point reaches: in the topmost showing window there (popups first). */
  static Component reached(Point p) {
    final Window[] all = Window.getWindows();
    for (int i = all.length - 1; i >= 0; i--) {
      final Window w = all[i];
      if (!w.isShowing() || !w.getBounds().contains(p)) continue;
      final Point in = new Point(p.x - w.getLocationOnScreen().x, p.y - w.getLocationOnScreen().y);
      if (w instanceof javax.swing.RootPaneContainer) {
        final javax.swing.JLayeredPane layers = ((javax.swing.RootPaneContainer) w).getLayeredPane();
        final Point inLayers = SwingUtilities.convertPoint(w, in, layers);
        for (final Component k : layers.getComponentsInLayer(javax.swing.JLayeredPane.POPUP_LAYER)) {
          if (k.isShowing() && k.getBounds().contains(inLayers)) {
            final Point inPopup = SwingUtilities.convertPoint(layers, inLayers, k);
            return SwingUtilities.getDeepestComponentAt(k, inPopup.x, inPopup.y);
          }
        }
      }
      return SwingUtilities.getDeepestComponentAt(w, in.x, in.y);
    }
    return null;
  }

  private static String describeComponent(Object c) {
    if (!(c instanceof Component)) return String.valueOf(c);
    final Component k = (Component) c;
    final String text = k instanceof AbstractButton ? ((AbstractButton) k).getText() : k instanceof JLabel ? ((JLabel) k).getText() : null;
    return k.getClass().getSimpleName() + (k.getName() != null ? "[" + k.getName() + "]" : "") + (text != null ? "'" + text + "'" : "");
  }

  /** Scrolls every scroll pane around a component so that it shows (as a person scrolls to a field below the fold). */
  static void scrollTo(Component c) {
    Component inner = c;
    JViewport port;
    while ((port = (JViewport) SwingUtilities.getAncestorOfClass(JViewport.class, inner)) != null) {
      final Component view = port.getView();
      final Rectangle r = SwingUtilities.convertRectangle(c.getParent(), c.getBounds(), view);
      final Rectangle shown = port.getViewRect();
      if (!shown.contains(r)) {
        final int x = Math.max(0, Math.min(r.x - (shown.width - r.width) / 2, view.getWidth() - shown.width));
        final int y = Math.max(0, Math.min(r.y - (shown.height - r.height) / 2, view.getHeight() - shown.height));
        port.setViewPosition(new Point(x, y));
        port.validate();
      }
      inner = port;
    }
  }

  static Point centre(Component c) throws Exception {
    Steps.onEdt(() -> {
      scrollTo(c);
      return null;
    });
    Steps.settleShort();
    return (Point) Steps.onEdt(() -> {
      if (!c.isShowing()) throw new IllegalStateException("'" + c.getName() + "' is not on the screen");
      Rectangle visible = c instanceof JComponent ? ((JComponent) c).getVisibleRect() : new Rectangle(c.getSize());
      if (visible.isEmpty()) visible = new Rectangle(c.getSize());
      final Point on = c.getLocationOnScreen();
      final Point p = new Point(on.x + visible.x + visible.width / 2, on.y + visible.y + visible.height / 2);
      final Rectangle screen = c.getGraphicsConfiguration().getBounds();
      if (!screen.contains(p)) throw new IllegalStateException("'" + c.getName() + "' is off the screen, at " + p + " (screen " + screen + ")");
      return p;
    });
  }

  /** Types text into a field as a person does: click into it, select what is there, type each key. */
  void type(Component field, String text, boolean clear) throws Exception {
    click(field);
    if (clear) {
      robot.keyPress(KeyEvent.VK_CONTROL);
      key(KeyEvent.VK_A);
      robot.keyRelease(KeyEvent.VK_CONTROL);
      key(KeyEvent.VK_BACK_SPACE);
    }
    for (final char ch : text.toCharArray()) typeChar(ch);
    robot.waitForIdle();
    Steps.settleShort();
    if (field instanceof JTextComponent) {
      final String now = (String) Steps.onEdt(((JTextComponent) field)::getText);
      if (clear && !text.equals(now)) {
        throw new IllegalStateException("typed '" + text + "' into '" + field.getName() + "', which shows '" + now + "'"
                                        + " (focus: " + Steps.onEdt(() -> String.valueOf(java.awt.KeyboardFocusManager
                                          .getCurrentKeyboardFocusManager().getFocusOwner())) + ")");
      }
    }
  }

  /** Presses a key by its name (ENTER, ESCAPE, TAB, SPACE, ...). */
  void press(String name) throws Exception {
    key(KeyEvent.class.getField("VK_" + name.toUpperCase()).getInt(null));
    robot.waitForIdle();
    Steps.settleShort();
  }

  private void key(int code) {
    robot.keyPress(code);
    robot.keyRelease(code);
  }

  /** One character on a US keyboard (what Xvfb has). */
  private void typeChar(char ch) {
    final String shifted = "~!@#$%^&*()_+{}|:\"<>?";
    final String plainKeys = "`1234567890-=[]\\;',./";
    boolean shift = Character.isUpperCase(ch);
    char base = Character.toLowerCase(ch);
    final int i = shifted.indexOf(ch);
    if (i >= 0) {
      shift = true;
      base = plainKeys.charAt(i);
    }
    final int code = base == ' ' ? KeyEvent.VK_SPACE : KeyEvent.getExtendedKeyCodeForChar(base);
    if (code == KeyEvent.VK_UNDEFINED) throw new IllegalArgumentException("cannot type '" + ch + "'");
    if (shift) robot.keyPress(KeyEvent.VK_SHIFT);
    key(code);
    if (shift) robot.keyRelease(KeyEvent.VK_SHIFT);
  }

  /** Chooses an item of a combo box: open its list with a click, click the item. */
  void choose(Component combo, String item) throws Exception {
    if (!(combo instanceof JComboBox)) throw new IllegalArgumentException("'" + combo.getName() + "' is no list to choose from");
    final JComboBox<?> box = (JComboBox<?>) combo;
    final int index = (Integer) Steps.onEdt(() -> {
      for (int i = 0; i < box.getItemCount(); i++) if (item.equals(String.valueOf(box.getItemAt(i)))) return i;
      return -1;
    });
    if (index < 0) throw new IllegalArgumentException("the list '" + combo.getName() + "' has no '" + item + "'");
    click(box);
    final JList<?> list = (JList<?>) waitFor(() -> walkWindows(k -> k instanceof JList && k.isShowing()
      && SwingUtilities.getAncestorOfClass(JPopupMenu.class, k) != null), "the list of '" + combo.getName() + "' did not open");
    final Where cell = () -> (Point) Steps.onEdt(() -> {
      list.ensureIndexIsVisible(index);
      final Rectangle r = list.getCellBounds(index, index);
      final Point on = list.getLocationOnScreen();
      return new Point(on.x + r.x + r.width / 2, on.y + r.y + r.height / 2);
    });
    if (pointAt(list, cell)) {
      pressHere(InputEvent.BUTTON1_DOWN_MASK);
    }
    else {  // as click: the list's own selection when the pointer cannot be put on it
      UNDELIVERED.incrementAndGet();
      Steps.onEdt(() -> {
        box.setSelectedIndex(index);
        box.hidePopup();
        return null;
      });
    }
    if (!item.equals(String.valueOf(Steps.onEdt(box::getSelectedItem)))) {
      throw new IllegalStateException("chose '" + item + "' in '" + combo.getName() + "', which shows '" + Steps.onEdt(box::getSelectedItem) + "'");
    }
  }

  private static Component walkWindows(Test t) {
    for (final Window w : Window.getWindows()) {
      if (!w.isShowing()) continue;
      final Component c = walk(w, t);
      if (c != null) return c;
    }
    return null;
  }

  // ---- menus -------------------------------------------------------------------------------------------

  /** The menu that is open (waited for up to {@code ms}), or null. */
  static JPopupMenu openMenu(long ms) throws Exception {
    final long end = System.currentTimeMillis() + ms;
    while (true) {
      final Object open = Steps.onEdt(() -> {
        final MenuElement[] p = MenuSelectionManager.defaultManager().getSelectedPath();
        if (p.length > 0 && p[0] instanceof JPopupMenu && ((JPopupMenu) p[0]).isShowing()) return p[0];
        return walkWindows(k -> k instanceof JPopupMenu && k.isShowing());
      });
      if (open != null) return (JPopupMenu) open;
      if (System.currentTimeMillis() > end) return null;
      Thread.sleep(40);
    }
  }

  /**
   * Clicks through the menu that is open (a toolbar button's, a right-click's): sub-menus are opened
   * by moving onto them. Each part of the path is an item's text or its component name (the
   * extension names its check items "check:NAME", words that change with the menus' wording do not).
   * Answers when the robot pressed on the last item (System.nanoTime; -1 when its own method did it).
   */
  long menu(List<String> path) throws Exception {
    long pressed = -1;
    JPopupMenu current = openMenu(WAIT_MS);
    if (current == null) throw new IllegalStateException("no menu is open");
    for (int i = 0; i < path.size(); i++) {
      final String text = path.get(i);
      final JPopupMenu in = current;
      final JMenuItem item = (JMenuItem) Steps.onEdt(() -> {
        for (final MenuElement e : in.getSubElements()) {
          if (e instanceof JMenuItem && (text.equals(((JMenuItem) e).getText()) || text.equals(((JMenuItem) e).getName()))) return e;
        }
        return null;
      });
      if (item == null) throw new IllegalArgumentException("the menu has no '" + text + "': " + Steps.onEdt(() -> items(in)));
      if (!(Boolean) Steps.onEdt(item::isEnabled)) throw new IllegalStateException("'" + text + "' is disabled");
      if (item instanceof JMenu && i < path.size() - 1) {
        final JMenu sub = (JMenu) item;
        final boolean rests = pointAt(item);  // a sub-menu opens when the mouse rests on it
        final long end = System.currentTimeMillis() + 1500;
        while (rests && !(Boolean) Steps.onEdt(() -> sub.getPopupMenu().isShowing()) && System.currentTimeMillis() < end) Thread.sleep(40);
        if (!(Boolean) Steps.onEdt(() -> sub.getPopupMenu().isShowing())) pressWithoutMouse(sub);  // see click
        current = (JPopupMenu) waitFor(() -> sub.getPopupMenu().isShowing() ? sub.getPopupMenu() : null, "'" + text + "' did not open");
      }
      else {
        pressed = click(item);
      }
    }
    return pressed;
  }

  /** Opens a menu of the main window's menu bar and clicks through it ("File", "Save As..."). */
  void mainMenu(List<String> path) throws Exception {
    final JMenu top = (JMenu) Steps.onEdt(() -> {
      final JMenuBar bar = GameModule.getGameModule().getPlayerWindow().getJMenuBar();
      for (int i = 0; i < bar.getMenuCount(); i++) {
        if (bar.getMenu(i) != null && path.get(0).equals(bar.getMenu(i).getText())) return bar.getMenu(i);
      }
      return null;
    });
    if (top == null) throw new IllegalArgumentException("the menu bar has no '" + path.get(0) + "'");
    click(top);
    waitFor(() -> top.getPopupMenu().isShowing() ? top : null, "'" + path.get(0) + "' did not open");
    menu(path.subList(1, path.size()));
  }

  static List<String> items(JPopupMenu popup) {
    final List<String> out = new ArrayList<>();
    for (final MenuElement e : popup.getSubElements()) if (e instanceof JMenuItem) out.add(((JMenuItem) e).getText());
    return out;
  }

  /**
   * Brings the window of a piece's map to the front and makes it the active one (what a person's
   * first click on a window does): menus of an inactive window do not follow the mouse.
   */
  void activate(GamePiece piece) throws Exception {
    final Window w = (Window) Steps.onEdt(() -> SwingUtilities.getWindowAncestor(piece.getMap().getView()));
    if (w == null || (Boolean) Steps.onEdt(w::isActive)) return;
    Steps.onEdt(() -> {
      w.toFront();
      w.requestFocus();
      return null;
    });
    waitActive(w);
  }

  /** A right click on a piece where it shows on its map (the map scrolled to it first, as a person would). */
  void rightClick(GamePiece piece, boolean shift) throws Exception {
    clickPiece(piece, shift, InputEvent.BUTTON3_DOWN_MASK);
  }

  /** A left click on a piece (selects it; with shift, adds it to the selection). */
  void leftClick(GamePiece piece, boolean shift) throws Exception {
    clickPiece(piece, shift, InputEvent.BUTTON1_DOWN_MASK);
  }

  /**
   * A click on a piece where it shows: its window brought to the front, its map scrolled to it,
   * the pointer seen over it. When the pointer cannot be put there (see click), the same press
   * and release go to the map's view as the toolkit would deliver them (counted).
   */
  private void clickPiece(GamePiece piece, boolean shift, int button) throws Exception {
    activate(piece);
    final Component view = (Component) Steps.onEdt(() -> {
      piece.getMap().centerAt(piece.getPosition());
      return piece.getMap().getView();
    });
    Steps.settleShort();
    final Where at = () -> (Point) Steps.onEdt(() -> {
      final Point inView = piece.getMap().mapToComponent(piece.getPosition());
      final JViewport port = (JViewport) SwingUtilities.getAncestorOfClass(JViewport.class, view);
      if (port != null && !port.getViewRect().contains(inView)) throw new IllegalStateException("the piece is not in view");
      final Point on = view.getLocationOnScreen();
      return new Point(on.x + inView.x, on.y + inView.y);
    });
    if (shift) robot.keyPress(KeyEvent.VK_SHIFT);
    try {
      if (pointAt(view, at)) {
        pressHere(button);
        return;
      }
      UNDELIVERED.incrementAndGet();
      final int modifiers = (button == InputEvent.BUTTON3_DOWN_MASK ? InputEvent.BUTTON3_DOWN_MASK : InputEvent.BUTTON1_DOWN_MASK)
        | (shift ? InputEvent.SHIFT_DOWN_MASK : 0);
      final int which = button == InputEvent.BUTTON3_DOWN_MASK ? java.awt.event.MouseEvent.BUTTON3 : java.awt.event.MouseEvent.BUTTON1;
      Steps.onEdt(() -> {
        final Point inView = piece.getMap().mapToComponent(piece.getPosition());
        final long now = System.currentTimeMillis();
        view.dispatchEvent(new java.awt.event.MouseEvent(view, java.awt.event.MouseEvent.MOUSE_PRESSED, now, modifiers, inView.x,
                                                         inView.y, 1, which == java.awt.event.MouseEvent.BUTTON3, which));
        view.dispatchEvent(new java.awt.event.MouseEvent(view, java.awt.event.MouseEvent.MOUSE_RELEASED, now, modifiers, inView.x,
                                                         inView.y, 1, false, which));
        return null;
      });
      Steps.settleShort();
    }
    finally {
      if (shift) robot.keyRelease(KeyEvent.VK_SHIFT);
    }
  }

  interface Probe { Object get() throws Exception; }

  static Object waitFor(Probe probe, String failure) throws Exception {
    final long end = System.currentTimeMillis() + WAIT_MS;
    while (true) {
      final Object o = Steps.onEdt(probe::get);
      if (o != null) return o;
      if (System.currentTimeMillis() > end) throw new IllegalStateException(failure);
      Thread.sleep(40);
    }
  }

  /** What a window shows, for a step's result: its title, text and named components. */
  static Map<String, Object> describe(Window w) {
    final Map<String, Object> out = new LinkedHashMap<>();
    out.put("title", title(w));
    out.put("text", text(w));
    final List<Object> names = new ArrayList<>();
    final List<Component> all = new ArrayList<>();
    flatten(w, all);
    final Map<String, Object> layout = new LinkedHashMap<>();
    for (final Component c : all) {
      if (c.getName() == null || !c.isShowing() || !(c instanceof JComponent)) continue;
      names.add(c.getName());
      // where it lies in the window, and how much of it shows (a scroll pane's view may cut it)
      final java.awt.Point at = SwingUtilities.convertPoint(c.getParent(), c.getLocation(), w);
      final java.awt.Rectangle seen = ((JComponent) c).getVisibleRect();
      layout.put(c.getName(), List.of(at.x, at.y, c.getWidth(), c.getHeight(), seen.width, seen.height));
    }
    out.put("names", names);
    out.put("size", List.of(w.getWidth(), w.getHeight()));
    out.put("layout", layout);
    return out;
  }
}
