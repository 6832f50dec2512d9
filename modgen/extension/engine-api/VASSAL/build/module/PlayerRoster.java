package VASSAL.build.module;

/** Compile-only declaration (see ../../../README.md): the members of VASSAL.build.module.PlayerRoster the extension calls. */
public class PlayerRoster {
  public static String getMySide() { return null; }

  public void addSideChangeListenerToInstance(SideChangeListener l) { }

  /** Call-back interface for when a player changes sides during a game. */
  @FunctionalInterface
  public interface SideChangeListener {
    void sideChanged(String oldSide, String newSide);
  }
}
