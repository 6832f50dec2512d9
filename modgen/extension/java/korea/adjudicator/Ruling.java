package korea.adjudicator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the server ruled, as the extension uses it: the transcript's chat lines (and, in a game with
 * hidden units, the lines as this player's side may see them), the record's
 * number (a recorded game), the units' new states (to offer applying them to the board), the
 * stand-ins the ruling used (stated once per game) and the server's notices (e.g. a unit the
 * game's ledger already removed), which are shown to the player before anything else.
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

  final List<String> lines;         // the transcript everyone may see: posted to the chat and the log
  final List<String> privateLines;  // fog of war: as this player's side may see it (shown to him only)
  final Object seq;
  final List<Change> changes;
  final List<String> standIns;
  final List<String> notices;

  Ruling(List<String> lines, List<String> privateLines, Object seq, List<Change> changes, List<String> standIns,
         List<String> notices) {
    this.lines = lines;
    this.privateLines = privateLines;
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
    return new Ruling(lines, strings(answer.get("private_transcript")), answer.get("seq"), changes, strings(answer.get("stand_ins")), strings(answer.get("notices")));
  }

  private static List<String> strings(Object o) {
    final List<String> out = new ArrayList<>();
    for (final Object x : Schema.list(o)) out.add(String.valueOf(x));
    return out;
  }
}
