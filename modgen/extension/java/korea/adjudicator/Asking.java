package korea.adjudicator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

import javax.swing.JOptionPane;
import javax.swing.JTextArea;
import javax.swing.SwingUtilities;
import javax.swing.SwingWorker;

/**
 * Asking one check as a player does: the board fills what it knows, the form asks for the rest
 * (and stays open until the ruling is posted; a check with dice shows its chances before OK, and
 * in a recorded game warns of a situation asked before: AskedBefore),
 * the request goes to the server off the event thread, and the ruling is delivered: its lines
 * into the chat (the server's notices among them, and shown in a dialog), the stand-ins it used
 * stated once per game, and its changes to the board offered (a change to a piece hidden from
 * the player said to be its owner's).
 *
 * A recorded check carries a request id; asking again with the same entries after a lost or
 * late answer sends the same id, so the server returns the recorded ruling instead of rolling
 * again.
 */
final class Asking {
  /** The apply dialog's width in columns. */
  private static final int COLUMNS = 60;
  private final Adjudicator adjudicator;
  private final Catalog.Check check;
  private final Board.Context context;
  private String lastRequest = "";
  private String lastRequestId = "";

  Asking(Adjudicator adjudicator, Catalog.Check check, Board.Context context) {
    this.adjudicator = adjudicator;
    this.check = check;
    this.context = context;
  }

  /** Opens the check's form (event thread); returns when the form is closed. */
  void start() {
    final Map<String, Object> filled = adjudicator.checks.boardPart(check, context);
    final ActiveGame recorded = adjudicator.active();
    final Set<String> omit = new HashSet<>(List.of("request_id"));
    if (recorded != null || !check.random) omit.add("dice");
    final String mode = recorded != null
      ? "Recorded game " + recorded.gameId + " as " + adjudicator.info().sideName(recorded.side)
        + (check.random ? ": the server rolls the dice and records the ruling." : ": the server records the ruling (no die is rolled).")
      : check.random ? "A calculation: give the dice you rolled; nothing is recorded." : "A calculation: nothing is rolled or recorded.";
    final String dice = recorded == null && check.random ? diceHint() : "";
    final List<FormFields.Field> fields = new ArrayList<>(FormFields.boardFields(check.schema, filled));
    fields.addAll(FormFields.fields(check.schema, filled.keySet(), omit));
    final String asker = check.kind() == Catalog.Kind.ATTACK ? "attacker" : "";
    final CheckForm.Chances chances = check.random ? (entered, odds, refused) -> chances(filled, entered, odds, refused) : null;
    // a recorded game's roll: the form warns of a situation the ledger holds already (a calculation records nothing)
    final AskedBefore repeat = recorded != null && chances != null
      ? new AskedBefore(chances, this::openRecord, entered -> lastRequest.equals(Json.write(request(filled, entered)))) : null;
    CheckForm.open(Adjudicator.window(), check, filled, fields, mode, dice, asker, (entered, form) -> send(filled, entered, form),
                   chances, repeat);
  }

  /** The board's part and what the player entered: the request as the form sends it. */
  private static Map<String, Object> request(Map<String, Object> filled, Map<String, Object> entered) {
    final Map<String, Object> request = new LinkedHashMap<>(filled);
    request.putAll(entered);
    return request;
  }

  /**
   * The odds of the form's request (without dice), asked off the event thread: the Chances
   * button's and the repeat warning's; the answer, or why there is none, on the event thread.
   */
  private void chances(Map<String, Object> filled, Map<String, Object> entered, Consumer<Map<String, Object>> answer,
                       Consumer<Server.Problem> refused) {
    final Map<String, Object> request = request(filled, entered);
    request.remove("dice");
    final ActiveGame recorded = adjudicator.active();
    final String side = adjudicator.askingSide();
    new SwingWorker<Map<String, Object>, Void>() {
      @Override
      protected Map<String, Object> doInBackground() throws Exception {
        return adjudicator.checks.odds(check, request, recorded, side);
      }

      @Override
      protected void done() {
        final Map<String, Object> odds;
        try {
          odds = get();
        }
        catch (Exception e) {
          refused.accept(adjudicator.problemOf(e));
          return;
        }
        answer.accept(odds);
      }
    }.execute();
  }

  /** "Open #N" of the repeat warning: that ruling in its window, as Rulings of this game opens it, over the form. */
  private void openRecord(long record, java.awt.Window over) {
    new SwingWorker<Ruling, Void>() {
      @Override
      protected Ruling doInBackground() throws Exception {
        return adjudicator.ledger.ruling(record);
      }

      @Override
      protected void done() {
        try {
          RulingWindow.show(get(), over);
        }
        catch (Exception e) {
          Adjudicator.showProblem(adjudicator.problemOf(e));
        }
      }
    }.execute();
  }

  /** What a calculation's form says about the dice: the server names each missing die by its purpose. */
  private String diceHint() {
    final int n = check.exampleDice();
    return "Dice: give the dice you rolled, in the order the check uses them"
      + (n > 0 ? " (its example uses " + n + "; the number can depend on the results)" : "")
      + ". If one is missing, the adjudicator says which die, and what for.";
  }

  private void send(Map<String, Object> filled, Map<String, Object> entered, CheckForm form) {
    final Map<String, Object> request = request(filled, entered);
    final String body = Json.write(request);
    if (!body.equals(lastRequest)) {
      lastRequest = body;
      lastRequestId = "vassal-" + UUID.randomUUID();
    }
    final String requestId = lastRequestId;
    final int timeout = Settings.timeoutMs();
    final ActiveGame recorded = adjudicator.active();
    final String side = adjudicator.askingSide();
    form.waiting(recorded != null ? recorded.server : Settings.server(), timeout / 1000);
    new SwingWorker<Ruling, Void>() {
      @Override
      protected Ruling doInBackground() throws Exception {
        return adjudicator.checks.send(check, request, requestId, timeout, recorded, side);
      }

      @Override
      protected void done() {
        final Ruling ruling;
        try {
          ruling = get();
        }
        catch (Exception e) {
          final Server.Problem p = adjudicator.problemOf(e);
          if (form.isOpen()) form.refused(p);
          else Adjudicator.showProblem(p);
          return;
        }
        // a recorded ruling is posted even when the form was closed meanwhile: it is in the ledger
        form.answered();
        deliver(adjudicator, ruling, true);
      }
    }.execute();
  }

  /**
   * A ruling delivered: the stand-ins this game has not stated yet and the lines as this
   * player's side sees them (fog of war) first, then the ruling's lines last, so its headline is
   * in view when it ends (its notices are among its lines; they are also shown in a dialog);
   * and, when {@code offerChanges}, the question whether to apply its unit changes to the
   * board. Event thread.
   */
  static void deliver(Adjudicator adjudicator, Ruling ruling, boolean offerChanges) {
    final List<String> fresh = adjudicator.played().notStated(ruling.standIns);
    if (!fresh.isEmpty()) {
      Chat.say("stand-in data (not the publisher's) used by this game's rulings: " + String.join("; ", fresh)
               + ". What each stands in for, and why: Help > " + adjudicator.gameName() + ": module help, \"Stand-ins\".");
      adjudicator.change(adjudicator.played().withStandIns(fresh));
    }
    showPrivately(ruling);
    Chat.post(ruling.lines);
    adjudicator.session.delivered(ruling);
    if (!ruling.notices.isEmpty()) {
      JOptionPane.showMessageDialog(Adjudicator.window(), FormText.message(String.join("\n", ruling.notices)),
                                    "Adjudicator: notice", JOptionPane.WARNING_MESSAGE);
    }
    if (offerChanges && !ruling.changes.isEmpty()) offerChanges(adjudicator, ruling.changes, "apply the ruling to the board?", ruling.seq);
  }

  /** What became of an offer to apply changes: nothing to offer, only shown (another's changes, orders), declined, applied. */
  enum Offered { NOTHING, SHOWN, DECLINED, APPLIED }

  /**
   * Fog of war: the ruling as this player may see it (his own hidden units named) where it
   * differs from the lines everyone sees: shown here only, never sent or logged, so the log the
   * opponent receives names none of them.
   */
  private static void showPrivately(Ruling ruling) {
    final List<String> differs = privately(ruling);
    if (differs.isEmpty()) return;
    Chat.local("the ruling below, as your side sees it (on your screen only, not in the log):");
    for (final String line : differs) Chat.local("  " + line);
  }

  /**
   * The lines as this player's side sees them that differ from those everyone sees, without the
   * ruling's tag: no reader of the chat takes them for the ruling's own.
   */
  static List<String> privately(Ruling ruling) {
    final List<String> differs = new ArrayList<>();
    for (final String line : ruling.privateLines) {
      if (!ruling.lines.contains(line)) differs.add(line.replaceFirst("^\\[ADJ [^\\]]*\\] ?", ""));
    }
    return differs;
  }

  /**
   * "Apply the ruling to the board?" with what it would do to each piece; Yes runs the pieces' own
   * commands. A change to a piece hidden from this player is said to be its owner's (and the chat
   * tells both players), never silently skipped: in live play, with the owner at the board, his
   * extension is asked to offer it to him now (OwnerAsked: the chat says it is pending until he
   * applies it, and says so when he has); else he makes it in his next file. {@code seq}: the
   * ruling's record (null: changes of several rulings). What became of the offer. Event thread.
   */
  static Offered offerChanges(Adjudicator adjudicator, List<Ruling.Change> changes, String question, Object seq) {
    final List<BoardChanges.Planned> plan = BoardChanges.plan(changes, adjudicator.askingSide(), adjudicator.info()::sideName);
    final List<String> lines = new ArrayList<>();
    final List<String> owners = new ArrayList<>();
    final Set<String> ownerSides = new java.util.LinkedHashSet<>();
    boolean any = false;
    boolean orders = false;  // moves the ruling orders that its owner makes (a retreat: the hexes are his choice)
    for (final BoardChanges.Planned p : plan) {
      lines.add(line(p));
      any |= p.applies();
      orders |= p.order();
      if (p.owners()) {
        owners.add(ownersLine(p));
        if (!p.owner().isEmpty()) ownerSides.add(p.owner());
      }
    }
    if (!owners.isEmpty()) askOwners(adjudicator, owners, ownerSides, seq);
    if (!any) {
      if (!owners.isEmpty() || orders) {
        JOptionPane.showMessageDialog(Adjudicator.window(), FormText.message(String.join("\n", lines)),
                                      orders && owners.isEmpty() ? "Adjudicator: the ruling orders" : "Adjudicator: not yours to apply",
                                      JOptionPane.INFORMATION_MESSAGE);
      }
      return !owners.isEmpty() || orders ? Offered.SHOWN : Offered.NOTHING;
    }
    lines.add(0, "The ruling changes the pieces as listed. Apply it to the board now? (Yes: each piece's own commands "
              + "make it, reported in the chat; No: make the changes yourself)");
    lines.add(1, "");
    // every action in view: as many rows as the wrapped lines take (no list hidden behind a scroll bar)
    int rows = 0;
    for (final String line : lines) rows += Math.max(1, (line.length() + COLUMNS - 9) / (COLUMNS - 8));  // words wrap short
    final JTextArea text = new JTextArea(String.join("\n", lines), rows, COLUMNS);
    text.setName("changes");
    text.setLineWrap(true);
    text.setWrapStyleWord(true);
    text.setEditable(false);
    // scrolling only past a screen: a list longer than the screen's room scrolls, never one that fits
    final int room = FormText.usableScreen(Adjudicator.ownerWindow()).height - 200;
    final javax.swing.JComponent shown = text.getPreferredSize().height <= room ? text : scrolled(text, room);
    final int answer = JOptionPane.showConfirmDialog(Adjudicator.window(), shown,
                                                     "Adjudicator: " + question, JOptionPane.YES_NO_OPTION,
                                                     JOptionPane.QUESTION_MESSAGE);
    if (answer != JOptionPane.YES_OPTION) return Offered.DECLINED;
    final List<String> problems = BoardChanges.apply(plan);
    if (!problems.isEmpty()) {
      final javax.swing.JComponent said = FormText.message(String.join("\n", problems));
      SwingUtilities.invokeLater(() -> JOptionPane.showMessageDialog(Adjudicator.window(), said, "Adjudicator: not applied",
                                                                     JOptionPane.WARNING_MESSAGE));
    }
    return Offered.APPLIED;
  }

  /** A planned entry as the apply dialog lists it: the piece's name (if any) and what is done to it. */
  static String line(BoardChanges.Planned p) {
    return p.name().isEmpty() ? p.does : p.name() + ": " + p.does;
  }

  /** A planned entry its owner makes, as the chat tells both players ("to NK 15 to be applied by ..."; a marker's: "to be applied by ..."). */
  static String ownersLine(BoardChanges.Planned p) {
    return (p.name().isEmpty() ? "" : "to " + p.name() + " ") + p.does.replace(": the piece is hidden from you", "");
  }

  /** The chat's line for the changes their owners make ({@link #ownersLine} each): "the ruling's change to NK 15 ...". */
  static String ownersSaid(List<String> owners) {
    return "the ruling's change " + String.join("; ", owners);
  }

  /** A text taller than the screen's room, in a scroll pane of that height. */
  private static javax.swing.JComponent scrolled(JTextArea text, int height) {
    final javax.swing.JScrollPane pane = new javax.swing.JScrollPane(text);
    pane.setPreferredSize(new java.awt.Dimension(text.getPreferredSize().width + 24, Math.max(120, height)));
    return pane;
  }

  /**
   * A ruling's changes only their owners may make: the chat tells both players whose they are;
   * at the board (live play, the owner in the room) his extension is asked now, else he makes them
   * in his next file (the log check expects them there).
   */
  private static void askOwners(Adjudicator adjudicator, List<String> owners, Set<String> sides, Object seq) {
    final ActiveGame a = adjudicator.active();
    final Live.Seat seat = Live.now();
    if (a == null || !(seq instanceof Number) || !seat.inRoom || seat.players < 2) {
      Chat.say(ownersSaid(owners) + " in his next file");
      return;
    }
    Chat.say(ownersSaid(owners) + ": asked of him now at the board, pending until he "
             + "applies it");
    for (final String side : sides) new OwnerAsked(adjudicator, a.gameId, ((Number) seq).longValue(), side, a.side).send();
  }
}
