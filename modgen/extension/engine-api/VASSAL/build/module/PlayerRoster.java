package VASSAL.build.module;

/** Compile-only declaration (see ../../../README.md): the member of VASSAL.build.module.PlayerRoster the extension calls. */
public class PlayerRoster {
  public static String getMySide() { return null; }
}
