package korea.adjudicator;

import java.awt.Cursor;
import java.awt.Point;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.lang.reflect.Field;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.swing.JTextPane;
import javax.swing.SwingUtilities;
import javax.swing.text.BadLocationException;
import javax.swing.text.Document;
import javax.swing.text.Element;
import javax.swing.text.StyledDocument;

import VASSAL.build.GameModule;
import VASSAL.build.module.Chatter;

/**
 * Clicks in the chat window. The engine's chat pane is HTML but has no listener for links, and
 * escapes the angle brackets of every line another player sends or a log replays, so an
 * address in the chat is plain text that no click opens. This listener on the pane (the
 * Chatter's protected {@code conversationPane}, read by reflection as Shown reads its
 * document) makes it one click away wherever the line came from: a click on an http(s)
 * address (a ruling's verify address) opens it in the browser (Browser), a click elsewhere on
 * a ruling delivered in this session opens its ruling window (the whole ruling). The pointer
 * turns into a hand over an address. If the pane cannot be reached, nothing is installed.
 */
final class ChatLinks extends MouseAdapter {
  private static final Pattern URL = Pattern.compile("https?://[^\\s<>\"']+");
  private static boolean installed;

  private final Adjudicator adjudicator;
  private final JTextPane pane;

  private ChatLinks(Adjudicator adjudicator, JTextPane pane) {
    this.adjudicator = adjudicator;
    this.pane = pane;
  }

  /** Listens to the chat pane (once per module). */
  static void install(Adjudicator adjudicator) {
    if (installed) return;
    final Chatter chatter = GameModule.getGameModule().getChatter();
    if (chatter == null) return;
    try {
      final Field f = Chatter.class.getDeclaredField("conversationPane");
      f.setAccessible(true);
      final JTextPane pane = (JTextPane) f.get(chatter);
      final ChatLinks links = new ChatLinks(adjudicator, pane);
      pane.addMouseListener(links);
      pane.addMouseMotionListener(links);
      installed = true;
    }
    catch (ReflectiveOperationException | RuntimeException e) {
      // an engine without that field: addresses in the chat stay text (the menu still opens a ruling's page)
    }
  }

  @Override
  public void mouseClicked(MouseEvent e) {
    if (!SwingUtilities.isLeftMouseButton(e) || e.getClickCount() != 1) return;
    final String[] line = lineAt(e.getPoint());
    if (line == null) return;
    final String url = urlAt(line[0], Integer.parseInt(line[1]));
    if (url != null) {
      Browser.open(url);
      return;
    }
    final Matcher tag = Pattern.compile("\\[ADJ [^\\]]*\\]").matcher(line[0]);
    if (tag.find()) {
      final Ruling ruling = adjudicator.session.ruling(tag.group());
      if (ruling != null) RulingWindow.show(ruling);
    }
  }

  @Override
  public void mouseMoved(MouseEvent e) {
    final String[] line = lineAt(e.getPoint());
    final boolean over = line != null && urlAt(line[0], Integer.parseInt(line[1])) != null;
    pane.setCursor(over ? Cursor.getPredefinedCursor(Cursor.HAND_CURSOR) : Cursor.getDefaultCursor());
  }

  /** The text of the chat line under a point and the offset of the point in it, or null. */
  private String[] lineAt(Point p) {
    final int at = pane.viewToModel2D(p);
    if (at < 0) return null;
    final Document doc = pane.getDocument();
    final Element paragraph = doc instanceof StyledDocument ? ((StyledDocument) doc).getParagraphElement(at)
      : doc.getDefaultRootElement().getElement(doc.getDefaultRootElement().getElementIndex(at));
    try {
      final String text = doc.getText(paragraph.getStartOffset(), paragraph.getEndOffset() - paragraph.getStartOffset());
      return new String[] {text, String.valueOf(at - paragraph.getStartOffset())};
    }
    catch (BadLocationException e) {
      return null;
    }
  }

  /** The http(s) address in a line at an offset (its trailing punctuation left out), or null. */
  static String urlAt(String line, int offset) {
    final Matcher m = URL.matcher(line);
    while (m.find()) {
      String url = m.group();
      while (!url.isEmpty() && ".,;:)".indexOf(url.charAt(url.length() - 1)) >= 0) url = url.substring(0, url.length() - 1);
      if (offset >= m.start() && offset <= m.start() + url.length()) return url;
    }
    return null;
  }
}
