package korea.adjudicator;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import VASSAL.build.GameModule;
import VASSAL.build.module.BasicLogger;
import VASSAL.command.Logger;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Stack;

/**
 * The game's chain of log files, as the server's log check reads it (docs/bridge.md, "The chain
 * of logs"). A game by e-mail is a chain of .vlog files: each player loads the file received and
 * begins a new log. Each log the player begins is a log session: it gets an id, names the session
 * of the position it continues (the file loaded) and a digest of that position, and begins with a
 * chat line saying so; each ruling asked while it is kept names it (the request's log_session).
 * So the log check tells this file's rulings from those of the files before it, and a second log
 * begun from the same position (a reload after an unwelcome roll) from an honest reload.
 *
 * The engine has no event for "a log begins": its logger asks every game component for its
 * restore command right after the player chose the log's file and before it keeps that state as
 * the log's beginning ({@link #beginning()}), which is the one moment the extension hears of it.
 */
final class LogSessions {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

  private LogSessions() { }

  /** Whether a log is being kept now (File > Begin Logfile, or "Start new logfile?" answered Yes). */
  static boolean logging() {
    final Logger logger = GameModule.getGameModule().getLogger();
    return logger instanceof BasicLogger && ((BasicLogger) logger).isLogging();
  }

  /**
   * Whether the engine is beginning a log now: its file is chosen but its beginning state not
   * yet taken (the logger's protected field, read by reflection; a save while a log is kept has
   * one). Event thread, from a restore command.
   */
  static boolean beginning() {
    final Logger logger = GameModule.getGameModule().getLogger();
    if (!(logger instanceof BasicLogger) || !((BasicLogger) logger).isLogging()) return false;
    try {
      final Field state = BasicLogger.class.getDeclaredField("beginningState");
      state.setAccessible(true);
      return state.get(logger) == null;
    }
    catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  /** A new session id (12 letters and digits: the server takes A-Za-z0-9_-, at most 64). */
  static String newId() {
    final StringBuilder id = new StringBuilder(12);
    for (int i = 0; i < 12; i++) id.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    return id.toString();
  }

  /**
   * A digest of the position on the board: every piece's type and state (which include where it
   * stands), sorted, hashed (SHA-256, first 32 hex digits). The same position loaded twice gives
   * the same digest. Event thread.
   */
  static String positionDigest() {
    final List<String> pieces = new ArrayList<>();
    for (final GamePiece p : GameModule.getGameModule().getGameState().getAllPieces()) {
      if (p instanceof Stack) {
        for (final GamePiece inside : ((Stack) p).asList()) pieces.add(describe(inside));
      }
      else {
        pieces.add(describe(p));
      }
    }
    Collections.sort(pieces);
    try {
      final MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (final String piece : pieces) {
        sha.update(piece.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) '\n');
      }
      final StringBuilder hex = new StringBuilder();
      for (final byte b : sha.digest()) hex.append(String.format("%02x", b));
      return hex.substring(0, 32);
    }
    catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String describe(GamePiece p) {
    final String map = p.getMap() == null ? "" : p.getMap().getMapName();
    final java.awt.Point at = p.getPosition();
    return p.getId() + "\t" + map + "\t" + (at == null ? "" : at.x + "," + at.y) + "\t" + p.getType() + "\t" + p.getState();
  }

  /**
   * The chat line a log begins with, as the server reads it (adjudicator.logs.session_line, its one specification;
   * tests/test_extension_java.py reads what this writes back with it):
   * {@code [ADJ session k3f9x2] log of game G, file 3, played by un, begun at position 9a1b..., after k1a2b3 k2c4d5}.
   * The side ({@code side}, null: not known) tells the log check whose file it is: a change only
   * that side can make (its hidden piece) is expected in its next file. A log kept in live play
   * names its live session ("…, live session m4n5p6, after …"): the other players' logs of the
   * sitting are kept at the same time, not re-rolls of it.
   */
  static String line(String gameId, PlayedGame.LogSession session, List<String> chain, String side) {
    final StringBuilder s = new StringBuilder("[ADJ session ").append(session.id).append("] log of game ").append(gameId);
    s.append(", file ").append(session.file);
    if (side != null && !side.isEmpty()) s.append(", played by ").append(side);
    if (session.start != null) s.append(", begun at position ").append(session.start);
    if (session.live != null) s.append(", live session ").append(session.live);
    s.append(chain.isEmpty() ? ", after the setup" : ", after " + String.join(" ", chain));
    return s.toString();
  }
}
