package kwharness;

import java.awt.Point;
import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import VASSAL.build.GameModule;
import VASSAL.build.module.PlayerRoster;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.module.map.boardPicker.board.MapGrid;
import VASSAL.counters.Deck;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Properties;
import VASSAL.counters.Stack;

/**
 * Pieces as a client sees them: the engine decides what is hidden (masks, face-down decks) from
 * the player id and side of the client asking. Everything here runs on the event thread.
 */
final class Pieces {
  static final String OBSERVER = "observer";

  private Pieces() { }

  /** The side the local player holds ("observer" when none). */
  static String mySide() {
    final String side = PlayerRoster.getMySide();
    return side == null ? OBSERVER : side;
  }

  /**
   * What a body of work finds when another client looks at the game: a player holding
   * {@code side}, or an observer ("observer"). The engine decides what a client sees from its
   * player id and the side the roster gives that id, so the viewer gets an id of its own for the
   * moment (the engine's temporary user id, which it uses itself to look as nobody in
   * particular) and, unless observing, a roster entry for the side; both are undone after.
   * Nothing is sent or logged.
   */
  static <T> T viewAs(String side, Supplier<T> body) {
    final GameModule g = GameModule.getGameModule();
    final PlayerRoster roster = g.getPlayerRoster();
    if (!OBSERVER.equals(side)) {
      if (roster == null) throw new IllegalArgumentException("the module has no player roster; no side '" + side + "'");
      if (!roster.getSides().contains(side)) {
        throw new IllegalArgumentException("no side '" + side + "'; the roster has " + roster.getSides());
      }
    }
    final String viewer = "kw-harness-viewer:" + side;
    final String previousTemp = GameModule.getTempUserId();
    final boolean multiPlayer = g.getBasicLogger().isMultiPlayer();
    GameModule.setTempUserId(viewer);
    try {
      if (!OBSERVER.equals(side)) new PlayerRoster.Add(roster, viewer, "viewer", side).execute();
      return body.get();
    }
    finally {
      if (roster != null) new PlayerRoster.Remove(roster, viewer).execute();
      GameModule.setTempUserId(previousTemp);
      g.getBasicLogger().setMultiPlayer(multiPlayer);
    }
  }

  /** Every piece on every map and in every deck, as the current side sees it. */
  static Map<String, Object> listAll(List<String> properties) {
    final List<Object> pieces = new ArrayList<>();
    final List<Object> decks = new ArrayList<>();
    for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
      for (final GamePiece top : m.getAllPieces()) {
        if (top instanceof Deck) {
          decks.add(deck((Deck) top, m, properties));
        }
        else if (top instanceof Stack) {
          for (final GamePiece p : ((Stack) top).asList()) pieces.add(piece(p, m, properties));
        }
        else {
          pieces.add(piece(top, m, properties));
        }
      }
    }
    final Map<String, Object> out = new LinkedHashMap<>();
    out.put("as", mySide());
    out.put("pieces", pieces);
    out.put("decks", decks);
    return out;
  }

  static Map<String, Object> piece(GamePiece p, VASSAL.build.module.Map m, List<String> properties) {
    final Map<String, Object> pm = new LinkedHashMap<>();
    final Point pos = p.getPosition();
    pm.put("id", p.getId());
    pm.put("name", p.getName());
    pm.put("map", m == null ? null : m.getMapName());
    pm.put("location", m == null ? null : m.locationName(pos));
    pm.put("x", pos.x);
    pm.put("y", pos.y);
    pm.put("obscured", Boolean.TRUE.equals(p.getProperty(Properties.OBSCURED_TO_ME)));
    final Map<String, Object> props = new LinkedHashMap<>();
    for (final String name : properties) {
      final Object v = p.getProperty(name);
      props.put(name, v == null ? null : String.valueOf(v));
    }
    pm.put("properties", props);
    return pm;
  }

  /**
   * A deck and its pieces from the top down. In a face-down deck every piece is seen the way the
   * engine draws the deck's top: as if masked by nobody in particular (Deck.NO_USER).
   */
  private static Map<String, Object> deck(Deck d, VASSAL.build.module.Map m, List<String> properties) {
    final Map<String, Object> dm = new LinkedHashMap<>();
    dm.put("name", d.getDeckName());
    dm.put("map", m.getMapName());
    dm.put("location", m.locationName(d.getPosition()));
    dm.put("x", d.getPosition().x);
    dm.put("y", d.getPosition().y);
    dm.put("count", d.getPieceCount());
    dm.put("face_down", d.isFaceDown());
    dm.put("shuffle", d.getShuffleOption());
    final List<Object> inside = new ArrayList<>();
    final List<GamePiece> list = d.asList();
    for (int i = list.size() - 1; i >= 0; i--) {
      final GamePiece p = list.get(i);
      final Object owner = p.getProperty(Properties.OBSCURED_BY);
      if (d.isFaceDown()) p.setProperty(Properties.OBSCURED_BY, Deck.NO_USER);
      try {
        inside.add(piece(p, m, properties));
      }
      finally {
        if (d.isFaceDown()) p.setProperty(Properties.OBSCURED_BY, owner);
      }
    }
    dm.put("pieces", inside);
    return dm;
  }

  /**
   * The one piece on a map (not in a deck) that a selector names: {"id"}, {"name"},
   * {"properties": {...}} (each must equal), optionally {"map"}; several keys must all match.
   */
  @SuppressWarnings("unchecked")
  static GamePiece find(Object selector) {
    if (!(selector instanceof Map)) throw new IllegalArgumentException("a piece selector is an object, got " + selector);
    final Map<String, Object> sel = (Map<String, Object>) selector;
    final List<GamePiece> found = new ArrayList<>();
    for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
      if (sel.containsKey("map") && !m.getMapName().equals(sel.get("map"))) continue;
      for (final GamePiece top : m.getAllPieces()) {
        if (top instanceof Deck) continue;
        final List<GamePiece> inner = top instanceof Stack ? ((Stack) top).asList() : List.of(top);
        for (final GamePiece p : inner) {
          if (matches(p, sel)) found.add(p);
        }
      }
    }
    if (found.size() != 1) {
      throw new IllegalArgumentException("selector " + Json.write(sel) + " matches " + found.size() + " pieces, not 1");
    }
    return found.get(0);
  }

  @SuppressWarnings("unchecked")
  private static boolean matches(GamePiece p, Map<String, Object> sel) {
    if (sel.containsKey("id") && !String.valueOf(sel.get("id")).equals(p.getId())) return false;
    if (sel.containsKey("name") && !String.valueOf(sel.get("name")).equals(p.getName())) return false;
    if (sel.containsKey("properties")) {
      for (final Map.Entry<String, Object> e : ((Map<String, Object>) sel.get("properties")).entrySet()) {
        if (!String.valueOf(e.getValue()).equals(String.valueOf(p.getProperty(e.getKey())))) return false;
      }
    }
    return true;
  }

  static VASSAL.build.module.Map map(String name) {
    for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
      if (m.getMapName().equals(name)) return m;
    }
    throw new IllegalArgumentException("no map named '" + name + "'");
  }

  /** A map point from {"map", "location"} (a grid location name, e.g. hex "0203") or {"map", "x", "y"}. */
  static Point point(VASSAL.build.module.Map m, Map<String, Object> where) {
    if (where.containsKey("x")) {
      return new Point(((Number) where.get("x")).intValue(), ((Number) where.get("y")).intValue());
    }
    final String location = String.valueOf(where.get("location"));
    for (final Board b : m.getBoards()) {
      final MapGrid grid = b.getGrid();
      if (grid == null) continue;
      try {
        final Point p = grid.getLocation(location);
        final Rectangle r = b.bounds();
        return new Point(p.x + r.x, p.y + r.y);
      }
      catch (MapGrid.BadCoords e) {
        // try the next board
      }
    }
    throw new IllegalArgumentException("no location '" + location + "' on map '" + m.getMapName() + "'");
  }

  static Deck deck(String name) {
    for (final VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
      for (final GamePiece top : m.getAllPieces()) {
        if (top instanceof Deck && name.equals(((Deck) top).getDeckName())) return (Deck) top;
      }
    }
    throw new IllegalArgumentException("no deck named '" + name + "'");
  }
}
