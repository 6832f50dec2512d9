package kwharness;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bare HTTP request from the engine's own JVM, timed: what a check costs without the
 * extension around it, at the same moment and on the same machine as the extension's calls
 * (the benchmark alternates them). The step names values it takes from earlier steps' results:
 *
 *   {"do": "http", "method": "POST", "url": "{server}/api/v1/games/{game}/combat?transcript=1",
 *    "body": "{request}", "set": {"request_id": "bare-7"}, "token": "{token}",
 *    "from": {"server": [2, "returned", "server"], "game": [3, "returned", "game_id"], ...}}
 *
 * A "{name}" string in url, token or body is replaced by that value (the body by the value
 * itself, e.g. an earlier call's request object); "set" then sets members of the body.
 */
final class Http {
  private Http() { }

  @SuppressWarnings("unchecked")
  static Object request(Map<String, Object> step) throws Exception {
    final Map<String, Object> values = new LinkedHashMap<>();
    for (final Map.Entry<String, Object> e : Cast.object(step.getOrDefault("from", Map.of())).entrySet()) {
      final List<Object> path = Cast.list(e.getValue());
      Object v = Driver.resultOf(((Number) path.get(0)).intValue());
      for (final Object key : path.subList(1, path.size())) v = ((Map<String, Object>) v).get(String.valueOf(key));
      values.put(e.getKey(), v);
    }
    final String url = fill(Steps.str(step, "url"), values);
    Object body = step.get("body");
    if (body instanceof String && ((String) body).matches("\\{\\w+}")) body = values.get(((String) body).substring(1, ((String) body).length() - 1));
    if (body instanceof Map && step.containsKey("set")) {
      body = new LinkedHashMap<>((Map<String, Object>) body);
      ((Map<String, Object>) body).putAll(Cast.object(step.get("set")));
    }
    final String token = step.containsKey("token") ? fill(String.valueOf(step.get("token")), values) : null;
    final long started = System.nanoTime();
    final HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setRequestMethod(String.valueOf(step.getOrDefault("method", "GET")));
    c.setRequestProperty("Accept", "application/json");
    if (token != null) c.setRequestProperty("Authorization", "Bearer " + token);
    if (body != null) {
      final byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
      c.setDoOutput(true);
      c.setRequestProperty("Content-Type", "application/json; charset=utf-8");
      c.setFixedLengthStreamingMode(bytes.length);
      try (OutputStream out = c.getOutputStream()) {
        out.write(bytes);
      }
    }
    final int status = c.getResponseCode();
    final int size;
    try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
      size = in == null ? 0 : in.readAllBytes().length;
    }
    final double ms = (System.nanoTime() - started) / 1e6;
    return Map.of("status", status, "bytes", size, "ms", ms);
  }

  private static String fill(String text, Map<String, Object> values) {
    String out = text;
    for (final Map.Entry<String, Object> e : values.entrySet()) out = out.replace("{" + e.getKey() + "}", String.valueOf(e.getValue()));
    return out;
  }
}
