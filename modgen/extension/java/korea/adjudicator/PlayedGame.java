package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import VASSAL.command.Command;

/**
 * What the VASSAL game being played says it is, kept in the game's own state (never a token):
 * its scenario, the recorded game it belongs to (a game id at the server; "" for none), and the
 * stand-ins already stated in its chat. The game carries it, not a file name, so a reload, a new
 * log after "Start new logfile?", a "Save As" and a continued log all know what they are.
 *
 * It travels as one command, {@code korea.adjudicator.game<TAB>{json}}: written into every
 * save and at the start of every log by the engine (the extension's restore command), into
 * the predefined setups by the module generator (modgen.extension.game_state_command), and sent
 * and logged when it changes in play (a recorded game created or joined), so the other player's
 * extension and a replayed log learn it too. Unknown members are kept, so a later extension can
 * add its own without losing them.
 *
 * It also says where the recorded game lives ({@code server}: the adjudicator's public address,
 * so a player who joins the game later, or synchronises in a VASSAL server's room, sends his token
 * only there) and, in live play, the live session of the sitting ({@code live}: every player's log
 * of it names it; Adjudicator, Live).
 *
 * The position's place in the chain of logs ({@code log_session}: the log session the game was
 * last logged in, and {@code log_chain}: the sessions before it, oldest first) travels only in
 * what the engine writes as the game's state — a save, the start of a log, the state a player
 * synchronising in a room receives — so the file a player loads tells the log he begins which
 * session it continues. A change sent live says nothing of it: each player's log session is his
 * own (Adjudicator keeps it), and a state received from another player never replaces it.
 */
final class PlayedGame {
  static final String COMMAND_PREFIX = "korea.adjudicator.game\t";

  final String scenario;             // scenario id; "" unknown
  final String gameId;               // recorded game id; "" none
  final List<String> standInsStated; // stand-in labels already stated in this game's chat
  final String server;               // the recorded game's adjudicator (its public address); "" not said
  final String live;                 // the live session of this sitting; "" none (not played in a room)
  final LogSession session;          // the log session this position was last logged in; null: none yet
  final List<String> chain;          // the sessions before it, oldest first
  final boolean saysPosition;        // decoded from a state that said where the position stands (a save, a log, a synchronisation)
  private final Map<String, Object> others;  // members this version does not know, kept as they came

  /**
   * One log session: its id, the session of the file it continues (null: the setup), a digest of
   * the position it began from, and its place in the game's chain of files (1: the first).
   */
  static final class LogSession {
    final String id;
    final String parent;
    final String start;
    final int file;
    final String live;  // the live session it is kept in; null: none

    LogSession(String id, String parent, String start, int file) {
      this(id, parent, start, file, null);
    }

    LogSession(String id, String parent, String start, int file, String live) {
      this.id = id;
      this.parent = parent;
      this.start = start;
      this.file = file;
      this.live = live == null || live.isEmpty() ? null : live;
    }

    /** The same session, kept in a live session from now on (the game went live while it was kept). */
    LogSession withLive(String sitting) {
      return new LogSession(id, parent, start, file, sitting);
    }

    /** As a game-mode request's {@code log_session} and in the game's state. */
    Map<String, Object> toJson() {
      final Map<String, Object> json = new LinkedHashMap<>();
      json.put("id", id);
      json.put("parent", parent);
      json.put("start", start);
      json.put("file", (long) file);
      if (live != null) json.put("live", live);
      return json;
    }

    static LogSession of(Object o) {
      if (!(o instanceof Map)) return null;
      final Map<String, Object> json = Schema.map(o);
      if (!(json.get("id") instanceof String)) return null;
      return new LogSession((String) json.get("id"), json.get("parent") instanceof String ? (String) json.get("parent") : null,
                            json.get("start") instanceof String ? (String) json.get("start") : null,
                            json.get("file") instanceof Number ? ((Number) json.get("file")).intValue() : 1,
                            json.get("live") instanceof String ? (String) json.get("live") : null);
    }
  }

  PlayedGame(String scenario, String gameId, List<String> standInsStated) {
    this(scenario, gameId, standInsStated, "", "", null, List.of(), false, Map.of());
  }

  private PlayedGame(String scenario, String gameId, List<String> standInsStated, String server, String live,
                     LogSession session, List<String> chain, boolean saysPosition, Map<String, Object> others) {
    this.scenario = scenario == null ? "" : scenario;
    this.gameId = gameId == null ? "" : gameId;
    this.standInsStated = List.copyOf(standInsStated);
    this.server = server == null ? "" : server;
    this.live = live == null ? "" : live;
    this.session = session;
    this.chain = List.copyOf(chain);
    this.saysPosition = saysPosition;
    this.others = others;
  }

  static PlayedGame none() {
    return new PlayedGame("", "", List.of());
  }

  boolean known() {
    return !scenario.isEmpty();
  }

  boolean recorded() {
    return !gameId.isEmpty();
  }

  PlayedGame withScenario(String s) {
    return new PlayedGame(s, gameId, standInsStated, server, live, session, chain, saysPosition, others);
  }

  PlayedGame withGameId(String id) {
    return new PlayedGame(scenario, id, standInsStated, server, live, session, chain, saysPosition, others);
  }

  /** The recorded game's adjudicator, at its public address. */
  PlayedGame withServer(String address) {
    return new PlayedGame(scenario, gameId, standInsStated, address, live, session, chain, saysPosition, others);
  }

  /** The live session of this sitting ("": none). */
  PlayedGame withLive(String sitting) {
    return new PlayedGame(scenario, gameId, standInsStated, server, sitting, session, chain, saysPosition, others);
  }

  /**
   * This state, with the position's place in the chain of logs taken from {@code where}: what a
   * state sent live (which says nothing of it) leaves as it was.
   */
  PlayedGame withPositionOf(PlayedGame where) {
    return new PlayedGame(scenario, gameId, standInsStated, server, live, where.session, where.chain, false, others);
  }

  /**
   * A log begun from this position: a new session continuing the one this position was logged
   * in (its parent), one file further along the chain, in this sitting's live session if any.
   */
  PlayedGame withNewSession(String id, String start) {
    final List<String> before = new ArrayList<>(chain);
    if (session != null) before.add(session.id);
    final LogSession begun = new LogSession(id, session == null ? null : session.id, start, before.size() + 1, live);
    return new PlayedGame(scenario, gameId, standInsStated, server, live, begun, before, saysPosition, others);
  }

  /** The position, last logged in {@code logged} (this player's own session, kept live since) after {@code before}. */
  PlayedGame withSession(LogSession logged, List<String> before) {
    return new PlayedGame(scenario, gameId, standInsStated, server, live, logged, before, saysPosition, others);
  }

  PlayedGame withStandIns(List<String> more) {
    final LinkedHashSet<String> all = new LinkedHashSet<>(standInsStated);
    all.addAll(more);
    return new PlayedGame(scenario, gameId, new ArrayList<>(all), server, live, session, chain, saysPosition, others);
  }

  /** The stand-ins of {@code labels} not stated yet in this game. */
  List<String> notStated(List<String> labels) {
    final List<String> out = new ArrayList<>();
    for (final String l : labels) {
      if (!standInsStated.contains(l) && !out.contains(l)) out.add(l);
    }
    return out;
  }

  /** What the game is, as a change sent live says it: without the log sessions (each player's own). */
  String encode() {
    return COMMAND_PREFIX + Json.write(shared());
  }

  /**
   * The game's state as the engine writes it (a save, a log's start, a synchronisation): with the
   * log session the position was last logged in and the sessions before it.
   */
  String encodeWithPosition() {
    final Map<String, Object> json = shared();
    json.put("log_session", session == null ? null : session.toJson());
    json.put("log_chain", new ArrayList<Object>(session == null ? List.of() : chain));
    return COMMAND_PREFIX + Json.write(json);
  }

  private Map<String, Object> shared() {
    final Map<String, Object> json = new LinkedHashMap<>(others);
    json.put("scenario", scenario);
    json.put("game_id", gameId);
    json.put("stand_ins_stated", new ArrayList<Object>(standInsStated));
    if (!server.isEmpty()) json.put("server", server);
    if (!live.isEmpty()) json.put("live", live);
    return json;
  }

  /** The state a command string carries, or null when it is no such command (or damaged). */
  static PlayedGame decode(String command) {
    if (command == null || !command.startsWith(COMMAND_PREFIX)) return null;
    try {
      final Map<String, Object> json = new LinkedHashMap<>(Json.parseObject(command.substring(COMMAND_PREFIX.length())));
      final String scenario = text(json.remove("scenario"));
      final String gameId = text(json.remove("game_id"));
      final List<String> stated = new ArrayList<>();
      for (final Object o : Schema.list(json.remove("stand_ins_stated"))) stated.add(String.valueOf(o));
      final String server = text(json.remove("server"));
      final String live = text(json.remove("live"));
      final boolean saysPosition = json.containsKey("log_session");
      final LogSession session = LogSession.of(json.remove("log_session"));
      final List<String> chain = new ArrayList<>();
      for (final Object o : Schema.list(json.remove("log_chain"))) chain.add(String.valueOf(o));
      return new PlayedGame(scenario, gameId, stated, server, live, session, session == null ? List.of() : chain,
                            saysPosition, json);
    }
    catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String text(Object o) {
    return o == null ? "" : String.valueOf(o);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PlayedGame && ((PlayedGame) o).encodeWithPosition().equals(encodeWithPosition());
  }

  @Override
  public int hashCode() {
    return encodeWithPosition().hashCode();
  }

  /**
   * The command that makes the game say this: the engine's restore command (with the position's
   * place in the chain of logs), or a change executed here, sent to the other players and logged
   * (without it: a player's log session is his own).
   */
  static final class Change extends Command {
    private final Adjudicator adjudicator;
    final PlayedGame state;
    final boolean withPosition;

    Change(Adjudicator adjudicator, PlayedGame state, boolean withPosition) {
      this.adjudicator = adjudicator;
      this.state = state;
      this.withPosition = withPosition;
    }

    String encoded() {
      return withPosition ? state.encodeWithPosition() : state.encode();
    }

    @Override
    protected void executeCommand() {
      adjudicator.played(state);
    }

    @Override
    protected Command myUndoCommand() {
      return null;
    }
  }
}
