package korea.adjudicator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Players' words for what the server's schemas and refusals say in programmers' words: a field's
 * label made from its name ("attacker_hq_loc" -> "Attacker HQ LOC", as adjudicator/words/forms.py
 * makes the pages' labels), and a validation problem as a sentence. No Swing here, so
 * ExtensionTests can hold the wording.
 */
final class Words {
  private Words() {
  }

  /** Words written in capitals in labels made from names (adjudicator/words/forms.py ACRONYMS). */
  static final Set<String> ACRONYMS = Set.of("un", "vp", "vps", "hq", "hqs", "rp", "sp", "roc", "prc", "nk", "rok", "loc",
                                             "zoc", "mp", "crt", "id", "ids", "pbem", "snafu", "d6", "d10");

  /** Words a label made from a name spells as the rulebooks do (adjudicator/words/forms.py SPELLED). */
  static final Map<String, String> SPELLED = Map.ofEntries(
    Map.entry("vps", "VPs"), Map.entry("hqs", "HQs"), Map.entry("macarthur", "MacArthur"), Map.entry("korea", "Korea"),
    Map.entry("korean", "Korean"), Map.entry("china", "China"), Map.entry("chinese", "Chinese"), Map.entry("soviet", "Soviet"),
    Map.entry("pyongyang", "Pyongyang"), Map.entry("seoul", "Seoul"), Map.entry("pusan", "Pusan"),
    Map.entry("communist", "Communist"), Map.entry("communists", "Communists"), Map.entry("january", "January"));

  /**
   * A field's label: the schema's own title for it, else its name in words ("attacker_hq_loc" ->
   * "Attacker HQ LOC"). Titles pydantic writes by itself ("Attacker Hq Loc") and the class names
   * of referenced definitions ("SideCombatModel") are no titles a person gave.
   */
  static String label(Map<String, Object> raw, String name) {
    final Object title = raw == null ? null : raw.get("title");
    if (title instanceof String && !((String) title).isBlank() && !title.equals(automaticTitle(name))) return (String) title;
    return humanize(name);
  }

  /**
   * pydantic's title for a field without one, as Python's {@code str.title()} writes it: each run
   * of letters capitalized ("of_38th_turn" -> "Of 38Th Turn").
   */
  static String automaticTitle(String name) {
    final StringBuilder out = new StringBuilder();
    boolean afterLetter = false;
    for (final char c : name.replace('_', ' ').toCharArray()) {
      out.append(afterLetter ? Character.toLowerCase(c) : Character.toUpperCase(c));
      afterLetter = Character.isLetter(c);
    }
    return out.toString();
  }

  /** A label from a snake_case name, as adjudicator/words/forms.py humanize: "un_supply_shortage" -> "UN supply shortage". */
  static String humanize(String name) {
    final List<String> words = new ArrayList<>();
    for (final String w : name.split("_")) {
      if (w.isEmpty()) continue;
      words.add(SPELLED.containsKey(w) ? SPELLED.get(w) : ACRONYMS.contains(w) ? w.toUpperCase(Locale.ROOT) : w);
    }
    if (!words.isEmpty() && !words.get(0).equals(words.get(0).toUpperCase(Locale.ROOT))) {
      words.set(0, Character.toUpperCase(words.get(0).charAt(0)) + words.get(0).substring(1));
    }
    return String.join(" ", words);
  }

  // ---- the server's refusal, in players' words -------------------------------------------------------------

  /**
   * A validation problem's words as a player reads them: pydantic's "Value error, " and "Input
   * should be" become plain sentences.
   */
  static String playersWords(String detail) {
    String d = detail == null ? "" : detail.trim();
    d = d.replaceFirst("^(?i)value error,\\s*", "");
    d = d.replaceFirst("^(?i)assertion failed,\\s*", "");
    if (d.equalsIgnoreCase("Field required")) return "is required";
    if (d.equalsIgnoreCase("Extra inputs are not permitted")) return "is not asked by this check";
    d = d.replaceFirst("^Input should be ", "must be ");
    d = d.replaceFirst("^List should have ", "needs ");
    d = d.replaceFirst("^String should have ", "needs ");
    return d;
  }

  /** " Allowed: a, b, c" for the values a refusal says a field allows (at most 12 named), "" for none. */
  static String allowedWords(List<Object> allowed) {
    if (allowed.isEmpty()) return "";
    final List<String> named = new ArrayList<>();
    for (final Object a : allowed.subList(0, Math.min(12, allowed.size()))) named.add(String.valueOf(a));
    return ". Allowed: " + String.join(", ", named) + (allowed.size() > 12 ? " and " + (allowed.size() - 12) + " more" : "");
  }
}
