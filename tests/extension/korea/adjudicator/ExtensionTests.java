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
    tracks();
    firstTurn();
    playedGame();
    ruling();
    askedBefore();
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
    for (final FormFields.Field f : game) names.add(f.dotted());
    equal(List.of("weather", "odds_shift", "support", "hq_loc", "code", "attacking", "extra"),
          names, "fields the player fills (board-filled and dice left out)");
    final Map<String, FormFields.Field> f = new LinkedHashMap<>();
    for (final FormFields.Field x : game) f.put(x.dotted(), x);
    equal(FormFields.Kind.CHOICE, f.get("weather").kind, "an enum is a choice");
    equal("The weather.", f.get("weather").description, "description kept");
    check(f.get("weather").required, "weather required");
    equal(FormFields.Kind.INTEGER, f.get("odds_shift").kind, "integer");
    equal("0", FormFields.initialText(f.get("odds_shift")), "default shown");
    equal(FormFields.Kind.LIST, f.get("support").kind, "a list of choices");
    equal(FormFields.Kind.BOOLEAN, f.get("hq_loc").kind, "a nullable boolean");
    equal(FormFields.Kind.OBJECT, f.get("attacking").kind, "an object is a group of its own fields");
    equal(List.of("attacking.tank_level", "attacking.adjacent_units"), dotted(f.get("attacking").members), "the group's fields");
    check(f.get("attacking").members.get(0).required && !f.get("attacking").members.get(1).required, "required inside an object");
    equal(FormFields.Kind.JSON, f.get("extra").kind, "a list of objects without members is JSON");
    final List<FormFields.Field> compute = FormFields.fields(s, filled, Set.of("request_id"));
    check(compute.stream().anyMatch(x -> x.dotted().equals("dice") && x.kind == FormFields.Kind.LIST), "a calculation asks for the dice");

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
    final FormFields.Field dice = compute.stream().filter(x -> x.dotted().equals("dice")).findFirst().get();
    equal(List.of(4L, 6L), FormFields.parse(dice, "4,6"), "dice read");
    try {
      FormFields.parse(f.get("odds_shift"), "9");
    }
    catch (IllegalArgumentException e) {
      check(e.getMessage().startsWith("Odds shift"), "the error names the field: " + e.getMessage());
    }

    // what was entered, by pointer, read into the request: groups, rows, problems by place
    final Map<String, String> typed = new LinkedHashMap<>();
    typed.put("/weather", "clear");
    typed.put("/attacking/tank_level", "3");
    typed.put("/attacking/adjacent_units", "1");
    typed.put("/extra", "[{\"x\": 1}]");
    final Map<String, Integer> rows = Map.of();
    final Map<String, Object> request = FormFields.read(game, entered(typed, rows));
    equal("{\"weather\":\"clear\",\"attacking\":{\"tank_level\":3,\"adjacent_units\":1},\"extra\":[{\"x\":1}]}", Json.write(request),
          "the request built from the entries (an optional group left empty is left out)");
    typed.put("/attacking/tank_level", "99");
    typed.put("/weather", "");
    typed.put("/code", "x");
    try {
      FormFields.read(game, entered(typed, rows));
      check(false, "wrong entries refused");
    }
    catch (FormFields.Problems wrong) {
      equal(List.of("/weather", "/code", "/attacking/tank_level"), new ArrayList<>(wrong.byPointer.keySet()), "every wrong entry by its place");
      equal("Tank level must be at most 9", wrong.byPointer.get("/attacking/tank_level"), "in words, with the field's label");
    }

    // the board's units whose other members the player sets: a fixed row each
    final Schema spi = new Schema(Json.parseObject("{\"$defs\": {\"Attacker\": {\"type\": \"object\", \"properties\": {"
      + "\"unit\": {\"type\": \"string\", \"x-board\": \"unit\"}, \"hex\": {\"type\": \"string\", \"x-board\": \"hex\"},"
      + "\"in_supply\": {\"type\": \"boolean\", \"default\": true}, \"supply_unit\": {\"type\": \"string\", \"default\": \"\"}},"
      + " \"required\": [\"unit\", \"hex\"]}}, \"type\": \"object\", \"properties\": {"
      + "\"attackers\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/Attacker\"}, \"x-board\": \"attackers\"},"
      + "\"positions\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {\"unit\": {\"type\": \"string\", \"x-board\": \"unit\"}}},"
      + " \"x-board\": \"positions\"}}}"));
    final Map<String, Object> board = new LinkedHashMap<>();
    board.put("attackers", Json.parse("[{\"unit\": \"nk-d1\", \"hex\": \"1818\"}, {\"unit\": \"nk-d2\", \"hex\": \"1817\"}]"));
    board.put("positions", Json.parse("[{\"unit\": \"nk-d1\"}]"));
    final List<FormFields.Field> units = FormFields.boardFields(spi, board);
    equal(List.of("attackers"), dotted(units), "the attackers' other members are the player's; positions are no rows");
    equal(List.of("in_supply", "supply_unit"), dotted(units.get(0).members), "only the members no board role fills");
    final Map<String, Object> merged = FormFields.read(units, entered(Map.of("/attackers/0/in_supply", "true",
      "/attackers/0/supply_unit", "nk-sup-1", "/attackers/1/in_supply", "false"), Map.of()));
    equal("{\"attackers\":[{\"unit\":\"nk-d1\",\"hex\":\"1818\",\"in_supply\":true,\"supply_unit\":\"nk-sup-1\"},"
          + "{\"unit\":\"nk-d2\",\"hex\":\"1817\",\"in_supply\":false}]}", Json.write(merged),
          "each board unit keeps what the board read, with what the player set");
    units.get(0).fixed.remove(0);  // the player removes the first attacker from the form (CheckForm's Remove)
    equal("{\"attackers\":[{\"unit\":\"nk-d2\",\"hex\":\"1817\",\"in_supply\":false}]}",
          Json.write(FormFields.read(units, entered(Map.of("/attackers/0/in_supply", "false"), Map.of()))),
          "a unit the board took and the player removed is not asked about");
    final Schema bare = new Schema(Json.parseObject("{\"type\": \"object\", \"properties\": {\"attackers\": {\"type\": \"array\","
      + " \"items\": {\"type\": \"object\", \"properties\": {\"unit\": {\"type\": \"string\", \"x-board\": \"unit\"}}},"
      + " \"minItems\": 1, \"x-board\": \"attackers\"}}}"));
    final List<FormFields.Field> taken = FormFields.boardFields(bare, Map.of("attackers", Json.parse("[{\"unit\": \"nk-1\"}, {\"unit\": \"nk-2\"}]")));
    equal(List.of("attackers"), dotted(taken), "attackers with nothing more to set are rows too, so one can be removed");
    taken.get(0).fixed.remove(1);
    equal("{\"attackers\":[{\"unit\":\"nk-1\"}]}", Json.write(FormFields.read(taken, entered(Map.of(), Map.of()))), "one left");

    // a list of objects: a row each
    final Schema listed = new Schema(Json.parseObject("{\"$defs\": {\"AirUse\": {\"type\": \"object\", \"properties\": {"
      + "\"unit\": {\"type\": \"string\"}, \"rating\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 9}},"
      + " \"required\": [\"unit\", \"rating\"]}}, \"type\": \"object\", \"properties\": {\"air_used\": {\"anyOf\": [{\"type\": \"array\","
      + " \"items\": {\"$ref\": \"#/$defs/AirUse\"}, \"maxItems\": 2}, {\"type\": \"null\"}], \"default\": null},"
      + " \"support_left\": {\"type\": \"object\", \"additionalProperties\": {\"type\": \"integer\"},"
      + " \"propertyNames\": {\"enum\": [\"air\", \"naval\"]}}}}"));
    final List<FormFields.Field> rowFields = FormFields.fields(listed, Set.of(), Set.of());
    equal(FormFields.Kind.ROWS, rowFields.get(0).kind, "a list of objects is rows");
    equal(List.of("unit", "rating"), dotted(rowFields.get(0).members), "a row's fields");
    equal(FormFields.Kind.MAP, rowFields.get(1).kind, "a count per key is key and value rows");
    equal(List.of("air", "naval"), rowFields.get(1).choices, "its keys");
    final Map<String, String> rowTyped = new LinkedHashMap<>(Map.of("/air_used/0/unit", "b-29", "/air_used/0/rating", "4",
      "/air_used/1/unit", "f-80", "/air_used/1/rating", "12", "/support_left/0/key", "air", "/support_left/0/value", "2"));
    try {
      FormFields.read(rowFields, entered(rowTyped, Map.of("/air_used", 2, "/support_left", 1)));
      check(false, "a wrong entry in a row refused");
    }
    catch (FormFields.Problems wrong) {
      equal(List.of("/air_used/1/rating"), new ArrayList<>(wrong.byPointer.keySet()), "the wrong entry of the second row, by its place");
    }
    rowTyped.put("/air_used/1/rating", "2");
    equal("{\"air_used\":[{\"unit\":\"b-29\",\"rating\":4},{\"unit\":\"f-80\",\"rating\":2}],\"support_left\":{\"air\":2}}",
          Json.write(FormFields.read(rowFields, entered(rowTyped, Map.of("/air_used", 2, "/support_left", 1)))), "rows and a map read");
    equal("{}", Json.write(FormFields.read(rowFields, entered(Map.of(), Map.of()))), "optional rows left empty are left out");

    // labels: the schema's own title, else the name in words; pydantic's automatic titles and class names are no titles
    final Schema titled = new Schema(Json.parseObject("{\"$defs\": {\"SideCombatModel\": {\"title\": \"SideCombatModel\", \"type\": \"object\","
      + " \"properties\": {\"tank_level\": {\"type\": \"integer\", \"title\": \"Tank Level\"}}}}, \"type\": \"object\", \"properties\": {"
      + "\"attacking\": {\"$ref\": \"#/$defs/SideCombatModel\"}, \"defending\": {\"$ref\": \"#/$defs/SideCombatModel\"},"
      + "\"attacker_hq_loc\": {\"type\": \"boolean\", \"title\": \"Attacker Hq Loc\"},"
      + "\"center_leg_zoc\": {\"type\": \"boolean\", \"title\": \"Supply centre's leg may cross enemy ZOC\"},"
      + "\"table\": {\"type\": \"string\", \"enum\": [\"meeting\", \"position\"], \"description\": \"The defender's choice of table.\"}},"
      + "\"required\": [\"attacking\", \"defending\", \"table\"]}"));
    final List<FormFields.Field> labelled = FormFields.fields(titled, Set.of(), Set.of());
    final List<String> labels = new ArrayList<>();
    for (final FormFields.Field x : labelled) labels.add(x.label);
    equal(List.of("Attacking", "Defending", "Attacker HQ LOC", "Supply centre's leg may cross enemy ZOC", "Table"), labels,
          "labels: a title a person gave, else the name in words");
    equal("Tank level", labelled.get(0).members.get(0).label, "a member's automatic title is its name in words");
    equal("defender", labelled.get(4).chooser, "a value the defender chooses is named so");
    equal("", labelled.get(2).chooser, "one the asking player chooses is not");
    equal("is required", Words.playersWords("Field required"), "pydantic's words made plain");
    equal("the attacker must be adjacent", Words.playersWords("Value error, the attacker must be adjacent"), "a rule's refusal");
    equal("must be less than or equal to 6", Words.playersWords("Input should be less than or equal to 6"), "a bound");
    equal(". Allowed: P01, P02", Words.allowedWords(List.of("P01", "P02")), "the values a refusal allows");
    check(Words.allowedWords(new ArrayList<>(java.util.Collections.nCopies(20, "x"))).endsWith(" and 8 more"), "a long list counted");
    equal("", Words.allowedWords(List.of()), "none");
    final String owned = "ROK 1st Division (2)(UN (ROK, US and UN) block)";
    equal("ROK 1st Division (2)", owned.substring(0, Unseen.maskAt(owned)), "a hidden block's own name: the mask's name after it cut");
    equal("UN (ROK, US and UN) block", owned.substring(Unseen.maskAt(owned) + 1, owned.length() - 1), "the mask's name, brackets and all");
    equal(-1, Unseen.maskAt("ROK 1st Division"), "no bracket group at the end: no mask");
    final String dead = "NK 6 was eliminated by record #1: an eliminated unit cannot attack or defend. If a later ruling brought it "
      + "back, name that ruling in restored_by (its record number); else leave the unit out. Nothing was recorded.";
    equal("NK 6 was eliminated by record #1: an eliminated unit cannot attack or defend. " + Words.NOT_ON_FORMS.get("restored_by")
          + ". Nothing was recorded.", Words.formWords(dead, Map.of("attackers", "Attackers")),
          "a sentence asking for a field no form has: what the player can do instead");
    equal("\u201cCombat declared\u201d needs a chit; some field too", Words.formWords("combat_type needs a chit; some_field too",
          Map.of("combat_type", "Combat declared")), "a member's name as the form labels it, another in words");
    equal("Non Korean Un Combat North Of 38Th Turn", Words.automaticTitle("non_korean_un_combat_north_of_38th_turn"),
          "pydantic's automatic title, as Python's str.title() writes it (no label)");
    equal("Non Korean UN combat north of 38th turn", Words.label(Json.parseObject(
      "{\"title\": \"Non Korean Un Combat North Of 38Th Turn\"}"), "non_korean_un_combat_north_of_38th_turn"), "so it is not shown");
    equal("MacArthur commands", Words.humanize("macarthur_commands"), "a name in the rulebook's spelling");
    equal("VPs spent", Words.humanize("vps_spent"), "VPs, not VPS");
  }

  private static FormFields.Entered entered(Map<String, String> typed, Map<String, Integer> rows) {
    return new FormFields.Entered() {
      @Override
      public String text(String pointer) {
        return typed.getOrDefault(pointer, "");
      }

      @Override
      public int rows(String pointer) {
        return rows.getOrDefault(pointer, 0);
      }
    };
  }

  private static List<String> dotted(List<FormFields.Field> fields) {
    final List<String> out = new ArrayList<>();
    for (final FormFields.Field f : fields) out.add(f.dotted());
    return out;
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
    equal(List.of("rok-2", "rok-1"), ids(new Board(b.units(), null, null, null).defenders(ctx)), "defenders: the clicked unit first");

    // by side: a UN unit selected with the Communist's attackers, and his own unit in the hex attacked, are no part of the combat
    final Board.Unit stray = new Board.Unit("us-3", "un", "Main", "0103", "", null);
    final Board.Unit own = new Board.Unit("nk-3", "communist", "Main", "0201", "", null);
    final Board bySide = new Board(List.of(a1, a2, d1, d2, stray, own), "pusan", 4, "communist");
    final Map<String, Object> mixed = bySide.fill(s, new Board.Context(d2, "Main", "0201", List.of(stray, a1, a2)));
    equal(List.of("nk-1", "nk-2"), ids(mixed.get("attackers")), "attackers: the asking side's own units only");
    final Board.Context attacked = new Board.Context(d2, "Main", "0201", List.of(stray, a1));
    equal(List.of("rok-2", "rok-1"), ids(Board.ofSide(bySide.defenders(attacked), bySide.attackingSide(attacked), false)),
          "defenders: the enemy's units in the hex, the clicked one first");
    final Board unAsks = new Board(List.of(a1, a2, d1, d2), "pusan", 4, "un");  // the defender asks both sides' support
    equal(List.of("nk-1", "nk-2"), ids(unAsks.fill(s, new Board.Context(d2, "Main", "0201", List.of(a1, a2))).get("attackers")),
          "a defender asking names the attacker's selected units");
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

  // ---- values the board shows on its tracks --------------------------------------------------

  private static void tracks() {
    final Schema s = new Schema(Json.parseObject("{\"type\": \"object\", \"properties\": {"
      + "\"weather\": {\"type\": \"string\", \"enum\": [\"clear\", \"overcast\", \"snow\"], \"x-board\": \"track:weather\"},"
      + "\"communist_armor_level\": {\"type\": \"integer\", \"default\": 2, \"x-board\": \"track:support-communist-armor\"},"
      + "\"un_vp\": {\"type\": \"integer\", \"x-board\": \"track:vp:vp-un\"}}}"));
    final List<Board.TrackMark> marks = List.of(new Board.TrackMark("weather", "weather", "Snow"),
      new Board.TrackMark("support-communist-armor", "support-communist-armor", "1"),
      new Board.TrackMark("vp-un", "vp", "14"), new Board.TrackMark("vp-com", "vp", "3"));
    final Map<String, Object> filled = new Board(List.of(), "campaign", 3, "un", marks).fill(s, Board.Context.none());
    equal("snow", filled.get("weather"), "the Weather marker's cell is the weather (the enum's own spelling)");
    equal(1L, filled.get("communist_armor_level"), "a track's number");
    equal(14L, filled.get("un_vp"), "one marker of a track that holds several");
    final Map<String, Object> bare = new Board(List.of(), "campaign", 3, "un", List.of()).fill(s, Board.Context.none());
    check(!bare.containsKey("weather"), "no marker on the track: the form asks (never a silent default)");
  }

  // ---- a first turn: the month of the turn, the counters not in play, a losing unit's own check ---------

  private static void firstTurn() {
    final Catalog c = Catalog.of(Json.parseObject("{\"systems\": [{\"id\": \"fireandice\", \"name\": \"Fire and Ice\", "
      + "\"sides\": [\"un\", \"communist\"], \"scenarios\": [{\"id\": \"invasion\", \"name\": \"Invasion\", "
      + "\"months\": {\"1\": \"1950-06\", \"2\": \"1950-07\"}}], \"checks\": ["
      + check("combat_losses", "{\"s\": {\"x-board\": \"side\"}, \"u\": {\"x-board\": \"unit\"}, \"p\": {\"x-board\": \"positions\"}}")
      + "]}]}"), "fireandice");
    equal("1950-07", c.month("invasion", 2), "the month of a turn, as the server's scenario gives it");
    check(c.month("invasion", 9) == null && c.month(null, 1) == null, "no month for a turn the scenario does not give");
    equal(Catalog.Kind.UNIT, c.check("combat_losses").kind(), "a check naming the unit pointed at, though it reads every position");
    final Schema s = new Schema(Json.parseObject("{\"type\": \"object\", \"properties\": {"
      + "\"month\": {\"type\": \"string\", \"x-board\": \"month\"},"
      + "\"spares\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"x-board\": \"counters_not_in_play\"}}}"));
    final Board.Unit spare = new Board.Unit("rok-r7", "un", "Boxes", null, "", null, Board.Kind.UNKNOWN, "UN counters not in play");
    final Board.Unit dead = new Board.Unit("rok-r2", "un", "Boxes", null, "", null, Board.Kind.UNKNOWN, "UN units removed from play");
    final Board.Unit onMap = new Board.Unit("rok-d6", "un", "Main", "1706", "", null);
    final Board b = new Board(() -> List.of(spare, dead, onMap), "invasion", 2, "1950-07", "un", List::of)
      .withAsideBoxes(Set.of("UN counters not in play"));
    final Map<String, Object> filled = b.fill(s, Board.Context.none());
    equal("1950-07", filled.get("month"), "the month role: the month of the turn the tracker shows");
    equal(List.of("rok-r7"), filled.get("spares"), "the units lying in a box of counters not in play, not in a dead pile");
    check(!new Board(List.of(spare), null, null, null).fill(s, Board.Context.none()).containsKey("spares"),
          "a module without such boxes leaves the field to the player");
  }

  // ---- what the game says it is -----------------------------------------------------------------

  private static void playedGame() {
    final PlayedGame g = PlayedGame.none().withScenario("pusan").withGameId("g1").withStandIns(List.of("table crt", "map pusan"));
    final String command = g.encode();
    check(command.startsWith(PlayedGame.COMMAND_PREFIX) && !command.contains("\n") && !command.contains("\u001b"),
          "one command line, no ESC: " + command);
    final PlayedGame back = PlayedGame.decode(command);
    equal("pusan", back.scenario, "scenario read back");
    equal("g1", back.gameId, "recorded game read back");
    equal(List.of("map pusan"), back.notStated(List.of("table crt", "map pusan")).isEmpty() ? List.of("map pusan") : List.of("?"),
          "stand-ins stated are known");
    equal(List.of("table x"), back.notStated(List.of("table crt", "table x")), "a new stand-in is not stated yet");
    final PlayedGame later = PlayedGame.decode(PlayedGame.COMMAND_PREFIX + "{\"scenario\": \"seoul\", \"game_id\": \"\", \"session\": {\"log\": 2}}");
    check(later.encode().contains("\"session\":{\"log\":2}"), "members a later version writes are kept: " + later.encode());
    check(PlayedGame.decode("CHAT hello") == null && PlayedGame.decode(PlayedGame.COMMAND_PREFIX + "{") == null, "other commands are not it");
    check(!PlayedGame.none().known() && !PlayedGame.none().recorded(), "a game that says nothing");
    equal("korea.adjudicator.game\t{\"scenario\":\"pusan\",\"game_id\":\"\",\"stand_ins_stated\":[]}",
          PlayedGame.none().withScenario("pusan").encode(), "what the module generator writes into a setup (modgen.extension.game_state_command)");

    // the chain of logs: each log begun continues the session the position was logged in
    final String a = "ab".repeat(16);
    final PlayedGame first = g.withNewSession("s1", a);
    check(first.session.parent == null && first.session.file == 1 && first.chain.isEmpty(), "the first log continues the setup");
    final PlayedGame second = PlayedGame.decode(first.encodeWithPosition()).withNewSession("s2", "cd".repeat(16));
    check("s1".equals(second.session.parent) && second.session.file == 2, "the second continues the first, read from the game's state");
    final PlayedGame third = PlayedGame.decode(second.encodeWithPosition()).withNewSession("s3", "ef".repeat(16));
    equal(List.of("s1", "s2"), third.chain, "the sessions before, oldest first");
    equal("g1", third.gameId, "the recorded game kept");
    equal("[ADJ session s3] log of game g1, file 3, played by un, begun at position " + "ef".repeat(16) + ", after s1 s2",
          LogSessions.line(third.gameId, third.session, third.chain, "un"), "the log's first line (adjudicator.logs.session_line)");
    equal("[ADJ session s1] log of game g1, file 1, begun at position " + a + ", after the setup",
          LogSessions.line(first.gameId, first.session, first.chain, null), "a first log's line, its side not known");
    equal(Map.of("id", "s2", "parent", "s1", "start", "cd".repeat(16), "file", 2L), second.session.toJson(), "a ruling's log_session");
    check(LogSessions.newId().matches("[a-z0-9]{12}") && !LogSessions.newId().equals(LogSessions.newId()), "session ids");

    // live play (issue 44): a change sent to the other players never carries this player's log session
    final String sent = second.withServer("https://adj.example.test").withLive("l1").encode();
    check(!sent.contains("log_session") && !sent.contains("s2"), "a change sent live names no log session: " + sent);
    final PlayedGame received = PlayedGame.decode(sent);
    check(!received.saysPosition && received.session == null, "so the receiver's is left as it was");
    final PlayedGame mineKept = received.withPositionOf(third);
    equal("s3", mineKept.session.id, "the receiver keeps the position's place in his own chain");
    equal("https://adj.example.test", mineKept.server, "the recorded game's server travels with the game");
    equal("l1", mineKept.live, "and the sitting's live session");
    final PlayedGame restored = PlayedGame.decode(third.encodeWithPosition());
    check(restored.saysPosition && "s3".equals(restored.session.id), "a save, a log's start, a synchronisation say the position's");
    check(PlayedGame.decode(PlayedGame.none().encodeWithPosition()).saysPosition
          && PlayedGame.decode(PlayedGame.none().encodeWithPosition()).session == null, "a position never logged says so");
    final PlayedGame live = PlayedGame.none().withGameId("g1").withLive("l1").withNewSession("s9", a);
    equal("l1", live.session.live, "a log begun in a sitting is of its live session");
    equal("l1", live.session.toJson().get("live"), "a ruling's log_session names its live session");
    check(!first.session.toJson().containsKey("live"), "a log kept alone names none");
    equal("[ADJ session s9] log of game g1, file 1, played by un, begun at position " + a + ", live session l1, after the setup",
          LogSessions.line("g1", live.session, live.chain, "un"), "the session line names it (adjudicator.logs.session_line)");
    equal("l1", first.session.withLive("l1").live, "a log begun before the game went live joins its live session");
    check(Server.same("http://a.test/", "HTTP://a.test") && !Server.same("http://a.test", "http://b.test"),
          "the same server, a trailing slash aside");
  }

  /**
   * The chances of a situation the ledger has seen (the API's optional asked_before) warn before
   * the roll, at the form's top (AskedBefore), not in the chances pane; a request the form sent
   * already (a retry after a lost answer) is neither warned of nor held, and OK looks up entries
   * not looked up yet. The modal asked on OK while the warning stands is the engine test's
   * (tests/test_vassal_asked_before.py).
   */
  private static void askedBefore() {
    final String odds = "{\"outcomes\": [{\"label\": \"NE\", \"probability\": 1.0, \"fraction\": \"1/1\"}], \"exact\": true";
    final Map<String, Object> repeated = Json.parseObject(odds + ", \"asked_before\": {\"record\": 3, \"rolled\": true, "
      + "\"headline\": \"Combat: NE\", \"text\": \"This situation was asked as record #3 (Combat: NE); asking again rolls again, "
      + "and both players will see it.\"}}");
    final Map<String, Object> fresh = Json.parseObject(odds + "}");
    check(!FormText.chancesHtml(repeated).contains("asked as record") && FormText.chancesHtml(repeated).contains("NE"),
          "the chances pane leaves the warning to the form's top");
    final List<Map<String, Object>> lookedUp = new ArrayList<>();
    final Map<String, Object> sent = Map.of("attackers", List.of("nk-1"));
    final boolean[] refuse = {false};
    final AskedBefore repeat = new AskedBefore((entered, answer, refused) -> {
      lookedUp.add(entered);
      if (refuse[0]) refused.accept(new Server.Problem(422, "The chances would show what is hidden from you", "hidden"));
      else answer.accept(fresh);
    }, (record, over) -> { }, sent::equals);
    final Map<String, Object> entered = Map.of("attackers", List.of("nk-2"));
    repeat.answered(entered, repeated);
    final String shown = warningText(repeat);
    check(repeat.panel.isVisible() && repeat.record() == 3
          && shown.startsWith("This situation was asked as record #3 (Combat: NE); asking again rolls again, and both players will see it.")
          && shown.contains("Open #3 to read it instead, or press OK to roll again."), "a repeat warned: " + shown);
    final javax.swing.JTextArea area = warningArea(repeat);
    final java.awt.FontMetrics metrics = area.getFontMetrics(area.getFont());
    final int lines = (metrics.stringWidth(area.getText()) + AskedBefore.TEXT_WIDTH - 1) / AskedBefore.TEXT_WIDTH;
    check(lines >= 2 && area.getPreferredSize().width == AskedBefore.TEXT_WIDTH && repeat.panel.getPreferredSize().width < 800
          && area.getPreferredSize().height >= lines * metrics.getHeight(),
          "the warning wraps within its width, every line of it shown: " + area.getPreferredSize() + ", " + lines + " lines of "
          + metrics.getHeight());
    repeat.answered(sent, repeated);
    check(!repeat.panel.isVisible() && repeat.record() == 0, "a retry of the form's own request: no warning");
    repeat.answered(entered, fresh);
    check(!repeat.panel.isVisible(), "a new situation: no warning");
    final List<Boolean> sends = new ArrayList<>();
    repeat.beforeSend(sent, sends::add);
    equal(List.of(true), sends, "a retry is sent as it is");
    equal(List.of(), lookedUp, "a retry is not looked up");
    repeat.beforeSend(entered, sends::add);
    equal(List.of(), lookedUp, "entries the last answer was about are not looked up again");
    final Map<String, Object> changed = Map.of("attackers", List.of("nk-3"));
    repeat.beforeSend(changed, sends::add);
    equal(List.of(changed), lookedUp, "entries changed since the last answer are looked up on OK, once");
    refuse[0] = true;
    repeat.beforeSend(Map.of("attackers", List.of("nk-4")), sends::add);
    equal(List.of(true, true, true, true), sends, "no warning, or no chances (the fog of war): OK sends");
  }

  /** The text the repeat warning shows at the form's top. */
  private static String warningText(AskedBefore repeat) {
    return warningArea(repeat).getText();
  }

  private static javax.swing.JTextArea warningArea(AskedBefore repeat) {
    for (final java.awt.Component c : repeat.panel.getComponents()) {
      if (c instanceof javax.swing.JTextArea) return (javax.swing.JTextArea) c;
    }
    throw new IllegalStateException("no warning text");
  }

  private static void ruling() {
    final Ruling recorded = Ruling.of(Json.parseObject("{\"transcript\": [\"[ADJ g#4] RULING » Combat: rolled 2\", \"[ADJ g#4] dice: d6 2\","
      + " \"[ADJ g#4] receipt: record 4 hash ab\", \"[ADJ g#4] verify: https://x.test/games/g#record-4\"], \"details\": [\"1. a step [7.0]\"], \"seq\": 4}"));
    equal("https://x.test/games/g#record-4", recorded.page(), "a recorded ruling's page: its verify address");
    equal(List.of("1. a step [7.0]"), recorded.details, "the whole ruling, for the ruling window");
    equal("[ADJ g#4]", Ruling.tag(recorded.lines.get(1)), "a line's tag");
    final Ruling noticed = Ruling.of(Json.parseObject("{\"transcript\": [\"[ADJ g#5] RULING » Combat: rolled 2\", "
      + "\"[ADJ g#5] notice: asked again: the same situation as record #4\"], \"seq\": 5}"));
    equal(List.of("notice: asked again: the same situation as record #4"), noticed.notices(), "a ruling's notices");
    equal("<html>#5 (UN): Combat: rolled 2<br>&nbsp;&nbsp;<font color=\"#8d6e00\">notice: asked again: the same situation "
          + "as record #4</font></html>", RulingsWindow.row(noticed, "UN"), "Rulings of this game: a notice under its ruling");
    equal("#4 (UN): Combat: rolled 2", RulingsWindow.row(recorded, "UN"), "a ruling without notices: one line");
    equal("Combat: rolled 2", recorded.headline(), "the headline without its tag and the chat's mark");
    equal(null, Ruling.of(Json.parseObject("{\"transcript\": [\"[ADJ compute] RULING » x\"]}")).page(), "a calculation has no page");
    equal("https://x.test/games/g#record-4", ChatLinks.urlAt("[ADJ g#4] verify: https://x.test/games/g#record-4", 30),
          "an address clicked in the chat");
    equal("https://x.test/a", ChatLinks.urlAt("see https://x.test/a.", 8), "its trailing full stop left out");
    equal(null, ChatLinks.urlAt("[ADJ g#4] verify: https://x.test/games/g#record-4", 3), "a click beside it");
    final Ruling r = Ruling.of(Json.parseObject("{\"transcript\": [\"[ADJ g#1] RULING x\"], \"seq\": 1, \"stand_ins\": [\"table crt\"],"
      + " \"notices\": [{\"kind\": \"eliminated\", \"record\": 3, \"unit\": \"nk-6\", \"text\": \"NK 6 was eliminated by record #3\"}],"
      + " \"notice_texts\": [\"NK 6 was eliminated by record #3\"], \"piece_changes\": [{\"unit\": \"nk-6\", \"eliminated\": true, \"step\": null, \"sp\": null},"
      + " {\"unit\": \"un-2\", \"eliminated\": false, \"step\": null, \"sp\": 2},"
      + " {\"kind\": \"replaced\", \"unit\": \"rok-3\", \"eliminated\": true, \"step\": null, \"sp\": null, \"applied_by\": \"un\","
      + " \"dead_pile\": \"deadpile-un\", \"replaced_by\": \"rok-reg-2\", \"replacements\": [{\"unit\": \"rok-reg-2\", \"step\": \"full\", \"sp\": null}]},"
      + " {\"kind\": \"moved\", \"unit\": \"nk-sc-2\", \"eliminated\": false, \"step\": null, \"sp\": null, \"applied_by\": \"communist\", \"hex\": \"2505\"}]}"));
    equal(List.of("[ADJ g#1] RULING x"), r.lines, "lines");
    equal(List.of("NK 6 was eliminated by record #3"), r.notices, "notices: their words, as the asker may read them");
    check(r.changes.get(0).eliminated && Ruling.ELIMINATED.equals(r.changes.get(0).kind), "an older server's elimination (no kind)");
    check(r.changes.get(1).sp == 2 && Ruling.STEP.equals(r.changes.get(1).kind), "an older server's step (no kind)");
    final Ruling.Change replaced = r.changes.get(2);
    check(Ruling.REPLACED.equals(replaced.kind) && "un".equals(replaced.appliedBy) && replaced.replacements.size() == 1
          && "rok-reg-2".equals(replaced.replacements.get(0).unit) && "full".equals(replaced.replacements.get(0).step), "a replacement");
    check(Ruling.MOVED.equals(r.changes.get(3).kind) && "2505".equals(r.changes.get(3).hex), "a move the rules order");
    check(r.changes.get(0).revealedAs == null, "no placeholder revealed");
    check(r.changes.get(2).actions.isEmpty(), "an older server's change: no actions (nothing looked up here)");
    final Ruling swapped = Ruling.of(Json.parseObject("{\"transcript\": [\"[ADJ g#2] RULING » x\"], \"seq\": 2, \"piece_changes\": "
      + "[{\"kind\": \"replaced\", \"unit\": \"cpa-50\", \"eliminated\": true, \"step\": null, \"sp\": null, \"applied_by\": \"communist\","
      + " \"actions\": [{\"does\": \"eliminate\", \"unit\": \"cpa-50\", \"applied_by\": \"communist\", \"box\": \"replacement-communist\","
      + " \"box_name\": \"Communist replacement pile\", \"command\": \"Eliminate\"},"
      + " {\"does\": \"place\", \"unit\": \"cpa-50-r\", \"applied_by\": \"communist\", \"step\": \"3\", \"beside\": \"cpa-50\"}]},"
      + " {\"kind\": \"marked\", \"unit\": \"nk-2\", \"eliminated\": false, \"step\": null, \"sp\": null, \"applied_by\": \"communist\","
      + " \"actions\": [{\"does\": \"place_marker\", \"unit\": \"nk-2\", \"applied_by\": \"communist\", \"marker\": \"guards-penal\","
      + " \"marker_name\": \"Guards Unit\", \"face\": 1}]},"
      + " {\"kind\": \"retreat\", \"unit\": \"us-24\", \"eliminated\": false, \"step\": null, \"sp\": null, \"applied_by\": \"un\","
      + " \"hexes\": 2, \"actions\": [{\"does\": \"retreat\", \"unit\": \"us-24\", \"applied_by\": \"un\", \"hexes\": 2, \"chosen_by\": \"un\"}]}]}"));
    final List<Ruling.Action> swap = swapped.changes.get(0).actions;
    check(swap.size() == 2 && "Eliminate".equals(swap.get(0).command) && "Communist replacement pile".equals(swap.get(0).boxName)
          && Ruling.Action.PLACE.equals(swap.get(1).does) && "3".equals(swap.get(1).step) && "cpa-50".equals(swap.get(1).beside),
          "a block swap's actions: the step's name the server looked up");
    final Ruling.Action mark = swapped.changes.get(1).actions.get(0);
    check("guards-penal".equals(mark.marker) && mark.face == 1 && mark.step == null && !mark.open(), "a marker to place");
    final Ruling.Action back = swapped.changes.get(2).actions.get(0);
    check(back.open() && back.hexes == 2 && "un".equals(back.chosenBy), "a retreat: an open choice, its owner's");
    final Ruling revealed = Ruling.of(Json.parseObject("{\"transcript\": [\"[ADJ g#3] RULING » x\"], \"seq\": 3, \"piece_changes\": "
      + "[{\"kind\": \"revealed\", \"unit\": \"nk-scratch-7\", \"eliminated\": true, \"step\": null, \"sp\": null, "
      + "\"applied_by\": \"un\", \"revealed_as\": \"nk-scratch-c-1\"}]}"));
    check(Ruling.REVEALED.equals(revealed.changes.get(0).kind) && "nk-scratch-c-1".equals(revealed.changes.get(0).revealedAs),
          "a placeholder revealed as its counter");
    final Ruling older = Ruling.of(Json.parseObject("{\"transcript\": [\"[ADJ g#3] RULING » x\"], \"seq\": 3, \"piece_changes\": "
      + "[{\"unit\": \"nk-scratch-7\", \"eliminated\": true, \"step\": null, \"sp\": null, \"revealed_as\": \"nk-scratch-c-1\"}]}"));
    check(Ruling.REVEALED.equals(older.changes.get(0).kind), "a reveal from a server before kinds");
    refused(() -> Ruling.of(Json.parseObject("{\"seq\": 1}")), "an answer without a transcript");
    equal(List.of(), r.privateLines, "no private lines in a game without hidden units");
    final Ruling fog = Ruling.of(Json.parseObject("{\"transcript\": [\"[ADJ g#2] 1. a UN block in 0920\"],"
      + " \"private_transcript\": [\"[ADJ g#2] 1. ROK 1 in 0920\"], \"seq\": 2}"));
    equal(List.of("[ADJ g#2] 1. ROK 1 in 0920"), fog.privateLines, "the lines as the asking side sees them");
    final List<String> wrapped = Lines.wrap("Adjudicator: " + "word; ".repeat(60));
    check(wrapped.size() > 1 && wrapped.stream().allMatch(l -> l.length() <= Lines.WRAP) && wrapped.get(1).startsWith("… "), "long text wrapped: " + wrapped);
  }

  // ---- the catalog and the right-click entries -------------------------------------------------

  private static void catalog() {
    final String systems = "{\"systems\": [{\"id\": \"kwb\", \"name\": \"Korean War Battles\", \"sides\": [\"communist\", \"un\"],"
      + "\"scenarios\": [{\"id\": \"pusan\", \"name\": \"Pusan Perimeter\"}], \"checks\": ["
      + check("combat", "{\"a\": {\"x-board\": \"attackers\"}, \"d\": {\"x-board\": \"defenders\"}, \"p\": {\"x-board\": \"positions\"}, \"s\": {\"x-board\": \"side\"}}") + ","
      + check("supply", "{\"p\": {\"x-board\": \"positions\"}, \"s\": {\"x-board\": \"side\"}}") + ","
      + check("bombardment", "{\"d\": {\"x-board\": \"defenders\"}, \"p\": {\"x-board\": \"positions\"}, \"s\": {\"x-board\": \"side\"}}") + ","
      + check("division_breakdown", "{\"u\": {\"x-board\": \"unit\"}}") + ","
      + check("victory", "{\"sc\": {\"x-board\": \"scenario\"}}") + ","
      + check("naval_assault", "{\"a\": {\"x-board\": \"attackers\"}, \"t\": {\"x-board\": \"target_hex\"}}",
              "{\"scenarios\": null, \"sides\": [\"un\"], \"owner_of_units\": false, \"units\": null}") + ","
      + check("seoul_cleared", "{\"p\": {\"x-board\": \"positions\"}}",
              "{\"scenarios\": [\"seoul\"], \"sides\": null, \"owner_of_units\": false, \"units\": null}") + "]}]}";
    final Catalog c = Catalog.of(Json.parseObject(systems), "kwb");
    equal("Korean War Battles", c.name, "system name");
    equal(List.of("communist", "un"), c.sides, "sides");
    equal(Map.of("pusan", "Pusan Perimeter"), c.scenarios, "scenarios");
    equal(7, c.checks.size(), "checks");
    equal("the attacking side (7.0)", c.check("combat").actor, "who acts, as the server declares it");
    c.withSideNames(Map.of("communist", "Communist (NKPA)", "un", "UN"));
    equal("Sc: Pusan Perimeter\nS: Communist (NKPA)", FormText.summary(c.check("victory"), new LinkedHashMap<>(Map.of("sc", "pusan")))
          + "\n" + FormText.summary(c.check("supply"), Map.of("s", "communist")), "a form shows a scenario and a side by their names");
    equal(Catalog.Kind.ATTACK, c.check("combat").kind(), "attackers + defenders: an attack, though it has positions and side too");
    equal(Catalog.Kind.SIDE_REPORT, c.check("supply").kind(), "positions + side: a side report");
    equal(Catalog.Kind.HEX, c.check("bombardment").kind(), "defenders without attackers: the hex");
    equal(Catalog.Kind.UNIT, c.check("division_breakdown").kind(), "unit");
    equal(Catalog.Kind.OTHER, c.check("victory").kind(), "nothing to point at");
    final Board.Unit u = new Board.Unit("rok-1", "un", "Main", "0201", "", null, new Board.Kind("infantry", "XX", List.of()));
    final Board.Unit mine = new Board.Unit("nk-6", "communist", "Main", "0101", "", null, new Board.Kind("infantry", "XX", List.of()));
    final Board.Unit regiment = new Board.Unit("nk-83", "communist", "Main", "0102", "", null, new Board.Kind("motorised", "III", List.of()));
    equal(List.of("Attack this hex with the selected units", "Supply of this side", "Bombardment in this hex"),
          labels(c.entries(new Board.Context(u, "Main", "0201", List.of(mine)), "communist", "pusan")),
          "an enemy unit, my units selected: attack, bombard, its side's supply; nothing of one unit (it is not mine); "
          + "no naval assault (the UN's alone)");
    final Board.Unit ours = new Board.Unit("us-1", "un", "Main", "0301", "", null, new Board.Kind("infantry", "XX", List.of()));
    check(labels(c.entries(new Board.Context(mine, "Main", "0101", List.of(ours)), "un", "pusan")).contains(
      "Naval assault: this hex, with the selected units"), "the UN is offered its naval assault");
    final List<Catalog.Entry> none = c.entries(new Board.Context(u, "Main", "0201", List.of()), "communist", "pusan");
    check(!none.get(0).enabled && none.get(0).label.contains("select your attacking units first"),
          "an attack with nothing selected says what is missing: " + none.get(0).label);
    equal(List.of("Supply of this side", "Division breakdown for this unit"),
          labels(c.entries(new Board.Context(mine, "Main", "0101", List.of(mine)), "communist", "pusan")),
          "my own unit: no attack on it, no bombardment of it; what a check of one unit does");
    equal(List.of("Attack this hex with the selected units", "Supply of this side", "Bombardment in this hex"),
          labels(c.entries(new Board.Context(u, "Main", "0201", List.of(mine)), null, "pusan")),
          "no side taken: the selected units' side stands for it");
    equal(List.of("Supply of this side", "Division breakdown for this unit"),
          labels(c.entries(new Board.Context(mine, "Boxes", null, List.of()), "communist", "pusan")), "a unit off the hexes: no hex entries");
    final Catalog filtered = Catalog.of(Json.parseObject(systems.replace("{\"u\": {\"x-board\": \"unit\"}}}, \"applies\": {\"scenarios\": null, "
      + "\"sides\": null, \"owner_of_units\": false, \"units\": null}", "{\"u\": {\"x-board\": \"unit\"}}}, \"applies\": {\"units\": "
      + "{\"types\": [], \"sizes\": [\"XX\"], \"flags\": [], \"nationalities\": [\"nk\", \"rok\", \"prc\"], \"on_map\": true}}")), "kwb");
    final Board.Unit division = new Board.Unit("nk-6", "communist", "Main", "0101", "", null, new Board.Kind("infantry", "XX", List.of(), "nk"));
    final Board.Unit usDivision = new Board.Unit("us-24", "un", "Main", "0101", "", null, new Board.Kind("infantry", "XX", List.of(), "us"));
    equal(List.of("Supply of this side"), labels(filtered.entries(new Board.Context(regiment, "Main", "0102", List.of()), "communist", "pusan")),
          "a check of divisions (applies.units) is not offered on a regiment");
    equal(List.of("Supply of this side", "Division breakdown for this unit"),
          labels(filtered.entries(new Board.Context(division, "Main", "0101", List.of()), "communist", "pusan")), "but on a division");
    equal(List.of("Supply of this side"), labels(filtered.entries(new Board.Context(usDivision, "Main", "0101", List.of()), "un", "pusan")),
          "nor on a division of a nationality it does not take");
    final Board.Unit deadDivision = new Board.Unit("nk-6", "communist", "Boxes", null, "", null, new Board.Kind("infantry", "XX", List.of(), "nk"));
    equal(List.of("Supply of this side"), labels(filtered.entries(new Board.Context(deadDivision, "Boxes", null, List.of()), "communist", "pusan")),
          "nor on one off the map when it takes units on the map");
    // applies.units.steps: the sides a unit must show (Fire and Ice declares a combat with a fresh unit alone)
    final Catalog fresh = Catalog.of(Json.parseObject(systems.replace("{\"u\": {\"x-board\": \"unit\"}}}, \"applies\": {\"scenarios\": null, "
      + "\"sides\": null, \"owner_of_units\": false, \"units\": null}", "{\"u\": {\"x-board\": \"unit\"}}}, \"applies\": {\"units\": "
      + "{\"types\": [], \"sizes\": [], \"flags\": [], \"nationalities\": [], \"on_map\": true, \"steps\": [\"fresh\"]}}")), "kwb");
    final Board.Kind infantry = new Board.Kind("infantry", "XX", List.of(), "nk");
    for (final String[] shown : new String[][] {{"fresh", "yes"}, {"spent", "no"}, {"", "yes"}}) {
      final Board.Unit showing = new Board.Unit("nk-2", "communist", "Main", "0101", shown[0], null, infantry);
      equal("yes".equals(shown[1]), labels(fresh.entries(new Board.Context(showing, "Main", "0101", List.of()), "communist", "pusan"))
            .contains("Division breakdown for this unit"), "a check of fresh units on a unit showing '" + shown[0] + "' (''; not known)");
    }
    check(new Board.Unit("nk-2", "communist", "Main", "0101", "spent", null, Board.Kind.UNKNOWN).fits(Map.of("steps", List.of("fresh"))) == false,
          "a counter that says nothing of its kind still shows its step");
    check(c.entries(Board.Context.none(), "communist", "pusan").isEmpty(), "no unit, no entries");
    final List<String> menu = new ArrayList<>();
    for (final Catalog.Check x : c.offered("pusan", "communist")) menu.add(x.name);
    equal(List.of("combat", "supply", "bombardment", "division_breakdown", "victory"), menu,
          "the toolbar's checks: not another scenario's (Seoul cleared), not the other side's (naval assault)");
    equal(7, c.offered(null, null).size(), "a game that does not say its scenario nor side: every check");
    // a recorded game's checks its ledger does not offer yet (GET /games/{id}: waiting_checks), by the server's word
    final Waiting waiting = new Waiting();
    final ActiveGame game = new ActiveGame("g1", "pusan", "communist", "t", "http://127.0.0.1:9", null);
    waiting.read("g1", Json.parseObject("{\"role\": \"communist\", \"waiting_checks\": {\"bombardment\": \"not before the shells come (1.0)\"}}"));
    waiting.read("g1", Json.parseObject("{\"role\": \"un\", \"waiting_checks\": {}}"));
    check(waiting.waits("g1", "communist") && !waiting.waits("g1", "un") && !waiting.waits("g2", "communist"),
          "a game waits for what its server says to each side, another game for nothing known");
    equal(Set.of("bombardment"), waiting.notYet(game), "the checks not offered yet");
    equal(Set.of(), waiting.notYet(null), "no recorded game: nothing waits");
    menu.clear();
    for (final Catalog.Check x : c.offered("pusan", "communist", waiting.notYet(game))) menu.add(x.name);
    equal(List.of("combat", "supply", "division_breakdown", "victory"), menu, "the toolbar leaves out a check not offered yet");
    equal(List.of("Attack this hex with the selected units", "Supply of this side"),
          labels(c.entries(new Board.Context(u, "Main", "0201", List.of(mine)), "communist", "pusan", waiting.notYet(game))),
          "and so does the right-click");
    waiting.read("g1", Json.parseObject("{\"role\": \"communist\", \"waiting_checks\": {}}"));
    check(!waiting.waits("g1", "communist") && waiting.notYet(game).isEmpty(), "once the ledger holds what it waited for, it is offered");
    waiting.read("g1", Json.parseObject("{\"role\": \"communist\", \"checks\": []}"));
    check(waiting.notYet(game).isEmpty(), "a server without the field: nothing waits");
    refused(() -> Catalog.of(Json.parseObject(systems), "spi"), "a game the server does not know");
  }

  private static List<String> labels(List<Catalog.Entry> entries) {
    final List<String> out = new ArrayList<>();
    for (final Catalog.Entry e : entries) out.add(e.label);
    return out;
  }

  private static String check(String name, String properties) {
    return check(name, properties, "{\"scenarios\": null, \"sides\": null, \"owner_of_units\": false, \"units\": null}");
  }

  private static String check(String name, String properties, String applies) {
    return "{\"name\": \"" + name + "\", \"summary\": \"s\", \"rule\": \"1.0\", \"random\": true, \"request_schema\": "
      + "{\"type\": \"object\", \"properties\": " + properties + "}, \"applies\": " + applies + ", "
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
          checkLabels(c.system + "." + check.name, f);
        }
        everyGroupIsAForm(c.system + "." + check.name, fields);
        for (final String required : check.schema.required(check.schema.root())) {
          check(offered.contains(required), c.system + "." + check.name + ": required " + required + " is neither the board's nor in the form");
        }
      }
    }
    check(seen > 0, "the server described checks");
  }

  /** No label is a class name or pydantic's automatic title. */
  private static void checkLabels(String where, FormFields.Field f) {
    check(!f.label.matches(".*[a-z][A-Z].*") && !f.label.equals(Words.automaticTitle(f.name)) || f.label.equals(Words.humanize(f.name)),
          where + ": label '" + f.label + "' of " + f.dotted() + " is a schema name, not words");
    for (final FormFields.Field m : f.members) checkLabels(where, m);
  }

  /** Every object is a group of its own fields (not a JSON box), to the depth the form draws. */
  private static void everyGroupIsAForm(String where, List<FormFields.Field> fields) {
    for (final FormFields.Field f : fields) {
      if (f.kind == FormFields.Kind.JSON && "object".equals(Schema.type(f.property)) && !Schema.map(f.property.get("properties")).isEmpty()) {
        check(false, where + ": the object " + f.dotted() + " is a JSON box, not a form");
      }
      everyGroupIsAForm(where, f.members);
    }
  }
}
