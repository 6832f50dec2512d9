package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reading a check's request schema (JSON Schema as pydantic writes it, from GET /api/v1/systems):
 * local {@code $ref}s into {@code $defs}, optional fields written as {@code anyOf [T, null]},
 * and the {@code x-board} keyword naming the role a board fills (adjudicator.checks.BOARD_ROLES).
 */
final class Schema {
  static final String ROLE = "x-board";

  private final Map<String, Object> root;

  Schema(Map<String, Object> root) {
    this.root = root;
  }

  Map<String, Object> root() {
    return root;
  }

  /** A node with its {@code $ref} followed and a single non-null {@code anyOf}/{@code allOf} option merged in. */
  Map<String, Object> resolve(Object nodeObject) {
    Map<String, Object> node = map(nodeObject);
    for (int guard = 0; guard < 8; guard++) {
      boolean changed = false;
      for (final String key : new String[] {"allOf", "anyOf"}) {
        final List<Object> options = new ArrayList<>();
        for (final Object o : list(node.get(key))) {
          if (!"null".equals(map(o).get("type"))) options.add(o);
        }
        if (node.containsKey(key) && options.size() == 1) {
          final Map<String, Object> merged = new LinkedHashMap<>(map(options.get(0)));
          for (final Map.Entry<String, Object> e : node.entrySet()) {
            if (!e.getKey().equals(key)) merged.put(e.getKey(), e.getValue());
          }
          node = merged;
          changed = true;
        }
      }
      final Object ref = node.get("$ref");
      if (ref instanceof String && ((String) ref).startsWith("#/$defs/")) {
        final Map<String, Object> target = map(map(root.get("$defs")).get(((String) ref).substring(8)));
        final Map<String, Object> merged = new LinkedHashMap<>(target);
        for (final Map.Entry<String, Object> e : node.entrySet()) {
          if (!e.getKey().equals("$ref")) merged.put(e.getKey(), e.getValue());
        }
        node = merged;
        changed = true;
      }
      if (!changed) break;
    }
    return node;
  }

  /** Whether a property may be null (written {@code anyOf [T, {"type": "null"}]}). */
  static boolean nullable(Map<String, Object> property) {
    for (final Object o : list(property.get("anyOf"))) {
      if ("null".equals(map(o).get("type"))) return true;
    }
    return false;
  }

  /** The top-level properties, resolved, in schema order. */
  Map<String, Map<String, Object>> properties() {
    return properties(root);
  }

  Map<String, Map<String, Object>> properties(Map<String, Object> node) {
    final Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    for (final Map.Entry<String, Object> e : map(resolve(node).get("properties")).entrySet()) {
      out.put(e.getKey(), resolve(e.getValue()));
    }
    return out;
  }

  /** The properties as written, before their {@code $ref}s are followed (a referenced definition's title is not the property's). */
  Map<String, Map<String, Object>> rawProperties(Map<String, Object> node) {
    final Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    for (final Map.Entry<String, Object> e : map(resolve(node).get("properties")).entrySet()) out.put(e.getKey(), map(e.getValue()));
    return out;
  }

  List<String> required(Map<String, Object> node) {
    final List<String> out = new ArrayList<>();
    for (final Object o : list(resolve(node).get("required"))) out.add(String.valueOf(o));
    return out;
  }

  /** The role a board fills for this (resolved) property, or null. */
  static String role(Map<String, Object> property) {
    final Object r = property.get(ROLE);
    return r instanceof String ? (String) r : null;
  }

  /** The roles of the top-level properties, in schema order. */
  List<String> roles() {
    final List<String> out = new ArrayList<>();
    for (final Map<String, Object> p : properties().values()) {
      final String r = role(p);
      if (r != null && !out.contains(r)) out.add(r);
    }
    return out;
  }

  /** The schema of a list's items (resolved), or null when it is not a list. */
  Map<String, Object> items(Map<String, Object> property) {
    return property.get("items") instanceof Map ? resolve(property.get("items")) : null;
  }

  static String type(Map<String, Object> property) {
    final Object t = property.get("type");
    return t instanceof String ? (String) t : "";
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    return o instanceof Map ? (Map<String, Object>) o : Map.of();
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object o) {
    return o instanceof List ? (List<Object>) o : List.of();
  }
}
