package korea.adjudicator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

  /**
   * Request members a refusal may name that no form of this module has (the catalog's request
   * schemas leave them out), with what the player reads instead: the sentence naming one is
   * replaced by this one.
   */
  static final Map<String, String> NOT_ON_FORMS = Map.of(
    "restored_by", "This form cannot name a ruling that brought a unit back: take the unit out of the check, or ask without it");

  /** A name of the program's in a sentence ("restored_by", "combat_type"). */
  static final Pattern NAME = Pattern.compile("\\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\\b");

  /**
   * A refusal's text as the form shows it: a sentence naming a member no form has (NOT_ON_FORMS)
   * replaced by what the player can do instead, and every other name of a request member said as
   * the form labels it ({@code labels}: name -> label), else in words ("some_field" -> "some
   * field"). A player reads no field's name the form does not show.
   */
  static String formWords(String text, Map<String, String> labels) {
    if (text == null || text.isEmpty()) return "";
    final List<String> out = new ArrayList<>();
    for (final String sentence : text.split("(?<=[.!?])\\s+(?=[A-Z])")) {
      final Matcher m = NAME.matcher(sentence);
      final StringBuilder said = new StringBuilder();
      String instead = null;
      while (m.find()) {
        if (NOT_ON_FORMS.containsKey(m.group()) && !labels.containsKey(m.group())) instead = NOT_ON_FORMS.get(m.group());
        final String label = labels.get(m.group());
        m.appendReplacement(said, Matcher.quoteReplacement(label != null ? "\u201c" + label + "\u201d" : m.group().replace('_', ' ')));
      }
      m.appendTail(said);
      out.add(instead != null ? instead + "." : said.toString());
    }
    return String.join(" ", out);
  }

  /** " Allowed: a, b, c" for the values a refusal says a field allows (at most 12 named), "" for none. */
  static String allowedWords(List<Object> allowed) {
    if (allowed.isEmpty()) return "";
    final List<String> named = new ArrayList<>();
    for (final Object a : allowed.subList(0, Math.min(12, allowed.size()))) named.add(String.valueOf(a));
    return ". Allowed: " + String.join(", ", named) + (allowed.size() > 12 ? " and " + (allowed.size() - 12) + " more" : "");
  }

  /** A field error of a refusal as the form shows it: in players' words, the form's labels, the values it allows. */
  static String errorWords(Map<String, Object> error, Map<String, String> labels) {
    return Unseen.named(Words.formWords(Words.playersWords(String.valueOf(error.getOrDefault("detail", ""))), labels))
      + Words.allowedWords(Schema.list(error.get(error.get("allowed_names") != null ? "allowed_names" : "allowed")));
  }

  /** A refusal's whole text above the fields, in players' words: its detail, or its field errors the form has no place for. */
  static String generalWords(String detail, List<String> general, Map<String, String> labels) {
    return Unseen.named(general.isEmpty() ? Words.formWords(Words.playersWords(detail), labels) : String.join("; ", general));
  }
}
