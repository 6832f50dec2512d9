package korea.adjudicator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the server ruled, as the extension uses it: the transcript's chat lines (the short
 * ruling everyone sees; in a game with hidden units also the lines as this player's side may
 * see them), the whole ruling (its steps, rules and details: the ruling window, never posted),
 * the record's number and page (a recorded game: the verify address), what it does to the board
 * (to offer applying it), the stand-ins the ruling used (stated once per game) and the server's
 * notices (a unit the game's ledger already eliminated named again, the same situation asked
 * again), which are shown to the player before anything else; the transcript's own "notice:"
 * lines carry them into the log.
 */
final class Ruling {
  static final String STEP = "step";
  static final String ELIMINATED = "eliminated";
  static final String REPLACED = "replaced";
  static final String MOVED = "moved";
  static final String RETURNED = "returned";
  static final String REVEALED = "revealed";
  static final String BROKEN_DOWN = "broken_down";
  static final String RECOMBINED = "recombined";
  static final String RETREAT = "retreat";

  /** A unit a replacement puts on the board, at a step or SP (both null: as its counter comes). */
  static final class Placed {
    final String unit;
    final String step;
    final Integer sp;

    Placed(String unit, String step, Integer sp) {
      this.unit = unit;
      this.step = step;
      this.sp = sp;
    }
  }

  /**
   * One piece action a change takes (the server resolves each change into them,
   * adjudicator.piece_actions): what is done ({@code does}), to which unit's piece, the step's name
   * the counter must show (null: unchanged), the hex, the box (and its name as the module shows
   * it), the unit whose spot a placed counter takes, the module's command that makes it, a
   * retreat's hexes, who chooses an open choice and the choice in words, a marker, and the side
   * that makes it. The extension looks nothing up: it finds the pieces and makes these.
   */
  static final class Action {
    static final String SHOW_STEP = "show_step";
    static final String ELIMINATE = "eliminate";
    static final String SET_ASIDE = "set_aside";
    static final String PLACE = "place";
    static final String MOVE = "move";
    static final String DELETE = "delete";
    static final String RETREAT = "retreat";
    static final String PLACE_MARKER = "place_marker";
    static final String REMOVE_MARKER = "remove_marker";
    static final String CHOOSE = "choose";
    static final String MOVE_MARKER = "move_marker";

    final String does;
    final String unit;
    final String step;       // null: the step is not changed
    final String hex;        // "" none
    final String box;
    final String boxName;
    final String beside;
    final String command;
    final int hexes;
    final String chosenBy;
    final String marker;
    final String markerName;
    final int face;          // place_marker: the face the marker shows, by number (1: its front; 0: not said)
    final String what;
    final String appliedBy;
    final String track;      // move_marker: the track's id
    final String cell;       // move_marker: the cell it goes to ("": `by` cells from where it stands)
    final int by;            // move_marker: cells up (negative: down)
    final String name;       // the unit as this player reads it, for a unit with no piece on the board ("": not said)
    final String besideName; // the unit of `beside`, so read

    Action(Map<String, Object> a) {
      this.does = str(a.get("does"));
      this.unit = str(a.get("unit"));
      this.step = text(a.get("step"));
      this.hex = str(a.get("hex"));
      this.box = str(a.get("box"));
      this.boxName = str(a.get("box_name"));
      this.beside = str(a.get("beside"));
      this.command = str(a.get("command"));
      final Integer n = number(a.get("hexes"));
      this.hexes = n == null ? 0 : n;
      this.chosenBy = str(a.get("chosen_by"));
      this.marker = str(a.get("marker"));
      this.markerName = str(a.get("marker_name"));
      final Integer f = number(a.get("face"));
      this.face = f == null ? 0 : f;
      this.what = str(a.get("what"));
      this.appliedBy = str(a.get("applied_by"));
      this.track = str(a.get("track"));
      this.cell = str(a.get("cell"));
      final Integer cells = number(a.get("by"));
      this.by = cells == null ? 0 : cells;
      this.name = str(a.get("name"));
      this.besideName = str(a.get("beside_name"));
    }

    /** An open choice: nothing to make on the board now but say whose it is. */
    boolean open() {
      return RETREAT.equals(does) || CHOOSE.equals(does);
    }

    private static String str(Object o) {
      return o instanceof String ? (String) o : "";
    }
  }

  /**
   * One change to one unit (the server's piece_changes, adjudicator.unit_changes): its kind, the
   * step or SP shown (step), the hex ordered (moved), the units placed in its stead (replaced),
   * the counter a placeholder turned out to be (revealed: KWB's '? 4' Scratch Units), a
   * breakdown's counters placed and parts lost, a recombination's parts set aside, the hexes a
   * retreat orders, and the side that makes it on the board.
   */
  static final class Change {
    final String kind;
    final String unit;
    final boolean eliminated;
    final String step;   // null: none named; "": the first step (full strength)
    final Integer sp;    // null: none named
    final String hex;    // moved, recombined: the hex
    final List<Placed> replacements;
    final String revealedAs;  // revealed: the counter that takes the placeholder's spot (else null)
    final String appliedBy;  // a side id, "" when not said
    final List<String> lost;   // broken_down: the parts eliminated at once
    final List<String> parts;  // recombined: the units set aside
    final int hexes;           // retreat: how many hexes
    final List<Action> actions;  // what it takes on the board, resolved by the server (empty: an older server)
    String name = "";            // the unit as this player reads it (its piece may be off the board); "": not said

    Change(String kind, String unit, boolean eliminated, String step, Integer sp, String hex, List<Placed> replacements,
           String revealedAs, String appliedBy) {
      this(kind, unit, eliminated, step, sp, hex, replacements, revealedAs, appliedBy, List.of(), List.of(), 0, List.of());
    }

    Change(String kind, String unit, boolean eliminated, String step, Integer sp, String hex, List<Placed> replacements,
           String revealedAs, String appliedBy, List<String> lost, List<String> parts, int hexes, List<Action> actions) {
      this.kind = kind;
      this.unit = unit;
      this.eliminated = eliminated;
      this.step = step;
      this.sp = sp;
      this.hex = hex;
      this.replacements = replacements;
      this.revealedAs = revealedAs;
      this.appliedBy = appliedBy;
      this.lost = lost;
      this.parts = parts;
      this.hexes = hexes;
      this.actions = actions;
    }

    /** One entry of piece_changes; an older server's entries (no kind) read as a step or an elimination. */
    static Change of(Map<String, Object> c) {
      final boolean eliminated = Boolean.TRUE.equals(c.get("eliminated"));
      final String revealedAs = text(c.get("revealed_as"));
      final String kind = c.get("kind") instanceof String ? (String) c.get("kind")
        : revealedAs != null ? REVEALED : eliminated ? ELIMINATED : STEP;
      final List<Placed> placed = new ArrayList<>();
      for (final Object o : Schema.list(c.get("replacements"))) {
        final Map<String, Object> p = Schema.map(o);
        if (p.get("unit") instanceof String) placed.add(new Placed((String) p.get("unit"), text(p.get("step")), number(p.get("sp"))));
      }
      final Integer hexes = number(c.get("hexes"));
      final List<Action> actions = new ArrayList<>();
      for (final Object o : Schema.list(c.get("actions"))) {
        final Map<String, Object> a = Schema.map(o);
        if (a.get("does") instanceof String && a.get("unit") instanceof String) actions.add(new Action(a));
      }
      final Change change = new Change(kind, (String) c.get("unit"), eliminated, text(c.get("step")), number(c.get("sp")),
                                       text(c.get("hex")), placed, revealedAs,
                                       c.get("applied_by") instanceof String ? (String) c.get("applied_by") : "",
                                       strings(c.get("lost")), strings(c.get("parts")), hexes == null ? 0 : hexes, actions);
      if (c.get("name") instanceof String) change.name = (String) c.get("name");
      return change;
    }
  }

  static final String VERIFY = "verify: ";
  /** A ruling's tag at the start of a chat line (adjudicator.logs.transcript.TAG_RE). */
  static final java.util.regex.Pattern TAG = java.util.regex.Pattern.compile("^\\[ADJ [^\\]]*\\]");

  final List<String> lines;         // the transcript everyone may see: posted to the chat and the log
  final List<String> privateLines;  // fog of war: as this player's side may see it (shown to him only)
  final List<String> details;       // the whole ruling, as this player may see it (the ruling window)
  final Object seq;
  final List<Change> changes;
  final List<String> standIns;
  final List<String> notices;       // the notices in words, as this player may read them

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

  /**
   * A check's answer (with ?transcript=1&changes=1); IllegalArgumentException without a transcript.
   * The notices are read in words (notice_texts): the answer's notices are objects.
   */
  static Ruling of(Map<String, Object> answer) {
    final List<String> lines = strings(answer.get("transcript"));
    if (lines.isEmpty()) throw new IllegalArgumentException("no transcript");
    return new Ruling(lines, strings(answer.get("private_transcript")), strings(answer.get("details")), answer.get("seq"),
                      changes(answer.get("piece_changes")), strings(answer.get("stand_ins")),
                      strings(answer.get("notice_texts")));
  }

  /** The changes of a piece_changes list. */
  static List<Change> changes(Object pieceChanges) {
    final List<Change> out = new ArrayList<>();
    for (final Object o : Schema.list(pieceChanges)) {
      final Map<String, Object> c = Schema.map(o);
      if (c.get("unit") instanceof String) out.add(Change.of(c));
    }
    return out;
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

  /** The chat's mark before a ruling's first line (transcript.RULING_MARK). */
  static final String MARK = "RULING \u00bb ";

  /**
   * The first line without its tag and the chat's mark: what the ruling says happened, the
   * sentence its page and the ledger's rows open with.
   */
  String headline() {
    final String line = TAG.matcher(lines.get(0)).replaceFirst("").trim();
    return line.startsWith(MARK) ? line.substring(MARK.length()) : line;
  }

  /** The ruling's notices as everyone reads them (its "notice: ..." lines, untagged: adjudicator.ledger.board). */
  List<String> notices() {
    final List<String> out = new java.util.ArrayList<>();
    for (final String line : lines) {
      final String untagged = TAG.matcher(line).replaceFirst("").trim();
      if (untagged.startsWith("notice: ")) out.add(untagged);
    }
    return out;
  }

  private static String text(Object o) {
    return o instanceof String ? (String) o : null;
  }

  private static Integer number(Object o) {
    return o instanceof Number ? ((Number) o).intValue() : null;
  }

  private static List<String> strings(Object o) {
    final List<String> out = new ArrayList<>();
    for (final Object x : Schema.list(o)) out.add(String.valueOf(x));
    return out;
  }
}
