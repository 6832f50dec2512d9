package korea.adjudicator;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Unit tests of the extension's logic that needs no engine: the JSON reader and writer, reading
 * schemas, the schema-to-form mapping, filling a request from the board, the right-click entries.
 * Run by tests/test_extension_java.py: {@code java korea.adjudicator.ExtensionTests [systems.json]};
 * with a GET /api/v1/systems answer, every check of every game must give a form.
 * Prints one line per failure and exits 1 if any.
 */
public final class ExtensionTests {
  private static int checks;
  private static final List<String> FAILURES = new ArrayList<>();

  private ExtensionTests() { }

  public static void main(String[] args) throws Exception {
    json();
    schemaAndForm();
    board();
    catalog();
    if (args.length > 0) everyCheckOfTheServer(Path.of(args[0]));
    for (final String f : FAILURES) System.out.println("FAIL " + f);
    System.out.println("ran " + checks + " checks, " + FAILURES.size() + " failed");
    System.exit(FAILURES.isEmpty() ? 0 : 1);
  }

  private static void check(boolean ok, String what) {
    checks++;
    if (!ok) FAILURES.add(what);
  }

  private static void equal(Object expected, Object actual, String what) {
    check(expected == null ? actual == null : expected.equals(actual), what + ": expected " + expected + ", got " + actual);
  }

  private static void refused(Runnable r, String what) {
    try {
      r.run();
      check(false, what + ": accepted");
    }
    catch (IllegalArgumentException expected) {
      check(true, what);
    }
  }

  // ---- JSON -------------------------------------------------------------------------------

  private static void json() {
    final Map<String, Object> m = Json.parseObject(" {\"a\": [1, -2.5, 3e2, true, false, null], \"b\": {\"c\": \"x\\\"y\\\\z\\n\\u00e9\\/\"},"
                                                    + " \"big\": 123456789012345678901234567890, \"zero\": 0, \"neg\": -7} ");
    equal(List.of(1L, -2.5, 300.0, true, false), ((List<?>) m.get("a")).subList(0, 5), "JSON array values and types");
    check(((List<?>) m.get("a")).get(5) == null, "JSON null");
    equal("x\"y\\z\né/", Schema.map(m.get("b")).get("c"), "JSON escapes");
    check(m.get("big") instanceof Double, "an integer too large for a long reads as a double");
    equal(0L, m.get("zero"), "zero");
    equal(-7L, m.get("neg"), "a negative integer");
    equal(List.of("a", "b", "big", "zero", "neg"), new ArrayList<>(m.keySet()), "members keep their order");
    equal("\uD83D\uDE00", Json.parse("\"\\ud83d\\ude00\""), "a surrogate pair");
    for (final String bad : new String[] {"", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "tru", "\"abc", "\"a\u0001\"",
                                          "\"\\x\"", "{\"a\" 1}", "[1] 2", "{a:1}", "'a'", "+1", ".5", "1e", "\"\\u12\""}) {
      refused(() -> Json.parse(bad), "malformed JSON refused: " + bad);
    }
    final StringBuilder deep = new StringBuilder();
    for (int i = 0; i < Json.MAX_DEPTH + 2; i++) deep.append('[');
    refused(() -> Json.parse(deep.toString()), "nesting deeper than the limit refused");
    final Map<String, Object> out = new LinkedHashMap<>();
    out.put("s", "q\"\\\t\u0001é");
    out.put("n", 5L);
    out.put("d", 2.5);
    out.put("l", List.of(1L, "x"));
    out.put("z", null);
    equal("{\"s\":\"q\\\"\\\\\\t\\u0001é\",\"n\":5,\"d\":2.5,\"l\":[1,\"x\"],\"z\":null}", Json.write(out), "JSON written");
    equal(out, Json.parse(Json.write(out)), "written JSON reads back");
    refused(() -> Json.write(Double.NaN), "NaN is not JSON");
  }

  // ---- schema and form ----------------------------------------------------------------------

  /** A request schema shaped like the server's (pydantic output with x-board roles). */
  static final String COMBAT = "{\"$defs\": {"
    + "\"Unit\": {\"type\": \"object\", \"properties\": {"
    + "  \"unit\": {\"type\": \"string\", \"x-board\": \"unit\"}, \"hex\": {\"type\": \"string\", \"x-board\": \"hex\"},"
    + "  \"step\": {\"type\": \"string\", \"default\": \"\", \"x-board\": \"step\"}, \"sp\": {\"type\": \"integer\", \"x-board\": \"sp\"},"
    + "  \"doubled\": {\"type\": \"boolean\", \"default\": false}}, \"required\": [\"unit\"]},"
    + "\"Levels\": {\"type\": \"object\", \"properties\": {\"tank_level\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": 9},"
    + "  \"adjacent_units\": {\"type\": \"integer\"}}, \"required\": [\"tank_level\"]}},"
    + "\"type\": \"object\", \"required\": [\"scenario\", \"attackers\", \"defender\", \"weather\", \"dice\", \"attacking\"],"
    + "\"properties\": {"
    + "\"scenario\": {\"type\": \"string\", \"enum\": [\"pusan\", \"seoul\"], \"x-board\": \"scenario\"},"
    + "\"side\": {\"type\": \"string\", \"x-board\": \"side\"},"
    + "\"turn\": {\"anyOf\": [{\"type\": \"integer\", \"minimum\": 1}, {\"type\": \"null\"}], \"default\": null, \"x-board\": \"turn\"},"
    + "\"attackers\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/Unit\"}, \"x-board\": \"attackers\"},"
    + "\"defender\": {\"$ref\": \"#/$defs/Unit\", \"x-board\": \"defenders\"},"
    + "\"positions\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/Unit\"}, \"x-board\": \"positions\"},"
    + "\"combat_hex\": {\"type\": \"string\", \"x-board\": \"target_hex\"},"
    + "\"weather\": {\"type\": \"string\", \"enum\": [\"clear\", \"mud\"], \"description\": \"The weather.\"},"
    + "\"odds_shift\": {\"type\": \"integer\", \"minimum\": -3, \"maximum\": 3, \"default\": 0},"
    + "\"support\": {\"type\": \"array\", \"items\": {\"type\": \"string\", \"enum\": [\"air\", \"naval\"]}, \"maxItems\": 2},"
    + "\"hq_loc\": {\"anyOf\": [{\"type\": \"boolean\"}, {\"type\": \"null\"}], \"default\": null},"
    + "\"code\": {\"type\": \"string\", \"pattern\": \"^[A-Z]\\\\d{2}$\"},"
    + "\"attacking\": {\"$ref\": \"#/$defs/Levels\"},"
    + "\"extra\": {\"type\": \"array\", \"items\": {\"type\": \"object\"}},"
    + "\"dice\": {\"type\": \"array\", \"items\": {\"type\": \"integer\"}, \"maxItems\": 64}}}";

  private static void schemaAndForm() {
    final Schema s = new Schema(Json.parseObject(COMBAT));
    equal(List.of("scenario", "side", "turn", "attackers", "defenders", "positions", "target_hex"), s.roles(), "roles in order");
    final Map<String, Map<String, Object>> p = s.properties();
    equal("integer", Schema.type(p.get("turn")), "anyOf [integer, null] reads as integer");
    check(Schema.nullable(Json.parseObject("{\"anyOf\": [{\"type\": \"integer\"}, {\"type\": \"null\"}]}")), "nullable");
    equal("defenders", Schema.role(p.get("defender")), "a $ref keeps the referring property's role");
    equal("object", Schema.type(p.get("defender")), "a $ref is followed");

    final Set<String> filled = Set.of("scenario", "side", "turn", "attackers", "defender", "positions", "combat_hex");
    final List<FormFields.Field> game = FormFields.fields(s, filled, Set.of("dice", "request_id"));
    final List<String> names = new ArrayList<>();
    for (final FormFields.Field f : game) names.add(f.name());
    equal(List.of("weather", "odds_shift", "support", "hq_loc", "code", "attacking.tank_level", "attacking.adjacent_units", "extra"),
          names, "fields the player fills (board-filled and dice left out; a small object split)");
    final Map<String, FormFields.Field> f = new LinkedHashMap<>();
    for (final FormFields.Field x : game) f.put(x.name(), x);
    equal(FormFields.Kind.CHOICE, f.get("weather").kind, "an enum is a choice");
    equal("The weather.", f.get("weather").description, "description kept");
    check(f.get("weather").required, "weather required");
    equal(FormFields.Kind.INTEGER, f.get("odds_shift").kind, "integer");
    equal("0", FormFields.initialText(f.get("odds_shift")), "default shown");
    equal(FormFields.Kind.LIST, f.get("support").kind, "a list of choices");
    equal(FormFields.Kind.BOOLEAN, f.get("hq_loc").kind, "a nullable boolean");
    equal(FormFields.Kind.JSON, f.get("extra").kind, "anything else is JSON");
    check(f.get("attacking.tank_level").required && !f.get("attacking.adjacent_units").required, "required inside an object");
    equal(List.of("attacking", "tank_level"), f.get("attacking.tank_level").path, "path of an object member");
    final List<FormFields.Field> compute = FormFields.fields(s, filled, Set.of("request_id"));
    check(compute.stream().anyMatch(x -> x.name().equals("dice") && x.kind == FormFields.Kind.LIST),
          "a calculation asks for the dice");

    equal("mud", FormFields.parse(f.get("weather"), "mud"), "choice read");
    refused(() -> FormFields.parse(f.get("weather"), "snow"), "a value outside the enum");
    refused(() -> FormFields.parse(f.get("weather"), " "), "a required field left empty");
    equal(null, FormFields.parse(f.get("odds_shift"), ""), "an optional field left empty is left out");
    equal(-2L, FormFields.parse(f.get("odds_shift"), "-2"), "integer read");
    refused(() -> FormFields.parse(f.get("odds_shift"), "4"), "above the maximum");
    refused(() -> FormFields.parse(f.get("odds_shift"), "1.5"), "not a whole number");
    equal(List.of("air", "naval"), FormFields.parse(f.get("support"), "air, naval"), "list read");
    refused(() -> FormFields.parse(f.get("support"), "air, naval, air"), "more items than maxItems");
    refused(() -> FormFields.parse(f.get("support"), "air, sub"), "a list item outside the enum");
    equal(true, FormFields.parse(f.get("hq_loc"), "true"), "boolean read");
    equal("P01", FormFields.parse(f.get("code"), "P01"), "pattern met");
    refused(() -> FormFields.parse(f.get("code"), "p1"), "pattern not met");
    equal(List.of(Map.of("a", 1L)), FormFields.parse(f.get("extra"), "[{\"a\": 1}]"), "JSON read");
    refused(() -> FormFields.parse(f.get("extra"), "[{"), "bad JSON");
    final FormFields.Field dice = compute.stream().filter(x -> x.name().equals("dice")).findFirst().get();
    equal(List.of(4L, 6L), FormFields.parse(dice, "4,6"), "dice read");
    try {
      FormFields.parse(f.get("odds_shift"), "9");
    }
    catch (IllegalArgumentException e) {
      check(e.getMessage().startsWith("Odds Shift") || e.getMessage().startsWith("odds shift"), "the error names the field: " + e.getMessage());
    }

    final Map<String, Object> request = new LinkedHashMap<>();
    FormFields.put(request, f.get("attacking.tank_level"), 3L);
    FormFields.put(request, f.get("attacking.adjacent_units"), 1L);
    FormFields.put(request, f.get("weather"), "clear");
    FormFields.put(request, f.get("odds_shift"), null);
    equal("{\"attacking\":{\"tank_level\":3,\"adjacent_units\":1},\"weather\":\"clear\"}", Json.write(request), "values put in place");
  }

  // ---- the board -------------------------------------------------------------------------

  private static void board() {
    final Schema s = new Schema(Json.parseObject(COMBAT));
    final Board.Unit a1 = new Board.Unit("nk-1", "communist", "Main", "0101", "full", null);
    final Board.Unit a2 = new Board.Unit("nk-2", "communist", "Main", "0102", "3", 3);
    final Board.Unit d1 = new Board.Unit("rok-1", "un", "Main", "0201", "depleted", null);
    final Board.Unit d2 = new Board.Unit("rok-2", "un", "Main", "0201", "", null);
    final Board.Unit away = new Board.Unit("us-1", "un", "Boxes", null, "", null);
    final Board.Unit other = new Board.Unit("us-2", "un", "Other map", "0505", "", null);
    final Board b = new Board(List.of(a1, a2, d1, d2, away, other), "pusan", 4, "communist");
    // right-click on rok-2 with nk-1, nk-2 and (wrongly) rok-1 selected
    final Board.Context ctx = new Board.Context(d2, "Main", "0201", List.of(a1, a2, d1));
    final Map<String, Object> filled = b.fill(s, ctx);
    equal(List.of("scenario", "side", "turn", "attackers", "defender", "positions", "combat_hex"), new ArrayList<>(filled.keySet()),
          "every role the board knows is filled");
    equal("pusan", filled.get("scenario"), "scenario");
    equal(4L, filled.get("turn"), "turn");
    equal("communist", filled.get("side"), "side");
    equal("0201", filled.get("combat_hex"), "the context hex");
    equal("[{\"unit\":\"nk-1\",\"hex\":\"0101\",\"step\":\"full\"},{\"unit\":\"nk-2\",\"hex\":\"0102\",\"step\":\"3\",\"sp\":3}]",
          Json.write(filled.get("attackers")), "attackers: the selected units outside the target hex, member by member");
    equal("{\"unit\":\"rok-2\",\"hex\":\"0201\",\"step\":\"\"}", Json.write(filled.get("defender")),
          "a one-unit defender: the unit clicked");
    equal(List.of("nk-1", "nk-2", "rok-1", "rok-2"), ids(filled.get("positions")), "positions: every unit on a hex of the map in play");
    equal(List.of("rok-2", "rok-1"), ids(new Board(b.units, null, null, null).defenders(ctx)), "defenders: the clicked unit first");

    final Map<String, Object> none = new Board(List.of(), null, null, null).fill(s, Board.Context.none());
    check(none.isEmpty(), "nothing known, nothing filled: " + none);
    final Schema unitCheck = new Schema(Json.parseObject("{\"type\": \"object\", \"properties\": {"
      + "\"unit\": {\"type\": \"string\", \"x-board\": \"unit\"}, \"hex\": {\"type\": \"string\", \"x-board\": \"hex\"},"
      + "\"ids\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"x-board\": \"positions\"}}}"));
    equal("{\"unit\":\"rok-2\",\"hex\":\"0201\",\"ids\":[\"nk-1\",\"nk-2\",\"rok-1\",\"rok-2\"]}", Json.write(b.fill(unitCheck, ctx)),
          "top-level unit roles and a list of ids");
    equal(List.of("nk-1", "nk-2", "rok-1", "rok-2"),
          b.fill(unitCheck, Board.Context.none()).get("ids"), "without a context, the map holding most units");
  }

  private static List<Object> ids(Object units) {
    final List<Object> out = new ArrayList<>();
    for (final Object u : Schema.list(units)) out.add(u instanceof Board.Unit ? ((Board.Unit) u).id : Schema.map(u).get("unit"));
    return out;
  }

  private static List<Object> ids(List<Board.Unit> units) {
    final List<Object> out = new ArrayList<>();
    for (final Board.Unit u : units) out.add(u.id);
    return out;
  }

  // ---- the catalog and the right-click entries -------------------------------------------------

  private static void catalog() {
    final String systems = "{\"systems\": [{\"id\": \"kwb\", \"name\": \"Korean War Battles\", \"sides\": [\"communist\", \"un\"],"
      + "\"scenarios\": [{\"id\": \"pusan\", \"name\": \"Pusan Perimeter\"}], \"checks\": ["
      + check("combat", "{\"a\": {\"x-board\": \"attackers\"}, \"d\": {\"x-board\": \"defenders\"}, \"p\": {\"x-board\": \"positions\"}, \"s\": {\"x-board\": \"side\"}}") + ","
      + check("supply", "{\"p\": {\"x-board\": \"positions\"}, \"s\": {\"x-board\": \"side\"}}") + ","
      + check("bombardment", "{\"d\": {\"x-board\": \"defenders\"}, \"p\": {\"x-board\": \"positions\"}, \"s\": {\"x-board\": \"side\"}}") + ","
      + check("division_breakdown", "{\"u\": {\"x-board\": \"unit\"}}") + ","
      + check("victory", "{\"sc\": {\"x-board\": \"scenario\"}}") + "]}]}";
    final Catalog c = Catalog.of(Json.parseObject(systems), "kwb");
    equal("Korean War Battles", c.name, "system name");
    equal(List.of("communist", "un"), c.sides, "sides");
    equal(Map.of("pusan", "Pusan Perimeter"), c.scenarios, "scenarios");
    equal(5, c.checks.size(), "checks");
    equal("the attacking side (7.0)", c.check("combat").actor, "who acts, as the server declares it");
    equal(Catalog.Kind.ATTACK, c.check("combat").kind(), "attackers + defenders: an attack, though it has positions and side too");
    equal(Catalog.Kind.SIDE_REPORT, c.check("supply").kind(), "positions + side: a side report");
    equal(Catalog.Kind.HEX, c.check("bombardment").kind(), "defenders without attackers: the hex");
    equal(Catalog.Kind.UNIT, c.check("division_breakdown").kind(), "unit");
    equal(Catalog.Kind.OTHER, c.check("victory").kind(), "nothing to point at");
    final Board.Unit u = new Board.Unit("rok-1", "un", "Main", "0201", "", null);
    final List<String> labels = new ArrayList<>();
    for (final Catalog.Entry e : c.entries(new Board.Context(u, "Main", "0201", List.of()))) labels.add(e.label);
    equal(List.of("Attack this hex with the selected units", "Supply of this side", "Bombardment in this hex", "Division breakdown for this unit"),
          labels, "right-click entries of a unit on a hex");
    final List<String> boxed = new ArrayList<>();
    for (final Catalog.Entry e : c.entries(new Board.Context(u, "Boxes", null, List.of()))) boxed.add(e.label);
    equal(List.of("Supply of this side", "Division breakdown for this unit"), boxed, "a unit off the hexes: no hex entries");
    check(c.entries(Board.Context.none()).isEmpty(), "no unit, no entries");
    refused(() -> Catalog.of(Json.parseObject(systems), "spi"), "a game the server does not know");
  }

  private static String check(String name, String properties) {
    return "{\"name\": \"" + name + "\", \"summary\": \"s\", \"rule\": \"1.0\", \"random\": true, \"request_schema\": "
      + "{\"type\": \"object\", \"properties\": " + properties + "}, "
      + "\"actor\": {\"description\": \"the attacking side\", \"rule\": \"7.0\", \"field\": null}}";
  }

  // ---- every check the server describes ------------------------------------------------------

  /** Every check of every game gives a form: its fields read, and each required one is the board's or the player's. */
  private static void everyCheckOfTheServer(Path systemsFile) throws Exception {
    final Map<String, Object> systems = Json.parseObject(Files.readString(systemsFile, StandardCharsets.UTF_8));
    int seen = 0;
    for (final Object o : Schema.list(systems.get("systems"))) {
      final Catalog c = Catalog.of(systems, String.valueOf(Schema.map(o).get("id")));
      for (final Catalog.Check check : c.checks) {
        seen++;
        final Set<String> board = new HashSet<>();
        for (final Map.Entry<String, Map<String, Object>> p : check.schema.properties().entrySet()) {
          if (Schema.role(p.getValue()) != null) board.add(p.getKey());
        }
        final List<FormFields.Field> fields = FormFields.fields(check.schema, board, Set.of("request_id"));
        final Set<String> offered = new HashSet<>(board);
        for (final FormFields.Field f : fields) {
          offered.add(f.path.get(0));
          try {
            FormFields.parse(f, FormFields.initialText(f));
          }
          catch (IllegalArgumentException e) {
            check(f.required && f.defaultValue == null, c.system + "." + check.name + ": the default of " + f.name() + " does not read: " + e.getMessage());
          }
        }
        for (final String required : check.schema.required(check.schema.root())) {
          check(offered.contains(required), c.system + "." + check.name + ": required " + required + " is neither the board's nor in the form");
        }
      }
    }
    check(seen > 0, "the server described checks");
  }
}
