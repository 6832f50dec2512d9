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
 * It also names the log session the game was last logged in ({@code log_session}) and the
 * sessions before it ({@code log_chain}, oldest first): a game by e-mail is a chain of log files,
 * and the file a player loads tells the log he begins which session it continues.
 */
final class PlayedGame {
  static final String COMMAND_PREFIX = "korea.adjudicator.game\t";

  final String scenario;             // scenario id; "" unknown
  final String gameId;               // recorded game id; "" none
  final List<String> standInsStated; // stand-in labels already stated in this game's chat
  final LogSession session;          // the log session this position was last logged in; null: none yet
  final List<String> chain;          // the sessions before it, oldest first
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

    LogSession(String id, String parent, String start, int file) {
      this.id = id;
      this.parent = parent;
      this.start = start;
      this.file = file;
    }

    /** As a game-mode request's {@code log_session} and in the game's state. */
    Map<String, Object> toJson() {
      final Map<String, Object> json = new LinkedHashMap<>();
      json.put("id", id);
      json.put("parent", parent);
      json.put("start", start);
      json.put("file", (long) file);
      return json;
    }

    static LogSession of(Object o) {
      if (!(o instanceof Map)) return null;
      final Map<String, Object> json = Schema.map(o);
      if (!(json.get("id") instanceof String)) return null;
      return new LogSession((String) json.get("id"), json.get("parent") instanceof String ? (String) json.get("parent") : null,
                            json.get("start") instanceof String ? (String) json.get("start") : null,
                            json.get("file") instanceof Number ? ((Number) json.get("file")).intValue() : 1);
    }
  }

  PlayedGame(String scenario, String gameId, List<String> standInsStated) {
    this(scenario, gameId, standInsStated, null, List.of(), Map.of());
  }

  private PlayedGame(String scenario, String gameId, List<String> standInsStated, LogSession session, List<String> chain,
                     Map<String, Object> others) {
    this.scenario = scenario == null ? "" : scenario;
    this.gameId = gameId == null ? "" : gameId;
    this.standInsStated = List.copyOf(standInsStated);
    this.session = session;
    this.chain = List.copyOf(chain);
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
    return new PlayedGame(s, gameId, standInsStated, session, chain, others);
  }

  PlayedGame withGameId(String id) {
    return new PlayedGame(scenario, id, standInsStated, session, chain, others);
  }

  /**
   * A log begun from this position: a new session continuing the one this position was logged
   * in (its parent), one file further along the chain.
   */
  PlayedGame withNewSession(String id, String start) {
    final List<String> before = new ArrayList<>(chain);
    if (session != null) before.add(session.id);
    final LogSession begun = new LogSession(id, session == null ? null : session.id, start, before.size() + 1);
    return new PlayedGame(scenario, gameId, standInsStated, begun, before, others);
  }

  PlayedGame withStandIns(List<String> more) {
    final LinkedHashSet<String> all = new LinkedHashSet<>(standInsStated);
    all.addAll(more);
    return new PlayedGame(scenario, gameId, new ArrayList<>(all), session, chain, others);
  }

  /** The stand-ins of {@code labels} not stated yet in this game. */
  List<String> notStated(List<String> labels) {
    final List<String> out = new ArrayList<>();
    for (final String l : labels) {
      if (!standInsStated.contains(l) && !out.contains(l)) out.add(l);
    }
    return out;
  }

  String encode() {
    final Map<String, Object> json = new LinkedHashMap<>(others);
    json.put("scenario", scenario);
    json.put("game_id", gameId);
    json.put("stand_ins_stated", new ArrayList<Object>(standInsStated));
    if (session != null) {
      json.put("log_session", session.toJson());
      json.put("log_chain", new ArrayList<Object>(chain));
    }
    return COMMAND_PREFIX + Json.write(json);
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
      final LogSession session = LogSession.of(json.remove("log_session"));
      final List<String> chain = new ArrayList<>();
      for (final Object o : Schema.list(json.remove("log_chain"))) chain.add(String.valueOf(o));
      return new PlayedGame(scenario, gameId, stated, session, session == null ? List.of() : chain, json);
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
    return o instanceof PlayedGame && ((PlayedGame) o).encode().equals(encode());
  }

  @Override
  public int hashCode() {
    return encode().hashCode();
  }

  /** The command that makes the game say this (executed here, sent to the other players, logged). */
  static final class Change extends Command {
    private final Adjudicator adjudicator;
    final PlayedGame state;

    Change(Adjudicator adjudicator, PlayedGame state) {
      this.adjudicator = adjudicator;
      this.state = state;
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
