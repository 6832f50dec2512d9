package kwharness;

import java.awt.Component;
import java.awt.Container;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import javax.swing.JLabel;
import javax.swing.JTabbedPane;
import javax.swing.text.JTextComponent;

/**
 * Typing into a dialog as a person does before pressing its button: the text field that
 * follows a label ("Number of dice"), or the first text field of a tab ("Public"). Event thread.
 */
final class Fields {
  private Fields() { }

  /** Types each {"label"|"tab", "value"} of `spec` (a list, or null); returns what it typed where. */
  @SuppressWarnings("unchecked")
  static List<Object> fill(Container dialog, Object spec) {
    final List<Object> typed = new ArrayList<>();
    if (!(spec instanceof List)) return typed;
    for (final Object o : (List<Object>) spec) {
      final Map<String, Object> field = (Map<String, Object>) o;
      final String value = String.valueOf(field.get("value"));
      final JTextComponent target = field.containsKey("tab")
        ? onTab(dialog, String.valueOf(field.get("tab")))
        : afterLabel(dialog, Pattern.compile(String.valueOf(field.get("label"))));
      if (target == null) {
        typed.add(Map.of("field", String.valueOf(field), "found", false));
        continue;
      }
      target.setText(value);
      // A configurer takes the value when its field loses focus or fires; a key release does both.
      target.dispatchEvent(new java.awt.event.KeyEvent(target, java.awt.event.KeyEvent.KEY_RELEASED,
        System.currentTimeMillis(), 0, java.awt.event.KeyEvent.VK_UNDEFINED, java.awt.event.KeyEvent.CHAR_UNDEFINED));
      typed.add(Map.of("field", String.valueOf(field), "found", true));
    }
    return typed;
  }

  private static JTextComponent afterLabel(Container root, Pattern label) {
    final List<Component> all = new ArrayList<>();
    flatten(root, all);
    boolean seen = false;
    for (final Component c : all) {
      if (c instanceof JLabel && ((JLabel) c).getText() != null && label.matcher(((JLabel) c).getText()).find()) seen = true;
      else if (seen && c instanceof JTextComponent && ((JTextComponent) c).isEditable()) return (JTextComponent) c;
    }
    return null;
  }

  private static JTextComponent onTab(Container root, String title) {
    final List<Component> all = new ArrayList<>();
    flatten(root, all);
    for (final Component c : all) {
      if (!(c instanceof JTabbedPane)) continue;
      final JTabbedPane tabs = (JTabbedPane) c;
      for (int i = 0; i < tabs.getTabCount(); i++) {
        if (!title.equals(tabs.getTitleAt(i))) continue;
        tabs.setSelectedIndex(i);
        final List<Component> inside = new ArrayList<>();
        flatten((Container) tabs.getComponentAt(i), inside);
        for (final Component k : inside) {
          if (k instanceof JTextComponent && ((JTextComponent) k).isEditable()) return (JTextComponent) k;
        }
      }
    }
    return null;
  }

  private static void flatten(Component c, List<Component> out) {
    out.add(c);
    if (c instanceof Container) {
      for (final Component k : ((Container) c).getComponents()) flatten(k, out);
    }
  }
}
