package korea.adjudicator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the server ruled, as the extension uses it: the transcript's chat lines (the short
 * ruling everyone sees; in a game with hidden units also the lines as this player's side may
 * see them), the whole ruling (its steps, rules and details: the ruling window, never posted),
 * the record's number and page (a recorded game: the verify address), the units' new states
 * (to offer applying them to the board), the stand-ins the ruling used (stated once per game)
 * and the server's notices (e.g. a unit the game's ledger already removed), which are shown to
 * the player before anything else.
 */
final class Ruling {
  /**
   * One unit's new state: removed, a step by name, or an SP (block games); or, for a placeholder a
   * ruling reveals (KWB's '? 4' Scratch Units), the counter it turned out to be, which takes its spot.
   */
  static final class Change {
    final String unit;
    final boolean eliminated;
    final String step;        // null: none named
    final Integer sp;         // null: none named
    final String revealedAs;  // null: no placeholder revealed

    Change(String unit, boolean eliminated, String step, Integer sp, String revealedAs) {
      this.unit = unit;
      this.eliminated = eliminated;
      this.step = step;
      this.sp = sp;
      this.revealedAs = revealedAs;
    }

    Change(String unit, boolean eliminated, String step, Integer sp) {
      this(unit, eliminated, step, sp, null);
    }
  }

  static final String VERIFY = "verify: ";
  /** A ruling's tag at the start of a chat line (adjudicator.transcript). */
  static final java.util.regex.Pattern TAG = java.util.regex.Pattern.compile("^\\[ADJ [^\\]]*\\]");

  final List<String> lines;         // the transcript everyone may see: posted to the chat and the log
  final List<String> privateLines;  // fog of war: as this player's side may see it (shown to him only)
  final List<String> details;       // the whole ruling, as this player may see it (the ruling window)
  final Object seq;
  final List<Change> changes;
  final List<String> standIns;
  final List<String> notices;

  Ruling(List<String> lines, List<String> privateLines, Object seq, List<Change> changes, List<String> standIns,
         List<String> notices) {
    this(lines, privateLines, List.of(), seq, changes, standIns, notices);
  }

  Ruling(List<String> lines, List<String> privateLines, List<String> details, Object seq, List<Change> changes,
         List<String> standIns, List<String> notices) {
    this.lines = lines;
    this.privateLines = privateLines;
    this.details = details;
    this.seq = seq;
    this.changes = changes;
    this.standIns = standIns;
    this.notices = notices;
  }

  /** A check's answer (with ?transcript=1&changes=1); IllegalArgumentException without a transcript. */
  static Ruling of(Map<String, Object> answer) {
    final List<String> lines = strings(answer.get("transcript"));
    if (lines.isEmpty()) throw new IllegalArgumentException("no transcript");
    final List<Change> changes = new ArrayList<>();
    for (final Object o : Schema.list(answer.get("piece_changes"))) {
      final Map<String, Object> c = Schema.map(o);
      if (!(c.get("unit") instanceof String)) continue;
      changes.add(new Change((String) c.get("unit"), Boolean.TRUE.equals(c.get("eliminated")),
                             c.get("step") instanceof String ? (String) c.get("step") : null,
                             c.get("sp") instanceof Number ? ((Number) c.get("sp")).intValue() : null,
                             c.get("revealed_as") instanceof String ? (String) c.get("revealed_as") : null));
    }
    return new Ruling(lines, strings(answer.get("private_transcript")), strings(answer.get("details")), answer.get("seq"), changes,
                      strings(answer.get("stand_ins")), strings(answer.get("notices")));
  }

  /** The ruling's page (its verify address, at the server's public address), or null for a calculation. */
  String page() {
    for (final String line : lines) {
      final int at = line.indexOf("] " + VERIFY);
      if (at >= 0) return line.substring(at + 2 + VERIFY.length()).trim();
    }
    return null;
  }

  /** The tag a chat line starts with ("[ADJ g#4]", "[ADJ compute]"), or "". */
  static String tag(String line) {
    final java.util.regex.Matcher m = TAG.matcher(line);
    return m.find() ? m.group() : "";
  }

  /** The first line without its tag: what the ruling says happened. */
  String headline() {
    return TAG.matcher(lines.get(0)).replaceFirst("").trim();
  }

  private static List<String> strings(Object o) {
    final List<String> out = new ArrayList<>();
    for (final Object x : Schema.list(o)) out.add(String.valueOf(x));
    return out;
  }
}
