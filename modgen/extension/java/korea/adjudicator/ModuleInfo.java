package korea.adjudicator;

import java.util.LinkedHashMap;
import java.util.Map;

import org.w3c.dom.Element;

/**
 * What the module generator wrote about this game into the extension's buildFile element: the
 * game's id on the server ("game"), the roster name of each side id ("sides"), the name of each
 * player-aid track id ("tracks": a marker on "Weather Track Clear" shows the track "weather" at
 * "Clear"), the id of each arm by the name its counters carry ("types"), each scenario's name by
 * its id ("scenarios": the menu names the game's scenario before any server is reached), the boxes
 * of counters not in play by the name of their region on the Boxes map ("aside": SPI's
 * breakdowns), and the default server.
 */
final class ModuleInfo {
  final String game;
  final String defaultServer;
  final Map<String, String> sideNames;   // side id -> roster name
  final Map<String, String> trackNames;  // track id -> track name
  final Map<String, String> typeIds;     // arm name (UnitType property) -> arm id
  final Map<String, String> scenarioNames;  // scenario id -> its name
  final Map<String, String> asideBoxes;  // box name (its region on the Boxes map) -> id, of the boxes of counters not in play

  ModuleInfo(String game, String defaultServer, Map<String, String> sideNames, Map<String, String> trackNames,
             Map<String, String> typeIds) {
    this(game, defaultServer, sideNames, trackNames, typeIds, Map.of(), Map.of());
  }

  ModuleInfo(String game, String defaultServer, Map<String, String> sideNames, Map<String, String> trackNames,
             Map<String, String> typeIds, Map<String, String> scenarioNames, Map<String, String> asideBoxes) {
    this.game = game;
    this.defaultServer = defaultServer;
    this.sideNames = sideNames;
    this.trackNames = trackNames;
    this.typeIds = typeIds;
    this.scenarioNames = scenarioNames;
    this.asideBoxes = asideBoxes;
  }

  static ModuleInfo none() {
    return new ModuleInfo("", Settings.DEFAULT_SERVER, Map.of(), Map.of(), Map.of());
  }

  static ModuleInfo of(Element e) {
    final String server = e.getAttribute("server").isEmpty() ? Settings.DEFAULT_SERVER : e.getAttribute("server");
    return new ModuleInfo(e.getAttribute("game"), server, strings(e.getAttribute("sides")), strings(e.getAttribute("tracks")),
                          strings(e.getAttribute("types")), strings(e.getAttribute("scenarios")), strings(e.getAttribute("aside")));
  }

  void write(Element e) {
    e.setAttribute("game", game);
    e.setAttribute("server", defaultServer);
    e.setAttribute("sides", Json.write(sideNames));
    if (!trackNames.isEmpty()) e.setAttribute("tracks", Json.write(trackNames));
    if (!typeIds.isEmpty()) e.setAttribute("types", Json.write(typeIds));
    if (!scenarioNames.isEmpty()) e.setAttribute("scenarios", Json.write(scenarioNames));
    if (!asideBoxes.isEmpty()) e.setAttribute("aside", Json.write(asideBoxes));
  }

  /** The side id of a roster side name, or null. */
  String sideId(String rosterName) {
    if (rosterName == null) return null;
    for (final Map.Entry<String, String> e : sideNames.entrySet()) {
      if (e.getValue().equals(rosterName)) return e.getKey();
    }
    return null;
  }

  String sideName(String id) {
    return id == null ? "" : sideNames.getOrDefault(id, id);
  }

  private static Map<String, String> strings(String json) {
    final Map<String, String> out = new LinkedHashMap<>();
    if (json == null || json.isEmpty()) return out;
    for (final Map.Entry<String, Object> e : Json.parseObject(json).entrySet()) out.put(e.getKey(), String.valueOf(e.getValue()));
    return out;
  }
}
