package VASSAL.counters;

import java.awt.Point;

import VASSAL.build.module.Map;

/** Compile-only declaration (see ../../README.md): the members of VASSAL.counters.GamePiece the extension calls. */
public interface GamePiece {
  Map getMap();

  Point getPosition();

  String getName();

  String getId();

  Object getProperty(Object key);

  String getType();

  String getState();
}
