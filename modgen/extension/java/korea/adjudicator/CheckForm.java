package korea.adjudicator;

import java.awt.Component;
import java.awt.Dimension;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.JTextField;

/**
 * The form of one check: what the board filled (shown, not editable) and an input for each
 * field the player fills, drawn from FormFields. Modal, on the event thread; nothing is sent
 * until the player confirms and every field reads correctly.
 */
final class CheckForm {
  private CheckForm() { }

  /** The player's values (request members), or null when the player cancelled. */
  static Map<String, Object> ask(Component parent, Catalog.Check check, Map<String, Object> filled,
                                 List<FormFields.Field> fields, String mode) {
    final JPanel panel = new JPanel(new GridBagLayout());
    final GridBagConstraints at = new GridBagConstraints();
    at.insets = new Insets(2, 4, 2, 4);
    at.anchor = GridBagConstraints.WEST;
    at.gridx = 0;
    at.gridy = 0;
    at.gridwidth = 2;
    final String who = check.actor.isEmpty() ? "" : "Who acts: " + html(check.actor) + "<br>";
    panel.add(new JLabel("<html><b>" + html(check.words()) + "</b> (" + html(check.rule) + ")<br>"
                         + html(check.summary) + "<br>" + who + "<i>" + html(mode) + "</i></html>"), at);
    if (!filled.isEmpty()) {
      at.gridy++;
      final JTextArea board = new JTextArea(summary(filled), Math.min(6, filled.size()), 50);
      board.setEditable(false);
      board.setLineWrap(true);
      panel.add(new JLabel("From the board:"), at);
      at.gridy++;
      at.fill = GridBagConstraints.HORIZONTAL;
      panel.add(new JScrollPane(board), at);
      at.fill = GridBagConstraints.NONE;
    }
    at.gridwidth = 1;
    final List<JComponent> inputs = new ArrayList<>();
    for (final FormFields.Field f : fields) {
      at.gridy++;
      at.gridx = 0;
      final JLabel label = new JLabel(f.label + (f.required && f.defaultValue == null ? " *" : ""));
      label.setToolTipText(f.description.isEmpty() ? null : f.description);
      panel.add(label, at);
      at.gridx = 1;
      final JComponent input = input(f);
      input.setToolTipText(f.description.isEmpty() ? null : f.description);
      inputs.add(input);
      panel.add(input, at);
    }
    final JScrollPane scroll = new JScrollPane(panel);
    scroll.setPreferredSize(new Dimension(Math.min(760, panel.getPreferredSize().width + 30),
                                          Math.min(560, panel.getPreferredSize().height + 30)));
    while (true) {
      final int answer = JOptionPane.showConfirmDialog(parent, scroll, "Adjudicator: " + check.words(),
                                                       JOptionPane.OK_CANCEL_OPTION, JOptionPane.PLAIN_MESSAGE);
      if (answer != JOptionPane.OK_OPTION) return null;
      try {
        final Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < fields.size(); i++) {
          FormFields.put(values, fields.get(i), FormFields.parse(fields.get(i), typed(inputs.get(i))));
        }
        return values;
      }
      catch (IllegalArgumentException problem) {
        JOptionPane.showMessageDialog(parent, problem.getMessage(), "Adjudicator: please correct",
                                      JOptionPane.WARNING_MESSAGE);
      }
    }
  }

  private static JComponent input(FormFields.Field f) {
    final String initial = FormFields.initialText(f);
    if (f.kind == FormFields.Kind.BOOLEAN) {
      final JCheckBox box = new JCheckBox();
      box.setSelected("true".equals(initial));
      return box;
    }
    if (f.kind == FormFields.Kind.CHOICE) {
      final JComboBox<String> combo = new JComboBox<>();
      if (!f.required || f.defaultValue != null) combo.addItem("");
      for (final Object choice : f.choices) combo.addItem(String.valueOf(choice));
      combo.setSelectedItem(initial);
      return combo;
    }
    return new JTextField(initial, 24);
  }

  private static String typed(JComponent input) {
    if (input instanceof JCheckBox) return String.valueOf(((JCheckBox) input).isSelected());
    if (input instanceof JComboBox) return String.valueOf(((JComboBox<?>) input).getSelectedItem());
    return ((JTextField) input).getText();
  }

  /** The board's part of the request, one member a line (long lists shortened). */
  static String summary(Map<String, Object> filled) {
    final StringBuilder sb = new StringBuilder();
    for (final Map.Entry<String, Object> e : filled.entrySet()) {
      String v = Json.write(e.getValue());
      if (e.getValue() instanceof List && ((List<?>) e.getValue()).size() > 6) {
        v = ((List<?>) e.getValue()).size() + " units";
      }
      sb.append(e.getKey()).append(": ").append(v).append('\n');
    }
    return sb.toString().strip();
  }

  private static String html(String s) {
    return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
