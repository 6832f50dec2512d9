package korea.adjudicator;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import VASSAL.build.GameModule;
import VASSAL.configure.StringConfigurer;
import VASSAL.preferences.Prefs;

/**
 * What this player keeps for the module in their own VASSAL preferences (never in a saved game,
 * a log or the chat): the server address (Preferences > Adjudicator), how long to wait for an
 * answer, and the recorded games this player takes part in, each by its game id, with the token
 * of each side this player holds (not shown in the Preferences dialog). Several recorded games
 * of one module are kept: the VASSAL game being played names the one it belongs to (PlayedGame).
 */
final class Settings {
  static final String DEFAULT_SERVER = "http://127.0.0.1:8000";
  static final String SERVER = "adjudicatorServer";
  static final String TIMEOUT = "adjudicatorTimeoutSeconds";
  static final String GAMES = "adjudicatorGames";
  /** The single recorded game of earlier versions of the extension (read once into GAMES). */
  static final String OLD_GAME = "adjudicatorGame";
  static final String OLD_TOKEN = "adjudicatorToken";
  static final String OLD_SIDE = "adjudicatorSide";
  static final String OLD_SCENARIO = "adjudicatorScenario";
  static final int DEFAULT_TIMEOUT_SECONDS = 30;

  /** A recorded game this player takes part in: its scenario, the server it lives at, and a token per side held. */
  static final class Kept {
    final String gameId;
    final String scenario;
    final String server;
    final Map<String, String> tokens;  // side id -> token

    Kept(String gameId, String scenario, String server, Map<String, String> tokens) {
      this.gameId = gameId;
      this.scenario = scenario;
      this.server = server;
      this.tokens = tokens;
    }

    Map<String, Object> toJson() {
      final Map<String, Object> out = new LinkedHashMap<>();
      out.put("scenario", scenario);
      out.put("server", server);
      out.put("tokens", new LinkedHashMap<String, Object>(tokens));
      return out;
    }

    static Kept of(String gameId, Map<String, Object> json) {
      final Map<String, String> tokens = new LinkedHashMap<>();
      for (final Map.Entry<String, Object> t : Schema.map(json.get("tokens")).entrySet()) tokens.put(t.getKey(), String.valueOf(t.getValue()));
      return new Kept(gameId, String.valueOf(json.getOrDefault("scenario", "")), String.valueOf(json.getOrDefault("server", "")), tokens);
    }
  }

  private Settings() { }

  /** Declares the preferences (once, when the module is built). */
  static void register(String defaultServer) {
    final Prefs prefs = GameModule.getGameModule().getPrefs();
    prefs.addOption("Adjudicator", new StringConfigurer(SERVER, "Adjudicator server address", defaultServer));
    for (final String key : new String[] {TIMEOUT, GAMES, OLD_GAME, OLD_TOKEN, OLD_SIDE, OLD_SCENARIO}) {
      prefs.addOption(null, new StringConfigurer(key, "", ""));
    }
    adoptOldRecordedGame();
  }

  static String server() {
    final String s = value(SERVER);
    return s.isEmpty() ? DEFAULT_SERVER : s;
  }

  static void setServer(String address) {
    set(SERVER, address);
  }

  /** How long a check waits for the server's answer. */
  static int timeoutMs() {
    try {
      final int s = Integer.parseInt(value(TIMEOUT));
      return Math.max(1, Math.min(300, s)) * 1000;
    }
    catch (NumberFormatException e) {
      return DEFAULT_TIMEOUT_SECONDS * 1000;
    }
  }

  /** Every recorded game kept, by game id. */
  static Map<String, Kept> games() {
    final Map<String, Kept> out = new LinkedHashMap<>();
    final String text = value(GAMES);
    if (text.isEmpty()) return out;
    try {
      for (final Map.Entry<String, Object> e : Json.parseObject(text).entrySet()) out.put(e.getKey(), Kept.of(e.getKey(), Schema.map(e.getValue())));
    }
    catch (IllegalArgumentException e) {
      // a damaged preference: nothing kept (the tokens are also with whoever created the game)
    }
    return out;
  }

  static Kept game(String gameId) {
    return gameId == null || gameId.isEmpty() ? null : games().get(gameId);
  }

  /** Keeps a side's token of a recorded game (beside any other side's token of it this player holds). */
  static void keep(String gameId, String scenario, String server, String side, String token) {
    final Map<String, Kept> all = games();
    final Kept old = all.get(gameId);
    final Map<String, String> tokens = old == null ? new LinkedHashMap<>() : new LinkedHashMap<>(old.tokens);
    tokens.put(side, token);
    all.put(gameId, new Kept(gameId, scenario, server, tokens));
    write(all);
  }

  /** Forgets this player's token of a side of a recorded game (the game too, when no token is left). */
  static void forget(String gameId, String side) {
    final Map<String, Kept> all = games();
    final Kept old = all.get(gameId);
    if (old == null) return;
    final Map<String, String> tokens = new LinkedHashMap<>(old.tokens);
    tokens.remove(side);
    if (tokens.isEmpty()) all.remove(gameId);
    else all.put(gameId, new Kept(gameId, old.scenario, old.server, tokens));
    write(all);
  }

  private static void write(Map<String, Kept> all) {
    final Map<String, Object> json = new LinkedHashMap<>();
    for (final Map.Entry<String, Kept> e : all.entrySet()) json.put(e.getKey(), e.getValue().toJson());
    set(GAMES, Json.write(json));
  }

  /** The one recorded game an earlier version kept, moved into the list (and its single-game keys cleared). */
  private static void adoptOldRecordedGame() {
    final String gameId = value(OLD_GAME);
    final String token = value(OLD_TOKEN);
    if (gameId.isEmpty() || token.isEmpty()) return;
    keep(gameId, value(OLD_SCENARIO), server(), value(OLD_SIDE), token);
    for (final String key : new String[] {OLD_GAME, OLD_TOKEN, OLD_SIDE, OLD_SCENARIO}) set(key, "");
  }

  private static String value(String key) {
    final Object v = GameModule.getGameModule().getPrefs().getValue(key);
    return v == null ? "" : String.valueOf(v).trim();
  }

  private static void set(String key, String value) {
    final Prefs prefs = GameModule.getGameModule().getPrefs();
    prefs.setValue(key, value);
    try {
      prefs.save();
    }
    catch (IOException e) {
      // kept for this session; VASSAL writes its preferences again when it closes
    }
  }
}
