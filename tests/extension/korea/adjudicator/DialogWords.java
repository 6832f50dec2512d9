package korea.adjudicator;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every text the extension's dialogs show a player for a check's answer, with no board loaded
 * (issue 51: what a VASSAL player reads is held to players' words). Run by
 * tests/test_players_words_vassal.py with the real engine on the class path:
 * {@code java korea.adjudicator.DialogWords systems.json cases.json out.json}; writes a JSON array of
 * {@code {"example", "dialog", "text"}}.
 *
 * <p>A case is {@code {"example": <the test's id>, "system", "check", "answer": <the check's answer
 * with ?transcript=1&changes=1, or {} for refusals alone>, "viewers": [side ids, null: no side],
 * "side_names": {side id: the roster's name}, "request": <the request asked>, "refusals":
 * [<problem+json answers>]}}. With no board, every unit is "not on the board":
 * the plan's words for such a unit are what the apply dialog lists for it. The form's summary
 * ("From the board:") is of the members the board fills that are no units (a scenario, a side, a
 * turn, a hex, a track's cell): the form names a unit by its piece, which needs a board.
 */
public final class DialogWords {
  private final List<Object> out = new ArrayList<>();
  private String example;

  private DialogWords() { }

  public static void main(String[] args) throws Exception {
    final Map<String, Object> systems = Json.parseObject(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
    final DialogWords words = new DialogWords();
    for (final Object item : Schema.list(Json.parse(Files.readString(Path.of(args[1]), StandardCharsets.UTF_8)))) {
      final Map<String, Object> c = Schema.map(item);
      words.example = String.valueOf(c.get("example"));
      final Map<String, String> sideNames = new LinkedHashMap<>();
      for (final Map.Entry<String, Object> e : Schema.map(c.get("side_names")).entrySet()) {
        sideNames.put(e.getKey(), String.valueOf(e.getValue()));
      }
      final Catalog catalog = Catalog.of(systems, String.valueOf(c.get("system"))).withSideNames(sideNames);
      final Catalog.Check check = catalog.check(String.valueOf(c.get("check")));
      final Map<String, Object> answer = Schema.map(c.get("answer"));
      if (!answer.isEmpty()) words.ruling(Ruling.of(answer), Schema.list(c.get("viewers")), sideNames);
      words.form(check, Schema.map(c.get("request")), Schema.list(c.get("refusals")));
    }
    Files.writeString(Path.of(args[2]), Json.write(words.out), StandardCharsets.UTF_8);  // the engine's logging has stdout
  }

  private void shows(String dialog, String text) {
    final Map<String, Object> row = new LinkedHashMap<>();
    row.put("example", example);
    row.put("dialog", dialog);
    row.put("text", text);
    out.add(row);
  }

  /** The ruling window, the notices dialog, the private lines, and the apply dialog as each viewer reads it. */
  private void ruling(Ruling ruling, List<Object> viewers, Map<String, String> sideNames) {
    shows("the ruling window", RulingWindow.title(ruling) + "\n" + String.join("\n", RulingWindow.lines(ruling)));
    if (!ruling.notices.isEmpty()) shows("the notices dialog", String.join("\n", ruling.notices));
    for (final String line : Asking.privately(ruling)) shows("the ruling as the side sees it", line);
    if (!ruling.standIns.isEmpty()) shows("the stand-ins line", String.join("; ", ruling.standIns));
    for (final Object viewer : viewers) {
      final String side = viewer instanceof String ? (String) viewer : null;
      final String as = side == null ? "no side" : "the " + sideNames.getOrDefault(side, side) + " player";
      for (final BoardChanges.Planned p : BoardChanges.plan(ruling.changes, side, s -> sideNames.getOrDefault(s, s))) {
        shows("the apply dialog, as " + as, Asking.line(p));
        if (p.owners()) {
          shows("the owners' chat line, as " + as, Asking.ownersSaid(List.of(Asking.ownersLine(p))) + " in his next file");
        }
      }
    }
  }

  /** The form's summary of the request's members that name no unit, and each refusal as the form shows it. */
  private void form(Catalog.Check check, Map<String, Object> request, List<Object> refusals) {
    final Map<String, Object> unitless = new LinkedHashMap<>();
    final Map<String, Map<String, Object>> properties = check.schema.properties();
    for (final Map.Entry<String, Object> e : request.entrySet()) {
      final String role = properties.containsKey(e.getKey()) ? Schema.role(properties.get(e.getKey())) : null;
      // the board fills no null: a member the request leaves null is none of the summary's
      if (role != null && !UNIT_ROLES.contains(role) && e.getValue() != null && !namesUnits(e.getValue())) {
        unitless.put(e.getKey(), e.getValue());
      }
    }
    if (!unitless.isEmpty()) shows("the form's summary", FormText.summary(check, unitless));
    final Map<String, String> labels = FormText.labels(check.schema);
    for (final Object o : refusals) {
      final Map<String, Object> problem = Schema.map(o);
      final List<String> general = new ArrayList<>();
      for (final Object e : Schema.list(problem.get("errors"))) general.add(Words.errorWords(Schema.map(e), labels));
      shows("the form's refusal", Words.generalWords(String.valueOf(problem.getOrDefault("detail", "")), List.of(), labels));
      for (final String words : general) shows("the form's refusal of a field", words);
    }
  }

  /** The board's roles whose values are units: the form names each by its piece (a board is needed). */
  private static final java.util.Set<String> UNIT_ROLES = java.util.Set.of("positions", "attackers", "defenders", "unit",
                                                                           "counters_not_in_play");

  private static boolean namesUnits(Object value) {
    if (value instanceof Map) return true;
    if (value instanceof List) {
      for (final Object o : (List<?>) value) {
        if (o instanceof Map) return true;
      }
    }
    return false;
  }
}
