package korea.adjudicator;

import java.io.IOException;

import VASSAL.build.GameModule;
import VASSAL.configure.StringConfigurer;
import VASSAL.preferences.Prefs;

/**
 * The connection, kept in the player's own VASSAL preferences for this module (never in a
 * saved game or a log): the server address (shown in Preferences > Adjudicator) and, for a
 * recorded game, its id, this side's token, the side and the scenario (not shown).
 */
final class Settings {
  static final String DEFAULT_SERVER = "http://127.0.0.1:8000";
  static final String SERVER = "adjudicatorServer";
  static final String GAME = "adjudicatorGame";
  static final String TOKEN = "adjudicatorToken";
  static final String SIDE = "adjudicatorSide";
  static final String SCENARIO = "adjudicatorScenario";

  /** A recorded game this player takes part in. */
  static final class Recorded {
    final String gameId;
    final String token;
    final String side;
    final String scenario;

    Recorded(String gameId, String token, String side, String scenario) {
      this.gameId = gameId;
      this.token = token;
      this.side = side;
      this.scenario = scenario;
    }
  }

  private Settings() { }

  /** Declares the preferences (once, when the module is built). */
  static void register(String defaultServer) {
    final Prefs prefs = GameModule.getGameModule().getPrefs();
    prefs.addOption("Adjudicator", new StringConfigurer(SERVER, "Adjudicator server address", defaultServer));
    for (final String key : new String[] {GAME, TOKEN, SIDE, SCENARIO}) {
      prefs.addOption(null, new StringConfigurer(key, "", ""));
    }
  }

  static String server() {
    final String s = value(SERVER);
    return s.isEmpty() ? DEFAULT_SERVER : s;
  }

  static void setServer(String address) {
    set(SERVER, address);
  }

  /** The recorded game joined, or null (compute mode). */
  static Recorded recorded() {
    if (value(GAME).isEmpty() || value(TOKEN).isEmpty()) return null;
    return new Recorded(value(GAME), value(TOKEN), value(SIDE), value(SCENARIO));
  }

  static void setRecorded(Recorded r) {
    set(GAME, r == null ? "" : r.gameId);
    set(TOKEN, r == null ? "" : r.token);
    set(SIDE, r == null ? "" : r.side);
    set(SCENARIO, r == null ? "" : r.scenario);
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
