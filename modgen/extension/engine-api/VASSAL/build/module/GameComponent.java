package VASSAL.build.module;

import VASSAL.command.Command;

/** Compile-only declaration (see ../../../README.md): the engine's VASSAL.build.module.GameComponent. */
public interface GameComponent {
  void setup(boolean gameStarting);

  Command getRestoreCommand();
}
