package korea.adjudicator;

import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;
import javax.swing.MenuElement;
import javax.swing.MenuSelectionManager;

import VASSAL.build.module.Map;
import VASSAL.counters.GamePiece;

/**
 * The Adjudicator entries of a unit's right-click menu. The engine builds that menu from the
 * piece's traits; the module's pieces stay as they are, and a listener on each map, called after
 * the engine's own menu listener, adds an "Adjudicator" sub-menu to the menu the engine just
 * opened, with the checks that fit the unit (Catalog.entries). A second listener, called before
 * the engine's, remembers which units were selected before the click: right-clicking an
 * unselected enemy unit selects it alone, and the attackers are the units selected before.
 */
final class PieceMenu {
  private final Adjudicator adjudicator;
  private final Set<Map> hooked = new HashSet<>();
  private List<GamePiece> selectedBeforeClick = new ArrayList<>();

  PieceMenu(Adjudicator adjudicator) {
    this.adjudicator = adjudicator;
  }

  /** Hooks every map not hooked yet (called when a game starts, after every map has its menu listener). */
  void install() {
    for (final Map map : Map.getMapList()) {
      if (!hooked.add(map)) continue;
      map.addLocalMouseListenerFirst(new MouseAdapter() {
        @Override
        public void mousePressed(MouseEvent e) {
          selectedBeforeClick = BoardReader.selection();
        }
      });
      map.addLocalMouseListener(new MouseAdapter() {
        @Override
        public void mousePressed(MouseEvent e) {
          addEntries(map);
        }

        @Override
        public void mouseReleased(MouseEvent e) {
          addEntries(map);
        }
      });
    }
  }

  /** The units selected before the last click on a map (the attackers of "Attack this hex"). */
  List<GamePiece> selectedBeforeClick() {
    return selectedBeforeClick;
  }

  private void addEntries(Map map) {
    final MenuElement[] path = MenuSelectionManager.defaultManager().getSelectedPath();
    if (path.length == 0 || !(path[0] instanceof JPopupMenu)) return;
    final JPopupMenu popup = (JPopupMenu) path[0];
    if (popup.getInvoker() != map.getView() || popup.getClientProperty(PieceMenu.class) != null) return;
    popup.putClientProperty(PieceMenu.class, Boolean.TRUE);
    final GamePiece target = BoardReader.clicked(map);
    if (target == null || adjudicator.reader().unit(target) == null) return;
    final Board.Context ctx = adjudicator.reader().context(target, selectedBeforeClick);
    final JMenu sub = new JMenu("Adjudicator");
    sub.setName(Catalog.SUB_MENU_NAME);
    final Catalog catalog = adjudicator.loadedCatalog();
    if (catalog == null) {
      // the checks are loaded when the module starts; a server that was not running then is asked now,
      // and the entries open where the menu was, for the same units
      final JMenuItem load = new JMenuItem("Load the checks from " + adjudicator.serverAddress());
      final java.awt.Point at = map.getView().getMousePosition();
      load.addActionListener(a -> adjudicator.loadCatalogInBackground(() -> showEntries(map, ctx, at)));
      sub.add(load);
    }
    else {
      fill(sub, catalog, ctx);
      if (sub.getItemCount() == 0) return;
    }
    popup.addSeparator();
    popup.add(sub);
    popup.pack();
  }

  private void fill(JMenu sub, Catalog catalog, Board.Context ctx) {
    for (final Catalog.Entry entry : catalog.entries(ctx, adjudicator.askingSide(), adjudicator.scenario(),
                                                                     adjudicator.checks.waiting.notYet(adjudicator.active()))) {
      final JMenuItem item = new JMenuItem(entry.label);
      item.setName(entry.check.itemName());
      item.setEnabled(entry.enabled);
      item.setToolTipText(entry.check.summary);
      item.addActionListener(a -> adjudicator.askInteractively(entry.check, ctx));
      sub.add(item);
    }
  }

  private void showEntries(Map map, Board.Context ctx, java.awt.Point at) {
    final JPopupMenu popup = new JPopupMenu();
    final JMenu sub = new JMenu("Adjudicator");
    sub.setName(Catalog.SUB_MENU_NAME);
    fill(sub, adjudicator.loadedCatalog(), ctx);
    if (sub.getItemCount() == 0) return;
    popup.add(sub);
    final java.awt.Point p = at != null ? at : new java.awt.Point(20, 20);
    popup.show(map.getView(), p.x, p.y);
  }
}
