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
 * add its own (which log a ruling was made in, fog of war) without losing them.
 */
final class PlayedGame {
  static final String COMMAND_PREFIX = "korea.adjudicator.game\t";

  final String scenario;             // scenario id; "" unknown
  final String gameId;               // recorded game id; "" none
  final List<String> standInsStated; // stand-in labels already stated in this game's chat
  private final Map<String, Object> others;  // members this version does not know, kept as they came

  PlayedGame(String scenario, String gameId, List<String> standInsStated) {
    this(scenario, gameId, standInsStated, Map.of());
  }

  private PlayedGame(String scenario, String gameId, List<String> standInsStated, Map<String, Object> others) {
    this.scenario = scenario == null ? "" : scenario;
    this.gameId = gameId == null ? "" : gameId;
    this.standInsStated = List.copyOf(standInsStated);
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
    return new PlayedGame(s, gameId, standInsStated, others);
  }

  PlayedGame withGameId(String id) {
    return new PlayedGame(scenario, id, standInsStated, others);
  }

  PlayedGame withStandIns(List<String> more) {
    final LinkedHashSet<String> all = new LinkedHashSet<>(standInsStated);
    all.addAll(more);
    return new PlayedGame(scenario, gameId, new ArrayList<>(all), others);
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
      return new PlayedGame(scenario, gameId, stated, json);
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
