package korea.adjudicator;

import java.util.ArrayList;
import java.util.List;

/** Text as chat lines a player reads: a long text cut into lines (the server wraps a ruling's own lines the same way). */
final class Lines {
  /** Lines longer than this are cut into several (adjudicator.words.transcript.WRAP). */
  static final int WRAP = 160;

  private Lines() { }

  /** A text as lines of at most WRAP characters, cut after "; " or between words; continuations start with "… ". */
  static List<String> wrap(String text) {
    final List<String> out = new ArrayList<>();
    String rest = text.trim();
    while (rest.length() > WRAP) {
      int cut = rest.lastIndexOf("; ", WRAP);
      cut = cut > WRAP / 2 ? cut + 1 : rest.lastIndexOf(' ', WRAP);
      if (cut <= WRAP / 2) cut = WRAP;
      out.add(rest.substring(0, cut).trim());
      rest = "… " + rest.substring(cut).trim();
    }
    out.add(rest);
    return out;
  }
}
