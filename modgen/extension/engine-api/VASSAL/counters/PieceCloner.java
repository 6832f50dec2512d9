package VASSAL.counters;

/** Compile-only declaration (see ../../README.md): a new piece like a palette's (VASSAL.counters.PieceCloner). */
public class PieceCloner {
  public static PieceCloner getInstance() { return null; }

  public GamePiece clonePiece(GamePiece piece) { return null; }
}
