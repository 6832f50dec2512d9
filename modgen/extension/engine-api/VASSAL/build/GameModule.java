package VASSAL.build;

import java.util.List;

import javax.swing.JToolBar;

import VASSAL.build.module.Chatter;
import VASSAL.build.module.GameState;
import VASSAL.command.Command;
import VASSAL.launch.PlayerWindow;
import VASSAL.preferences.Prefs;

/** Compile-only declaration (see ../../README.md): the members of VASSAL.build.GameModule the extension calls. */
public class GameModule {
  public static GameModule getGameModule() { return null; }

  public JToolBar getToolBar() { return null; }

  public Chatter getChatter() { return null; }

  public void sendAndLog(Command c) { }

  public void addCommandEncoder(VASSAL.command.CommandEncoder ce) { }

  public void warn(String s) { }

  public Prefs getPrefs() { return null; }

  public GameState getGameState() { return null; }

  public VASSAL.command.Logger getLogger() { return null; }

  public VASSAL.build.module.ServerConnection getServer() { return null; }

  public VASSAL.build.module.PlayerRoster getPlayerRoster() { return null; }

  public PlayerWindow getPlayerWindow() { return null; }

  public String getGameName() { return null; }

  public String getGameFile() { return null; }

  /** Declared by the engine in AbstractBuildable, GameModule's ancestor. */
  public <T> List<T> getAllDescendantComponentsOf(Class<T> target) { return null; }
}
