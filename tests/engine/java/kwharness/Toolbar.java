package kwharness;

import java.awt.Component;
import java.awt.Container;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.swing.AbstractButton;
import javax.swing.JComponent;
import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;
import javax.swing.MenuElement;

import VASSAL.build.GameModule;
import VASSAL.build.module.ToolbarMenu;

/**
 * The module's toolbar as a player sees it: every button with its text and tooltip, whether it
 * shows (a button folded into a toolbar menu does not; the menu lists it) and the items of each
 * toolbar menu. Pressing a button or a menu item is a person's click on it (doClick).
 * Event thread only.
 */
final class Toolbar {
  private Toolbar() { }

  /** Every button of the module's toolbar (the main map's own buttons sit in it too). */
  static List<Object> list() {
    final List<Object> out = new ArrayList<>();
    for (final AbstractButton b : buttons()) {
      final Map<String, Object> m = new LinkedHashMap<>();
      m.put("text", b.getText());
      m.put("tooltip", b.getToolTipText());
      m.put("showing", shows(b));
      m.put("enabled", b.isEnabled());
      final JPopupMenu menu = menuOf(b);
      if (menu != null) m.put("items", new ArrayList<>(items(menu).keySet()));
      out.add(m);
    }
    return out;
  }

  /**
   * Clicks the showing button with this text (an icon button, VASSAL's Undo: its tooltip) or,
   * with "item", that item of the toolbar menu with this text. A dialog the click opens is recorded and closed (or answered) as any other.
   */
  static Object press(String text, Object item) {
    final AbstractButton button = find(text);
    if (item == null) {
      button.doClick(0);
      return Map.of("pressed", text);
    }
    final JPopupMenu menu = menuOf(button);
    if (menu == null) throw new IllegalArgumentException("'" + text + "' is a button, not a toolbar menu");
    final Map<String, JMenuItem> items = items(menu);
    final JMenuItem chosen = items.get(String.valueOf(item));
    if (chosen == null) throw new IllegalArgumentException("menu '" + text + "' has no item '" + item + "': " + items.keySet());
    chosen.doClick(0);
    return Map.of("pressed", text + "/" + item);
  }

  private static AbstractButton find(String text) {
    final List<String> seen = new ArrayList<>();
    for (final AbstractButton b : buttons()) {
      if (!shows(b)) continue;
      if (text.equals(b.getText()) || b.getText() == null && text.equals(b.getToolTipText())) return b;  // an icon button by its tooltip ("Undo last move")
      seen.add(b.getText());
    }
    throw new IllegalArgumentException("no showing toolbar button '" + text + "'; the toolbar has " + seen);
  }

  private static boolean shows(AbstractButton b) {
    return b.isVisible() && !Boolean.TRUE.equals(b.getClientProperty(ToolbarMenu.HIDDEN_BY_TOOLBAR));
  }

  private static JPopupMenu menuOf(AbstractButton b) {
    final Object menu = b.getClientProperty(ToolbarMenu.MENU_PROPERTY);
    return menu instanceof JPopupMenu ? (JPopupMenu) menu : null;
  }

  private static List<AbstractButton> buttons() {
    final List<AbstractButton> out = new ArrayList<>();
    collect(GameModule.getGameModule().getToolBar(), out);
    return out;
  }

  private static void collect(Component c, List<AbstractButton> out) {
    if (c instanceof AbstractButton) {
      out.add((AbstractButton) c);
      return;
    }
    if (c instanceof Container) {
      for (final Component k : ((Container) c).getComponents()) collect(k, out);
    }
  }

  /** A menu's items by text, sub-menu items as "Sub-menu/Item"; a toolbar menu builds its items when shown. */
  static Map<String, JMenuItem> items(JPopupMenu menu) {
    final Map<String, JMenuItem> out = new LinkedHashMap<>();
    collectItems(menu.getSubElements(), "", out);
    return out;
  }

  private static void collectItems(MenuElement[] elements, String prefix, Map<String, JMenuItem> out) {
    for (final MenuElement e : elements) {
      if (e instanceof JMenu) {
        collectItems(((JMenu) e).getPopupMenu().getSubElements(), prefix + ((JMenu) e).getText() + "/", out);
      }
      else if (e instanceof JMenuItem) {
        out.put(prefix + ((JMenuItem) e).getText(), (JMenuItem) e);
      }
    }
  }

  /** Whether a component and all its parents show (a window not shown shows nothing). */
  static boolean showing(JComponent c) {
    return c.isShowing();
  }
}
