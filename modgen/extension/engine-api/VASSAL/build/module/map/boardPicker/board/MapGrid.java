package VASSAL.build.module.map.boardPicker.board;

import java.awt.Point;

/** Compile-only declaration (see ../../../../../../README.md): the members of VASSAL.build.module.map.boardPicker.board.MapGrid the extension calls. */
public interface MapGrid {
  Point getLocation(String location) throws BadCoords;

  final class BadCoords extends Exception {
    private static final long serialVersionUID = 1L;
  }
}
