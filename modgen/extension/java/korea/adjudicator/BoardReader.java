package korea.adjudicator;

import java.awt.Point;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.build.module.turn.TurnTracker;
import VASSAL.counters.GamePiece;
import VASSAL.counters.KeyBuffer;
import VASSAL.counters.Stack;

/**
 * Reads the board from the running game: each unit piece carries the Marker properties the
 * module generator writes (UnitId, SideId, StepNames, UnitType, Size, Flags, NationalityId) and a "Step" layer
 * whose level (Step_Level, 1-based) is the step showing; its hex is the map's own location name.
 * A marker (MarkerId) standing on a track cell ("Weather Track Clear") is that track's value.
 * Runs on the event thread, like everything that touches the engine's pieces.
 */
final class BoardReader {
  /** A location that is a hex as the map prints it (boxes and tracks have names instead). */
  private static final Pattern HEX = Pattern.compile("^\\d{3,6}$");
  private static final Pattern TURN = Pattern.compile("Turn (\\d+)");
  private static final Pattern SP = Pattern.compile("^\\d{1,2}$");

  private final ModuleInfo module;

  BoardReader(ModuleInfo module) {
    this.module = module;
  }

  /** Every unit piece in the game (in stacks too). */
  List<Board.Unit> units() {
    final List<Board.Unit> out = new ArrayList<>();
    for (final GamePiece p : pieces()) {
      final Board.Unit u = unit(p);
      if (u != null) out.add(u);
    }
    return out;
  }

  /** Every marker standing on a cell of one of the module's tracks. */
  List<Board.TrackMark> marks() {
    final List<Board.TrackMark> out = new ArrayList<>();
    if (module.trackNames.isEmpty()) return out;
    for (final GamePiece p : pieces()) {
      final String marker = text(p.getProperty("MarkerId"));
      if (marker.isEmpty() || p.getMap() == null) continue;
      final String location = p.getMap().locationName(p.getPosition());
      if (location == null) continue;
      for (final java.util.Map.Entry<String, String> t : module.trackNames.entrySet()) {
        if (location.startsWith(t.getValue() + " ")) {
          out.add(new Board.TrackMark(marker, t.getKey(), location.substring(t.getValue().length() + 1)));
        }
      }
    }
    return out;
  }

  /** Every piece of the game; the game state lists the pieces in stacks too, and the stacks (left out). */
  static List<GamePiece> pieces() {
    final List<GamePiece> out = new ArrayList<>();
    if (GameModule.getGameModule() == null) return out;  // no module loaded: no pieces (the dialogs' words read alone)
    for (final GamePiece p : GameModule.getGameModule().getGameState().getAllPieces()) {
      if (!(p instanceof Stack)) out.add(p);
    }
    return out;
  }

  static GamePiece pieceById(String id) {
    for (final GamePiece p : pieces()) {
      if (id.equals(p.getId())) return p;
    }
    return null;
  }

  /** The piece of a unit (by its UnitId), or null when it is not in the game. */
  static GamePiece pieceOfUnit(String unitId) {
    for (final GamePiece p : pieces()) {
      if (unitId.equals(text(p.getProperty("UnitId")))) return p;
    }
    return null;
  }

  /** The unit a piece is, or null for a piece that is no unit (a marker, a card). */
  Board.Unit unit(GamePiece p) {
    final String id = text(p.getProperty("UnitId"));
    if (id.isEmpty() || p.getMap() == null) return null;
    final Map map = p.getMap();
    final String location = map.locationName(p.getPosition());
    final String hex = location != null && HEX.matcher(location).matches() ? location : null;
    final String[] names = stepNames(p);
    final int level = number(text(p.getProperty("Step_Level")), 1);
    final String step = level >= 1 && level <= names.length ? names[level - 1] : "";
    // Block games name each step by the strength points on its top edge ("3|2|1").
    final Integer sp = SP.matcher(step).matches() ? Integer.valueOf(step) : null;
    final String typeName = text(p.getProperty("UnitType"));
    final Board.Kind kind = new Board.Kind(module.typeIds.getOrDefault(typeName, typeName), text(p.getProperty("Size")),
                                           Arrays.asList(text(p.getProperty("Flags")).split("\\s+")),
                                           text(p.getProperty("NationalityId")));
    return new Board.Unit(id, text(p.getProperty("SideId")), map.getMapName(), hex, step, sp, kind, hex == null ? location : null);
  }

  /** A unit piece's steps by name, in layer order ("full|depleted"). */
  static String[] stepNames(GamePiece p) {
    return text(p.getProperty("StepNames")).split("\\|", -1);
  }

  /** The context of a right-click or a call: the piece pointed at and the selected units. */
  Board.Context context(GamePiece target, List<GamePiece> selection) {
    final List<Board.Unit> selected = new ArrayList<>();
    for (final GamePiece p : selection) {
      final Board.Unit u = unit(p);
      if (u != null) selected.add(u);
    }
    if (target == null || target.getMap() == null) return new Board.Context(null, null, null, selected);
    final String location = target.getMap().locationName(target.getPosition());
    final String hex = location != null && HEX.matcher(location).matches() ? location : null;
    return new Board.Context(unit(target), target.getMap().getMapName(), hex, selected);
  }

  /** The pieces selected now. */
  static List<GamePiece> selection() {
    return new ArrayList<>(KeyBuffer.getBuffer().asList());
  }

  /** The piece a right-click menu was opened on: the one under the point the engine recorded. */
  static GamePiece clicked(Map map) {
    final Point p = KeyBuffer.getBuffer().getClickPoint();
    return p == null ? null : map.findPiece(p, VASSAL.counters.PieceFinder.PIECE_IN_STACK);
  }

  /**
   * The game turn the scenario's turn tracker shows ("Turn 3 (...)"), or null. The module's one
   * tracker has a top level per scenario, named after it, and shows the level of the scenario
   * being played (older modules: a tracker per scenario, named "<scenario name> turn"); its text
   * is read through the engine's own getTurnString (protected, hence reflection).
   */
  static Integer turn(String scenarioName) {
    if (scenarioName == null) return null;
    for (final TurnTracker t : GameModule.getGameModule().getAllDescendantComponentsOf(TurnTracker.class)) {
      if (!(scenarioName + " turn").equals(t.getConfigureName()) && !scenarioName.equals(levelShown(t))) continue;
      try {
        final Method m = t.getClass().getDeclaredMethod("getTurnString");
        m.setAccessible(true);
        final Matcher found = TURN.matcher(String.valueOf(m.invoke(t)));
        return found.find() ? Integer.valueOf(found.group(1)) : null;
      }
      catch (ReflectiveOperationException | RuntimeException e) {
        return null;
      }
    }
    return null;
  }

  /** The name of the top level a tracker shows (the scenario's, in this module), or null. */
  private static String levelShown(TurnTracker t) {
    try {
      final java.lang.reflect.Field current = TurnTracker.class.getDeclaredField("currentLevel");
      current.setAccessible(true);
      final Method level = declared(t.getClass(), "getTurnLevel", int.class);
      level.setAccessible(true);
      final Object shown = level.invoke(t, current.getInt(t));
      return shown == null ? null : String.valueOf(shown.getClass().getMethod("getConfigureName").invoke(shown));
    }
    catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** A method declared by a class or one of its superclasses (getDeclaredMethod sees only its own). */
  private static Method declared(Class<?> c, String name, Class<?>... types) throws NoSuchMethodException {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      try {
        return k.getDeclaredMethod(name, types);
      }
      catch (NoSuchMethodException e) {
        // look further up
      }
    }
    throw new NoSuchMethodException(name);
  }

  static String text(Object o) {
    return o == null ? "" : String.valueOf(o);
  }

  private static int number(String s, int fallback) {
    try {
      return Math.abs(Integer.parseInt(s.trim()));
    }
    catch (NumberFormatException e) {
      return fallback;
    }
  }
}
