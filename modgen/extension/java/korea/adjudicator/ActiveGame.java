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
}
