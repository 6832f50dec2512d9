package kwharness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for the harness: the script comes in as JSON, the report goes out as JSON.
 * Objects read as LinkedHashMap, arrays as ArrayList, numbers as Long or Double.
 */
final class Json {
  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  static Object parse(String text) {
    final Json p = new Json(text);
    p.space();
    final Object value = p.value();
    p.space();
    if (p.pos != text.length()) throw p.error("text after the JSON value");
    return value;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + pos);
  }

  private void space() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
  }

  private Object value() {
    if (pos >= text.length()) throw error("unexpected end");
    final char c = text.charAt(pos);
    switch (c) {
    case '{': return object();
    case '[': return array();
    case '"': return string();
    case 't': return literal("true", Boolean.TRUE);
    case 'f': return literal("false", Boolean.FALSE);
    case 'n': return literal("null", null);
    default:
      if (c == '-' || Character.isDigit(c)) return number();
      throw error("unexpected character '" + c + "'");
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) throw error("expected " + word);
    pos += word.length();
    return value;
  }

  private Map<String, Object> object() {
    final Map<String, Object> m = new LinkedHashMap<>();
    pos++;
    space();
    if (peek('}')) return m;
    while (true) {
      space();
      if (pos >= text.length() || text.charAt(pos) != '"') throw error("expected a key");
      final String key = string();
      space();
      expect(':');
      space();
      m.put(key, value());
      space();
      if (peek('}')) return m;
      expect(',');
    }
  }

  private List<Object> array() {
    final List<Object> l = new ArrayList<>();
    pos++;
    space();
    if (peek(']')) return l;
    while (true) {
      space();
      l.add(value());
      space();
      if (peek(']')) return l;
      expect(',');
    }
  }

  private boolean peek(char c) {
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!peek(c)) throw error("expected '" + c + "'");
  }

  private String string() {
    final StringBuilder sb = new StringBuilder();
    pos++;
    while (true) {
      if (pos >= text.length()) throw error("unterminated string");
      final char c = text.charAt(pos++);
      if (c == '"') return sb.toString();
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (pos >= text.length()) throw error("unterminated escape");
      final char e = text.charAt(pos++);
      switch (e) {
      case 'n': sb.append('\n'); break;
      case 't': sb.append('\t'); break;
      case 'r': sb.append('\r'); break;
      case 'b': sb.append('\b'); break;
      case 'f': sb.append('\f'); break;
      case 'u':
        if (pos + 4 > text.length()) throw error("short \\u escape");
        sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
        pos += 4;
        break;
      default: sb.append(e);
      }
    }
  }

  private Object number() {
    final int start = pos;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) pos++;
    final String s = text.substring(start, pos);
    try {
      if (s.contains(".") || s.contains("e") || s.contains("E")) return Double.valueOf(s);
      return Long.valueOf(s);
    }
    catch (NumberFormatException e) {
      throw error("bad number " + s);
    }
  }

  /** A parsed JSON array (unchecked: the caller knows the shape). */
  @SuppressWarnings("unchecked")
  static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  /** A parsed JSON object (unchecked: the caller knows the shape). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }

  static String write(Object o) {
    final StringBuilder sb = new StringBuilder();
    write(o, sb);
    return sb.toString();
  }

  private static void write(Object o, StringBuilder sb) {
    if (o == null) {
      sb.append("null");
    }
    else if (o instanceof Map) {
      sb.append('{');
      boolean first = true;
      for (final Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
        if (!first) sb.append(',');
        first = false;
        str(String.valueOf(e.getKey()), sb);
        sb.append(':');
        write(e.getValue(), sb);
      }
      sb.append('}');
    }
    else if (o instanceof Collection || o instanceof Object[]) {
      final Collection<?> c = o instanceof Collection ? (Collection<?>) o : List.of((Object[]) o);
      sb.append('[');
      boolean first = true;
      for (final Object x : c) {
        if (!first) sb.append(',');
        first = false;
        write(x, sb);
      }
      sb.append(']');
    }
    else if (o instanceof Double && !Double.isFinite((Double) o)) {
      str(String.valueOf(o), sb);
    }
    else if (o instanceof Number || o instanceof Boolean) {
      sb.append(o);
    }
    else {
      str(String.valueOf(o), sb);
    }
  }

  private static void str(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      switch (c) {
      case '"': sb.append("\\\""); break;
      case '\\': sb.append("\\\\"); break;
      case '\n': sb.append("\\n"); break;
      case '\r': sb.append("\\r"); break;
      case '\t': sb.append("\\t"); break;
      default:
        if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
        else sb.append(c);
      }
    }
    sb.append('"');
  }
}
