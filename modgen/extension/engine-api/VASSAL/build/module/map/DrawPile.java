package VASSAL.build.module.map;

import VASSAL.counters.Deck;

/** Compile-only declaration (see ../../../../README.md): a module's deck of pieces (VASSAL.build.module.map.DrawPile). */
public class DrawPile {
  public static DrawPile findDrawPile(String name) { return null; }

  public Deck getDeck() { return null; }
}
