package VASSAL.counters;

import java.awt.Point;
import java.util.List;

/** Compile-only declaration (see ../../README.md): the selected pieces (VASSAL.counters.KeyBuffer). */
public class KeyBuffer {
  public static KeyBuffer getBuffer() { return null; }

  public List<GamePiece> asList() { return null; }

  public Point getClickPoint() { return null; }
}
