package korea.adjudicator;

import java.awt.Point;
import java.util.List;
import java.util.function.UnaryOperator;

import VASSAL.build.module.Map;
import VASSAL.build.module.map.DrawPile;
import VASSAL.counters.Deck;
import VASSAL.counters.GamePiece;
import VASSAL.counters.PieceIterator;

/**
 * The server's orders whose target is a hex or a track, not a unit (adjudicator.unit_changes: on_hex,
 * track), planned for BoardChanges like its other actions:
 *
 * <ul>
 * <li>place_marker with no unit: a marker drawn from the top of the shuffled pool the action names
 *   (its DrawPile, the box's name) onto the hex named, then turned face up by its own Reveal/Hide
 *   command (Fire and Ice's News reporters, 5.5: "place a revealed Objective marker ... on the combat
 *   hex"). Only the pool's side may draw from it: for the other side it is his order, said so. The
 *   ruling never names the value (12.1.3): the pile's draw chooses it.
 * <li>move_marker: the marker (its MarkerId) moved along its track, from the cell it stands on by the
 *   cells named (never below 0), or onto the cell named: a track's cells are locations of the map
 *   named "&lt;track name&gt; &lt;cell&gt;". A face named is the player's to check; one of several
 *   markers (his choice) is his to move by hand.
 * </ul>
 */
final class BoardTargets {
  /** A command BoardChanges.apply makes only on a piece still masked after its move: its "Reveal/Hide ..." command. */
  static final String REVEAL = "Reveal/Hide";

  private BoardTargets() { }

  /** A marker drawn from its pool onto a hex. */
  static BoardChanges.Planned onHex(Ruling.Change c, Ruling.Action a, String mySide, UnaryOperator<String> sideName) {
    final String what = "the " + a.markerName + " marker " + a.what;
    if (!a.appliedBy.isEmpty() && mySide != null && !a.appliedBy.equals(mySide)) {
      return new BoardChanges.Planned(c, a, null, BoardChanges.OWNERS + " " + BoardChanges.owner(a.appliedBy, mySide, sideName)
                                      + ": " + what + " (his pool)", List.of());
    }
    final String byHand = "place " + what + " by hand";
    final boolean loaded = VASSAL.build.GameModule.getGameModule() != null;  // none: the plan's words alone, no pool
    final DrawPile pile = a.boxName.isEmpty() || !loaded ? null : DrawPile.findDrawPile(a.boxName);
    final Deck deck = pile == null ? null : pile.getDeck();
    if (a.hex.isEmpty() || deck == null || !deck.isAccessible() || deck.getPieceCount() == 0) {
      return new BoardChanges.Planned(c, a, null, byHand, List.of());
    }
    Map target = null;
    Point point = null;
    for (final Map m : Map.getMapList()) {
      if (BoardChanges.BOXES_MAP.equals(m.getMapName())) continue;
      point = BoardChanges.pointOf(m, a.hex);
      if (point != null) {
        target = m;
        break;
      }
    }
    final PieceIterator drawn = deck.drawCards();
    final GamePiece marker = drawn.hasMoreElements() ? drawn.nextPiece() : null;
    if (target == null || marker == null) return new BoardChanges.Planned(c, a, null, byHand, List.of());
    return new BoardChanges.Planned(c, a, marker, "drawn at random from " + a.boxName + ", placed face up on " + a.hex
                                    + " (" + a.what + ")", List.of(REVEAL),
                                    List.of(new BoardChanges.Move(marker, null, target, point, a.hex,
                                                                  "* " + a.markerName + " marker drawn at random and placed on "
                                                                  + a.hex + " (as the ruling ordered)")));
  }

  /** A track's marker moved by some cells, or onto a cell. */
  static BoardChanges.Planned onTrack(Ruling.Change c, Ruling.Action a, String mySide, UnaryOperator<String> sideName) {
    final String chooser = a.chosenBy.isEmpty() ? a.appliedBy : a.chosenBy;
    final String words = moveWords(a);
    if (!chooser.isEmpty() && mySide != null && !chooser.equals(mySide)) {
      return new BoardChanges.Planned(c, a, null, BoardChanges.OWNERS + " " + BoardChanges.owner(chooser, mySide, sideName)
                                      + ": " + words + " (" + a.what + ")", List.of());
    }
    final GamePiece piece = a.marker.isEmpty() ? null : markerPiece(a.marker);
    if (piece == null) {
      return new BoardChanges.Planned(c, a, null, "move " + words + " on its track by hand (" + a.what + ")", List.of());
    }
    final String location = piece.getMap().locationName(piece.getPosition());
    final int space = location == null ? -1 : location.lastIndexOf(' ');
    final String cell = space < 0 ? "" : location.substring(space + 1);
    final String to;
    try {
      to = !a.cell.isEmpty() ? a.cell : String.valueOf(Math.max(0, Integer.parseInt(cell) + a.by));
    }
    catch (NumberFormatException e) {
      return new BoardChanges.Planned(c, a, piece, "move " + words + " on its track by hand (" + a.what + ")", List.of());
    }
    final String face = a.face > 0 ? ", showing " + a.markerName : "";
    if (to.equals(cell)) return new BoardChanges.Planned(c, a, piece, "already on " + to + face, List.of());
    final String where = location.substring(0, space + 1) + to;
    final Point point = BoardChanges.pointOf(piece.getMap(), where);
    if (point == null) {
      return new BoardChanges.Planned(c, a, piece, "move " + words + " on its track by hand (" + a.what + ")", List.of());
    }
    return new BoardChanges.Planned(c, a, piece, "moved from " + cell + " to " + to + face + " (" + a.what + ")"
                                    + (face.isEmpty() ? "" : ": flip it by hand if it does not"), List.of(),
                                    List.of(new BoardChanges.Move(piece, null, piece.getMap(), point, where)));
  }

  /** "the Communist Tank Support marker down 1", "the VPs marker to 4", "one of his UN Replacements markers down 1". */
  static String moveWords(Ruling.Action a) {
    final String marker = a.marker.isEmpty() ? "one of his " + a.markerName + " markers" : "the " + a.markerName + " marker";
    if (!a.cell.isEmpty()) return marker + " to " + a.cell;
    return marker + (a.by < 0 ? " down " : " up ") + Math.abs(a.by);
  }

  /** The piece of a track marker (its MarkerId) standing on a map, or null. */
  private static GamePiece markerPiece(String markerId) {
    for (final GamePiece p : BoardReader.pieces()) {
      if (p.getMap() != null && markerId.equals(BoardReader.text(p.getProperty("MarkerId")))) return p;
    }
    return null;
  }
}
