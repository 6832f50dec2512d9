package korea.adjudicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import VASSAL.counters.GamePiece;
import VASSAL.counters.Properties;

/**
 * What a form may show of the units the board filled in: no more than the player sees on the
 * board. A request carries every unit's identity and strength (the server needs them to rule),
 * but a unit whose piece is masked to this player (HoldFast's enemy blocks, a face-down Objective
 * marker: the engine's own "obscured to me") is shown by its mask's name
 * and its hex alone, so opening a form and pressing Cancel is no peek (HoldFast, Fog of War: the
 * label side is seen only when both sides reveal the units for combat, after the attack is
 * announced, which OK does). Event thread (reads the pieces).
 */
final class Unseen {
  private Unseen() { }

  /** The piece of a unit id, when it is masked to this player; else null. */
  private static GamePiece masked(String unitId) {
    final GamePiece piece = BoardReader.pieceOfUnit(unitId);
    return piece != null && Boolean.TRUE.equals(piece.getProperty(Properties.OBSCURED_TO_ME)) ? piece : null;
  }

  /**
   * A piece's name as this player reads it: his own piece hidden from the others by its name
   * alone (the engine says "NKPA 6th Division(Communist (NKPA and CPA) block)": the name, then
   * the mask the others see), a piece masked to him by its mask's name, any other by its name.
   */
  static String name(GamePiece piece) {
    final String name = piece.getName();
    final int mask = hiddenFromOthers(piece) ? maskAt(name) : -1;
    return mask > 0 ? name.substring(0, mask).trim() : name;
  }

  /**
   * A piece's name as every player may read it (a chat line both players' logs get): a piece
   * hidden from the others by the mask's name they see ("UN (ROK, US and UN) block"), never its own.
   */
  static String publicName(GamePiece piece) {
    final String name = piece.getName();
    final int mask = hiddenFromOthers(piece) ? maskAt(name) : -1;
    return mask >= 0 ? name.substring(mask + 1, name.length() - 1) : name;
  }

  private static boolean hiddenFromOthers(GamePiece piece) {
    return Boolean.TRUE.equals(piece.getProperty(Properties.OBSCURED_TO_OTHERS))
      && !Boolean.TRUE.equals(piece.getProperty(Properties.OBSCURED_TO_ME));
  }

  /** Where the mask's name in brackets the engine appends to a name starts (its "("), or -1: the last bracket group, nested ones kept. */
  static int maskAt(String name) {
    if (!name.endsWith(")")) return -1;
    int depth = 0;
    for (int i = name.length() - 1; i >= 0; i--) {
      if (name.charAt(i) == ')') depth++;
      else if (name.charAt(i) == '(' && --depth == 0) return i;
    }
    return -1;
  }

  /** A unit as the form names it: its counter's name (its mask's, when masked to this player), and its hex. */
  static String unitName(Map<String, Object> unit) {
    final String id = String.valueOf(unit.getOrDefault("unit", unit.getOrDefault("block", "?")));
    final GamePiece piece = BoardReader.pieceOfUnit(id);
    final String name = piece == null ? id : name(piece);  // the engine names a masked piece by its mask
    return unit.get("hex") == null ? name : name + " (" + unit.get("hex") + ")";
  }

  /**
   * A text (a refusal of the server's) with each unit id of a piece on the board replaced by the
   * name its counter shows this player ("nk-83-mot" -> "NK 83"; a masked one: its mask's name).
   */
  static String named(String text) {
    if (text == null || text.isEmpty()) return text;
    final Map<String, String> names = new LinkedHashMap<>();
    for (final GamePiece p : BoardReader.pieces()) {
      final String id = BoardReader.text(p.getProperty("UnitId"));
      if (!id.isEmpty() && text.contains(id)) names.put(id, name(p));
    }
    String out = text;
    for (final String id : names.keySet().stream().sorted((a, b) -> b.length() - a.length()).toList()) {
      out = out.replaceAll("(?<![\\w/-])" + java.util.regex.Pattern.quote(id) + "(?![\\w-])",
                           java.util.regex.Matcher.quoteReplacement(names.get(id)));
    }
    return out;
  }

  /** A filled-in value as the form may show it: each unit masked to this player by its mask's name and hex only. */
  static Object shown(Object value) {
    if (value instanceof Map) {
      final Map<String, Object> unit = Schema.map(value);
      final Object id = unit.getOrDefault("unit", unit.get("block"));
      final GamePiece piece = id instanceof String ? masked((String) id) : null;
      if (piece != null) {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("unit", piece.getName());
        if (unit.containsKey("hex")) out.put("hex", unit.get("hex"));
        return out;
      }
      final Map<String, Object> out = new LinkedHashMap<>();
      for (final Map.Entry<String, Object> e : unit.entrySet()) out.put(e.getKey(), shown(e.getValue()));
      return out;
    }
    if (value instanceof List) {
      final List<Object> out = new ArrayList<>();
      for (final Object o : (List<?>) value) out.add(shown(o));
      return out;
    }
    if (value instanceof String) {
      final GamePiece piece = masked((String) value);
      return piece != null ? piece.getName() : value;
    }
    return value;
  }
}
