package korea.adjudicator;

import java.awt.BorderLayout;
import java.awt.FlowLayout;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.util.List;

import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JList;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.ListSelectionModel;

/**
 * Adjudicator > Rulings of this game: every ruling of the recorded game so far, one row each (its
 * number, the side that asked, its headline, a line per notice it carries), as this player's side may see them (the fog of war
 * applies: they come from the ledger with his token); each opens in the ruling window. The list a
 * player who joins late reads, and anyone who missed a ruling. Not modal.
 */
final class RulingsWindow {
  private RulingsWindow() { }

  /** One ruling's row: its number, the side that asked, its headline, and a line under it per notice it carries. */
  static String row(Ruling ruling, String side) {
    final String head = "#" + ruling.seq + " (" + side + "): " + ruling.headline();
    final List<String> notices = ruling.notices();
    if (notices.isEmpty()) return head;
    final StringBuilder sb = new StringBuilder("<html>").append(html(head));
    for (final String n : notices) sb.append("<br>&nbsp;&nbsp;<font color=\"#8d6e00\">").append(html(n)).append("</font>");
    return sb.append("</html>").toString();
  }

  private static String html(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** Shows the list, the last ruling chosen. Event thread. */
  static void show(Adjudicator adjudicator, String gameId, List<Ruling> rulings, List<String> sides) {
    final JDialog window = new JDialog(Adjudicator.ownerWindow(), "Adjudicator: rulings of recorded game " + gameId);
    window.setName("rulings window");
    final String[] rows = new String[rulings.size()];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = row(rulings.get(i), adjudicator.info().sideName(sides.get(i)));
    }
    final JList<String> list = new JList<>(rows);
    list.setName("rulings");
    list.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
    list.setVisibleRowCount(Math.max(4, Math.min(16, rows.length)));
    if (rows.length > 0) list.setSelectedIndex(rows.length - 1);
    final Runnable open = () -> {
      final int at = list.getSelectedIndex();
      if (at >= 0) RulingWindow.show(rulings.get(at));
    };
    list.addMouseListener(new MouseAdapter() {
      @Override
      public void mouseClicked(MouseEvent e) {
        if (e.getClickCount() == 2) open.run();
      }
    });
    final JPanel buttons = new JPanel(new FlowLayout(FlowLayout.RIGHT));
    final JButton opener = new JButton("Open");
    opener.setEnabled(rows.length > 0);
    opener.addActionListener(a -> open.run());
    final JButton close = new JButton("Close");
    close.addActionListener(a -> window.dispose());
    buttons.add(opener);
    buttons.add(close);
    window.getContentPane().add(new JScrollPane(list), BorderLayout.CENTER);
    window.getContentPane().add(buttons, BorderLayout.SOUTH);
    window.pack();
    window.setLocationRelativeTo(Adjudicator.window());
    window.setVisible(true);
  }
}
