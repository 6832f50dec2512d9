package korea.adjudicator;

import java.util.LinkedHashMap;
import java.util.Map;

/** The rulings delivered in this session: the last one's window and page, and each one the chat's clicks open. */
final class SessionRulings {
  private final Adjudicator adj;
  /** The rulings delivered in this session, by their tag ("[ADJ g#4]"), the last one last: the ruling window's. */
  private final Map<String, Ruling> rulings = new LinkedHashMap<>();

  SessionRulings(Adjudicator adj) {
    this.adj = adj;
  }

  /** A ruling was posted: kept for the ruling window and the chat's clicks (the last 50 of this session). Event thread. */
  void delivered(Ruling ruling) {
    final String tag = Ruling.tag(ruling.lines.get(0));
    rulings.remove(tag);
    rulings.put(tag, ruling);
    while (rulings.size() > 50) rulings.remove(rulings.keySet().iterator().next());
  }

  /** The last ruling delivered in this session, or null. */
  Ruling lastRuling() {
    Ruling last = null;
    for (final Ruling r : rulings.values()) last = r;
    return last;
  }

  /** A ruling delivered in this session by its tag ("[ADJ g#4]"), or null. */
  Ruling ruling(String tag) {
    return rulings.get(tag);
  }

  /** The last ruling delivered's page (its verify address), or "" (none yet, or a calculation). */
  String rulingPage() {
    final Ruling last = lastRuling();
    final String page = last == null ? null : last.page();
    return page == null ? "" : page;
  }

  /** Opens the last ruling's page in the desktop's browser (Browser); {ok, url} or {ok: false, ...}. */
  Map<String, Object> openRulingPage() {
    final String url = rulingPage();
    if (url.isEmpty()) {
      return adj.failed(new Server.Problem(0, "No ruling page", "The last ruling has no page: it was a calculation, or no check was "
                                       + "asked yet. Its lines in full: Adjudicator > The last ruling in full."));
    }
    Browser.open(url);
    return Answers.ok("url", url);
  }
}
