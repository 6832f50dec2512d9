package VASSAL.chat;

import VASSAL.command.Command;

/** Compile-only declaration (see ../../README.md): VASSAL.chat.HybridClient, the module's server connection, and its delegate. */
public class HybridClient implements ChatServerConnection {
  public ChatServerConnection getDelegate() { return null; }

  @Override
  public Room getRoom() { return null; }

  @Override
  public void setRoom(Room r) { }

  @Override
  public Room[] getAvailableRooms() { return null; }

  @Override
  public Player getUserInfo() { return null; }

  @Override
  public void setUserInfo(Player p) { }

  @Override
  public void sendTo(Player recipient, Command c) { }

  @Override
  public void sendToOthers(Command c) { }

  @Override
  public void setConnected(boolean connect) { }

  @Override
  public boolean isConnected() { return false; }

  @Override
  public void addPropertyChangeListener(String propertyName, java.beans.PropertyChangeListener l) { }
}
