package VASSAL.build.module;

import java.awt.Point;
import java.awt.event.MouseListener;
import java.util.Collection;
import java.util.List;

import javax.swing.JComponent;

import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.command.Command;
import VASSAL.counters.GamePiece;
import VASSAL.counters.PieceFinder;

/** Compile-only declaration (see ../../../README.md): the members of VASSAL.build.module.Map the extension calls. */
public class Map {
  public static List<Map> getMapList() { return null; }

  public String getMapName() { return null; }

  public String locationName(Point p) { return null; }

  public JComponent getView() { return null; }

  public void addLocalMouseListener(MouseListener l) { }

  public void addLocalMouseListenerFirst(MouseListener l) { }

  public GamePiece findPiece(Point pt, PieceFinder finder) { return null; }

  public Collection<Board> getBoards() { return null; }

  public Command placeOrMerge(GamePiece p, Point pt) { return null; }
}
