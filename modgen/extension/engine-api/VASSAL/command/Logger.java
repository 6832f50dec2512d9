package VASSAL.command;

/** Compile-only declaration (see ../../README.md): the engine's VASSAL.command.Logger (an interface). */
public interface Logger {
  void log(Command c);
}
