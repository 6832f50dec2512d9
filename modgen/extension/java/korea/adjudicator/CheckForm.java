package korea.adjudicator;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GraphicsConfiguration;
import java.awt.GraphicsEnvironment;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.awt.Rectangle;
import java.awt.Toolkit;
import java.awt.Window;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JComponent;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;
import javax.swing.Timer;

/**
 * The form of one check: what the board filled (shown, not editable; the units it took as rows
 * a player may remove) and an input for each field the player fills, drawn from FormFields:
 * every object a framed group of its own fields, a list of objects as rows (Add, Remove), a
 * count per key as key and value rows. The form stays open until the ruling is posted: a wrong
 * entry, and the server's refusal, are shown beside the field they name (in players' words,
 * with the values allowed), what names no field above the fields; while the server works the
 * form says that it is waiting and for how long, and when the server does not answer in time
 * it says so and OK asks again (the same request: a recorded check is never rolled twice). A
 * check with dice has a Chances button: each outcome with its probability and the expected
 * losses, before OK, or beside the button why they are not shown (the fog of war). Inputs
 * carry their JSON pointer as component name (a test finds them by it, or by their label).
 */
final class CheckForm {
  /** What OK does with the entered request members (off the form: Asking sends them). */
  interface Submit {
    void send(Map<String, Object> entered, CheckForm form);
  }

  /** What the Chances button does with the entered request members (null: the check has no chances). */
  interface Chances {
    void ask(Map<String, Object> entered, CheckForm form);
  }

  /** Outcomes listed in the chances; the rest are summed on one line (as the pages' 24). */
  static final int CHANCES_SHOWN = 24;

  private static final Color PROBLEM = new Color(170, 0, 0);

  private final JDialog dialog;
  private final List<FormFields.Field> fields;
  private final Map<String, JComponent> inputs = new LinkedHashMap<>();       // pointer -> input
  private final Map<String, JLabel> problems = new LinkedHashMap<>();         // pointer -> its problem label
  private final Map<String, RowsPanel> rowPanels = new LinkedHashMap<>();     // pointer -> rows of a ROWS/MAP field
  private final JLabel topProblem = new JLabel();
  private final JLabel status = new JLabel(" ");
  private final JButton ok = new JButton("OK");
  private final JButton chancesButton = new JButton("Chances");
  private final JLabel chancesNote = new JLabel(" ");
  private final JLabel chancesShown = new JLabel();
  private final JScrollPane chancesPane = new JScrollPane(chancesShown);
  private final JPanel body = new JPanel(new GridBagLayout());
  private final String asker;  // the asking player's part in the check ("attacker"), "" when not known
  private Rectangle screen;
  private Timer waiting;

  private CheckForm(Window owner, Catalog.Check check, Map<String, Object> filled, List<FormFields.Field> fields,
                    String mode, String dice, String asker, Submit submit, Chances chances) {
    this.fields = fields;
    this.asker = asker;
    dialog = new JDialog(owner, "Adjudicator: " + check.words(), java.awt.Dialog.ModalityType.APPLICATION_MODAL);
    dialog.setDefaultCloseOperation(JDialog.DISPOSE_ON_CLOSE);
    final GridBagConstraints at = constraints();
    final String who = check.actor.isEmpty() ? "" : "Who acts: " + html(check.actor) + "<br>";
    final String diceLine = dice.isEmpty() ? "" : html(dice) + "<br>";
    body.add(new JLabel("<html><b>" + html(check.words()) + "</b> (" + html(check.rule) + ")<br>" + html(check.summary) + "<br>"
                        + who + diceLine + "<i>" + html(mode) + "</i></html>"), at);
    topProblem.setName("problem");
    topProblem.setForeground(PROBLEM);
    topProblem.setVisible(false);
    at.gridy++;
    body.add(topProblem, at);
    final Map<String, Object> summed = new LinkedHashMap<>(filled);
    for (final FormFields.Field f : fields) if (f.fixed != null) summed.remove(f.name);  // shown as rows of their own
    if (!summed.isEmpty()) {
      at.gridy++;
      body.add(new JLabel("From the board:"), at);
      final JTextArea board = new JTextArea(summary(check.schema, summed), Math.min(6, summed.size()), 50);
      board.setName("board");
      board.setEditable(false);
      board.setLineWrap(true);
      at.gridy++;
      at.fill = GridBagConstraints.HORIZONTAL;
      body.add(new JScrollPane(board), at);
      at.fill = GridBagConstraints.NONE;
    }
    addFields(body, at, fields, "");
    final JScrollPane scroll = new JScrollPane(body);
    scroll.getVerticalScrollBar().setUnitIncrement(16);
    final Rectangle screen = usableScreen(owner);
    scroll.setPreferredSize(new Dimension(Math.min(Math.min(820, screen.width - 40), body.getPreferredSize().width + 40),
                                          Math.min(Math.min(620, screen.height - 140), body.getPreferredSize().height + 30)));
    final JButton cancel = new JButton("Cancel");
    cancel.addActionListener(a -> close());
    ok.addActionListener(a -> submit(submit));
    final JPanel buttons = new JPanel(new BorderLayout());
    final JPanel left = new JPanel(new FlowLayout(FlowLayout.LEFT));
    final JPanel right = new JPanel(new FlowLayout(FlowLayout.RIGHT));
    status.setName("status");
    if (chances != null) {
      chancesButton.setName("chances");
      chancesButton.setToolTipText("Each outcome with its probability and the expected losses, before anything is rolled");
      chancesButton.addActionListener(a -> askChances(chances));
      chancesNote.setName("chances note");
      left.add(chancesButton);
      left.add(chancesNote);
    }
    right.add(status);
    right.add(ok);
    right.add(cancel);
    buttons.add(left, BorderLayout.CENTER);
    buttons.add(right, BorderLayout.EAST);
    chancesShown.setName("chances shown");
    chancesShown.setVerticalAlignment(JLabel.TOP);
    chancesPane.setBorder(BorderFactory.createTitledBorder("Chances (before the roll; nothing rolled or recorded)"));
    chancesPane.setPreferredSize(new Dimension(Math.min(760, screen.width - 60), 190));
    chancesPane.setVisible(false);
    final JPanel south = new JPanel(new BorderLayout());
    south.add(chancesPane, BorderLayout.CENTER);
    south.add(buttons, BorderLayout.SOUTH);
    dialog.getContentPane().add(scroll, BorderLayout.CENTER);
    dialog.getContentPane().add(south, BorderLayout.SOUTH);
    dialog.getRootPane().setDefaultButton(ok);
    this.screen = screen;
    dialog.pack();
    dialog.setLocationRelativeTo(owner);
    keepOnScreen(dialog, screen);
  }

  /** Lays the form out again after it changed (a problem shown, rows added, chances), never larger than the screen. */
  private void repack() {
    dialog.pack();
    if (screen == null) return;  // still being built
    final Rectangle b = dialog.getBounds();
    if (b.width > screen.width || b.height > screen.height) {
      dialog.setSize(Math.min(b.width, screen.width), Math.min(b.height, screen.height));
    }
    keepOnScreen(dialog, screen);
  }

  /** The part of the screen a window may use (without task bars), on the owner's screen. */
  private static Rectangle usableScreen(Window owner) {
    final GraphicsConfiguration gc = owner != null ? owner.getGraphicsConfiguration()
      : GraphicsEnvironment.getLocalGraphicsEnvironment().getDefaultScreenDevice().getDefaultConfiguration();
    final Rectangle r = new Rectangle(gc.getBounds());
    final Insets in = Toolkit.getDefaultToolkit().getScreenInsets(gc);
    return new Rectangle(r.x + in.left, r.y + in.top, r.width - in.left - in.right, r.height - in.top - in.bottom);
  }

  /** Moves a window wholly onto the screen (centred on a large owner window, it may hang below the screen's edge). */
  private static void keepOnScreen(Window w, Rectangle screen) {
    final Rectangle b = w.getBounds();
    b.x = Math.max(screen.x, Math.min(b.x, screen.x + screen.width - b.width));
    b.y = Math.max(screen.y, Math.min(b.y, screen.y + screen.height - b.height));
    w.setLocation(b.x, b.y);
  }

  /**
   * Opens the form (modal: returns when it is closed); OK hands the entered members to {@code
   * submit}, the Chances button (none when {@code chances} is null) to {@code chances}. {@code
   * asker} is the asking player's part in the check ("attacker"; "" when not known): a value he
   * chooses himself is not said to be another player's. Event thread.
   */
  static void open(Component parent, Catalog.Check check, Map<String, Object> filled, List<FormFields.Field> fields,
                   String mode, String dice, String asker, Submit submit, Chances chances) {
    final Window owner = parent == null ? null : SwingUtilities.getWindowAncestor(parent) != null
      ? SwingUtilities.getWindowAncestor(parent) : parent instanceof Window ? (Window) parent : null;
    new CheckForm(owner, check, filled, fields, mode, dice, asker, submit, chances).dialog.setVisible(true);
  }

  // ---- what the asking side tells the form -----------------------------------------------------------

  /** The request is on its way: the form says it waits, counting the seconds, until {@link #answered}. */
  void waiting(String server, int timeoutSeconds) {
    clearProblems();
    ok.setEnabled(false);
    final long started = System.currentTimeMillis();
    final Runnable show = () -> status.setText("Waiting for the adjudicator at " + server + ": "
      + (System.currentTimeMillis() - started) / 1000 + " s (at most " + timeoutSeconds + " s)");
    show.run();
    waiting = new Timer(500, a -> show.run());
    waiting.start();
  }

  /** The ruling was posted: the form closes. */
  void answered() {
    stopWaiting();
    close();
  }

  /**
   * The server refused (or did not answer): the problem beside each field it names, with the
   * values it allows, the rest above the fields; the form stays open with what was entered.
   */
  void refused(Server.Problem p) {
    stopWaiting();
    ok.setEnabled(true);
    status.setText(" ");
    final List<String> general = new ArrayList<>();
    boolean placed = false;
    for (final Map<String, Object> e : p.errors) {
      final String pointer = String.valueOf(e.getOrDefault("pointer", ""));
      final String words = Unseen.named(FormFields.playersWords(String.valueOf(e.getOrDefault("detail", ""))))
        + FormFields.allowedWords(Schema.list(e.get("allowed")));
      final String at = nearestProblemPlace(pointer);
      if (at != null) {
        showProblem(at, labelOf(at) + ": " + words);
        placed = true;
      }
      else {
        general.add((pointer.isEmpty() ? "" : pointer.substring(1).replace('/', ' ') + ": ") + words);
      }
    }
    if (p.errors.isEmpty() || !general.isEmpty() || !placed) {
      final String text = Unseen.named(general.isEmpty() ? FormFields.playersWords(p.detail) : String.join("; ", general));
      final String title = p.title.equals("The request body is invalid") ? "The adjudicator did not accept these entries" : p.title;
      topProblem.setText("<html><b>" + html(title) + "</b><br>" + html(text) + "</html>");
      topProblem.setVisible(true);
    }
    repack();
  }

  // ---- the chances -------------------------------------------------------------------------------------

  /** The Chances button: what was entered read as OK reads it (a wrong entry is shown beside its field), then asked. */
  private void askChances(Chances chances) {
    clearProblems();
    final Map<String, Object> entered = readEntered();
    if (entered == null) return;
    chancesButton.setEnabled(false);
    chancesNote.setText("working them out...");
    chances.ask(entered, this);
  }

  /** The server's odds answer (adjudicator.odds: outcomes, expected losses, method), shown as the pages show them. */
  void showChances(Map<String, Object> odds) {
    chancesButton.setEnabled(true);
    chancesNote.setText(" ");
    chancesShown.setText(chancesHtml(odds));
    chancesPane.setVisible(true);
    repack();
  }

  /** Why there are no chances (the fog of war, a situation the rules refuse), beside the button, in players' words. */
  void noChances(Server.Problem p) {
    chancesButton.setEnabled(true);
    chancesPane.setVisible(false);
    chancesNote.setText("<html><div style=\"width: 380px\"><font color=\"#aa0000\">" + html(p.title) + ": "
                        + html(Unseen.named(FormFields.playersWords(p.detail))) + "</font></div></html>");
    chancesNote.setToolTipText(p.detail);
    repack();
  }

  /** The odds as the pages word them: an outcome a row (its chance, exactly or its interval), the expected losses, how. */
  static String chancesHtml(Map<String, Object> odds) {
    final boolean exact = Boolean.TRUE.equals(odds.get("exact"));
    final StringBuilder sb = new StringBuilder("<html>");
    final Map<String, Object> asked = Schema.map(odds.get("asked_before"));
    if (asked.get("text") instanceof String) {  // the same situation was recorded already: said before the roll
      sb.append("<font color=\"#aa5500\"><b>").append(html((String) asked.get("text"))).append("</b> Open record #")
        .append(html(String.valueOf(asked.get("record")))).append(" from Adjudicator &gt; Rulings of this game instead, "
        + "or press OK to roll again.</font><br>");
    }
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

  // ---- the fields --------------------------------------------------------------------------------------

  private void addFields(JPanel panel, GridBagConstraints at, List<FormFields.Field> list, String parent) {
    for (final FormFields.Field f : list) {
      final String pointer = f.pointer(parent);
      at.gridy++;
      at.gridx = 0;
      at.gridwidth = 1;
      if (!f.leaf()) {
        at.gridwidth = 2;
        at.fill = GridBagConstraints.HORIZONTAL;
        panel.add(group(f, pointer), at);
        at.fill = GridBagConstraints.NONE;
        at.gridy++;
        panel.add(problemLabel(pointer), at);
        continue;
      }
      final JLabel label = new JLabel(labelText(f));
      label.setToolTipText(f.description.isEmpty() ? null : f.description);
      panel.add(label, at);
      at.gridx = 1;
      final JComponent input = input(f, pointer);
      label.setLabelFor(input);
      panel.add(input, at);
      at.gridy++;
      panel.add(problemLabel(pointer), at);
    }
  }

  private String labelText(FormFields.Field f) {
    final String who = othersChoice(f) ? " (the " + f.chooser + "'s choice: ask them)" : "";
    return f.label + who + (f.required && f.defaultValue == null ? " *" : "");
  }

  /** Whether another player chooses this value (not the asking player himself: the attacker's hit order asked by the attacker). */
  private boolean othersChoice(FormFields.Field f) {
    return !f.chooser.isEmpty() && !f.chooser.equals(asker);
  }

  /** A framed group: an object's fields, or the rows of a list of objects or of a map. */
  private JComponent group(FormFields.Field f, String pointer) {
    final JPanel frame = new JPanel(new GridBagLayout());
    frame.setName(pointer);
    frame.setBorder(BorderFactory.createTitledBorder(labelText(f)));
    frame.setToolTipText(f.description.isEmpty() ? null : f.description);
    final GridBagConstraints at = constraints();
    if (f.kind == FormFields.Kind.OBJECT) {
      if (f.fixed != null) frame.setBorder(BorderFactory.createTitledBorder(f.label + ": " + Unseen.unitName(f.fixed.get(0))));
      at.gridy = -1;
      addFields(frame, at, f.members, pointer);
      return frame;
    }
    final RowsPanel rows = new RowsPanel(f, pointer);
    rowPanels.put(pointer, rows);
    frame.add(rows.panel, at);
    return frame;
  }

  /** The rows of a ROWS or MAP field, with Add and Remove; each row's inputs are named by their pointer. */
  private final class RowsPanel {
    final FormFields.Field field;
    final String pointer;
    final JPanel panel = new JPanel(new GridBagLayout());
    final List<Map<String, JComponent>> rows = new ArrayList<>();

    RowsPanel(FormFields.Field field, String pointer) {
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
          row.put(m.name, input(m, null, values.get(m.name)));
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
        inputs.put(p, e.getValue());
      }
    }

    void draw() {
      panel.removeAll();
      inputs.keySet().removeIf(p -> p.startsWith(pointer + "/"));
      final GridBagConstraints at = constraints();
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
        });
        panel.add(remove, at);
        name(i);
        at.gridy++;
        at.gridx = 0;
        at.gridwidth = GridBagConstraints.REMAINDER;
        panel.add(problemLabel(pointer + "/" + i), at);
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
        });
        panel.add(add, at);
      }
      panel.revalidate();
      if (dialog != null) repack();
    }

    private String memberLabel(String name) {
      if (field.kind == FormFields.Kind.MAP) return name.equals("key") ? "" : "=";
      for (final FormFields.Field m : field.members) if (m.name.equals(name)) return m.label;
      return name;
    }
  }

  private JComponent input(FormFields.Field f, String pointer) {
    return input(f, pointer, f.defaultValue);
  }

  private JComponent input(FormFields.Field f, String pointer, Object initialValue) {
    final String initial = FormFields.text(f, initialValue);
    final JComponent input;
    if (f.kind == FormFields.Kind.BOOLEAN && (f.required || initialValue != null)) {
      final JCheckBox box = new JCheckBox();
      box.setSelected("true".equals(initial));
      input = box;
    }
    else if (f.kind == FormFields.Kind.BOOLEAN) {  // a yes/no the server may also decide (left empty)
      final JComboBox<String> combo = new JComboBox<>(new String[] {"", "true", "false"});
      combo.setSelectedItem(initial);
      input = combo;
    }
    else if (f.kind == FormFields.Kind.CHOICE) {
      final JComboBox<String> combo = new JComboBox<>();
      // a value another player chooses starts empty, so it is never sent without being chosen
      if (!f.required || f.defaultValue != null || othersChoice(f)) combo.addItem("");
      for (final Object choice : f.choices) combo.addItem(String.valueOf(choice));
      combo.setSelectedItem(othersChoice(f) ? "" : initial);
      input = combo;
    }
    else if (f.kind == FormFields.Kind.LIST && !f.choices.isEmpty()) {
      final JPanel boxes = new JPanel(new FlowLayout(FlowLayout.LEFT, 4, 0));
      final List<?> chosen = initialValue instanceof List ? (List<?>) initialValue : List.of();
      for (final Object choice : f.choices) {
        final JCheckBox box = new JCheckBox(String.valueOf(choice), chosen.contains(choice));
        box.setName(pointer == null ? null : pointer + "=" + choice);
        boxes.add(box);
      }
      input = boxes;
    }
    else if (f.kind == FormFields.Kind.JSON) {
      input = new JTextField(initial, 30);
    }
    else {
      input = new JTextField(initial, f.kind == FormFields.Kind.INTEGER || f.kind == FormFields.Kind.NUMBER ? 6 : 24);
    }
    input.setToolTipText(f.description.isEmpty() ? null : f.description);
    if (pointer != null) {
      input.setName(pointer);
      inputs.put(pointer, input);
    }
    return input;
  }

  private JLabel problemLabel(String pointer) {
    final JLabel l = new JLabel();
    l.setName("problem:" + pointer);
    l.setForeground(PROBLEM);
    l.setVisible(false);
    problems.put(pointer, l);
    return l;
  }

  // ---- OK ------------------------------------------------------------------------------------------------

  private void submit(Submit submit) {
    clearProblems();
    final Map<String, Object> entered = readEntered();
    if (entered != null) submit.send(entered, this);
  }

  /** What was entered as request members, or null with every wrong entry shown beside its field. */
  private Map<String, Object> readEntered() {
    try {
      return FormFields.read(fields, entered());
    }
    catch (FormFields.Problems wrong) {
      for (final Map.Entry<String, String> e : wrong.byPointer.entrySet()) {
        final String at = nearestProblemPlace(e.getKey());
        if (at != null) showProblem(at, e.getValue());
        else {
          topProblem.setText(e.getValue());
          topProblem.setVisible(true);
        }
      }
      repack();
      return null;
    }
  }

  /** What the inputs hold, by pointer, as FormFields reads it. */
  private FormFields.Entered entered() {
    return new FormFields.Entered() {
      @Override
      public String text(String pointer) {
        final JComponent input = inputs.get(pointer);
        return input == null ? "" : typed(input);
      }

      @Override
      public int rows(String pointer) {
        final RowsPanel rows = rowPanels.get(pointer);
        return rows == null ? 0 : rows.rows.size();
      }
    };
  }

  private static String typed(JComponent input) {
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

  /** The problem label nearest a pointer: its own, else its group's or row's ("/attackers/0/unit" -> "/attackers/0"). */
  private String nearestProblemPlace(String pointer) {
    String p = pointer;
    while (!p.isEmpty()) {
      if (problems.containsKey(p)) return p;
      p = p.substring(0, p.lastIndexOf('/'));
    }
    return null;
  }

  /** The label of the field at a pointer, for a problem that names it. */
  private String labelOf(String pointer) {
    final FormFields.Field f = find(fields, pointer, "");
    return f == null ? pointer.substring(pointer.lastIndexOf('/') + 1) : f.label;
  }

  private static FormFields.Field find(List<FormFields.Field> list, String pointer, String parent) {
    for (final FormFields.Field f : list) {
      final String p = f.pointer(parent);
      if (p.equals(pointer)) return f;
      if (pointer.startsWith(p + "/") && !f.members.isEmpty()) {
        final String rest = pointer.substring(p.length() + 1);
        final String below = f.kind == FormFields.Kind.OBJECT ? p : p + "/" + rest.split("/")[0];
        final FormFields.Field inner = find(f.members, pointer, below);
        if (inner != null) return inner;
      }
    }
    return null;
  }

  private void showProblem(String pointer, String text) {
    final JLabel l = problems.get(pointer);
    l.setText(text);
    l.setVisible(true);
  }

  private void clearProblems() {
    topProblem.setVisible(false);
    for (final JLabel l : problems.values()) l.setVisible(false);
  }

  private void stopWaiting() {
    if (waiting != null) waiting.stop();
    waiting = null;
  }

  private void close() {
    stopWaiting();
    dialog.dispose();
  }

  boolean isOpen() {
    return dialog.isDisplayable();
  }

  private static GridBagConstraints constraints() {
    final GridBagConstraints at = new GridBagConstraints();
    at.insets = new Insets(2, 4, 2, 4);
    at.anchor = GridBagConstraints.WEST;
    at.gridx = 0;
    at.gridy = 0;
    at.gridwidth = 2;
    return at;
  }

  /**
   * The board's part of the request, one member a line as a player reads it: its label, units
   * by their counters' names (a masked one by its mask) and hexes, long lists counted.
   */
  static String summary(Schema schema, Map<String, Object> filled) {
    final Map<String, Map<String, Object>> raw = schema.rawProperties(schema.root());
    final StringBuilder sb = new StringBuilder();
    for (final Map.Entry<String, Object> e : filled.entrySet()) {
      final Object value = e.getValue();
      final String v;
      if (value instanceof List && ((List<?>) value).size() > 6) v = ((List<?>) value).size() + " units";
      else v = readable(value);
      sb.append(FormFields.label(raw.get(e.getKey()), e.getKey())).append(": ").append(v).append('\n');
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
    return String.valueOf(value);
  }

  private static String html(String s) {
    return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
