package korea.adjudicator;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.awt.Rectangle;
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
 * losses, before OK, or beside the button why they are not shown (the fog of war); in a recorded
 * game a situation the ledger holds already is said at the top, and OK asks before it rolls again
 * (AskedBefore). Inputs carry their JSON pointer as component name (a test finds them by it, or by
 * their label).
 */
final class CheckForm {
  /** What OK does with the entered request members (off the form: Asking sends them). */
  interface Submit {
    void send(Map<String, Object> entered, CheckForm form);
  }

  /** What the Chances button asks with the entered request members (null: the check has no chances): the odds, or why not. */
  interface Chances extends AskedBefore.Lookup {
  }

  private static final Color PROBLEM = new Color(170, 0, 0);

  final JDialog dialog;
  private final List<FormFields.Field> fields;
  final Map<String, JComponent> inputs = new LinkedHashMap<>();       // pointer -> input
  private final Map<String, JLabel> problems = new LinkedHashMap<>();         // pointer -> its problem label
  private final Map<String, FormRows> rowPanels = new LinkedHashMap<>();     // pointer -> rows of a ROWS/MAP field
  private final JLabel topProblem = new JLabel();
  private final JLabel status = new JLabel(" ");
  private final JButton ok = new JButton("OK");
  private final JPanel body = new JPanel(new GridBagLayout());
  private final String asker;  // the asking player's part in the check ("attacker"), "" when not known
  private final AskedBefore repeat;  // the warning of a situation asked before (null: not a recorded game's roll)
  private final Map<String, String> labels;  // every request member's label, for a refusal that names one
  private Rectangle screen;
  private Timer waiting;

  private CheckForm(Window owner, Catalog.Check check, Map<String, Object> filled, List<FormFields.Field> fields,
                    String mode, String dice, String asker, Submit submit, Chances chances, AskedBefore repeat) {
    this.fields = fields;
    this.asker = asker;
    this.repeat = repeat;
    this.labels = FormText.labels(check.schema);
    dialog = new JDialog(owner, "Adjudicator: " + check.words(), java.awt.Dialog.ModalityType.APPLICATION_MODAL);
    dialog.setDefaultCloseOperation(JDialog.DISPOSE_ON_CLOSE);
    final GridBagConstraints at = constraints();
    final String who = check.actor.isEmpty() ? "" : "Who acts: " + FormText.html(check.actor) + "<br>";
    final String diceLine = dice.isEmpty() ? "" : FormText.html(dice) + "<br>";
    body.add(new JLabel("<html><b>" + FormText.html(check.words()) + "</b> (" + FormText.html(check.rule) + ")<br>" + FormText.html(check.summary) + "<br>"
                        + who + diceLine + "<i>" + FormText.html(mode) + "</i></html>"), at);
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
      final JTextArea board = new JTextArea(FormText.summary(check, summed), Math.min(6, summed.size()), 50);
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
    final Rectangle screen = FormText.usableScreen(owner);
    scroll.setPreferredSize(new Dimension(Math.min(Math.min(820, screen.width - 40), body.getPreferredSize().width + 40),
                                          Math.min(Math.min(620, screen.height - 140), body.getPreferredSize().height + 30)));
    final JButton cancel = new JButton("Cancel");
    cancel.addActionListener(a -> close());
    ok.addActionListener(a -> submit(submit));
    final JPanel buttons = new JPanel(new BorderLayout());
    final JPanel left = new JPanel(new FlowLayout(FlowLayout.LEFT));
    final JPanel right = new JPanel(new FlowLayout(FlowLayout.RIGHT));
    status.setName("status");
    final FormChances odds = new FormChances(this, chances, screen);
    if (chances != null) {
      left.add(odds.button);
      left.add(odds.note);
    }
    right.add(status);
    right.add(ok);
    right.add(cancel);
    buttons.add(left, BorderLayout.CENTER);
    buttons.add(right, BorderLayout.EAST);
    final JPanel south = new JPanel(new BorderLayout());
    south.add(odds.pane, BorderLayout.CENTER);
    south.add(buttons, BorderLayout.SOUTH);
    if (repeat != null) dialog.getContentPane().add(repeat.panel, BorderLayout.NORTH);  // at the top, never scrolled away
    dialog.getContentPane().add(scroll, BorderLayout.CENTER);
    dialog.getContentPane().add(south, BorderLayout.SOUTH);
    dialog.getRootPane().setDefaultButton(ok);
    this.screen = screen;
    dialog.pack();
    dialog.setLocationRelativeTo(owner);
    FormText.keepOnScreen(dialog, screen);
  }

  /** Lays the form out again after it changed (a problem shown, rows added, chances), never larger than the screen. */
  void repack() {
    dialog.pack();
    if (screen == null) return;  // still being built
    final Rectangle b = dialog.getBounds();
    if (b.width > screen.width || b.height > screen.height) {
      dialog.setSize(Math.min(b.width, screen.width), Math.min(b.height, screen.height));
    }
    FormText.keepOnScreen(dialog, screen);
  }

  /**
   * Opens the form (modal: returns when it is closed); OK hands the entered members to {@code
   * submit}, the Chances button (none when {@code chances} is null) to {@code chances}. {@code
   * asker} is the asking player's part in the check ("attacker"; "" when not known): a value he
   * chooses himself is not said to be another player's. {@code repeat} (null: none) warns of a
   * situation asked before, looked up as the form opens and as its entries change. Event thread.
   */
  static void open(Component parent, Catalog.Check check, Map<String, Object> filled, List<FormFields.Field> fields,
                   String mode, String dice, String asker, Submit submit, Chances chances, AskedBefore repeat) {
    final Window owner = parent == null ? null : SwingUtilities.getWindowAncestor(parent) != null
      ? SwingUtilities.getWindowAncestor(parent) : parent instanceof Window ? (Window) parent : null;
    final CheckForm form = new CheckForm(owner, check, filled, fields, mode, dice, asker, submit, chances, repeat);
    if (repeat != null) SwingUtilities.invokeLater(() -> repeat.opened(form.dialog, form::quietlyEntered, form::repack));
    form.dialog.setVisible(true);
  }

  /** An entry changed (typed, chosen, a row added or removed): the repeat warning looks again once the player pauses. */
  void changed() {
    if (repeat != null) repeat.changed();
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
      final String words = Words.errorWords(e, labels);
      final String at = nearestProblemPlace(pointer);
      if (at != null) {
        showProblem(at, labelOf(at) + ": " + words);
        placed = true;
      }
      else {
        final String member = pointer.isEmpty() ? "" : pointer.substring(1).split("/")[0];  // a field the form lacks: no name
        general.add((labels.containsKey(member) ? labels.get(member) + ": " : "") + words);
      }
    }
    if (p.errors.isEmpty() || !general.isEmpty() || !placed) {
      final String text = Words.generalWords(p.detail, general, labels);
      final String title = p.title.equals("The request body is invalid") ? "The adjudicator did not accept these entries" : p.title;
      showTop("<b>" + FormText.html(title) + "</b><br>" + FormText.html(text));
    }
    repack();
  }

  /** What was entered, as OK reads it (a wrong entry shown beside its field), or null: the Chances button's request. */
  Map<String, Object> enteredOrShown() {
    clearProblems();
    return readEntered();
  }

  /** The odds answered the Chances button: the repeat warning reads the same answer. */
  void chancesAnswered(Map<String, Object> entered, Map<String, Object> odds) {
    if (repeat != null) repeat.answered(entered, odds);
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
    final FormRows rows = new FormRows(this, f, pointer);
    rowPanels.put(pointer, rows);
    frame.add(rows.panel, at);
    return frame;
  }

  private JComponent input(FormFields.Field f, String pointer) {
    return input(f, pointer, f.defaultValue);
  }

  JComponent input(FormFields.Field f, String pointer, Object initialValue) {
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
    FormText.whenChanged(input, this::changed);
    if (pointer != null) {
      input.setName(pointer);
      inputs.put(pointer, input);
    }
    return input;
  }

  JLabel problemLabel(String pointer) {
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
    if (entered == null) return;
    if (repeat == null) {
      submit.send(entered, this);
      return;
    }
    ok.setEnabled(false);  // no second OK while the situation is looked up or the player is asked
    status.setText("Looking up whether this situation was asked before...");
    repeat.beforeSend(entered, send -> {
      if (!isOpen()) return;
      ok.setEnabled(true);
      status.setText(" ");
      if (send) submit.send(entered, this);
    });
  }

  /** What was entered, read without showing a problem (null while an entry is wrong): the repeat warning's lookups. */
  private Map<String, Object> quietlyEntered() {
    try {
      return FormFields.read(fields, entered());
    }
    catch (FormFields.Problems wrong) {
      return null;
    }
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
        else showTop(FormText.html(e.getValue()));
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
        return input == null ? "" : FormText.typed(input);
      }

      @Override
      public int rows(String pointer) {
        final FormRows rows = rowPanels.get(pointer);
        return rows == null ? 0 : rows.rows.size();
      }
    };
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
    FormText.wrap(l, FormText.html(text), FormText.room(body, l, inputs.get(pointer)));
    l.setVisible(true);
  }

  /** A problem that names no field of the form, above the fields, wrapped to the form's width. */
  private void showTop(String html) {
    FormText.wrap(topProblem, html, FormText.room(body, topProblem, null));
    topProblem.setVisible(true);
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
    if (repeat != null) repeat.closed();
    dialog.dispose();
  }

  boolean isOpen() {
    return dialog.isDisplayable();
  }

  static GridBagConstraints constraints() {
    final GridBagConstraints at = new GridBagConstraints();
    at.insets = new Insets(2, 4, 2, 4);
    at.anchor = GridBagConstraints.WEST;
    at.gridx = 0;
    at.gridy = 0;
    at.gridwidth = 2;
    return at;
  }
}
