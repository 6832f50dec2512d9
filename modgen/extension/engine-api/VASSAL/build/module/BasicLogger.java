package VASSAL.build.module;

/** Compile-only declaration (see ../../../README.md): the members of VASSAL.build.module.BasicLogger the extension calls. */
public class BasicLogger implements VASSAL.command.Logger {
  public boolean isLogging() { return false; }
}
