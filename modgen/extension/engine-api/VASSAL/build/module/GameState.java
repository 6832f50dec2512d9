package VASSAL.build.module;

import java.util.Collection;

import VASSAL.counters.GamePiece;

/** Compile-only declaration (see ../../../README.md): the members of VASSAL.build.module.GameState the extension calls. */
public class GameState {
  public boolean isGameStarted() { return false; }

  public void addGameComponent(GameComponent theComponent) { }

  public Collection<GamePiece> getAllPieces() { return null; }
}
