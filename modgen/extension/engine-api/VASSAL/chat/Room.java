package VASSAL.chat;

import java.util.List;

/** Compile-only declaration (see ../../README.md): VASSAL.chat.Room, a room of a server. */
public interface Room {
  String getName();

  List<Player> getPlayerList();

  void addPlayer(Player p);

  void removePlayer(Player p);
}
