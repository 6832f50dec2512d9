package VASSAL.chat;

import VASSAL.build.module.ServerConnection;
import VASSAL.command.Command;

/** Compile-only declaration (see ../../README.md): VASSAL.chat.ChatServerConnection, a server with rooms. */
public interface ChatServerConnection extends ServerConnection {
  String ROOM = "Room";
  String AVAILABLE_ROOMS = "AvailableRooms";
  String DEFAULT_ROOM_NAME = "Main Room";

  Room getRoom();

  void setRoom(Room r);

  Room[] getAvailableRooms();

  Player getUserInfo();

  void setUserInfo(Player p);

  void sendTo(Player recipient, Command c);
}
