package VASSAL.counters;

/** Compile-only declaration (see ../../README.md): VASSAL.counters.PieceFinder and the finder the right-click menu uses. */
public interface PieceFinder {
  PieceFinder PIECE_IN_STACK = null;
}
