package korea.adjudicator;

import java.awt.Desktop;
import java.net.URI;
import java.net.URISyntaxException;

import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JLabel;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;

import java.awt.BorderLayout;

/**
 * An address opened in the desktop's browser (java.awt.Desktop): a ruling's page, the replay of
 * a log, an address clicked in the chat. Where the desktop has no browser to offer (a Linux
 * without a desktop environment), or the system property {@value #PROPERTY} is "off" (the test
 * harness sets it: no test opens a browser), a dialog shows the address to copy instead. Only
 * http and https addresses are opened.
 */
final class Browser {
  static final String PROPERTY = "korea.adjudicator.browser";

  private Browser() { }

  /** Opens an address (off the event thread: a desktop's browser can take its time to answer). */
  static void open(String url) {
    final URI address;
    try {
      address = new URI(url);
    }
    catch (URISyntaxException e) {
      return;
    }
    if (!"http".equals(address.getScheme()) && !"https".equals(address.getScheme())) return;
    final Thread t = new Thread(() -> {
      if (!browse(address)) SwingUtilities.invokeLater(() -> show(url));
      else SwingUtilities.invokeLater(() -> Chat.local("opened " + url + " in your browser."));
    }, "adjudicator-browser");
    t.setDaemon(true);
    t.start();
  }

  private static boolean browse(URI address) {
    if ("off".equals(System.getProperty(PROPERTY))) return false;
    try {
      if (!Desktop.isDesktopSupported() || !Desktop.getDesktop().isSupported(Desktop.Action.BROWSE)) return false;
      Desktop.getDesktop().browse(address);
      return true;
    }
    catch (java.io.IOException | RuntimeException e) {
      return false;
    }
  }

  /** The address in a dialog, selected, to copy into a browser. Event thread. */
  private static void show(String url) {
    final JTextField field = new JTextField(url, Math.min(80, Math.max(30, url.length())));
    field.setName("address");
    field.setEditable(false);
    field.selectAll();
    final JPanel panel = new JPanel(new BorderLayout(0, 6));
    panel.add(new JLabel("Open this address in your browser (no browser could be opened from VASSAL here):"), BorderLayout.NORTH);
    panel.add(field, BorderLayout.CENTER);
    JOptionPane.showMessageDialog(Adjudicator.window(), panel, "Adjudicator: open in your browser", JOptionPane.INFORMATION_MESSAGE);
  }
}
