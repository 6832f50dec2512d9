package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One game's checks as the server describes them (GET /api/v1/systems): names, summaries,
 * rules, whether they roll, who acts, request schemas. Every check is offered from this description, so
 * a check added on the server appears in VASSAL without a line of Java. Also decides which
 * checks a right-click on a unit offers, from the roles their schemas declare.
 */
final class Catalog {
  /** One check of the game. */
  static final class Check {
    final String name;
    final String summary;
    final String rule;
    final boolean random;
    final Schema schema;
    final String actor;  // who acts (rolls), as the server declares it: "the attacking side (...)"

    Check(String name, String summary, String rule, boolean random, Schema schema, String actor) {
      this.name = name;
      this.summary = summary;
      this.rule = rule;
      this.random = random;
      this.schema = schema;
      this.actor = actor;
    }

    /** "combat_losses" as a menu says it: "Combat losses". */
    String words() {
      final String w = name.replace('_', ' ');
      return w.isEmpty() ? w : Character.toUpperCase(w.charAt(0)) + w.substring(1);
    }

    /** What the check is about, by the roles its schema declares (the first that fits, in this order). */
    Kind kind() {
      final List<String> r = schema.roles();
      if (r.contains("attackers") && (r.contains("defenders") || r.contains("target_hex"))) return Kind.ATTACK;
      if (r.contains("target_hex") || r.contains("defenders")) return Kind.HEX;
      if (r.contains("positions") && r.contains("side")) return Kind.SIDE_REPORT;
      if (r.contains("unit")) return Kind.UNIT;
      return Kind.OTHER;
    }
  }

  /**
   * ATTACK: the selected units attack the hex pointed at; HEX: something happens in that hex (to
   * the units in it);
   * SIDE_REPORT: a report for a whole side (every unit's position, and whose side); UNIT: the
   * unit pointed at; OTHER: nothing the board points at.
   */
  enum Kind { ATTACK, HEX, SIDE_REPORT, UNIT, OTHER }

  /** A right-click entry: its text and the check it asks. */
  static final class Entry {
    final String label;
    final Check check;

    Entry(String label, Check check) {
      this.label = label;
      this.check = check;
    }
  }

  final String system;
  final String name;
  final List<String> sides;
  final Map<String, String> scenarios;  // id -> name, in the server's order
  final List<Check> checks;

  private Catalog(String system, String name, List<String> sides, Map<String, String> scenarios, List<Check> checks) {
    this.system = system;
    this.name = name;
    this.sides = sides;
    this.scenarios = scenarios;
    this.checks = checks;
  }

  /** This game's part of a GET /api/v1/systems answer; IllegalArgumentException when it is missing. */
  static Catalog of(Map<String, Object> systems, String system) {
    for (final Object o : Schema.list(systems.get("systems"))) {
      final Map<String, Object> s = Schema.map(o);
      if (!system.equals(s.get("id"))) continue;
      final List<String> sides = new ArrayList<>();
      for (final Object side : Schema.list(s.get("sides"))) sides.add(String.valueOf(side));
      final Map<String, String> scenarios = new LinkedHashMap<>();
      for (final Object sc : Schema.list(s.get("scenarios"))) {
        scenarios.put(String.valueOf(Schema.map(sc).get("id")), String.valueOf(Schema.map(sc).get("name")));
      }
      final List<Check> checks = new ArrayList<>();
      for (final Object c : Schema.list(s.get("checks"))) {
        final Map<String, Object> check = Schema.map(c);
        final Map<String, Object> actor = Schema.map(check.get("actor"));
        final String who = actor.isEmpty() ? "" : text(actor.get("description")) + (actor.get("rule") == null ? "" : " (" + actor.get("rule") + ")");
        checks.add(new Check(String.valueOf(check.get("name")), text(check.get("summary")), text(check.get("rule")),
                             Boolean.TRUE.equals(check.get("random")), new Schema(Schema.map(check.get("request_schema"))), who));
      }
      return new Catalog(system, text(s.get("name")), sides, scenarios, checks);
    }
    throw new IllegalArgumentException("the server has no game '" + system + "'");
  }

  Check check(String checkName) {
    for (final Check c : checks) {
      if (c.name.equals(checkName)) return c;
    }
    return null;
  }

  /**
   * The checks a right-click on a unit offers, by the roles of their schemas: attacking the
   * unit's hex with the selected units, a report for the unit's side, or the unit itself.
   */
  List<Entry> entries(Board.Context ctx) {
    final List<Entry> out = new ArrayList<>();
    if (ctx.unit == null) return out;
    for (final Check c : checks) {
      switch (c.kind()) {
      case ATTACK:
        if (ctx.hex != null) {
          out.add(new Entry(c.name.equals("combat") ? "Attack this hex with the selected units"
                              : c.words() + ": this hex, with the selected units", c));
        }
        break;
      case HEX:
        if (ctx.hex != null) out.add(new Entry(c.words() + " in this hex", c));
        break;
      case SIDE_REPORT:
        out.add(new Entry(c.words() + " of this side", c));
        break;
      case UNIT:
        out.add(new Entry(c.words() + " for this unit", c));
        break;
      default:
        break;
      }
    }
    return out;
  }

  private static String text(Object o) {
    return o == null ? "" : String.valueOf(o);
  }
}
