package VASSAL.counters;

/** Compile-only declaration (see ../../README.md): pieces in turn (VASSAL.counters.PieceIterator). */
public class PieceIterator {
  public GamePiece nextPiece() { return null; }

  public boolean hasMoreElements() { return false; }
}
