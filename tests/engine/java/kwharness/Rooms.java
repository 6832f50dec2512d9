package kwharness;

import java.awt.Component;
import java.awt.Point;
import java.awt.Rectangle;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import javax.swing.AbstractButton;
import javax.swing.JTextField;
import javax.swing.JTree;
import javax.swing.SwingUtilities;
import javax.swing.tree.DefaultMutableTreeNode;
import javax.swing.tree.TreePath;

import VASSAL.build.GameModule;
import VASSAL.build.module.ServerConnection;
import VASSAL.chat.ChatServerConnection;
import VASSAL.chat.Player;
import VASSAL.chat.Room;
import VASSAL.chat.ServerAddressBook;
import VASSAL.chat.ui.ChatServerControls;

/**
 * Live play in a room of a VASSAL server (VASSAL.chat.node.Server, run by the test on loopback),
 * and the steps that let several engine runs, each its own Player, wait for one another. The
 * Server controls are used as a person uses them: the address book's private server entry set to
 * the test's host and port (what its edit dialog does), then a click on Connect, a room typed in
 * "New Game" with Enter, a double-click on a room in the room tree, a click on Disconnect. What
 * happens in the room is waited for, never slept on: a room holding so many players, a signal
 * another run raised (a file in the folder the test gives all runs, -Dkwharness.signals), a
 * chat line (wait_chat), a piece's state (wait_piece).
 */
final class Rooms {
  private final Person person;

  Rooms(Person person) {
    this.person = person;
  }

  private static ChatServerControls controls() {
    final ChatServerControls c = GameModule.getGameModule().getServerControls();
    if (c == null) throw new IllegalStateException("the module has no Server controls");
    return c;
  }

  private static ChatServerConnection client() {
    final ServerConnection s = GameModule.getGameModule().getServer();
    if (!(s instanceof ChatServerConnection)) throw new IllegalStateException("the module's server has no rooms: " + s);
    return (ChatServerConnection) s;
  }

  /** The Server controls on the screen (their toolbar button clicked when they are not). */
  private void showControls() throws Exception {
    if ((Boolean) Steps.onEdt(() -> controls().getControls().isShowing())) return;
    final Component launch = (Component) Steps.onEdt(() -> {
      final java.lang.reflect.Field f = ChatServerControls.class.getDeclaredField("launch");
      f.setAccessible(true);
      return f.get(controls());
    });
    person.click(launch);
    Person.waitFor(() -> controls().getControls().isShowing() ? Boolean.TRUE : null, "the Server controls did not open");
  }

  /** A button of the Server controls' toolbar by its tooltip ("Connect", "Disconnect"). */
  private static AbstractButton toolbarButton(String tip) {
    return (AbstractButton) Person.walk(controls().getToolbar(), k -> k instanceof AbstractButton
      && tip.equals(((AbstractButton) k).getToolTipText()) && k.isShowing());
  }

  /** server_connect {host, port}: the private server's address set, then Connect clicked; waits until connected. */
  Object connect(Map<String, Object> step) throws Exception {
    final String host = Steps.str(step, "host");
    final String port = Steps.str(step, "port");
    Steps.onEdt(() -> {
      final Properties p = new Properties();
      p.setProperty("type", "private");
      p.setProperty("description", "Loopback");
      p.setProperty("nodeHost", host);
      p.setProperty("nodePort", port);
      ServerAddressBook.getInstance().setCurrentServer(p);
      return null;
    });
    showControls();
    final AbstractButton connect = (AbstractButton) Person.waitFor(() -> {
      final AbstractButton b = toolbarButton("Connect");
      return b != null && b.isEnabled() ? b : null;
    }, "no enabled Connect button in the Server controls");
    person.click(connect);
    Person.waitFor(() -> client().isConnected() ? Boolean.TRUE : null, "not connected to " + host + ":" + port);
    return Map.of("connected", true);
  }

  /** server_disconnect: Disconnect clicked (the room connection down, as a lost one); waits until it is. */
  Object disconnect() throws Exception {
    showControls();
    final AbstractButton button = (AbstractButton) Person.waitFor(() -> {
      final AbstractButton b = toolbarButton("Disconnect");
      return b != null && b.isEnabled() ? b : null;
    }, "no enabled Disconnect button in the Server controls");
    person.click(button);
    Person.waitFor(() -> client().isConnected() ? null : Boolean.TRUE, "still connected");
    return Map.of("connected", false);
  }

  /** room_create {name}: the name typed in "New Game", Enter; waits until this player is in it. */
  Object create(String name) throws Exception {
    showControls();
    final JTextField field = (JTextField) Steps.onEdt(() -> {
      final java.lang.reflect.Field f = ChatServerControls.class.getDeclaredField("newRoom");
      f.setAccessible(true);
      return f.get(controls());
    });
    person.type(field, name, true);
    person.press("ENTER");
    return waitInRoom(name, 30_000);
  }

  /** room_join {name}: a double-click on the room in the room tree; waits until this player is in it. */
  Object join(String name) throws Exception {
    showControls();
    final JTree tree = (JTree) Steps.onEdt(() -> {
      final java.lang.reflect.Field f = ChatServerControls.class.getDeclaredField("roomTree");
      f.setAccessible(true);
      return f.get(controls());
    });
    Person.waitFor(() -> rowOf(tree, name) >= 0 ? Boolean.TRUE : null, "no room '" + name + "' in the room tree");
    waitSynchronisationAllowed(name);
    final boolean hadGame = (Boolean) Steps.onEdt(() -> GameModule.getGameModule().getGameState().isGameStarted());
    person.doubleClickAt(tree, rowPoint(tree, () -> rowOf(tree, name), "the room '" + name + "'"));
    waitInRoom(name, 30_000);
    @SuppressWarnings("unchecked")
    final Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) room());
    out.put("synchronised", synchronise(hadGame));
    return out;
  }

  /** Where a person clicks a row of a tree (found again each time: the tree changes as players come and go). */
  private static Person.Where rowPoint(JTree tree, java.util.function.IntSupplier row, String what) {
    return () -> (Point) Steps.onEdt(() -> {
      final int at = row.getAsInt();
      if (at < 0) throw new IllegalStateException(what + " left the tree");
      tree.scrollRowToVisible(at);
      final Rectangle r = tree.getRowBounds(at);
      final Point p = new Point(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
      SwingUtilities.convertPointToScreen(p, tree);
      return p;
    });
  }

  /**
   * The game of a room joined comes to a player who does not own it: the engine asks the owner for
   * it once the server's next room list arrives (closing his own game first: its questions, "Save
   * Game?", "Unsaved log", are the script's to answer). VASSAL 3.7.26's NodeClient.joinRoom sends
   * the join before it marks the synchronisation as awaited (pendingSynchToRoom), so on loopback the
   * server's list can come first: the engine then waits for the next list, which comes whenever any
   * player next enters or leaves a room, a synchronisation at a moment nobody chose. A person who
   * sees nothing come does what the room's message tells him: a right click on the owner's name,
   * Synchronize; the harness then drops the engine's stale mark, so that no second synchronisation
   * surprises him later. Answers "engine", "by hand" or "" (he owns the room: nothing comes).
   */
  private String synchronise(boolean hadGame) throws Exception {
    final ChatServerConnection c = client();
    final ChatServerConnection node = c instanceof VASSAL.chat.HybridClient ? ((VASSAL.chat.HybridClient) c).getDelegate() : c;
    if (!(node instanceof VASSAL.chat.node.NodeClient)) return "";
    if ((Boolean) Steps.onEdt(() -> ((VASSAL.chat.node.NodeClient) node).isOwner())) return "";
    final java.lang.reflect.Field pending = VASSAL.chat.node.NodeClient.class.getDeclaredField("pendingSynchToRoom");
    pending.setAccessible(true);
    final long end = System.currentTimeMillis() + 3000;
    while (System.currentTimeMillis() < end) {
      if (pending.get(node) == null || (Boolean) Steps.onEdt(() -> synchronising(hadGame))) return "engine";
      Thread.sleep(50);
    }
    pending.set(node, null);
    final JTree players = controls().getCurrentRoom();
    person.rightClickAt(players, rowPoint(players, () -> ownerRow(players), "the room's owner"));
    person.menu(List.of("Synchronize"));
    return "by hand";
  }

  /** The engine is at it: it closed the game this player had, or asks him a question before it does. */
  private static boolean synchronising(boolean hadGame) {
    if (hadGame && !GameModule.getGameModule().getGameState().isGameStarted()) return true;
    for (final java.awt.Window w : java.awt.Window.getWindows()) {
      if (w instanceof java.awt.Dialog && w.isShowing() && ((java.awt.Dialog) w).isModal()) return true;
    }
    return false;
  }

  /** The row of the room owner's name in the current room's tree (else of the first other player), or -1. */
  private static int ownerRow(JTree tree) {
    final Room room = client().getRoom();
    String owner = null;
    for (final Room r : client().getAvailableRooms()) {
      if (r instanceof VASSAL.chat.node.NodeRoom && room != null && r.getName().equals(room.getName())) {
        owner = ((VASSAL.chat.node.NodeRoom) r).getOwner();
      }
    }
    final Player me = client().getUserInfo();
    int other = -1;
    for (int row = 0; row < tree.getRowCount(); row++) {
      final Object node = tree.getPathForRow(row).getLastPathComponent();
      final Object user = node instanceof DefaultMutableTreeNode ? ((DefaultMutableTreeNode) node).getUserObject() : null;
      if (!(user instanceof Player) || (me != null && me.getId().equals(((Player) user).getId()))) continue;
      if (((Player) user).getId().equals(owner)) return row;
      if (other < 0) other = row;
    }
    return other;
  }

  /**
   * The engine refuses a second synchronisation with a room within 15 s of the last
   * (SynchAction.TOO_SOON: "Too soon to send another synchronization request"); a person coming
   * back that quickly waits as its message says. Waits until the engine would synchronise.
   */
  private static void waitSynchronisationAllowed(String room) throws Exception {
    final Class<?> synch = Class.forName("VASSAL.chat.ui.SynchAction");
    final java.lang.reflect.Field lastRoom = synch.getDeclaredField("lastRoom");
    final java.lang.reflect.Field lastSync = synch.getDeclaredField("lastSync");
    lastRoom.setAccessible(true);
    lastSync.setAccessible(true);
    final long end = System.currentTimeMillis() + 30_000;
    while (true) {
      final Room last = (Room) lastRoom.get(null);
      final long since = System.currentTimeMillis() - lastSync.getLong(null);
      if (last == null || !room.equals(last.getName()) || since > 15_500) return;
      if (System.currentTimeMillis() > end) throw new IllegalStateException("the engine still refuses to synchronise");
      Thread.sleep(100);
    }
  }

  private static int rowOf(JTree tree, String name) {
    for (int row = 0; row < tree.getRowCount(); row++) {
      final TreePath path = tree.getPathForRow(row);
      final Object node = path.getLastPathComponent();
      final Object user = node instanceof DefaultMutableTreeNode ? ((DefaultMutableTreeNode) node).getUserObject() : null;
      if (user instanceof Room && name.equals(((Room) user).getName())) return row;
    }
    return -1;
  }

  private Object waitInRoom(String name, long timeoutMs) throws Exception {
    final long end = System.currentTimeMillis() + timeoutMs;
    while (true) {
      final Object in = Steps.onEdt(() -> {
        final Room r = client().isConnected() ? client().getRoom() : null;
        return r != null && name.equals(r.getName()) ? Boolean.TRUE : null;
      });
      if (in != null) return room();
      if (System.currentTimeMillis() > end) throw new IllegalStateException("not in room '" + name + "' within " + timeoutMs / 1000 + " s");
      Thread.sleep(50);
    }
  }

  /** wait_room {players, timeout}: waits until this player's room holds that many players (him included). */
  Object waitPlayers(Map<String, Object> step) throws Exception {
    final int want = ((Number) step.get("players")).intValue();
    final long end = System.currentTimeMillis() + (long) (((Number) step.getOrDefault("timeout", 30L)).doubleValue() * 1000);
    while (true) {
      @SuppressWarnings("unchecked")
      final Map<String, Object> now = (Map<String, Object>) room();
      if (((List<?>) now.get("players")).size() == want) return now;
      if (System.currentTimeMillis() > end) throw new IllegalStateException("the room holds " + now.get("players") + ", not " + want + " players");
      Thread.sleep(50);
    }
  }

  /** The room this player is in now and who is in it. */
  static Object room() throws Exception {
    return Steps.onEdt(() -> {
      final Map<String, Object> out = new LinkedHashMap<>();
      final Room r = client().isConnected() ? client().getRoom() : null;
      out.put("room", r == null ? null : r.getName());
      final List<String> players = new java.util.ArrayList<>();
      if (r != null && r.getPlayerList() != null) for (final Player p : r.getPlayerList()) players.add(p.getName());
      out.put("players", players);
      return out;
    });
  }

  // ---- several runs at once --------------------------------------------------------------

  private static File signals() {
    final String dir = System.getProperty("kwharness.signals", "");
    if (dir.isEmpty()) throw new IllegalStateException("no signals folder: run with -Dkwharness.signals (harness.run_engines)");
    return new File(dir);
  }

  /** signal {name, text}: raises a signal the other runs can wait for (a file, written whole). */
  static Object signal(String name, String text) throws Exception {
    final File f = new File(signals(), name);
    final File tmp = new File(signals(), "." + name + ".tmp");
    Files.writeString(tmp.toPath(), text == null ? "" : text, StandardCharsets.UTF_8);
    Files.move(tmp.toPath(), f.toPath(), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    return Map.of("signal", name);
  }

  /** The name this run goes by among those run with it (-Dkwharness.player: its slot). */
  private static String me() {
    return System.getProperty("kwharness.player", "0");
  }

  /**
   * This run failed (a step, or its timeout): the others run with it are told (a signal
   * "failed-<player>"), so none waits out its timeouts for a partner that will never come.
   */
  static void failed(String why) {
    if (System.getProperty("kwharness.signals", "").isEmpty()) return;
    try {
      signal("failed-" + me(), "player " + me() + " " + why);
    }
    catch (Exception e) {
      System.err.println("kw-harness: cannot signal the failure: " + e);
    }
  }

  /** Calls {@code stop} with the reason once another run made with this one failed (a daemon thread; no signals folder: never). */
  static void watchPartners(java.util.function.Consumer<String> stop) {
    if (System.getProperty("kwharness.signals", "").isEmpty()) return;
    final Thread t = new Thread(() -> {
      try {
        while (true) {
          final File[] found = signals().listFiles((d, n) -> n.startsWith("failed-") && !n.equals("failed-" + me()));
          if (found != null && found.length > 0) {
            stop.accept(Files.readString(found[0].toPath(), StandardCharsets.UTF_8));
            return;
          }
          Thread.sleep(200);
        }
      }
      catch (Exception e) {
        System.err.println("kw-harness: stopped watching the other runs: " + e);
      }
    }, "kw-harness-partners");
    t.setDaemon(true);
    t.start();
  }

  /** A line per step as it starts, in "progress-<player>" of the signals folder: where a long run of several Players is, while it runs. */
  static void progress(int index, Map<String, Object> step) {
    if (System.getProperty("kwharness.signals", "").isEmpty()) return;
    final String line = java.time.LocalTime.now() + " step " + index + " " + Json.write(step) + "\n";
    try {
      Files.writeString(new File(signals(), "progress-" + me()).toPath(), line, StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }
    catch (Exception e) {
      System.err.println("kw-harness: cannot write progress: " + e);
    }
  }

  /** wait_signal {name, timeout}: waits until another run raised it; answers what it said. */
  static Object waitSignal(String name, double timeoutSeconds) throws Exception {
    final File f = new File(signals(), name);
    final long end = System.currentTimeMillis() + (long) (timeoutSeconds * 1000);
    while (!f.isFile()) {
      if (System.currentTimeMillis() > end) throw new IllegalStateException("no signal '" + name + "' within " + timeoutSeconds + " s");
      Thread.sleep(50);
    }
    return Map.of("signal", name, "text", Files.readString(f.toPath(), StandardCharsets.UTF_8));
  }
}
