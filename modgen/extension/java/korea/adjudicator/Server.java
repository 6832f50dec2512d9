package korea.adjudicator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.MalformedURLException;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The adjudicator's HTTP API, spoken with the JDK's own client (java.net.HttpURLConnection:
 * VASSAL's bundled Java runtime is trimmed to the modules the engine uses, which include
 * java.base but not java.net.http). Every call has bounded timeouts and runs off the event
 * thread; every failure becomes a {@link Problem} with a title and a detail for the player.
 */
final class Server {
  static final int CONNECT_TIMEOUT_MS = 5_000;
  static final int READ_TIMEOUT_MS = 30_000;
  private static final int MAX_ANSWER_BYTES = 16 * 1024 * 1024;

  /** What went wrong, as the player reads it (an RFC 9457 problem from the server, or ours). */
  static final class Problem extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;    // 0: no answer
    final String title;
    final String detail;
    final boolean timedOut;
    final List<Map<String, Object>> errors;  // the server's field errors: {pointer, detail, code}

    Problem(int status, String title, String detail) {
      this(status, title, detail, false, List.of());
    }

    Problem(int status, String title, String detail, boolean timedOut, List<Map<String, Object>> errors) {
      super(title + ": " + detail);
      this.status = status;
      this.title = title;
      this.detail = detail;
      this.timedOut = timedOut;
      this.errors = errors;
    }
  }

  private final String base;
  private final int readTimeoutMs;

  /** A server at this address (http or https; a trailing slash is dropped). */
  /** Whether two addresses name the same server (a trailing slash aside). */
  static boolean same(String a, String b) {
    return a.replaceAll("/+$", "").equalsIgnoreCase(b.replaceAll("/+$", ""));
  }

  Server(String address) throws Problem {
    this(address, READ_TIMEOUT_MS);
  }

  /** A server at this address that is given {@code readTimeoutMs} to answer. */
  Server(String address, int readTimeoutMs) throws Problem {
    this.readTimeoutMs = readTimeoutMs;
    final String trimmed = address == null ? "" : address.trim().replaceAll("/+$", "");
    try {
      final URL url = new URL(trimmed);
      if (!url.getProtocol().equals("http") && !url.getProtocol().equals("https")) {
        throw new MalformedURLException("not http or https");
      }
    }
    catch (MalformedURLException e) {
      throw new Problem(0, "Bad server address", "'" + trimmed + "' is not an http:// or https:// address.");
    }
    base = trimmed;
  }

  String base() {
    return base;
  }

  Map<String, Object> get(String path, String token) throws Problem {
    return call("GET", path, null, token);
  }

  Map<String, Object> post(String path, Object body, String token) throws Problem {
    return call("POST", path, Json.write(body), token);
  }

  private Map<String, Object> call(String method, String path, String body, String token) throws Problem {
    final HttpURLConnection c;
    try {
      c = (HttpURLConnection) new URL(base + path).openConnection();
    }
    catch (IOException e) {
      throw unreachable(e);
    }
    try {
      c.setConnectTimeout(CONNECT_TIMEOUT_MS);
      c.setReadTimeout(readTimeoutMs);
      c.setInstanceFollowRedirects(false);
      c.setRequestMethod(method);
      c.setRequestProperty("Accept", "application/json, application/problem+json");
      if (token != null) c.setRequestProperty("Authorization", "Bearer " + token);
      if (body != null) {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        c.setDoOutput(true);
        c.setRequestProperty("Content-Type", "application/json; charset=utf-8");
        c.setFixedLengthStreamingMode(bytes.length);
        try (OutputStream out = c.getOutputStream()) {
          out.write(bytes);
        }
      }
      final int status = c.getResponseCode();
      final String text = read(status >= 400 ? c.getErrorStream() : c.getInputStream());
      if (status >= 400) throw problem(status, text);
      try {
        return Json.parseObject(text);
      }
      catch (IllegalArgumentException e) {
        throw new Problem(status, "Unexpected answer", "The server at " + base + " did not answer with JSON ("
                          + e.getMessage() + "). Is it the adjudicator?");
      }
    }
    catch (IOException e) {
      c.disconnect();
      throw unreachable(e);
    }
    // no disconnect() after a whole answer: the JDK keeps the connection for the next call (keep-alive)
  }

  private Problem unreachable(IOException e) {
    if (e instanceof SocketTimeoutException) {
      return new Problem(0, "The adjudicator did not answer in time",
                         "No answer from " + base + " within " + (readTimeoutMs / 1000) + " s. Nothing was posted; "
                         + "a recorded check asked again is not rolled twice.", true, List.of());
    }
    return new Problem(0, "Cannot reach the adjudicator",
                       "No connection to " + base + " (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                       + "). Is the server running, and is its address right (Adjudicator > Connect)?");
  }

  /** The server's problem+json (title and detail), or a plain account of an answer that is not one. */
  private Problem problem(int status, String text) {
    try {
      final Map<String, Object> p = Json.parseObject(text);
      final String title = p.get("title") instanceof String ? (String) p.get("title") : "HTTP " + status;
      final String detail = p.get("detail") instanceof String ? (String) p.get("detail") : "";
      final List<Map<String, Object>> errors = new ArrayList<>();
      for (final Object o : Schema.list(p.get("errors"))) errors.add(Schema.map(o));
      return new Problem(status, title, detail, false, errors);
    }
    catch (IllegalArgumentException e) {
      final String start = text.length() > 200 ? text.substring(0, 200) + "..." : text;
      return new Problem(status, "HTTP " + status, start.strip());
    }
  }

  private static String read(InputStream in) throws IOException {
    if (in == null) return "";
    try (in) {
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      final byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) > 0) {
        out.write(buffer, 0, n);
        if (out.size() > MAX_ANSWER_BYTES) throw new IOException("answer larger than " + MAX_ANSWER_BYTES + " bytes");
      }
      return out.toString(StandardCharsets.UTF_8);
    }
  }
}
