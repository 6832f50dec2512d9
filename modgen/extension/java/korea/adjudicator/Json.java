package korea.adjudicator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON (RFC 8259) as plain Java values: objects are LinkedHashMap (keys in the order written),
 * arrays ArrayList, strings String, numbers Long (integers that fit) or Double, true/false
 * Boolean, null null. Written by hand because the engine brings no JSON library and the module
 * should carry nothing but its own classes; ExtensionTests holds it to the grammar. The engine
 * harness of the tests reads its scripts and writes its reports with this same source, compiled
 * into its own package (tests/engine/harness.py), so there is one JSON reader to keep right.
 */
final class Json {
  /** Deeper nesting than this is refused (a malicious answer must not overflow the stack). */
  static final int MAX_DEPTH = 64;

  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /** The value of a JSON text; IllegalArgumentException saying where it is malformed. */
  static Object parse(String text) {
    final Json p = new Json(text);
    p.space();
    final Object value = p.value(0);
    p.space();
    if (p.pos != text.length()) throw p.error("unexpected text after the value");
    return value;
  }

  /** A JSON object's members; IllegalArgumentException when the text is not an object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> parseObject(String text) {
    final Object value = parse(text);
    if (!(value instanceof Map)) throw new IllegalArgumentException("JSON: expected an object");
    return (Map<String, Object>) value;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at character " + pos);
  }

  private void space() {
    while (pos < text.length()) {
      final char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      pos++;
    }
  }

  private Object value(int depth) {
    if (depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH);
    if (pos >= text.length()) throw error("unexpected end");
    final char c = text.charAt(pos);
    switch (c) {
    case '{': return object(depth);
    case '[': return array(depth);
    case '"': return string();
    case 't': return literal("true", Boolean.TRUE);
    case 'f': return literal("false", Boolean.FALSE);
    case 'n': return literal("null", null);
    default:
      if (c == '-' || (c >= '0' && c <= '9')) return number();
      throw error("unexpected character '" + c + "'");
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) throw error("expected " + word);
    pos += word.length();
    return value;
  }

  private Map<String, Object> object(int depth) {
    final Map<String, Object> members = new LinkedHashMap<>();
    pos++;
    space();
    if (take('}')) return members;
    while (true) {
      space();
      if (pos >= text.length() || text.charAt(pos) != '"') throw error("expected a member name");
      final String key = string();
      space();
      expect(':');
      space();
      members.put(key, value(depth + 1));
      space();
      if (take('}')) return members;
      expect(',');
    }
  }

  private List<Object> array(int depth) {
    final List<Object> items = new ArrayList<>();
    pos++;
    space();
    if (take(']')) return items;
    while (true) {
      space();
      items.add(value(depth + 1));
      space();
      if (take(']')) return items;
      expect(',');
    }
  }

  private boolean take(char c) {
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!take(c)) throw error("expected '" + c + "'");
  }

  private String string() {
    final StringBuilder sb = new StringBuilder();
    pos++;
    while (true) {
      if (pos >= text.length()) throw error("unterminated string");
      final char c = text.charAt(pos++);
      if (c == '"') return sb.toString();
      if (c < 0x20) throw error("control character in a string");
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (pos >= text.length()) throw error("unterminated escape");
      final char e = text.charAt(pos++);
      switch (e) {
      case '"': sb.append('"'); break;
      case '\\': sb.append('\\'); break;
      case '/': sb.append('/'); break;
      case 'b': sb.append('\b'); break;
      case 'f': sb.append('\f'); break;
      case 'n': sb.append('\n'); break;
      case 'r': sb.append('\r'); break;
      case 't': sb.append('\t'); break;
      case 'u':
        if (pos + 4 > text.length()) throw error("short \\u escape");
        try {
          sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
        }
        catch (NumberFormatException ex) {
          throw error("bad \\u escape");
        }
        pos += 4;
        break;
      default: throw error("bad escape \\" + e);
      }
    }
  }

  private Object number() {
    final int start = pos;
    take('-');
    if (take('0')) {
      // a leading zero stands alone
    }
    else if (!digits()) {
      throw error("expected a digit");
    }
    boolean integral = true;
    if (take('.')) {
      integral = false;
      if (!digits()) throw error("expected a digit after '.'");
    }
    if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
      integral = false;
      pos++;
      if (!take('+')) take('-');
      if (!digits()) throw error("expected a digit in the exponent");
    }
    final String s = text.substring(start, pos);
    if (integral) {
      try {
        return Long.valueOf(s);
      }
      catch (NumberFormatException tooLong) {
        return Double.valueOf(s);
      }
    }
    return Double.valueOf(s);
  }

  private boolean digits() {
    final int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') pos++;
    return pos > start;
  }

  /** Compact JSON text of a value made of maps, collections, strings, numbers, booleans, nulls. */
  static String write(Object value) {
    final StringBuilder sb = new StringBuilder();
    write(value, sb);
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
        quote(String.valueOf(e.getKey()), sb);
        sb.append(':');
        write(e.getValue(), sb);
      }
      sb.append('}');
    }
    else if (o instanceof Collection || o instanceof Object[]) {
      sb.append('[');
      boolean first = true;
      for (final Object item : o instanceof Collection ? (Collection<?>) o : List.of((Object[]) o)) {
        if (!first) sb.append(',');
        first = false;
        write(item, sb);
      }
      sb.append(']');
    }
    else if (o instanceof Double || o instanceof Float) {
      final double d = ((Number) o).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("JSON has no " + d);
      sb.append(d);
    }
    else if (o instanceof Number || o instanceof Boolean) {
      sb.append(o);
    }
    else {
      quote(String.valueOf(o), sb);
    }
  }

  private static void quote(String s, StringBuilder sb) {
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
