package korea.adjudicator;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The session lines the extension writes ({@link LogSessions#line}) for the cases in a JSON file,
 * printed as a JSON array of strings in the cases' order. Run by tests/test_extension_java.py,
 * which reads every line back with the server's parser (adjudicator.logs.session_line: the format's
 * one specification): {@code java korea.adjudicator.SessionLines cases.json}.
 *
 * <p>A case is {@code {"game_id": ..., "session": <a log session as the game's state keeps it>,
 * "chain": [earlier session ids, oldest first], "side": <side id or null>}}.
 */
public final class SessionLines {
  private SessionLines() { }

  public static void main(String[] args) throws Exception {
    final Object cases = Json.parse(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
    final List<Object> lines = new ArrayList<>();
    for (final Object item : (List<?>) cases) {
      final Map<String, Object> c = Schema.map(item);
      final List<String> chain = new ArrayList<>();
      for (final Object id : (List<?>) c.get("chain")) chain.add((String) id);
      final Object side = c.get("side");
      lines.add(LogSessions.line((String) c.get("game_id"), PlayedGame.LogSession.of(c.get("session")), chain,
                                 side instanceof String ? (String) side : null));
    }
    System.out.write(Json.write(lines).getBytes(StandardCharsets.UTF_8));
    System.out.flush();
  }
}
