package VASSAL.chat.node;

import VASSAL.chat.ChatServerConnection;
import VASSAL.chat.LockableChatServerConnection;
import VASSAL.chat.Player;
import VASSAL.chat.Room;
import VASSAL.command.Command;

/** Compile-only declaration (see ../../../README.md): VASSAL.chat.node.NodeClient, a VASSAL server's client, and whether it owns its room. */
public class NodeClient implements LockableChatServerConnection {
  /** Whether this player owns the room he is in (the main room: true). */
  public boolean isOwner() { return false; }

  @Override
  public boolean isDefaultRoom(Room r) { return false; }

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
