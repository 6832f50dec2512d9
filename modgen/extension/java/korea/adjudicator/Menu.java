package korea.adjudicator;

import java.awt.GridLayout;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import javax.swing.JButton;
import javax.swing.JComboBox;
import javax.swing.JLabel;
import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JPopupMenu;
import javax.swing.JTextArea;
import javax.swing.JTextField;
import javax.swing.SwingWorker;

/**
 * The Adjudicator toolbar menu and the dialogs it opens: what the game is and where its checks
 * go, the scenario of a game that does not say, connecting, creating, joining and leaving a
 * recorded game, the last ruling (in full, its page in the browser), the replay of a log and the
 * game's after-action report in the browser, and the checks of the scenario this player may ask. Event thread; the waiting is done
 * by the component's public methods, run off it.
 */
final class Menu {
  private final Adjudicator adjudicator;

  Menu(Adjudicator adjudicator) {
    this.adjudicator = adjudicator;
  }

  void show(JButton button) {
    final JPopupMenu menu = new JPopupMenu();
    final PlayedGame played = adjudicator.played();
    final ActiveGame active = adjudicator.active();
    final ActiveGame reading = adjudicator.reading();  // the observer's token too: it reads
    final JMenuItem status = new JMenuItem(statusText(played, active, reading));
    status.setEnabled(false);
    menu.add(status);
    final JMenu scenario = new JMenu("Scenario of this game");
    final Catalog c = adjudicator.loadedCatalog();
    scenario.setEnabled(c != null && !played.recorded());
    if (c != null) {
      for (final Map.Entry<String, String> s : c.scenarios.entrySet()) {
        scenario.add(item(s.getValue() + (s.getKey().equals(played.scenario) ? " (this game)" : ""),
                          () -> inBackground(() -> adjudicator.setScenario(s.getKey()), answer -> { })));
      }
    }
    menu.add(scenario);
    menu.add(item("Connect...", this::connectDialog));
    final JMenuItem create = item("Create recorded game...", this::createDialog);
    create.setEnabled(!played.recorded());
    menu.add(create);
    menu.add(item("Join recorded game...", () -> joinDialog(adjudicator.played().gameId, "", "")));
    final JMenuItem leave = item(reading == null ? "Forget my token" : "Forget my token of recorded game " + reading.gameId + "...",
                                 () -> leaveDialog(reading));
    leave.setEnabled(reading != null);
    menu.add(leave);
    final JMenuItem owed = item("Apply the rulings' changes to my pieces...", adjudicator::applyOwedChangesInteractively);
    owed.setToolTipText("Changes the opponent's rulings order to your pieces that were hidden from him (only you can make them)");
    owed.setName("apply-owed");
    owed.setEnabled(active != null);
    menu.add(owed);
    final JMenuItem rulings = item("Rulings of this game...", adjudicator.ledger::showRulingsInteractively);
    rulings.setToolTipText(reading == null ? "Join the recorded game to list its rulings (a side's token, or the observer's)"
                           : "Every ruling of recorded game " + reading.gameId + " so far, as "
                             + (active == null ? "its observer" : "your side") + " may see them");
    rulings.setEnabled(reading != null);
    menu.add(rulings);
    menu.addSeparator();
    final Ruling last = adjudicator.session.lastRuling();
    final JMenuItem full = item("The last ruling in full...", () -> RulingWindow.show(last));
    full.setEnabled(last != null);
    if (last != null) full.setToolTipText(last.headline());
    menu.add(full);
    final String page = adjudicator.rulingPage();
    final JMenuItem open = item("Open this ruling's page", adjudicator::openRulingPage);
    open.setEnabled(!page.isEmpty());
    open.setToolTipText(page.isEmpty() ? (last == null ? "No ruling yet" : "A calculation has no page: see it in full") : page);
    menu.add(open);
    menu.add(item("Replay a log in the browser", () -> inBackground(adjudicator::replayAddress,
                                                                      answer -> Browser.open(String.valueOf(answer.get("url"))))));
    final JMenuItem report = item("Write the after-action report", () -> inBackground(adjudicator::reportAddress,
                                                                    answer -> Browser.open(String.valueOf(answer.get("url")))));
    report.setEnabled(reading != null);
    report.setToolTipText(reading == null ? "Join the recorded game to write its report"
                          : "The game turn by turn, its losses, dice and result, to read or post on a forum (opens in your browser)");
    menu.add(report);
    menu.addSeparator();
    final JMenu checks = new JMenu("Checks");
    checks.setName("checks");
    if (c == null) {
      checks.add(item("Load the checks from the server", () -> adjudicator.loadCatalogInBackground(() -> { })));
    }
    else {
      for (final Catalog.Check check : c.offered(adjudicator.scenario(), adjudicator.askingSide(),
                                                             adjudicator.checks.waiting.notYet(adjudicator.active()))) {
        final JMenuItem i = item(check.words() + " (" + check.rule + ")", () -> adjudicator.askInteractively(check,
          adjudicator.reader().context(null, BoardReader.selection())));
        i.setToolTipText(check.summary);
        i.setName(check.itemName());
        checks.add(i);
      }
    }
    menu.add(checks);
    final Catalog.Check victory = c == null ? null : c.victory(adjudicator.scenario(), adjudicator.askingSide());
    if (victory != null) {
      final String scenarioId = adjudicator.scenario();
      final boolean lastTurn = c.lastTurn(scenarioId, BoardReader.turn(c.scenarios.get(scenarioId)));
      final JMenuItem end = item("Rule the game's victory..." + (lastTurn ? " (the scenario's last turn)" : ""),
                                 () -> adjudicator.askInteractively(victory, adjudicator.reader().context(null, BoardReader.selection())));
      end.setToolTipText(victory.summary + (lastTurn ? "" : " (before the last turn: the score so far)"));
      menu.add(end);
    }
    menu.show(button, 0, button.getHeight());
  }

  private String statusText(PlayedGame played, ActiveGame active, ActiveGame reading) {
    final String game = played.known() ? adjudicator.scenarioName(played.scenario) : "scenario unknown";
    if (active != null) {
      return game + ": recorded game " + active.gameId + " as " + adjudicator.info().sideName(active.side) + " at " + active.server;
    }
    if (reading != null) {
      return game + ": recorded game " + reading.gameId + " as its observer at " + reading.server + " (reads its rulings; "
        + "calculations at " + Settings.server() + ")";
    }
    if (played.recorded()) {
      return game + ": recorded game " + played.gameId + (played.server.isEmpty() ? "" : " at " + played.server)
        + " (not joined: calculations at " + Settings.server() + ")";
    }
    return game + ": calculations at " + Settings.server() + " (no recorded game)";
  }

  private void connectDialog() {
    final String address = (String) JOptionPane.showInputDialog(Adjudicator.window(), "Adjudicator server address:",
                                                                "Adjudicator: connect", JOptionPane.PLAIN_MESSAGE, null, null,
                                                                Settings.server());
    if (address == null) return;
    inBackground(() -> adjudicator.connect(address), answer -> JOptionPane.showMessageDialog(Adjudicator.window(),
      answer.get("checks") + " checks of " + adjudicator.gameName() + " at " + answer.get("server") + ".", "Adjudicator",
      JOptionPane.INFORMATION_MESSAGE));
  }

  private void createDialog() {
    final Catalog c = adjudicator.loadedCatalog();
    if (c == null) {
      adjudicator.loadCatalogInBackground(this::createDialog);
      return;
    }
    final JComboBox<String> scenario = new JComboBox<>(c.scenarios.keySet().toArray(new String[0]));
    scenario.setName("scenario");
    scenario.setRenderer(named(c.scenarios));
    final String known = adjudicator.scenario();
    if (known != null) {
      scenario.setSelectedItem(known);
      scenario.setEnabled(false);  // the game says which scenario it is
    }
    else {
      scenario.setSelectedItem(null);
    }
    final JComboBox<String> side = new JComboBox<>(c.sides.toArray(new String[0]));
    side.setName("side");
    side.setRenderer(named(adjudicator.info().sideNames));
    side.setSelectedItem(adjudicator.mySide());
    final JPanel form = new JPanel(new GridLayout(0, 2, 4, 4));
    form.add(new JLabel("Scenario:"));
    form.add(scenario);
    form.add(new JLabel("Your side:"));
    form.add(side);
    if (JOptionPane.showConfirmDialog(Adjudicator.window(), form, "Adjudicator: create a recorded game", JOptionPane.OK_CANCEL_OPTION,
                                      JOptionPane.PLAIN_MESSAGE) != JOptionPane.OK_OPTION) return;
    final String chosenScenario = scenario.getSelectedItem() == null ? "" : String.valueOf(scenario.getSelectedItem());
    final String chosenSide = side.getSelectedItem() == null ? "" : String.valueOf(side.getSelectedItem());
    inBackground(() -> adjudicator.createRecordedGame(chosenScenario, chosenSide), answer -> {
      final StringBuilder text = new StringBuilder("Recorded game " + answer.get("game_id") + " (" + adjudicator.scenarioName(
        String.valueOf(answer.get("scenario"))) + ") created at " + answer.get("public_url") + "; you play "
        + adjudicator.info().sideName(chosenSide) + ".\n\nYour token (keep it to yourself; you need it to roll from another "
        + "computer):\n" + answer.get("your_token") + "\n\nSend each other player the game id and their token:\n");
      for (final Map.Entry<String, Object> t : Schema.map(answer.get("tokens_for_others")).entrySet()) {
        text.append('\n').append(t.getKey()).append(": ").append(t.getValue());
      }
      final JTextArea area = new JTextArea(text.toString(), 12, 64);
      area.setName("tokens");
      area.setEditable(false);
      JOptionPane.showMessageDialog(Adjudicator.window(), area, "Adjudicator: recorded game created", JOptionPane.INFORMATION_MESSAGE);
    });
  }

  /**
   * The join dialog, with what was typed and the server's refusal of it when it is shown again
   * ({@code problem}: "" the first time): a refused join keeps the game id and the token. A
   * token of another side than the one taken in VASSAL joins with a warning saying so.
   */
  private void joinDialog(String typedId, String typedToken, String problem) {
    joinDialog(typedId, typedToken, problem, null);
  }

  /**
   * The join dialog. The server the token goes to is the recorded game's own when the game says
   * it (a player who synchronised in a room or loaded a file gets it with the game); when that is
   * not the address this player set (Adjudicator > Connect), both are shown and he chooses (the
   * game's first): a token is never sent to an address he was not shown.
   */
  private void joinDialog(String typedId, String typedToken, String problem, String chosenServer) {
    final JTextField gameId = new JTextField(typedId, 24);
    gameId.setName("game id");
    final JTextField token = new JTextField(typedToken, 24);
    token.setName("token");
    final JPanel form = new JPanel(new GridLayout(0, 2, 4, 4));
    form.add(new JLabel("Game id:"));
    form.add(gameId);
    form.add(new JLabel("Your token:"));
    form.add(token);
    form.add(new JLabel("Your side:"));
    form.add(new JLabel("the token's (the server says whose it is)"));
    form.add(new JLabel("Server:"));
    final String gamesOwn = adjudicator.joinServer(typedId.trim());
    final String yours = Settings.server();
    final JComboBox<String> server = new JComboBox<>(Server.same(gamesOwn, yours) ? new String[] {yours}
                                                     : new String[] {gamesOwn, yours});
    server.setName("server");
    if (chosenServer != null) server.setSelectedItem(chosenServer);
    form.add(server);
    final java.util.List<Object> shown = new java.util.ArrayList<>();
    if (!problem.isEmpty()) {
      final JLabel refused = new JLabel("<html><font color=\"#aa0000\">" + escaped(problem) + "</font></html>");
      refused.setName("problem");
      shown.add(refused);
    }
    if (server.getItemCount() > 1) {
      final JLabel differs = new JLabel("<html>This game says its recorded game lives at " + escaped(gamesOwn) + "; your "
                                        + "address (Adjudicator &gt; Connect) is " + escaped(yours) + ".<br>Your token goes to "
                                        + "the server you choose.</html>");
      differs.setName("server differs");
      shown.add(differs);
    }
    shown.add(form);
    if (JOptionPane.showConfirmDialog(Adjudicator.window(), shown.toArray(), "Adjudicator: join a recorded game",
                                      JOptionPane.OK_CANCEL_OPTION, JOptionPane.PLAIN_MESSAGE) != JOptionPane.OK_OPTION) return;
    final String id = gameId.getText();
    final String secret = token.getText();
    final String address = String.valueOf(server.getSelectedItem());
    new SwingWorker<Map<String, Object>, Void>() {
      @Override
      protected Map<String, Object> doInBackground() {
        return adjudicator.games.join(id, secret, address, false);
      }

      @Override
      protected void done() {
        final Map<String, Object> answer;
        try {
          answer = get();
        }
        catch (Exception e) {
          joinDialog(id, secret, "Unexpected error: " + e.getMessage(), address);
          return;
        }
        if (!Boolean.TRUE.equals(answer.get("ok"))) {
          joinDialog(id, secret, answer.get("title") + ": " + answer.get("detail"), address);
          return;
        }
        final String joined = "Joined recorded game " + answer.get("game_id") + " ("
          + adjudicator.scenarioName(String.valueOf(answer.get("scenario"))) + ") as "
          + adjudicator.info().sideName(String.valueOf(answer.get("side"))) + ".";
        final String warning = String.valueOf(answer.getOrDefault("warning", ""));
        if (warning.isEmpty()) {
          JOptionPane.showMessageDialog(Adjudicator.window(), joined, "Adjudicator", JOptionPane.INFORMATION_MESSAGE);
        }
        else {
          JOptionPane.showMessageDialog(Adjudicator.window(), joined + "\n\n" + warning, "Adjudicator: not the side you took",
                                        JOptionPane.WARNING_MESSAGE);
        }
      }
    }.execute();
  }

  private static String escaped(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;");
  }

  /** Forgetting a token is asked first, with the token shown to copy: without it, this player cannot roll in the game. */
  private void leaveDialog(ActiveGame active) {
    if (active == null) return;
    final JTextArea text = new JTextArea("Forget your token of recorded game " + active.gameId + " ("
      + (Adjudicator.OBSERVER.equals(active.side) ? "the observer's" : adjudicator.info().sideName(active.side)) + ")?\nWithout it you cannot roll in this game; copy it first if you will "
      + "need it:\n\n" + active.token, 5, 64);
    text.setEditable(false);
    if (JOptionPane.showConfirmDialog(Adjudicator.window(), text, "Adjudicator: forget your token?", JOptionPane.YES_NO_OPTION,
                                      JOptionPane.WARNING_MESSAGE) != JOptionPane.YES_OPTION) return;
    adjudicator.leaveRecordedGame();
  }

  /** Runs one of the component's public actions off the event thread; its answer (on the event thread) to {@code then} when it went well. */
  static void inBackground(Callable<Map<String, Object>> action, Consumer<Map<String, Object>> then) {
    new SwingWorker<Map<String, Object>, Void>() {
      @Override
      protected Map<String, Object> doInBackground() throws Exception {
        return action.call();
      }

      @Override
      protected void done() {
        try {
          final Map<String, Object> answer = get();
          if (Boolean.TRUE.equals(answer.get("ok"))) then.accept(answer);
        }
        catch (Exception e) {
          Adjudicator.showProblem(new Server.Problem(0, "Unexpected error", String.valueOf(e.getMessage())));
        }
      }
    }.execute();
  }

  /** A list that shows names for the ids it holds ("pusan" shows "Pusan Perimeter"). */
  private static javax.swing.ListCellRenderer<Object> named(Map<String, String> names) {
    final javax.swing.DefaultListCellRenderer plain = new javax.swing.DefaultListCellRenderer();
    return (list, value, index, selected, focused) ->
      plain.getListCellRendererComponent(list, value == null ? "" : names.getOrDefault(String.valueOf(value), String.valueOf(value)),
                                         index, selected, focused);
  }

  static JMenuItem item(String text, Runnable action) {
    final JMenuItem i = new JMenuItem(text);
    i.addActionListener(a -> action.run());
    return i;
  }
}
