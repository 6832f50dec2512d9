package korea.adjudicator;

import java.awt.BorderLayout;
import java.awt.FlowLayout;
import java.util.List;

import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;

/**
 * The whole ruling in a window of its own (the chat holds its short lines): the headline, every
 * step with its rule, the outcome's details, the dice and warnings, as the server words them
 * (its answer's {@code details}: as this player may see them, never posted or logged), and,
 * for a recorded ruling, a button to its page. Opened from the Adjudicator menu or by a click
 * on the ruling in the chat. Not modal: the game goes on beside it.
 */
final class RulingWindow {
  private RulingWindow() { }

  /** Shows a ruling's window. Event thread. */
  static void show(Ruling ruling) {
    show(ruling, Adjudicator.ownerWindow());
  }

  /**
   * Shows a ruling's window over {@code owner}: a check's form opens it over itself (a window of
   * the player's would wait behind the modal form), its title naming the record. Event thread.
   */
  static void show(Ruling ruling, java.awt.Window owner) {
    final JDialog window = new JDialog(owner, title(ruling));
    window.setName("ruling window");
    final List<String> lines = lines(ruling);
    final JTextArea text = new JTextArea(String.join("\n", lines), Math.min(24, lines.size() + 1), 90);
    text.setName("ruling");
    text.setEditable(false);
    text.setLineWrap(true);
    text.setWrapStyleWord(true);
    text.setCaretPosition(0);
    final JPanel buttons = new JPanel(new FlowLayout(FlowLayout.RIGHT));
    final String page = ruling.page();
    if (page != null) {
      final JButton open = new JButton("Open its page");
      open.setToolTipText(page);
      open.addActionListener(a -> Browser.open(page));
      buttons.add(open);
    }
    final JButton close = new JButton("Close");
    close.addActionListener(a -> window.dispose());
    buttons.add(close);
    window.getContentPane().add(new JScrollPane(text), BorderLayout.CENTER);
    window.getContentPane().add(buttons, BorderLayout.SOUTH);
    window.pack();
    window.setLocationRelativeTo(owner);
    window.setVisible(true);
  }

  /** The window's title, naming the record of a recorded ruling. */
  static String title(Ruling ruling) {
    return "Adjudicator: the ruling in full" + (ruling.seq instanceof Number ? " (record #" + ruling.seq + ")" : "");
  }

  /** What the window shows: the whole ruling as this player may see it (an older server's answer: its chat lines). */
  static List<String> lines(Ruling ruling) {
    return ruling.details.isEmpty() ? ruling.lines : ruling.details;
  }
}
