package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What the player fills in a check's form, read from its request schema: one field per property
 * the board did not fill, and every object a group of its own fields, to any depth (Fire and
 * Ice's two sides of a combat, a list of units as rows, a count per support type as key and
 * value). Each field has its label (the schema's own title, else the name in words, as the
 * pages' forms word it), kind, choices, bounds, default, description and, for a value another
 * player decides, who chooses. {@link #read} turns what was entered into the JSON request the
 * server expects, or names every wrong entry by its place (a JSON pointer) so the form can show
 * the problem beside the field. No Swing here (CheckForm draws the fields), so ExtensionTests
 * can hold the mapping.
 */
final class FormFields {
  /** The kinds of input. OBJECT: a group of member fields; ROWS: a list of objects, a row each; MAP: key and value rows. */
  enum Kind { BOOLEAN, CHOICE, INTEGER, NUMBER, TEXT, LIST, OBJECT, ROWS, MAP, JSON }

  /** Objects nested deeper than this are entered as JSON. */
  static final int MAX_DEPTH = 4;

  /** A request property's description saying whose choice the value is ("The defender's choice of ..."). */
  private static final Pattern CHOICE_OF = Pattern.compile("\\b(attacker|defender|attacking player|defending player)'s choice\\b",
                                                           Pattern.CASE_INSENSITIVE);

  /** One input of the form, or a group of them. */
  static final class Field {
    final String name;            // the property's name ("tank_level"; a map's key field: "key")
    final List<String> path;      // its place below the form's top (a row's members: below the row)
    final String label;
    final String description;
    final Kind kind;
    final List<Object> choices;   // CHOICE; LIST of choices; MAP: the keys
    final Kind itemKind;          // LIST
    final Map<String, Object> property;
    final boolean required;
    final Object defaultValue;    // null: none
    final List<Field> members;    // OBJECT: its fields; ROWS: a row's fields; MAP: [the value field]
    final String chooser;         // "defender", "attacker" when that player chooses the value; "" otherwise
    final List<Map<String, Object>> fixed;  // the board's units of this field (their rows, fixed), or null

    Field(String name, List<String> path, String label, String description, Kind kind, List<Object> choices, Kind itemKind,
          Map<String, Object> property, boolean required, Object defaultValue, List<Field> members, String chooser) {
      this(name, path, label, description, kind, choices, itemKind, property, required, defaultValue, members, chooser, null);
    }

    Field(String name, List<String> path, String label, String description, Kind kind, List<Object> choices, Kind itemKind,
          Map<String, Object> property, boolean required, Object defaultValue, List<Field> members, String chooser,
          List<Map<String, Object>> fixed) {
      this.fixed = fixed;
      this.name = name;
      this.path = path;
      this.label = label;
      this.description = description;
      this.kind = kind;
      this.choices = choices;
      this.itemKind = itemKind;
      this.property = property;
      this.required = required;
      this.defaultValue = defaultValue;
      this.members = members;
      this.chooser = chooser;
    }

    /** "attacking.tank_level" */
    String dotted() {
      return String.join(".", path);
    }

    /** The JSON pointer of this field below a parent pointer ("" at the top, "/attackers/0" in a row). */
    String pointer(String parent) {
      return parent + "/" + name;
    }

    boolean leaf() {
      return kind != Kind.OBJECT && kind != Kind.ROWS && kind != Kind.MAP;
    }
  }

  /** What the player entered, by the JSON pointer of each input (the form's Swing inputs, or a test's map). */
  interface Entered {
    /** The text of a leaf input ("" when empty). */
    String text(String pointer);

    /** How many rows a ROWS or MAP field has. */
    int rows(String pointer);
  }

  /** Every wrong entry: JSON pointer -> what is wrong, in players' words. */
  static final class Problems extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    final Map<String, String> byPointer;

    Problems(Map<String, String> byPointer) {
      super(String.join("; ", byPointer.values()));
      this.byPointer = byPointer;
    }
  }

  private FormFields() { }

  // ---- the fields of a schema --------------------------------------------------------------------------

  /**
   * The fields of a request the player fills: every top-level property except those in
   * {@code filled} (the board's) and {@code omit} (e.g. "dice" in a recorded game, whose dice
   * the server rolls; "request_id").
   */
  static List<Field> fields(Schema schema, Set<String> filled, Set<String> omit) {
    final List<Field> out = new ArrayList<>();
    final List<String> required = schema.required(schema.root());
    final Map<String, Map<String, Object>> raw = schema.rawProperties(schema.root());
    for (final Map.Entry<String, Map<String, Object>> e : schema.properties().entrySet()) {
      final String name = e.getKey();
      if (filled.contains(name) || omit.contains(name)) continue;
      out.add(field(schema, name, List.of(name), raw.get(name), e.getValue(), required.contains(name), 0));
    }
    return out;
  }

  /**
   * The board's units a player may set more of, or take out: a list (or one object) the board
   * filled from the pieces (attackers, a defender) whose items also have members no board role
   * fills (in supply, across a river, the supply unit), and the lists of attackers and defenders
   * (a unit selected by mistake is removed from the form). Each unit is a fixed row (or group)
   * of those members; positions (every unit on the map) are left out.
   */
  static List<Field> boardFields(Schema schema, Map<String, Object> filled) {
    final List<Field> out = new ArrayList<>();
    final Map<String, Map<String, Object>> raw = schema.rawProperties(schema.root());
    for (final Map.Entry<String, Map<String, Object>> e : schema.properties().entrySet()) {
      final Object value = filled.get(e.getKey());
      if (value == null) continue;
      final Map<String, Object> p = e.getValue();
      final boolean list = "array".equals(Schema.type(p)) && value instanceof List;
      final Map<String, Object> item = list ? schema.items(p) : p;
      if (item == null || !"object".equals(Schema.type(item))) continue;
      final List<Field> members = new ArrayList<>();
      for (final Field m : members(schema, item, List.of(), 0)) {
        if (Schema.role(m.property) == null) members.add(m.leaf() ? m : asJson(m));
      }
      final String role = Schema.role(p);
      if (members.isEmpty() && !(list && ("attackers".equals(role) || "defenders".equals(role)))) continue;
      final List<Map<String, Object>> fixed = new ArrayList<>();
      if (list) for (final Object o : (List<?>) value) fixed.add(Schema.map(o));
      else if (value instanceof Map) fixed.add(Schema.map(value));
      else continue;
      out.add(new Field(e.getKey(), List.of(e.getKey()), Words.label(raw.get(e.getKey()), e.getKey()),
                        p.get("description") instanceof String ? (String) p.get("description") : "", list ? Kind.ROWS : Kind.OBJECT,
                        List.of(), null, p, true, null, members, "", fixed));
    }
    return out;
  }

  private static Field field(Schema schema, String name, List<String> path, Map<String, Object> raw, Map<String, Object> p,
                             boolean required, int depth) {
    final String label = Words.label(raw, name);
    final String description = p.get("description") instanceof String ? (String) p.get("description") : "";
    final Kind kind = depth > MAX_DEPTH ? Kind.JSON : kindOf(schema, p);
    List<Object> choices = Schema.list(p.get("enum"));
    Kind itemKind = null;
    final List<Field> members = new ArrayList<>();
    switch (kind) {
    case LIST:
      final Map<String, Object> items = schema.items(p);
      itemKind = kindOf(schema, items);
      choices = Schema.list(items.get("enum"));
      break;
    case OBJECT:
      members.addAll(members(schema, p, path, depth));
      break;
    case ROWS:  // a row holds plain inputs: an object inside a row is typed as JSON
      for (final Field m : members(schema, schema.items(p), List.of(), depth)) members.add(m.leaf() ? m : asJson(m));
      break;
    case MAP:
      final Map<String, Object> values = schema.resolve(p.get("additionalProperties"));
      choices = Schema.list(schema.resolve(p.get("propertyNames")).get("enum"));
      members.add(field(schema, "value", List.of("value"), values, values, true, depth + 1));
      break;
    default:
      break;
    }
    return new Field(name, path, label, description, kind, choices, itemKind, p, required, p.get("default"), members, chooser(p));
  }

  private static List<Field> members(Schema schema, Map<String, Object> object, List<String> parent, int depth) {
    final List<Field> out = new ArrayList<>();
    final List<String> required = schema.required(object);
    final Map<String, Map<String, Object>> raw = schema.rawProperties(object);
    for (final Map.Entry<String, Map<String, Object>> m : schema.properties(object).entrySet()) {
      final List<String> path = new ArrayList<>(parent);
      path.add(m.getKey());
      out.add(field(schema, m.getKey(), List.copyOf(path), raw.get(m.getKey()), m.getValue(), required.contains(m.getKey()), depth + 1));
    }
    return out;
  }

  private static Field asJson(Field f) {
    return new Field(f.name, f.path, f.label, f.description, Kind.JSON, List.of(), null, f.property, f.required, f.defaultValue,
                     List.of(), f.chooser);
  }

  static Kind kindOf(Schema schema, Map<String, Object> p) {
    if (p == null || p.isEmpty()) return Kind.JSON;
    if (p.containsKey("enum")) return Kind.CHOICE;
    if (Schema.list(p.get("anyOf")).size() > 1 && Schema.type(p).isEmpty()) return Kind.JSON;  // several kinds of value
    switch (Schema.type(p)) {
    case "boolean": return Kind.BOOLEAN;
    case "integer": return Kind.INTEGER;
    case "number": return Kind.NUMBER;
    case "string": return Kind.TEXT;
    case "array":
      final Map<String, Object> items = schema.items(p);
      if (items == null) return Kind.JSON;
      final Kind item = kindOf(schema, items);
      if (item == Kind.OBJECT) return Kind.ROWS;
      if (item == Kind.CHOICE || item == Kind.INTEGER || item == Kind.NUMBER || item == Kind.TEXT) return Kind.LIST;
      return Kind.JSON;
    case "object":
      if (!schema.properties(p).isEmpty()) return Kind.OBJECT;
      final Map<String, Object> values = schema.resolve(p.get("additionalProperties"));
      final Kind value = values.isEmpty() ? Kind.JSON : kindOf(schema, values);
      return value == Kind.BOOLEAN || value == Kind.INTEGER || value == Kind.NUMBER || value == Kind.TEXT || value == Kind.CHOICE
        ? Kind.MAP : Kind.JSON;
    default: return Kind.JSON;
    }
  }

  /** Who chooses this value, when it is not the asking player: the schema's {@code x-chosen-by}, else its description. */
  static String chooser(Map<String, Object> p) {
    if (p.get("x-chosen-by") instanceof String) return (String) p.get("x-chosen-by");
    final Object d = p.get("description");
    if (!(d instanceof String)) return "";
    final Matcher m = CHOICE_OF.matcher((String) d);
    if (!m.find()) return "";
    return m.group(1).toLowerCase(Locale.ROOT).startsWith("attack") ? "attacker" : "defender";
  }

  // ---- what was entered -> the request --------------------------------------------------------------------

  /** The text a leaf starts with: its default, as the player would type it. */
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
   * The request members for what was entered, or {@link Problems} naming every wrong entry by
   * its pointer. An optional group left empty is left out (the server's default applies).
   */
  static Map<String, Object> read(List<Field> fields, Entered entered) {
    final Map<String, String> problems = new LinkedHashMap<>();
    final Map<String, Object> out = new LinkedHashMap<>();
    for (final Field f : fields) {
      final Object v = value(f, "", true, entered, problems);
      if (v != null) out.put(f.name, v);
    }
    if (!problems.isEmpty()) throw new Problems(problems);
    return out;
  }

  /** One field's value below {@code parent} (a pointer), or null to leave it out. */
  private static Object value(Field f, String parent, boolean needed, Entered entered, Map<String, String> problems) {
    final String pointer = f.pointer(parent);
    switch (f.kind) {
    case OBJECT: {
      final Map<String, Object> object = new LinkedHashMap<>(f.fixed == null ? Map.of() : f.fixed.get(0));
      final boolean mustFill = needed && f.required && f.defaultValue == null;
      final Map<String, String> inner = new LinkedHashMap<>();
      for (final Field m : f.members) {
        final Object v = value(m, pointer, true, entered, inner);
        if (v != null) object.put(m.name, v);
      }
      if (object.isEmpty() && !mustFill && f.fixed == null) return null;  // an optional group left empty
      problems.putAll(inner);
      return object;
    }
    case ROWS: {
      final List<Object> rows = new ArrayList<>();
      final int n = f.fixed != null ? f.fixed.size() : entered.rows(pointer);
      for (int i = 0; i < n; i++) {
        final Map<String, Object> row = new LinkedHashMap<>(f.fixed != null ? f.fixed.get(i) : Map.of());
        for (final Field m : f.members) {
          final Object v = value(m, pointer + "/" + i, true, entered, problems);
          if (v != null) row.put(m.name, v);
        }
        rows.add(row);
      }
      bounds(f, f.property, rows.size(), pointer, problems);
      if (rows.isEmpty() && !(needed && f.required && f.defaultValue == null)) return null;
      return rows;
    }
    case MAP: {
      final Map<String, Object> map = new LinkedHashMap<>();
      final int n = entered.rows(pointer);
      for (int i = 0; i < n; i++) {
        final String key = entered.text(pointer + "/" + i + "/key").trim();
        if (key.isEmpty()) continue;
        final Field valueField = f.members.get(0);
        try {
          map.put(key, parseLeaf(valueField, entered.text(pointer + "/" + i + "/value")));
        }
        catch (IllegalArgumentException e) {
          problems.put(pointer + "/" + i + "/value", f.label + " (" + key + "): " + e.getMessage());
        }
      }
      if (map.isEmpty() && !(needed && f.required && f.defaultValue == null)) return null;
      return map;
    }
    default:
      try {
        final Object v = parseLeaf(f, entered.text(pointer));
        if (v == null && needed && f.required && f.defaultValue == null) throw new IllegalArgumentException("is required");
        return v;
      }
      catch (IllegalArgumentException e) {
        problems.put(pointer, f.label + " " + e.getMessage());
        return null;
      }
    }
  }

  /**
   * The JSON value of one leaf's text, or null for an empty entry (left out: the server's default
   * applies). IllegalArgumentException says what is wrong ("must be at most 9").
   */
  static Object parseLeaf(Field f, String typed) {
    final String text = typed == null ? "" : typed.trim();
    if (text.isEmpty()) return null;
    switch (f.kind) {
    case LIST:
      final List<Object> items = new ArrayList<>();
      for (final String part : text.split(",")) {
        if (!part.isBlank()) items.add(scalar(f.itemKind, part.trim(), Schema.map(f.property.get("items"))));
      }
      final Map<String, String> p = new LinkedHashMap<>();
      bounds(f, f.property, items.size(), "", p);
      if (!p.isEmpty()) throw new IllegalArgumentException(p.values().iterator().next().substring(f.label.length() + 1));
      return items;
    case JSON:
      try {
        return Json.parse(text);
      }
      catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("is not valid JSON (" + e.getMessage() + ")");
      }
    default:
      return scalar(f.kind, text, f.property);
    }
  }

  /** Kept for the tests and the calls that give one field's text: parseLeaf with the field named in the problem. */
  static Object parse(Field f, String typed) {
    try {
      final Object v = parseLeaf(f, typed);
      if (v == null && f.required && f.defaultValue == null) throw new IllegalArgumentException("is required");
      return v;
    }
    catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(f.label + " " + e.getMessage());
    }
  }

  private static Object scalar(Kind kind, String text, Map<String, Object> p) {
    if (!Schema.list(p.get("enum")).isEmpty() || kind == Kind.CHOICE) {
      for (final Object choice : Schema.list(p.get("enum"))) {
        if (String.valueOf(choice).equals(text)) return choice;
      }
      throw new IllegalArgumentException("must be one of " + Schema.list(p.get("enum")) + ", not '" + text + "'");
    }
    switch (kind) {
    case BOOLEAN:
      if (text.equals("true") || text.equals("false")) return Boolean.valueOf(text);
      throw new IllegalArgumentException("must be true or false");
    case INTEGER:
      final long n;
      try {
        n = Long.parseLong(text);
      }
      catch (NumberFormatException e) {
        throw new IllegalArgumentException("must be a whole number, not '" + text + "'");
      }
      range(p, n);
      return n;
    case NUMBER:
      final double d;
      try {
        d = Double.parseDouble(text);
      }
      catch (NumberFormatException e) {
        throw new IllegalArgumentException("must be a number, not '" + text + "'");
      }
      if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("must be a number");
      range(p, d);
      return d;
    default:
      if (p.get("minLength") instanceof Number && text.length() < ((Number) p.get("minLength")).intValue()) {
        throw new IllegalArgumentException("needs at least " + p.get("minLength") + " character(s)");
      }
      if (p.get("maxLength") instanceof Number && text.length() > ((Number) p.get("maxLength")).intValue()) {
        throw new IllegalArgumentException("takes at most " + p.get("maxLength") + " character(s)");
      }
      if (p.get("pattern") instanceof String) {
        try {
          if (!Pattern.compile((String) p.get("pattern")).matcher(text).find()) {
            throw new IllegalArgumentException("does not have the expected form (" + p.get("pattern") + ")");
          }
        }
        catch (PatternSyntaxException ignored) {
          // a pattern Java cannot read: the server still checks it
        }
      }
      return text;
    }
  }

  private static void range(Map<String, Object> p, double x) {
    if (p.get("minimum") instanceof Number && x < ((Number) p.get("minimum")).doubleValue()) {
      throw new IllegalArgumentException("must be at least " + p.get("minimum"));
    }
    if (p.get("maximum") instanceof Number && x > ((Number) p.get("maximum")).doubleValue()) {
      throw new IllegalArgumentException("must be at most " + p.get("maximum"));
    }
    if (p.get("exclusiveMinimum") instanceof Number && x <= ((Number) p.get("exclusiveMinimum")).doubleValue()) {
      throw new IllegalArgumentException("must be more than " + p.get("exclusiveMinimum"));
    }
    if (p.get("exclusiveMaximum") instanceof Number && x >= ((Number) p.get("exclusiveMaximum")).doubleValue()) {
      throw new IllegalArgumentException("must be less than " + p.get("exclusiveMaximum"));
    }
  }

  private static void bounds(Field f, Map<String, Object> p, int n, String pointer, Map<String, String> problems) {
    if (p.get("minItems") instanceof Number && n < ((Number) p.get("minItems")).intValue() && n > 0) {
      problems.put(pointer, f.label + " needs at least " + p.get("minItems") + " item(s)");
    }
    if (p.get("maxItems") instanceof Number && n > ((Number) p.get("maxItems")).intValue()) {
      problems.put(pointer, f.label + " takes at most " + p.get("maxItems") + " item(s)");
    }
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
