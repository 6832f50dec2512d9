package korea.adjudicator;

import java.awt.Dimension;
import java.awt.Rectangle;
import java.util.Map;

import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JLabel;
import javax.swing.JScrollPane;

/**
 * The chances part of a check's form (CheckForm): the Chances button, the note beside it (working,
 * or why there are no chances: the fog of war, a situation the rules refuse) and the pane with each
 * outcome's probability and the expected losses, before anything is rolled. The answer also tells
 * the form's repeat warning (AskedBefore) whether the situation was asked before.
 */
final class FormChances {
  final JButton button = new JButton("Chances");
  final JLabel note = new JLabel(" ");
  private final JLabel shown = new JLabel();
  final JScrollPane pane = new JScrollPane(shown);
  private final CheckForm form;

  /** {@code chances}: what the button asks (null: the check has none, the button is not shown). */
  FormChances(CheckForm form, CheckForm.Chances chances, Rectangle screen) {
    this.form = form;
    button.setName("chances");
    button.setToolTipText("Each outcome with its probability and the expected losses, before anything is rolled");
    if (chances != null) button.addActionListener(a -> ask(chances));
    note.setName("chances note");
    shown.setName("chances shown");
    shown.setVerticalAlignment(JLabel.TOP);
    pane.setBorder(BorderFactory.createTitledBorder("Chances (before the roll; nothing rolled or recorded)"));
    pane.setPreferredSize(new Dimension(Math.min(760, screen.width - 60), 190));
    pane.setVisible(false);
  }

  /** The Chances button: what was entered read as OK reads it (a wrong entry is shown beside its field), then asked. */
  private void ask(CheckForm.Chances chances) {
    final Map<String, Object> entered = form.enteredOrShown();
    if (entered == null) return;
    button.setEnabled(false);
    note.setText("working them out...");
    chances.ask(entered, odds -> {
      if (!form.isOpen()) return;
      show(odds);
      form.chancesAnswered(entered, odds);
    }, p -> {
      if (form.isOpen()) none(p);
    });
  }

  /** The server's odds answer (adjudicator.odds: outcomes, expected losses, method), shown as the pages show them. */
  private void show(Map<String, Object> odds) {
    button.setEnabled(true);
    note.setText(" ");
    shown.setText(FormText.chancesHtml(odds));
    pane.setVisible(true);
    form.repack();
  }

  /** Why there are no chances (the fog of war, a situation the rules refuse), beside the button, in players' words. */
  private void none(Server.Problem p) {
    button.setEnabled(true);
    pane.setVisible(false);
    note.setText("<html><div style=\"width: 380px\"><font color=\"#aa0000\">" + FormText.html(p.title) + ": "
                 + FormText.html(Unseen.named(Words.playersWords(p.detail))) + "</font></div></html>");
    note.setToolTipText(p.detail);
    form.repack();
  }
}
