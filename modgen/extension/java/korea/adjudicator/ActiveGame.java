package korea.adjudicator;

import java.util.Map;

/**
 * The recorded game checks go to now: its id, scenario, the side whose token is used, the
 * token, the server, and the log session a check asked now is made in (null: no log is kept).
 */
final class ActiveGame {
  final String gameId;
  final String scenario;
  final String side;
  final String token;
  final String server;
  final Map<String, Object> logSession;

  ActiveGame(String gameId, String scenario, String side, String token, String server, Map<String, Object> logSession) {
    this.gameId = gameId;
    this.scenario = scenario;
    this.side = side;
    this.token = token;
    this.server = server;
    this.logSession = logSession;
  }

  /** The recorded game {@code played} names, as the token {@code kept} holds for {@code side} reads it. */
  static ActiveGame of(PlayedGame played, Settings.Kept kept, String side, Map<String, Object> logSession) {
    final String scenario = played.known() ? played.scenario : kept.scenario;
    return new ActiveGame(played.gameId, scenario, side, kept.tokens.get(side), kept.server.isEmpty() ? Settings.server() : kept.server,
                          logSession);
  }
}
