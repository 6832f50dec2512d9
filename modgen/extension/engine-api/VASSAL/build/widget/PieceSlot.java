package VASSAL.build.widget;

import VASSAL.counters.GamePiece;

/** Compile-only declaration (see ../../../README.md): a palette's piece (VASSAL.build.widget.PieceSlot). */
public class PieceSlot {
  public GamePiece getPiece() { return null; }
}
