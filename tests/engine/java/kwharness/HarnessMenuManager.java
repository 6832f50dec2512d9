package kwharness;

import javax.swing.JFrame;
import javax.swing.JMenuBar;

import VASSAL.launch.PlayerWindow;
import VASSAL.tools.menu.MenuBarProxy;
import VASSAL.tools.menu.MenuManager;

/** The engine needs exactly one MenuManager before a GameModule can be built (the Player makes its own). */
final class HarnessMenuManager extends MenuManager {
  private final MenuBarProxy menuBar = new MenuBarProxy();

  @Override
  public JMenuBar getMenuBarFor(JFrame fc) {
    return (fc instanceof PlayerWindow) ? menuBar.createPeer() : null;
  }

  @Override
  public MenuBarProxy getMenuBarProxyFor(JFrame fc) {
    return (fc instanceof PlayerWindow) ? menuBar : null;
  }
}
