package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One game's checks as the server describes them (GET /api/v1/systems): names, summaries,
 * rules, whether they roll, who acts, request schemas, and when they apply (the scenarios they
 * belong to, the sides that may ask them, whether a check about units is their owner's, which
 * units a check about one unit takes: the catalog's {@code applies}). Every check is offered
 * from this description, so a check added on the server appears in VASSAL without a line of
 * Java, and the extension holds no rules: it decides which checks a menu offers from the roles
 * their schemas declare and from {@code applies}.
 */
final class Catalog {
  /** The component name of the right-click menu's Adjudicator sub-menu (see Check.itemName). */
  static final String SUB_MENU_NAME = "adjudicator";

  /** One check of the game. */
  static final class Check {
    final String name;
    final String summary;
    final String rule;
    final boolean random;
    final Schema schema;
    final String actor;  // who acts (rolls), as the server declares it: "the attacking side (...)"
    final Map<String, Object> example;  // the check's registered example request
    final Map<String, Object> applies;  // the catalog's "applies": scenarios, sides, owner_of_units, units
    boolean endsGame;  // the game's victory check (the catalog's "ends_game"): its ruling names the result
    /** What the board fills, in words, by its role: "side" -> side id -> its name, "scenario" -> id -> its name. */
    Map<String, Map<String, String>> boardWords = Map.of();

    Check(String name, String summary, String rule, boolean random, Schema schema, String actor) {
      this(name, summary, rule, random, schema, actor, Map.of(), Map.of());
    }

    Check(String name, String summary, String rule, boolean random, Schema schema, String actor, Map<String, Object> example,
          Map<String, Object> applies) {
      this.name = name;
      this.summary = summary;
      this.rule = rule;
      this.random = random;
      this.schema = schema;
      this.actor = actor;
      this.example = example;
      this.applies = applies;
    }

    /** The units a check about one unit takes (types, sizes, flags, nationalities, on_map); empty: any unit. */
    Map<String, Object> unitsTaken() {
      return Schema.map(applies.get("units"));
    }

    /** Whether the check belongs to a scenario (null: not known, so it may). */
    boolean belongsTo(String scenario) {
      final List<Object> only = Schema.list(applies.get("scenarios"));
      return scenario == null || only.isEmpty() || only.contains(scenario);
    }

    /** Whether a side may ask the check (null: not known, so it may). */
    boolean askedBy(String side) {
      return side == null || !(applies.get("sides") instanceof List) || Schema.list(applies.get("sides")).contains(side);
    }

    /** The sides that may ask the check, or null when the request decides. */
    List<Object> sides() {
      return applies.get("sides") instanceof List ? Schema.list(applies.get("sides")) : null;
    }

    /** How many dice the check's example rolls (a hint for a calculation: the number may depend on the results). */
    int exampleDice() {
      return Schema.list(example.get("dice")).size();
    }

    /**
     * The component name of the menu items that ask this check ("check:combat"): what a program
     * driving the menus (the benchmark, the engine tests) finds an item by, whatever its words.
     */
    String itemName() {
      return "check:" + name;
    }

    /** "combat_losses" as a menu says it: "Combat losses" ("hq_flip_cost": "HQ flip cost"). */
    String words() {
      return Words.humanize(name);
    }

    /**
     * What the check is about, by the roles its schema declares (the first that fits, in this
     * order): a check naming the unit pointed at is about that unit even when it reads the whole
     * board too (Fire and Ice's combat losses, asked on a losing unit, take every position for
     * its retreat).
     */
    Kind kind() {
      final List<String> r = schema.roles();
      if (r.contains("attackers") && (r.contains("defenders") || r.contains("target_hex"))) return Kind.ATTACK;
      if (r.contains("target_hex") || r.contains("defenders")) return Kind.HEX;
      if (r.contains("unit")) return Kind.UNIT;
      if (r.contains("positions") && r.contains("side")) return Kind.SIDE_REPORT;
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

  /** A right-click entry: its text, the check it asks, and whether it can be asked now (else its text says what is missing). */
  static final class Entry {
    final String label;
    final Check check;
    final boolean enabled;

    Entry(String label, Check check) {
      this(label, check, true);
    }

    Entry(String label, Check check, boolean enabled) {
      this.label = label;
      this.check = check;
      this.enabled = enabled;
    }
  }

  final String system;
  final String name;
  final List<String> sides;
  final Map<String, String> scenarios;  // id -> name, in the server's order
  final Map<String, Map<String, String>> months;  // scenario id -> game turn -> its month (YYYY-MM), where given
  final List<Check> checks;
  final Map<String, Integer> turns = new LinkedHashMap<>();  // scenario id -> how many turns it lasts, where given

  private Catalog(String system, String name, List<String> sides, Map<String, String> scenarios,
                  Map<String, Map<String, String>> months, List<Check> checks) {
    this.system = system;
    this.name = name;
    this.sides = sides;
    this.scenarios = scenarios;
    this.months = months;
    this.checks = checks;
  }

  /** The game's victory check a side may ask in a scenario (the catalog's "ends_game"), or null. */
  Check victory(String scenario, String side) {
    for (final Check c : checks) {
      if (c.endsGame && c.belongsTo(scenario) && c.askedBy(side)) return c;
    }
    return null;
  }

  /** Whether a scenario's turn is its last (false when either is not known). */
  boolean lastTurn(String scenario, Integer turn) {
    return scenario != null && turn != null && turn.equals(turns.get(scenario));
  }

  /** The month (YYYY-MM) of a scenario's game turn, as the server's scenario gives it; null when it gives none. */
  String month(String scenario, Integer turn) {
    if (scenario == null || turn == null) return null;
    return months.getOrDefault(scenario, Map.of()).get(String.valueOf(turn));
  }

  /** This game's part of a GET /api/v1/systems answer; IllegalArgumentException when it is missing. */
  static Catalog of(Map<String, Object> systems, String system) {
    for (final Object o : Schema.list(systems.get("systems"))) {
      final Map<String, Object> s = Schema.map(o);
      if (!system.equals(s.get("id"))) continue;
      final List<String> sides = new ArrayList<>();
      for (final Object side : Schema.list(s.get("sides"))) sides.add(String.valueOf(side));
      final Map<String, String> scenarios = new LinkedHashMap<>();
      final Map<String, Map<String, String>> months = new LinkedHashMap<>();
      for (final Object sc : Schema.list(s.get("scenarios"))) {
        final String id = String.valueOf(Schema.map(sc).get("id"));
        scenarios.put(id, String.valueOf(Schema.map(sc).get("name")));
        final Map<String, String> byTurn = new LinkedHashMap<>();
        for (final Map.Entry<String, Object> m : Schema.map(Schema.map(sc).get("months")).entrySet()) {
          byTurn.put(m.getKey(), String.valueOf(m.getValue()));
        }
        months.put(id, byTurn);
      }
      final List<Check> checks = new ArrayList<>();
      for (final Object c : Schema.list(s.get("checks"))) {
        final Map<String, Object> check = Schema.map(c);
        final Map<String, Object> actor = Schema.map(check.get("actor"));
        final String who = actor.isEmpty() ? "" : text(actor.get("description")) + (actor.get("rule") == null ? "" : " (" + actor.get("rule") + ")");
        final Check made = new Check(String.valueOf(check.get("name")), text(check.get("summary")), text(check.get("rule")),
                                     Boolean.TRUE.equals(check.get("random")), new Schema(Schema.map(check.get("request_schema"))),
                                     who, Schema.map(check.get("example")), Schema.map(check.get("applies")));
        made.endsGame = Boolean.TRUE.equals(check.get("ends_game"));
        checks.add(made);
      }
      final Catalog catalog = new Catalog(system, text(s.get("name")), sides, scenarios, months, checks);
      for (final Object sc : Schema.list(s.get("scenarios"))) {
        final Object turns = Schema.map(sc).get("turns");
        if (turns instanceof Number) catalog.turns.put(String.valueOf(Schema.map(sc).get("id")), ((Number) turns).intValue());
      }
      return catalog;
    }
    throw new IllegalArgumentException("the server has no game '" + system + "'");
  }

  /**
   * This catalog with the words its checks' forms show for what the board fills: a side by the
   * name the module gives it ({@code sideNames}: id -> name), a scenario by its name, never an id.
   */
  Catalog withSideNames(Map<String, String> sideNames) {
    final Map<String, Map<String, String>> words = Map.of("side", Map.copyOf(sideNames), "scenario", Map.copyOf(scenarios));
    for (final Check c : checks) c.boardWords = words;
    return this;
  }

  Check check(String checkName) {
    for (final Check c : checks) {
      if (c.name.equals(checkName)) return c;
    }
    return null;
  }

  /**
   * The checks the toolbar's menu offers in a scenario to a side (either null: not known): those
   * of the scenario that side may ask.
   */
  List<Check> offered(String scenario, String side) {
    return offered(scenario, side, Set.of());
  }

  /** {@link #offered(String, String)}, less the checks the recorded game does not offer yet ({@code notYet}: Waiting). */
  List<Check> offered(String scenario, String side, Set<String> notYet) {
    final List<Check> out = new ArrayList<>();
    for (final Check c : checks) {
      if (c.belongsTo(scenario) && c.askedBy(side) && !notYet.contains(c.name)) out.add(c);
    }
    return out;
  }

  /**
   * The checks a right-click on a unit offers, by the roles of their schemas and whose unit it
   * is, among those of the scenario the asking side may ask: an attack on (or in) the hex of an
   * enemy unit, with the selected units as attackers; a report for the unit's side; and what a
   * check of one unit does (a move, a breakdown) on the asking side's own units of the kind the
   * check takes. {@code asking} is the side asking (the recorded game's, else the one taken in
   * VASSAL); null when unknown: then the selected units' side stands for it.
   */
  List<Entry> entries(Board.Context ctx, String asking, String scenario) {
    return entries(ctx, asking, scenario, Set.of());
  }

  /** {@link #entries(Board.Context, String, String)}, less the checks the recorded game does not offer yet ({@code notYet}). */
  List<Entry> entries(Board.Context ctx, String asking, String scenario, Set<String> notYet) {
    final List<Entry> out = new ArrayList<>();
    if (ctx.unit == null) return out;
    final List<Board.Unit> attackers = Board.attackers(ctx);
    final String mine = asking != null ? asking : attackers.isEmpty() ? null : attackers.get(0).side;
    final boolean enemy = mine == null || !mine.equals(ctx.unit.side);
    final boolean own = mine == null || mine.equals(ctx.unit.side);
    boolean attackersOfOtherSide = false;
    for (final Board.Unit a : attackers) attackersOfOtherSide |= !a.side.equals(ctx.unit.side);
    for (final Check c : offered(scenario, mine, notYet)) {
      switch (c.kind()) {
      case ATTACK:
        if (ctx.hex != null && enemy) {
          final String label = c.name.equals("combat") ? "Attack this hex with the selected units"
                                                       : c.words() + ": this hex, with the selected units";
          out.add(attackersOfOtherSide ? new Entry(label, c) : new Entry(label + " (select your attacking units first)", c, false));
        }
        break;
      case HEX:
        if (ctx.hex != null && enemy) out.add(new Entry(c.words() + " in this hex", c));
        break;
      case SIDE_REPORT:
        out.add(new Entry(c.words() + " of this side", c));
        break;
      case UNIT:
        if (own && ctx.unit.fits(c.unitsTaken())) out.add(new Entry(c.words() + " for this unit", c));
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
