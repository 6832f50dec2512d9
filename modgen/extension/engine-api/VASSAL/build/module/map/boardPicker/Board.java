package VASSAL.build.module.map.boardPicker;

import java.awt.Rectangle;

import VASSAL.build.module.map.boardPicker.board.MapGrid;

/** Compile-only declaration (see ../../../../../README.md): the members of VASSAL.build.module.map.boardPicker.Board the extension calls. */
public class Board {
  public MapGrid getGrid() { return null; }

  public Rectangle bounds() { return null; }
}
