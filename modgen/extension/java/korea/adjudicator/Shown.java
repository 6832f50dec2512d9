package korea.adjudicator;

import java.lang.reflect.Field;
import java.util.List;

import javax.swing.JTextPane;
import javax.swing.text.html.HTMLDocument;
import javax.swing.text.html.HTMLEditorKit;

import VASSAL.build.module.Chatter;

/**
 * A ruling's lines shown in the chat window at once. The engine shows a chat line by inserting
 * it into the window's HTML document, each line a "div" of the style of another player's line
 * (Chatter.doShow); a ruling of thirty lines is thirty inserts and as many layouts. Here the same
 * divs, escaped the same way, go in with one insert: the window reads exactly as line by line.
 * The chat window's document is the engine's (protected fields of Chatter, read by reflection):
 * if it cannot be reached, the lines are shown one by one as before (returns false).
 */
final class Shown {
  private static Field docField;
  private static Field kitField;
  private static Field paneField;
  private static boolean unavailable;

  private Shown() { }

  /** Shows the lines, each as the engine would; false when the window could not be reached (nothing shown). */
  static boolean all(Chatter chatter, List<String> lines) {
    if (unavailable || chatter == null) return false;
    try {
      if (docField == null) {
        docField = field("doc");
        kitField = field("kit");
        paneField = field("conversationPane");
      }
      final HTMLDocument doc = (HTMLDocument) docField.get(chatter);
      final HTMLEditorKit kit = (HTMLEditorKit) kitField.get(chatter);
      final StringBuilder html = new StringBuilder();
      for (final String line : lines) {
        final String s = line.trim();
        if (s.isEmpty()) continue;
        // as Chatter.doShow: a line that is not this player's own chat is of the style "other", its angle brackets escaped;
        // a ruling's verify address is drawn as a link (ChatLinks opens it on a click, as it does in lines the engine shows)
        html.append("\n<div class=\"other\">").append(linked(s)).append("</div>");
      }
      kit.insertHTML(doc, doc.getLength(), html.toString(), 0, 0, null);
      ((JTextPane) paneField.get(chatter)).repaint();
      return true;
    }
    catch (ReflectiveOperationException | RuntimeException | javax.swing.text.BadLocationException | java.io.IOException e) {
      unavailable = true;
      return false;
    }
  }

  /** Everything the chat window shows now, as text ("" when it cannot be reached): what this player has seen. */
  static String text(Chatter chatter) {
    if (chatter == null) return "";
    try {
      final java.lang.reflect.Field f = docField != null ? docField : field("doc");
      final HTMLDocument doc = (HTMLDocument) f.get(chatter);
      return doc.getText(0, doc.getLength());
    }
    catch (ReflectiveOperationException | RuntimeException | javax.swing.text.BadLocationException e) {
      return "";
    }
  }

  /** A line's text escaped as the engine escapes it (its angle brackets), its verify address drawn as a link. */
  static String linked(String line) {
    final String escaped = line.replace("<", "&lt;").replace(">", "&gt;");
    final int at = escaped.indexOf("] " + Ruling.VERIFY);
    if (at < 0) return escaped;
    final int start = at + 2 + Ruling.VERIFY.length();
    final String url = escaped.substring(start).trim();
    return escaped.substring(0, start) + "<a href=\"" + url.replace("\"", "&quot;") + "\">" + url + "</a>";
  }

  private static Field field(String name) throws NoSuchFieldException {
    final Field f = Chatter.class.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }
}
