package korea.adjudicator;

import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JTextField;

/** The rows of a ROWS or MAP field of a check's form, with Add and Remove; each row's inputs are named by their pointer. */
final class FormRows {
  final CheckForm form;
  final FormFields.Field field;
  final String pointer;
  final JPanel panel = new JPanel(new GridBagLayout());
  final List<Map<String, JComponent>> rows = new ArrayList<>();

  FormRows(CheckForm form, FormFields.Field field, String pointer) {
    this.form = form;
    this.field = field;
    this.pointer = pointer;
    final Object initial = field.defaultValue;
    if (field.fixed != null) {
      for (final Map<String, Object> unit : field.fixed) add(unit);
    }
    else if (field.kind == FormFields.Kind.ROWS && initial instanceof List) {
      for (final Object item : (List<?>) initial) add(Schema.map(item));
    }
    else if (field.kind == FormFields.Kind.MAP && initial instanceof Map) {
      for (final Map.Entry<String, Object> e : Schema.map(initial).entrySet()) add(Map.of("key", e.getKey(), "value", e.getValue()));
    }
    draw();
  }

  void add(Map<String, Object> values) {
    final Map<String, JComponent> row = new LinkedHashMap<>();
    final int index = rows.size();
    if (field.kind == FormFields.Kind.MAP) {
      final JComboBox<String> key = new JComboBox<>();
      key.setEditable(field.choices.isEmpty());
      for (final Object c : field.choices) key.addItem(String.valueOf(c));
      if (values.get("key") != null) key.setSelectedItem(String.valueOf(values.get("key")));
      row.put("key", key);
      final JTextField value = new JTextField(values.get("value") == null ? "" : String.valueOf(values.get("value")), 6);
      row.put("value", value);
    }
    else {
      for (final FormFields.Field m : field.members) {
        row.put(m.name, form.input(m, null, values.get(m.name)));
      }
    }
    rows.add(row);
    name(index);
  }

  /** Names every row's inputs by its pointer (after a row is removed, the rows after it move up). */
  void name(int index) {
    for (final Map.Entry<String, JComponent> e : rows.get(index).entrySet()) {
      final String p = pointer + "/" + index + "/" + e.getKey();
      e.getValue().setName(p);
      form.inputs.put(p, e.getValue());
    }
  }

  void draw() {
    panel.removeAll();
    form.inputs.keySet().removeIf(p -> p.startsWith(pointer + "/"));
    final GridBagConstraints at = CheckForm.constraints();
    at.gridwidth = 1;
    for (int i = 0; i < rows.size(); i++) {
      at.gridx = 0;
      if (field.fixed != null) {  // a unit the board named: its name, then what the player says of it
        panel.add(new JLabel(Unseen.unitName(field.fixed.get(i))), at);
        at.gridx++;
      }
      for (final Map.Entry<String, JComponent> e : rows.get(i).entrySet()) {
        final JLabel l = new JLabel(memberLabel(e.getKey()));
        panel.add(l, at);
        at.gridx++;
        panel.add(e.getValue(), at);
        at.gridx++;
      }
      final int index = i;
      final JButton remove = new JButton("Remove");  // a unit the board took may be taken out of the check too
      remove.setName(pointer + "/" + i + "/remove");
      remove.addActionListener(a -> {
        rows.remove(index);
        if (field.fixed != null) field.fixed.remove(index);
        draw();
        form.changed();
      });
      panel.add(remove, at);
      name(i);
      at.gridy++;
      at.gridx = 0;
      at.gridwidth = GridBagConstraints.REMAINDER;
      panel.add(form.problemLabel(pointer + "/" + i), at);
      at.gridwidth = 1;
      at.gridy++;
    }
    at.gridx = 0;
    if (field.fixed == null) {
      final JButton add = new JButton("Add " + (field.kind == FormFields.Kind.MAP ? "an entry" : "a row"));
      add.setName(pointer + "/add");
      add.addActionListener(a -> {
        add(Map.of());
        draw();
        form.changed();
      });
      panel.add(add, at);
    }
    panel.revalidate();
    if (form.dialog != null) form.repack();
  }

  private String memberLabel(String name) {
    if (field.kind == FormFields.Kind.MAP) return name.equals("key") ? "" : "=";
    for (final FormFields.Field m : field.members) if (m.name.equals(name)) return m.label;
    return name;
  }
}
