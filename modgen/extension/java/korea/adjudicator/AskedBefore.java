package korea.adjudicator;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Window;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JTextArea;
import javax.swing.Timer;

/**
 * A repeat warned before the roll. Asking the same situation again until the dice please is the
 * oldest cheat of a game played in VASSAL; the server names a repeat once it is recorded ("asked
 * again: the same situation as record #N"), but a player should know it before he rolls. The odds
 * of a recorded game's request carry {@code asked_before} when the ledger already holds the same
 * situation (the same check, side and request, none of its units changed since): the form says it
 * at its top in the server's words, with a button that opens that ruling as Rulings of this game
 * opens one, and OK while it stands asks once more: Roll again, Open #N (nothing sent) or Cancel.
 *
 * The situation is looked up through the form's chances (the same odds request): when the form
 * opens filled, after each pause in the player's changes (one request a pause, never one a
 * keystroke), whenever the Chances button answers, and on OK when the entries changed since the
 * last answer. The server never refuses a repeat, since a retry after a lost answer sends the same
 * request id and must get its record: the warning is the client's, before anything is sent, and a
 * request this form sent already (that retry) is neither warned of nor held.
 */
final class AskedBefore {
  /** How long the entries rest before they are looked up (ms). */
  static final int PAUSE_MS = 700;
  /** The warning's width (px): its words wrap within it, the form never a long line wide. */
  static final int TEXT_WIDTH = 600;
  private static final Color WARNING = new Color(150, 75, 0);

  /** Asks the odds of the entered request: {@code odds} gets the answer, {@code refused} the problem (event thread). */
  interface Lookup {
    void ask(Map<String, Object> entered, Consumer<Map<String, Object>> odds, Consumer<Server.Problem> refused);
  }

  /** Opens a ruling of the game by its record number over a window (the form). */
  interface Opener {
    void open(long record, Window over);
  }

  final JPanel panel = new JPanel(new BorderLayout(8, 0));
  private final JTextArea text = new JTextArea();
  private final JButton open = new JButton();
  private final Lookup lookup;
  private final Opener opener;
  private final Predicate<Map<String, Object>> sentAlready;
  private final Timer pause;
  private Supplier<Map<String, Object>> entries = () -> null;
  private Runnable relayout = () -> { };
  private Window form;
  private int asked;                      // the number of the last lookup: an older answer is dropped
  private Map<String, Object> shown = Map.of();  // the asked_before the form shows (empty: none)
  private String shownFor;                // the entries (as JSON) it is about; null: not looked up yet

  /**
   * {@code lookup}: the form's odds request; {@code opener}: how a record is opened;
   * {@code sentAlready}: whether the form sent these entries already (a retry: not warned of).
   */
  AskedBefore(Lookup lookup, Opener opener, Predicate<Map<String, Object>> sentAlready) {
    this.lookup = lookup;
    this.opener = opener;
    this.sentAlready = sentAlready;
    pause = new Timer(PAUSE_MS, a -> lookNow());
    pause.setRepeats(false);
    text.setName("asked before");
    text.setEditable(false);
    text.setLineWrap(true);
    text.setWrapStyleWord(true);
    text.setOpaque(false);
    text.setForeground(WARNING);
    text.setFont(text.getFont().deriveFont(java.awt.Font.BOLD));
    open.setName("open asked before");
    open.setToolTipText("That ruling in full, as Adjudicator > Rulings of this game opens it (nothing is sent)");
    open.addActionListener(a -> openShown());
    panel.setName("asked before panel");
    panel.setBorder(BorderFactory.createCompoundBorder(BorderFactory.createMatteBorder(0, 0, 1, 0, WARNING),
                                                       BorderFactory.createEmptyBorder(6, 8, 6, 8)));
    panel.add(text, BorderLayout.CENTER);
    panel.add(open, BorderLayout.EAST);
    panel.setVisible(false);
  }

  /**
   * The form is open: {@code entries} reads its entries quietly (null while one is wrong: nothing
   * is shown beside the field), {@code relayout} lays it out again. A form opened filled is looked
   * up at once.
   */
  void opened(Window form, Supplier<Map<String, Object>> entries, Runnable relayout) {
    this.form = form;
    this.entries = entries;
    this.relayout = relayout;
    lookNow();
  }

  /** An entry changed: looked up once the player pauses. */
  void changed() {
    pause.restart();
  }

  /** The form closed: nothing more is looked up. */
  void closed() {
    pause.stop();
    asked++;
  }

  /** The odds answered (a lookup or the Chances button) for these entries: the warning as they say. */
  void answered(Map<String, Object> entered, Map<String, Object> odds) {
    final Map<String, Object> before = sentAlready.test(entered) ? Map.of() : Schema.map(odds.get("asked_before"));
    shownFor = Json.write(entered);
    show(before.get("text") instanceof String && before.get("record") instanceof Number ? before : Map.of());
  }

  /**
   * OK: whether to send these entries, to {@code then} (event thread). A repeat asks the player
   * first (Roll again / Open #N / Cancel); entries not looked up yet are looked up now.
   */
  void beforeSend(Map<String, Object> entered, Consumer<Boolean> then) {
    pause.stop();
    if (sentAlready.test(entered)) {
      then.accept(true);  // a retry of this form's request: the server answers its record, rolls nothing
      return;
    }
    if (Json.write(entered).equals(shownFor)) {
      then.accept(confirm());
      return;
    }
    final int mine = ++asked;
    lookup.ask(entered, odds -> {
      if (mine != asked) return;
      answered(entered, odds);
      then.accept(confirm());
    }, refused -> {
      if (mine != asked) return;
      show(Map.of());
      then.accept(true);  // no chances (the fog of war, a situation the rules refuse): the roll says what it says
    });
  }

  /** The warning's words, the server's: "This situation was asked as record #N (...); asking again rolls again, ...". */
  static String words(Map<String, Object> before) {
    return String.valueOf(before.get("text"));
  }

  /** The record the warning names, or 0 when none stands. */
  long record() {
    return shown.get("record") instanceof Number ? ((Number) shown.get("record")).longValue() : 0;
  }

  private void lookNow() {
    if (form != null && !form.isDisplayable()) return;  // closed by its window's own close box
    final Map<String, Object> entered = entries.get();
    if (entered == null) {
      shownFor = null;
      show(Map.of());  // a wrong entry: no situation to speak of
      return;
    }
    final int mine = ++asked;
    lookup.ask(entered, odds -> {
      if (mine == asked) answered(entered, odds);
    }, refused -> {
      if (mine == asked) show(Map.of());
    });
  }

  private void show(Map<String, Object> before) {
    final boolean was = panel.isVisible();
    final String had = text.getText();
    shown = before;
    if (!before.isEmpty()) {
      text.setText(words(before) + (Boolean.TRUE.equals(before.get("rolled"))
        ? " Open #" + record() + " to read it instead, or press OK to roll again." : " Open #" + record() + " to read it."));
      open.setText("Open #" + record());
      text.setPreferredSize(null);
      text.setSize(TEXT_WIDTH, Short.MAX_VALUE);  // laid out at its width: the height its wrapped lines take
      text.setPreferredSize(new java.awt.Dimension(TEXT_WIDTH, text.getPreferredSize().height));
    }
    panel.setVisible(!before.isEmpty());
    if (was != panel.isVisible() || !had.equals(text.getText())) relayout.run();
  }

  /** OK while a repeat stands: Roll again (true), Open #N (the ruling shown, false) or Cancel (false). */
  private boolean confirm() {
    if (shown.isEmpty() || !Boolean.TRUE.equals(shown.get("rolled"))) return true;
    final long record = record();
    final JTextArea message = new JTextArea(words(shown) + "\n\nRoll again: a new ruling is recorded beside #" + record
                                            + ", and its notice says \"asked again\". Open #" + record
                                            + ": that ruling, and nothing is rolled.", 5, 48);
    message.setName("asked before");
    message.setEditable(false);
    message.setLineWrap(true);
    message.setWrapStyleWord(true);
    message.setOpaque(false);
    final String[] choices = {"Roll again", "Open #" + record, "Cancel"};
    final int chosen = JOptionPane.showOptionDialog(form, message, "Adjudicator: asked before as record #" + record,
                                                    JOptionPane.YES_NO_CANCEL_OPTION, JOptionPane.WARNING_MESSAGE, null,
                                                    choices, choices[2]);
    if (chosen == 0) return true;
    if (chosen == 1) opener.open(record, form);
    return false;
  }

  private void openShown() {
    final long record = record();
    if (record > 0) opener.open(record, form);
  }
}
