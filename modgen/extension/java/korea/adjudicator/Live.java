package korea.adjudicator;

import java.beans.PropertyChangeListener;

import javax.swing.SwingUtilities;

import VASSAL.build.GameModule;
import VASSAL.build.module.ServerConnection;
import VASSAL.chat.ChatServerConnection;
import VASSAL.chat.HybridClient;
import VASSAL.chat.LockableChatServerConnection;
import VASSAL.chat.Room;
import VASSAL.chat.node.NodeClient;

/**
 * Live play: the players at one board in a room of a VASSAL server, each keeping his own log
 * (docs/vassal-extension.md, "Live play"). What the engine's server connection says now: whether
 * this player is in a game room (connected, not the server's main room), how many players it holds
 * and whether he owns it; and a listener that tells the extension when any of that changes (the
 * connection lost or back, a room joined, a player come or gone). The engine sends every command
 * of a player to the others in his room and nothing while his connection is down: what the
 * extension does about that (the game's live session, catching up the rulings a player missed)
 * is Adjudicator's and CatchUp's.
 */
final class Live {
  private static boolean listening;

  /** The room as this player is in it now. */
  static final class Seat {
    final boolean inRoom;   // connected, in a game room (not the server's main room)
    final String room;      // its name ("" when not in one)
    final int players;      // players in it, this one included (0 when not in one)
    final boolean owner;    // this player owns the room (created it)

    Seat(boolean inRoom, String room, int players, boolean owner) {
      this.inRoom = inRoom;
      this.room = room;
      this.players = players;
      this.owner = owner;
    }

    static final Seat NONE = new Seat(false, "", 0, false);
  }

  private Live() { }

  /** Where this player sits now. Event thread. */
  static Seat now() {
    final ServerConnection server = GameModule.getGameModule().getServer();
    if (!(server instanceof ChatServerConnection) || !server.isConnected()) return Seat.NONE;
    final ChatServerConnection chat = (ChatServerConnection) server;
    final ChatServerConnection client = chat instanceof HybridClient ? ((HybridClient) chat).getDelegate() : chat;
    final Room room = chat.getRoom();
    if (room == null || client == null) return Seat.NONE;
    final boolean main = client instanceof LockableChatServerConnection
      ? ((LockableChatServerConnection) client).isDefaultRoom(room) : ChatServerConnection.DEFAULT_ROOM_NAME.equals(room.getName());
    if (main) return Seat.NONE;
    final boolean owner = client instanceof NodeClient && ((NodeClient) client).isOwner();
    return new Seat(true, room.getName(), room.getPlayerList() == null ? 1 : room.getPlayerList().size(), owner);
  }

  /**
   * Runs {@code changed} on the event thread whenever the connection, the room or its players
   * change (once installed, for the module's life; the server exists once the module is built).
   */
  static void listen(Runnable changed) {
    final ServerConnection server = GameModule.getGameModule().getServer();
    if (listening || server == null) return;
    listening = true;
    final PropertyChangeListener l = e -> SwingUtilities.invokeLater(changed);
    server.addPropertyChangeListener(ServerConnection.CONNECTED, l);
    server.addPropertyChangeListener(ChatServerConnection.ROOM, l);
    server.addPropertyChangeListener(ChatServerConnection.AVAILABLE_ROOMS, l);
  }
}
