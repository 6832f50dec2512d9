package kwharness;

import java.awt.Rectangle;
import java.awt.Window;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.swing.SwingUtilities;

import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Stack;

/**
 * The map windows as a player sees them: which map sits in the main window, which windows are
 * open, the boards each shows, the zoom, the part of the map in view and how many pieces stand
 * in it. Event thread only.
 */
final class Views {
  private Views() { }

  static List<Object> list() {
    final List<Object> out = new ArrayList<>();
    for (final VASSAL.build.module.Map map : VASSAL.build.module.Map.getMapList()) {
      out.add(view(map));
    }
    return out;
  }

  private static Map<String, Object> view(VASSAL.build.module.Map map) {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", map.getMapName());
    m.put("main_window", map.shouldDockIntoMainWindow());
    m.put("showing", map.getView().isShowing());
    final Window window = SwingUtilities.getWindowAncestor(map.getView());
    m.put("window_open", window != null && window.isShowing());
    final List<Object> boards = new ArrayList<>();
    for (final Board b : map.getBoards()) boards.add(b.getName());
    m.put("boards", boards);
    m.put("zoom", map.getZoom());
    m.put("size", List.of(map.mapSize().width, map.mapSize().height));
    final Rectangle seen = map.componentToMap(map.getView().getVisibleRect());
    m.put("view", List.of(seen.x, seen.y, seen.width, seen.height));
    int pieces = 0;
    int inView = 0;
    for (final GamePiece p : map.getAllPieces()) {
      final List<GamePiece> members = new ArrayList<>();
      if (p instanceof Stack) members.addAll(((Stack) p).asList());
      else members.add(p);
      for (final GamePiece q : members) {
        pieces++;
        if (seen.contains(q.getPosition())) inView++;
      }
    }
    m.put("pieces", pieces);
    m.put("pieces_in_view", inView);
    return m;
  }
}
