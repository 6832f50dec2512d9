package korea.adjudicator;

import java.awt.Component;
import java.awt.GraphicsConfiguration;
import java.awt.GraphicsEnvironment;
import java.awt.Insets;
import java.awt.Rectangle;
import java.awt.Toolkit;
import java.awt.Window;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JTextField;
import javax.swing.event.DocumentEvent;
import javax.swing.event.DocumentListener;

/**
 * What a check's form (CheckForm) shows as text, and where on the screen: the chances of a check
 * as the pages word them, the board's part of the request as a player reads it, what an input
 * holds as text (and when the player changes it), and the screen a form may use.
 */
final class FormText {
  /** Outcomes listed in the chances; the rest are summed on one line (as the pages' 24). */
  static final int CHANCES_SHOWN = 24;

  private FormText() {
  }

  /** The odds as the pages word them: an outcome a row (its chance, exactly or its interval), the expected losses, how. */
  static String chancesHtml(Map<String, Object> odds) {
    final boolean exact = Boolean.TRUE.equals(odds.get("exact"));
    final StringBuilder sb = new StringBuilder("<html>");
    final Object headline = odds.get("headline");
    if (headline instanceof String && !((String) headline).isEmpty()) sb.append("<b>").append(html((String) headline)).append("</b><br>");
    sb.append("<table cellspacing=0 cellpadding=1>");
    final List<Object> outcomes = Schema.list(odds.get("outcomes"));
    double rest = 0;
    for (int i = 0; i < outcomes.size(); i++) {
      final Map<String, Object> o = Schema.map(outcomes.get(i));
      final double p = o.get("probability") instanceof Number ? ((Number) o.get("probability")).doubleValue() : 0;
      if (i >= CHANCES_SHOWN) {
        rest += p;
        continue;
      }
      final String how = o.get("fraction") instanceof String ? (String) o.get("fraction")
        : o.get("interval") instanceof List ? percent(((Number) Schema.list(o.get("interval")).get(0)).doubleValue()) + "–"
          + percent(((Number) Schema.list(o.get("interval")).get(1)).doubleValue()) : "";
      sb.append("<tr><td>").append(html(String.valueOf(o.get("label")))).append("</td><td align=right>&nbsp;")
        .append(exact ? "" : "≈ ").append(percent(p)).append("</td><td>&nbsp;").append(html(how)).append("</td></tr>");
    }
    sb.append("</table>");
    if (outcomes.size() > CHANCES_SHOWN) {
      sb.append(outcomes.size() - CHANCES_SHOWN).append(" more outcomes, ").append(percent(rest)).append(" together<br>");
    }
    final List<Object> losses = Schema.list(odds.get("expected_losses"));
    if (!losses.isEmpty()) {
      sb.append("<b>Expected losses</b>: ");
      final List<String> parts = new ArrayList<>();
      for (final Object l : losses) {
        final Map<String, Object> x = Schema.map(l);
        final double v = x.get("expected") instanceof Number ? ((Number) x.get("expected")).doubleValue() : 0;
        parts.add(html(String.valueOf(x.get("side_label"))) + " " + String.format(java.util.Locale.ROOT, "%.2f", v) + " "
                  + html(String.valueOf(x.getOrDefault("unit", ""))));
      }
      sb.append(String.join("; ", parts)).append("<br>");
    }
    if (odds.get("method") instanceof String) sb.append("<i>").append(html((String) odds.get("method"))).append("</i>");
    return sb.append("</html>").toString();
  }

  /** A probability as players say it (adjudicator.words.results.percent): "17 %", "<1 %", ">99 %". */
  static String percent(double p) {
    final long shown = Math.round(p * 100);
    if (shown == 0 && p > 0) return "&lt;1 %";
    if (shown == 100 && p < 1) return "&gt;99 %";
    return shown + " %";
  }

  /**
   * The board's part of the request, one member a line as a player reads it: its label, units
   * by their counters' names (a masked one by its mask) and hexes, a side and a scenario by their
   * names ({@link Catalog.Check#boardWords}), long lists counted.
   */
  static String summary(Catalog.Check check, Map<String, Object> filled) {
    final Schema schema = check.schema;
    final Map<String, Map<String, Object>> raw = schema.rawProperties(schema.root());
    final Map<String, Map<String, Object>> properties = schema.properties();
    final StringBuilder sb = new StringBuilder();
    for (final Map.Entry<String, Object> e : filled.entrySet()) {
      final Object value = e.getValue();
      final String role = properties.containsKey(e.getKey()) ? Schema.role(properties.get(e.getKey())) : null;
      final Map<String, String> words = role == null ? Map.of() : check.boardWords.getOrDefault(role, Map.of());
      final String v;
      if (value instanceof List && ((List<?>) value).size() > 6) v = ((List<?>) value).size() + " units";
      else if (value instanceof String && words.containsKey(value)) v = words.get(value);
      else v = readable(value);
      sb.append(Words.label(raw.get(e.getKey()), e.getKey())).append(": ").append(v).append('\n');
    }
    return sb.toString().strip();
  }

  /** A filled value in words: a unit by its counter's name and hex, a list of them joined, anything else as text. */
  private static String readable(Object value) {
    if (value instanceof List) {
      final List<String> parts = new ArrayList<>();
      for (final Object o : (List<?>) value) parts.add(readable(o));
      return String.join(", ", parts);
    }
    if (value instanceof Map) {
      final Map<String, Object> m = Schema.map(value);
      if (m.get("unit") instanceof String || m.get("block") instanceof String) return Unseen.unitName(m);
      return Json.write(Unseen.shown(value));
    }
    if (value instanceof String && BoardReader.pieceOfUnit((String) value) != null) {
      return Unseen.unitName(Map.of("unit", value));
    }
    // a value the rules name ("ground_support") in words, as the pages show it ("ground support")
    if (value instanceof String && Words.NAME.matcher((String) value).matches()) return ((String) value).replace('_', ' ');
    return String.valueOf(value);
  }

  /** What an input holds as FormFields reads it: a box's true/false, a list's choice, a field's text, the chosen boxes of a row. */
  static String typed(JComponent input) {
    if (input instanceof JCheckBox) return String.valueOf(((JCheckBox) input).isSelected());
    if (input instanceof JComboBox) {
      final Object v = ((JComboBox<?>) input).isEditable() ? ((JComboBox<?>) input).getEditor().getItem()
                                                           : ((JComboBox<?>) input).getSelectedItem();
      return v == null ? "" : String.valueOf(v);
    }
    if (input instanceof JTextField) return ((JTextField) input).getText();
    final List<String> chosen = new ArrayList<>();  // a row of check boxes: the chosen items
    for (final Component c : input.getComponents()) {
      if (c instanceof JCheckBox && ((JCheckBox) c).isSelected()) chosen.add(((JCheckBox) c).getText());
    }
    return String.join(", ", chosen);
  }

  /** Runs {@code changed} whenever the player changes what an input holds (typed, chosen, ticked). */
  static void whenChanged(JComponent input, Runnable changed) {
    if (input instanceof JTextField) {
      ((JTextField) input).getDocument().addDocumentListener(new DocumentListener() {
        @Override
        public void insertUpdate(DocumentEvent e) {
          changed.run();
        }

        @Override
        public void removeUpdate(DocumentEvent e) {
          changed.run();
        }

        @Override
        public void changedUpdate(DocumentEvent e) {
          changed.run();
        }
      });
    }
    else if (input instanceof JComboBox) ((JComboBox<?>) input).addActionListener(a -> changed.run());
    else if (input instanceof JCheckBox) ((JCheckBox) input).addItemListener(a -> changed.run());
    else {
      for (final Component c : input.getComponents()) {
        if (c instanceof JCheckBox) ((JCheckBox) c).addItemListener(a -> changed.run());
      }
    }
  }

  /**
   * Shows a problem's HTML in a label: as one line when it fits {@code room} pixels, else wrapped
   * at that width, as tall as its lines take (a long refusal never draws one line wider than the
   * form, pushing its rows out of view). The label's HTML view is laid out at the width itself:
   * a CSS width would be scaled by the toolkit's idea of a pixel.
   */
  static void wrap(javax.swing.JLabel on, String html, int room) {
    on.setPreferredSize(null);
    on.setText("<html>" + html + "</html>");
    final Object view = on.getClientProperty(javax.swing.plaf.basic.BasicHTML.propertyKey);
    if (!(view instanceof javax.swing.text.View) || on.getPreferredSize().width <= room) return;
    final javax.swing.text.View v = (javax.swing.text.View) view;
    v.setSize(room, 0);
    on.setPreferredSize(new java.awt.Dimension(room, (int) Math.ceil(v.getPreferredSpan(javax.swing.text.View.Y_AXIS))));
  }

  /**
   * How wide a problem label may be drawn in a form's {@code body} (px): from where it starts (its
   * field's input beside it, else its own panel) to the body's visible right edge.
   */
  static int room(java.awt.Container body, java.awt.Component label, java.awt.Component input) {
    final java.awt.Component from = input != null && input.getParent() == label.getParent() ? input : label.getParent();
    final int left = from == body || from.getParent() == null ? 0
      : javax.swing.SwingUtilities.convertPoint(from.getParent(), from.getLocation(), body).x;
    final int view = body.getParent() != null ? body.getParent().getWidth() : body.getWidth();
    return Math.max(220, view - left - 24);
  }

  /**
   * A text as a dialog's message, wrapped at about 72 characters: a refusal of a thousand
   * characters never makes the dialog wider than the screen (a short one stays one short line).
   */
  static javax.swing.JComponent message(String text) {
    final javax.swing.JTextArea area = new javax.swing.JTextArea(text == null ? "" : text);
    area.setName("message");
    area.setLineWrap(true);
    area.setWrapStyleWord(true);
    area.setEditable(false);
    area.setOpaque(false);
    final java.awt.FontMetrics fm = area.getFontMetrics(area.getFont());
    int longest = 0;
    for (final String line : area.getText().split("\n")) longest = Math.max(longest, fm.stringWidth(line));
    final String sample = "the quick brown fox jumps over the lazy dog";  // 72 average characters: the widest line
    final int width = Math.max(120, Math.min(longest + 8, fm.stringWidth(sample) * 72 / sample.length()));
    area.setSize(width, Short.MAX_VALUE);  // the wrapped lines laid out at that width: the height they take
    area.setPreferredSize(new java.awt.Dimension(width, area.getPreferredSize().height));
    return area;
  }

  /** Every request member's label (name -> label), for a refusal that names one. */
  static Map<String, String> labels(Schema schema) {
    final Map<String, String> out = new java.util.LinkedHashMap<>();
    for (final Map.Entry<String, Map<String, Object>> e : schema.rawProperties(schema.root()).entrySet()) {
      out.put(e.getKey(), Words.label(e.getValue(), e.getKey()));
    }
    return out;
  }

  static String html(String s) {
    return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** The part of the screen a window may use (without task bars), on the owner's screen. */
  static Rectangle usableScreen(Window owner) {
    final GraphicsConfiguration gc = owner != null ? owner.getGraphicsConfiguration()
      : GraphicsEnvironment.getLocalGraphicsEnvironment().getDefaultScreenDevice().getDefaultConfiguration();
    final Rectangle r = new Rectangle(gc.getBounds());
    final Insets in = Toolkit.getDefaultToolkit().getScreenInsets(gc);
    return new Rectangle(r.x + in.left, r.y + in.top, r.width - in.left - in.right, r.height - in.top - in.bottom);
  }

  /** Moves a window wholly onto the screen (centred on a large owner window, it may hang below the screen's edge). */
  static void keepOnScreen(Window w, Rectangle screen) {
    final Rectangle b = w.getBounds();
    b.x = Math.max(screen.x, Math.min(b.x, screen.x + screen.width - b.width));
    b.y = Math.max(screen.y, Math.min(b.y, screen.y + screen.height - b.height));
    w.setLocation(b.x, b.y);
  }
}
