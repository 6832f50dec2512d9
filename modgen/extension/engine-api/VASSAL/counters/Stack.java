package VASSAL.counters;

import java.util.List;

/** Compile-only declaration (see ../../README.md): VASSAL.counters.Stack (Decks are Stacks too). */
public abstract class Stack implements GamePiece {
  public List<GamePiece> asList() { return null; }

  public int getPieceCount() { return 0; }
}
