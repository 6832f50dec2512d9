package VASSAL.counters;

/** Compile-only declaration (see ../../README.md): the pieces of a DrawPile (VASSAL.counters.Deck). */
public abstract class Deck extends Stack {
  public boolean isAccessible() { return false; }

  public PieceIterator drawCards() { return null; }
}
