package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What the player fills in a check's form, read from its request schema: one field per
 * top-level property the board did not fill (and one per member of a small object of plain
 * values, e.g. Fire and Ice's "attacking" levels), each with its kind, choices, bounds,
 * default and description. {@link #parse} turns what the player typed into the JSON value
 * the server expects, or says what is wrong, so a bad entry never reaches the server.
 * No Swing here (CheckForm draws the fields), so ExtensionTests can hold the mapping.
 */
final class FormFields {
  enum Kind { BOOLEAN, CHOICE, INTEGER, NUMBER, TEXT, LIST, JSON }

  /** One input of the form. */
  static final class Field {
    final List<String> path;      // ["weather"] or ["attacking", "tank_level"]
    final String label;
    final String description;
    final Kind kind;
    final List<Object> choices;   // CHOICE; LIST of choices
    final Kind itemKind;          // LIST
    final Map<String, Object> property;
    final boolean required;
    final Object defaultValue;    // null: none

    Field(List<String> path, String label, String description, Kind kind, List<Object> choices, Kind itemKind,
          Map<String, Object> property, boolean required, Object defaultValue) {
      this.path = path;
      this.label = label;
      this.description = description;
      this.kind = kind;
      this.choices = choices;
      this.itemKind = itemKind;
      this.property = property;
      this.required = required;
      this.defaultValue = defaultValue;
    }

    String name() {
      return String.join(".", path);
    }
  }

  private FormFields() { }

  /**
   * The fields of a request the player fills: every top-level property except those in
   * {@code filled} (the board's) and {@code omit} (e.g. "dice" in a recorded game, whose dice
   * the server rolls; "request_id").
   */
  static List<Field> fields(Schema schema, Set<String> filled, Set<String> omit) {
    final List<Field> out = new ArrayList<>();
    final List<String> required = schema.required(schema.root());
    for (final Map.Entry<String, Map<String, Object>> e : schema.properties().entrySet()) {
      final String name = e.getKey();
      if (filled.contains(name) || omit.contains(name)) continue;
      final Map<String, Object> p = e.getValue();
      if ("object".equals(Schema.type(p)) && plainObject(schema, p)) {
        final List<String> inner = schema.required(p);
        for (final Map.Entry<String, Map<String, Object>> m : schema.properties(p).entrySet()) {
          out.add(field(schema, List.of(name, m.getKey()), label(p, name) + ": " + label(m.getValue(), m.getKey()),
                        m.getValue(), required.contains(name) && inner.contains(m.getKey())));
        }
      }
      else {
        out.add(field(schema, List.of(name), label(p, name), p, required.contains(name)));
      }
    }
    return out;
  }

  /** An object whose members are all plain values (drawn as one field each). */
  private static boolean plainObject(Schema schema, Map<String, Object> p) {
    final Map<String, Map<String, Object>> members = schema.properties(p);
    if (members.isEmpty()) return false;
    for (final Map<String, Object> m : members.values()) {
      if (kindOf(m) == Kind.JSON || kindOf(m) == Kind.LIST) return false;
    }
    return true;
  }

  private static Field field(Schema schema, List<String> path, String label, Map<String, Object> p, boolean required) {
    final Kind kind = kindOf(p);
    List<Object> choices = Schema.list(p.get("enum"));
    Kind itemKind = null;
    if (kind == Kind.LIST) {
      final Map<String, Object> items = schema.items(p);
      itemKind = kindOf(items);
      choices = Schema.list(items.get("enum"));
    }
    final String description = p.get("description") instanceof String ? (String) p.get("description") : "";
    return new Field(path, label, description, kind, choices, itemKind, p, required, p.get("default"));
  }

  static Kind kindOf(Map<String, Object> p) {
    if (p == null) return Kind.JSON;
    if (p.containsKey("enum")) return Kind.CHOICE;
    switch (Schema.type(p)) {
    case "boolean": return Kind.BOOLEAN;
    case "integer": return Kind.INTEGER;
    case "number": return Kind.NUMBER;
    case "string": return Kind.TEXT;
    case "array":
      final Object items = p.get("items");
      if (items instanceof Map) {
        final Kind k = kindOf(Schema.map(items));
        if (k != Kind.JSON && k != Kind.LIST && k != Kind.BOOLEAN) return Kind.LIST;
      }
      return Kind.JSON;
    default: return Kind.JSON;
    }
  }

  private static String label(Map<String, Object> p, String name) {
    return p.get("title") instanceof String ? (String) p.get("title") : name.replace('_', ' ');
  }

  /** The text a field starts with: its default, as the player would type it. */
  static String initialText(Field f) {
    return text(f, f.defaultValue);
  }

  static String text(Field f, Object value) {
    if (value == null) return "";
    if (f.kind == Kind.LIST && value instanceof List) {
      final List<String> parts = new ArrayList<>();
      for (final Object o : (List<?>) value) parts.add(String.valueOf(o));
      return String.join(", ", parts);
    }
    if (f.kind == Kind.JSON) return Json.write(value);
    return String.valueOf(value);
  }

  /**
   * The JSON value for what the player typed, or null to leave the field out (empty, and the
   * server's default applies). IllegalArgumentException names the field and what is wrong.
   */
  static Object parse(Field f, String typed) {
    final String text = typed == null ? "" : typed.trim();
    if (text.isEmpty()) {
      if (f.required && f.defaultValue == null) throw problem(f, "is required");
      return null;
    }
    switch (f.kind) {
    case LIST:
      final List<Object> items = new ArrayList<>();
      for (final String part : text.split(",")) {
        if (!part.isBlank()) items.add(value(f, f.itemKind, part.trim(), Schema.map(f.property.get("items"))));
      }
      bounds(f, f.property, items.size(), "minItems", "maxItems", "item(s)");
      return items;
    case JSON:
      try {
        return Json.parse(text);
      }
      catch (IllegalArgumentException e) {
        throw problem(f, "is not valid JSON (" + e.getMessage() + ")");
      }
    default:
      return value(f, f.kind, text, f.property);
    }
  }

  private static Object value(Field f, Kind kind, String text, Map<String, Object> p) {
    if (!Schema.list(p.get("enum")).isEmpty() || kind == Kind.CHOICE) {
      for (final Object choice : Schema.list(p.get("enum"))) {
        if (String.valueOf(choice).equals(text)) return choice;
      }
      throw problem(f, "must be one of " + Schema.list(p.get("enum")) + ", not '" + text + "'");
    }
    switch (kind) {
    case BOOLEAN:
      if (text.equals("true") || text.equals("false")) return Boolean.valueOf(text);
      throw problem(f, "must be true or false");
    case INTEGER:
      final long n;
      try {
        n = Long.parseLong(text);
      }
      catch (NumberFormatException e) {
        throw problem(f, "must be a whole number, not '" + text + "'");
      }
      range(f, p, n);
      return n;
    case NUMBER:
      final double d;
      try {
        d = Double.parseDouble(text);
      }
      catch (NumberFormatException e) {
        throw problem(f, "must be a number, not '" + text + "'");
      }
      if (Double.isNaN(d) || Double.isInfinite(d)) throw problem(f, "must be a number");
      range(f, p, d);
      return d;
    default:
      bounds(f, p, text.length(), "minLength", "maxLength", "character(s)");
      if (p.get("pattern") instanceof String) {
        try {
          if (!Pattern.compile((String) p.get("pattern")).matcher(text).find()) {
            throw problem(f, "does not have the expected form (" + p.get("pattern") + ")");
          }
        }
        catch (PatternSyntaxException ignored) {
          // a pattern Java cannot read: the server still checks it
        }
      }
      return text;
    }
  }

  private static void range(Field f, Map<String, Object> p, double x) {
    if (p.get("minimum") instanceof Number && x < ((Number) p.get("minimum")).doubleValue()) {
      throw problem(f, "must be at least " + p.get("minimum"));
    }
    if (p.get("maximum") instanceof Number && x > ((Number) p.get("maximum")).doubleValue()) {
      throw problem(f, "must be at most " + p.get("maximum"));
    }
    if (p.get("exclusiveMinimum") instanceof Number && x <= ((Number) p.get("exclusiveMinimum")).doubleValue()) {
      throw problem(f, "must be more than " + p.get("exclusiveMinimum"));
    }
    if (p.get("exclusiveMaximum") instanceof Number && x >= ((Number) p.get("exclusiveMaximum")).doubleValue()) {
      throw problem(f, "must be less than " + p.get("exclusiveMaximum"));
    }
  }

  private static void bounds(Field f, Map<String, Object> p, int n, String minKey, String maxKey, String unit) {
    if (p.get(minKey) instanceof Number && n < ((Number) p.get(minKey)).intValue()) {
      throw problem(f, "needs at least " + p.get(minKey) + " " + unit);
    }
    if (p.get(maxKey) instanceof Number && n > ((Number) p.get(maxKey)).intValue()) {
      throw problem(f, "takes at most " + p.get(maxKey) + " " + unit);
    }
  }

  private static IllegalArgumentException problem(Field f, String what) {
    return new IllegalArgumentException(f.label + " " + what);
  }

  /** Puts each parsed value at its field's place in the request (creating inner objects). */
  @SuppressWarnings("unchecked")
  static void put(Map<String, Object> request, Field f, Object value) {
    if (value == null) return;
    Map<String, Object> node = request;
    for (int i = 0; i < f.path.size() - 1; i++) {
      final String key = f.path.get(i);
      if (!(node.get(key) instanceof Map)) node.put(key, new LinkedHashMap<String, Object>());
      node = (Map<String, Object>) node.get(key);
    }
    node.put(f.path.get(f.path.size() - 1), value);
  }
}
