package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What the board knows, and how it fills a request: the units with their hex and step (read
 * from the pieces by BoardReader), the scenario, the turn, the asking side, and what the player
 * pointed at. {@link #fill} walks a check's request schema and fills every property whose
 * {@code x-board} role it can (adjudicator.checks.BOARD_ROLES); the player fills the rest.
 */
final class Board {
  /** A unit piece as the adjudicator names it. */
  static final class Unit {
    final String id;     // UnitId
    final String side;   // SideId
    final String map;    // the VASSAL map's name
    final String hex;    // location label as printed, or null when not on a hex (a box, a track)
    final String step;   // the step's name from StepNames ("" when unknown)
    final Integer sp;    // strength points of that step, when the step says it
    final Kind kind;     // what the counter is: arm, size, flags (for what a right-click offers)
    final String place;  // off the hexes: the location the map names (a box's region on the Boxes map), else null

    Unit(String id, String side, String map, String hex, String step, Integer sp) {
      this(id, side, map, hex, step, sp, Kind.UNKNOWN);
    }

    Unit(String id, String side, String map, String hex, String step, Integer sp, Kind kind) {
      this(id, side, map, hex, step, sp, kind, null);
    }

    Unit(String id, String side, String map, String hex, String step, Integer sp, Kind kind, String place) {
      this.id = id;
      this.side = side;
      this.map = map;
      this.hex = hex;
      this.step = step;
      this.sp = sp;
      this.kind = kind;
      this.place = place;
    }

    /**
     * Whether the unit is one a check about one unit takes (the catalog's {@code applies.units}):
     * of one of the "types", "sizes" and "nationalities" named, with one of the "flags" named,
     * showing one of the "steps" named (its Step layer's, by the names in the game data: Fire and
     * Ice's declaring unit "fresh", never one showing its spent side) (each empty: any), on a hex
     * of the map or off it as "on_map" says (null: either). A unit whose counter says nothing of
     * itself (an older module, a step not known) fits.
     */
    boolean fits(Map<String, Object> accepted) {
      if (accepted.isEmpty()) return true;
      if (step != null && !step.isEmpty() && !oneOf(accepted.get("steps"), step)) return false;
      if (kind == Kind.UNKNOWN) return true;
      if (!oneOf(accepted.get("types"), kind.type) || !oneOf(accepted.get("sizes"), kind.size)
          || !oneOf(accepted.get("nationalities"), kind.nationality)) return false;
      final List<Object> wanted = Schema.list(accepted.get("flags"));
      if (!wanted.isEmpty() && wanted.stream().noneMatch(kind.flags::contains)) return false;
      final Object onMap = accepted.get("on_map");
      return !(onMap instanceof Boolean) || (Boolean) onMap == (hex != null);
    }

    private static boolean oneOf(Object allowed, String value) {
      final List<Object> list = Schema.list(allowed);
      return list.isEmpty() || list.contains(value);
    }
  }

  /** What a unit's counter is, from the Marker properties the module gives it (UnitType, Size, Flags, NationalityId). */
  static final class Kind {
    static final Kind UNKNOWN = new Kind("", "", List.of(), "");
    final String type;
    final String size;
    final List<String> flags;
    final String nationality;

    Kind(String type, String size, List<String> flags) {
      this(type, size, flags, "");
    }

    Kind(String type, String size, List<String> flags, String nationality) {
      this.type = type;
      this.size = size;
      this.flags = flags;
      this.nationality = nationality;
    }
  }

  /** A marker standing on a cell of a player-aid track ("Weather Track Clear"): which marker, which track, which cell. */
  static final class TrackMark {
    final String marker;  // MarkerId
    final String track;   // the track's id
    final String cell;    // the cell's text as printed ("Clear", "14")

    TrackMark(String marker, String track, String cell) {
      this.marker = marker;
      this.track = track;
      this.cell = cell;
    }
  }

  /** What the player pointed at: a unit (right-clicked) or only a hex, and the selected units. */
  static final class Context {
    final Unit unit;
    final String map;
    final String hex;
    final List<Unit> selected;

    Context(Unit unit, String map, String hex, List<Unit> selected) {
      this.unit = unit;
      this.map = map;
      this.hex = hex;
      this.selected = selected;
    }

    static Context none() {
      return new Context(null, null, null, List.of());
    }
  }

  private final Supplier<List<Unit>> readUnits;    // read from the pieces only when a role needs every unit
  private final Supplier<List<TrackMark>> readMarks;
  private List<Unit> units;
  private List<TrackMark> marks;
  final String scenario;  // null: unknown
  final Integer turn;     // null: unknown
  final String month;     // the month of that turn (YYYY-MM), as the server's scenario gives it; null: unknown
  final String side;      // the side asking, null: unknown
  private Set<String> asideBoxes = Set.of();  // the names of the boxes of counters not in play (ModuleInfo)

  Board(List<Unit> units, String scenario, Integer turn, String side) {
    this(units, scenario, turn, side, List.of());
  }

  Board(List<Unit> units, String scenario, Integer turn, String side, List<TrackMark> marks) {
    this(() -> units, scenario, turn, side, () -> marks);
  }

  Board(Supplier<List<Unit>> units, String scenario, Integer turn, String side, Supplier<List<TrackMark>> marks) {
    this(units, scenario, turn, null, side, marks);
  }

  Board(Supplier<List<Unit>> units, String scenario, Integer turn, String month, String side, Supplier<List<TrackMark>> marks) {
    this.readUnits = units;
    this.scenario = scenario;
    this.turn = turn;
    this.month = month;
    this.side = side;
    this.readMarks = marks;
  }

  /** The boxes of counters not in play, by the name of their region on the Boxes map (board role counters_not_in_play). */
  Board withAsideBoxes(Set<String> names) {
    asideBoxes = Set.copyOf(names);
    return this;
  }

  /** Every unit on the board (read once, when first needed). */
  List<Unit> units() {
    if (units == null) units = readUnits.get();
    return units;
  }

  private List<TrackMark> marks() {
    if (marks == null) marks = readMarks.get();
    return marks;
  }

  /** The request members the board fills for this schema and context (top-level names). */
  Map<String, Object> fill(Schema schema, Context ctx) {
    final Map<String, Object> out = new LinkedHashMap<>();
    for (final Map.Entry<String, Map<String, Object>> e : schema.properties().entrySet()) {
      final Map<String, Object> p = e.getValue();
      final String role = Schema.role(p);
      if (role == null) continue;
      final Object value = value(schema, role, p, ctx);
      if (value != null) out.put(e.getKey(), value);
    }
    return out;
  }

  private Object value(Schema schema, String role, Map<String, Object> p, Context ctx) {
    switch (role) {
    case "scenario": return scenario;
    case "turn": return turn == null ? null : Long.valueOf(turn);
    case "month": return month;
    case "side": return side;
    case "positions": return units(schema, p, positions(ctx));
    case "attackers": return units(schema, p, ofSide(attackers(ctx), attackingSide(ctx), true));
    case "defenders": return units(schema, p, ofSide(defenders(ctx), attackingSide(ctx), false));
    case "target_hex": return ctx.hex;
    case "counters_not_in_play": return countersNotInPlay();
    default:
      if (role.startsWith(TRACK)) return trackValue(role.substring(TRACK.length()), p);
      return ctx.unit == null ? null : unitValue(schema, role, p, ctx.unit);
    }
  }

  /** The ids of the units lying in the boxes of counters not in play (an empty list when the module has none). */
  List<Object> countersNotInPlay() {
    final List<Object> out = new ArrayList<>();
    if (asideBoxes.isEmpty()) return null;
    for (final Unit u : units()) {
      if (u.hex == null && u.place != null && asideBoxes.contains(u.place)) out.add(u.id);
    }
    return out;
  }

  /** The role prefix of a value a player-aid track shows: "track:<track id>" or "track:<track id>:<marker id>". */
  static final String TRACK = "track:";

  /**
   * The cell a track's marker stands on, as the property wants it: one of its choices (matched
   * without regard to case: the cell "Clear" is the choice "clear"), a number, or the text.
   * Null when no marker (or more than one, and the role names none) stands on the track.
   */
  Object trackValue(String which, Map<String, Object> p) {
    final String[] parts = which.split(":", 2);
    final List<TrackMark> found = new ArrayList<>();
    for (final TrackMark m : marks()) {
      if (m.track.equals(parts[0]) && (parts.length == 1 || m.marker.equals(parts[1]))) found.add(m);
    }
    if (found.size() != 1) return null;
    final String cell = found.get(0).cell;
    for (final Object choice : Schema.list(p.get("enum"))) {
      if (String.valueOf(choice).equalsIgnoreCase(cell)) return choice;
    }
    if (!Schema.list(p.get("enum")).isEmpty()) return null;
    if ("integer".equals(Schema.type(p))) {
      try {
        return Long.valueOf(cell.trim());
      }
      catch (NumberFormatException e) {
        return null;
      }
    }
    return cell;
  }

  /** A list of units for a list property, or the first unit for a one-unit object property. */
  private Object units(Schema schema, Map<String, Object> p, List<Unit> list) {
    if (list.isEmpty()) return null;
    if ("array".equals(Schema.type(p))) {
      final Map<String, Object> items = schema.items(p);
      final List<Object> out = new ArrayList<>();
      for (final Unit u : list) out.add(unitValue(schema, "unit", items, u));
      return out;
    }
    return unitValue(schema, "unit", p, list.get(0));
  }

  /**
   * A unit as a property of this role wants it: an object filled member by member (unit, hex,
   * step, sp; "map" is left to the server, which takes the scenario's map), or one value.
   */
  private static Object unitValue(Schema schema, String role, Map<String, Object> p, Unit u) {
    if ("object".equals(Schema.type(p))) {
      final Map<String, Object> out = new LinkedHashMap<>();
      for (final Map.Entry<String, Map<String, Object>> m : schema.properties(p).entrySet()) {
        final Object v = Schema.role(m.getValue()) == null ? null : scalar(Schema.role(m.getValue()), u);
        if (v != null) out.put(m.getKey(), v);
      }
      return out;
    }
    return scalar(role, u);
  }

  private static Object scalar(String role, Unit u) {
    switch (role) {
    case "unit": return u.id;
    case "hex": return u.hex;
    case "step": return u.step;
    case "sp": return u.sp == null ? null : Long.valueOf(u.sp);
    default: return null;
    }
  }

  /**
   * Every unit on a hex of one map: the context's, or else the map holding most units (a game is
   * played on one map at a time; the server reads positions as standing on the scenario's map).
   */
  List<Unit> positions(Context ctx) {
    final String map = ctx.map != null ? ctx.map : busiestMap();
    final List<Unit> out = new ArrayList<>();
    for (final Unit u : units()) {
      if (u.hex != null && u.map.equals(map)) out.add(u);
    }
    return out;
  }

  private String busiestMap() {
    final Map<String, Integer> count = new LinkedHashMap<>();
    String best = null;
    for (final Unit u : units()) {
      if (u.hex == null) continue;
      count.merge(u.map, 1, Integer::sum);
      if (best == null || count.get(u.map) > count.get(best)) best = u.map;
    }
    return best;
  }

  /** The selected units outside the context hex. */
  static List<Unit> attackers(Context ctx) {
    final List<Unit> out = new ArrayList<>();
    for (final Unit u : ctx.selected) {
      if (u.hex != null && !(u.hex.equals(ctx.hex) && u.map.equals(ctx.map))) out.add(u);
    }
    return out;
  }

  /**
   * The side the selected units attack for: the asking side when any of them is its own, else the
   * first selected unit's (a defender asking for both sides' support names the attacker's units);
   * null when not known.
   */
  String attackingSide(Context ctx) {
    final List<Unit> selected = attackers(ctx);
    for (final Unit u : selected) if (side != null && side.equals(u.side)) return side;
    return selected.isEmpty() || selected.get(0).side.isEmpty() ? side : selected.get(0).side;
  }

  /**
   * A combat's units by side: the attacking side's own ({@code own}), or the others' (the enemy in
   * the hex). A unit of the other side selected with the attackers, or one's own in the hex
   * attacked, is no part of the form (the server would refuse it only when asked); a unit whose
   * side the board does not say is kept.
   */
  static List<Unit> ofSide(List<Unit> units, String attacking, boolean own) {
    if (attacking == null) return units;
    final List<Unit> out = new ArrayList<>();
    for (final Unit u : units) if (u.side.isEmpty() || u.side.equals(attacking) == own) out.add(u);
    return out;
  }

  /** The units in the context hex, the right-clicked one first. */
  List<Unit> defenders(Context ctx) {
    final List<Unit> out = new ArrayList<>();
    if (ctx.hex == null) return out;
    if (ctx.unit != null) out.add(ctx.unit);
    for (final Unit u : units()) {
      if (ctx.hex.equals(u.hex) && u.map.equals(ctx.map) && (ctx.unit == null || !u.id.equals(ctx.unit.id))) out.add(u);
    }
    return out;
  }
}
