package korea.adjudicator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the extension's scripted calls answer ({ok: true, ...} or {ok: false, title, detail}), and a
 * problem's text without any token this player holds (a token never appears in a dialog, the chat
 * or a log).
 */
final class Answers {
  private Answers() {
  }

  static Map<String, Object> ok(Object... pairs) {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("ok", true);
    for (int i = 0; i + 1 < pairs.length; i += 2) m.put(String.valueOf(pairs[i]), pairs[i + 1]);
    return m;
  }

  /** {ok: false, title, detail} for a problem (no token in it). */
  static Map<String, Object> refusal(Server.Problem p) {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("ok", false);
    m.put("title", p.title);
    m.put("detail", p.detail);
    return m;
  }

  /** A problem without any token this player holds in its text (a token never appears in a dialog, the chat or a log). */
  static Server.Problem scrubTokens(Server.Problem p) {
    Server.Problem out = p;
    for (final Settings.Kept k : Settings.games().values()) {
      for (final String t : k.tokens.values()) out = scrub(out, t);
    }
    return out;
  }

  static Server.Problem scrub(Server.Problem p, String token) {
    if (token == null || token.isBlank()) return p;
    return new Server.Problem(p.status, p.title.replace(token, "(token)"), p.detail.replace(token, "(token)"), p.timedOut, p.errors);
  }
}
