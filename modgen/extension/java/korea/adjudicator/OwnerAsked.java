package korea.adjudicator;

import java.util.LinkedHashMap;
import java.util.Map;

import VASSAL.build.GameModule;
import VASSAL.command.Command;

/**
 * Live play: a ruling changes pieces only their owner may change (his blocks, hidden from the side
 * that asked: VASSAL lets no command of the asker reach them), so the asker's extension asks the
 * owner's, at the same board, to apply them. This command goes to the players in the room
 * ({@code korea.adjudicator.owner<TAB>{"game_id", "seq", "owner", "asker"}}); the extension of the
 * player who holds the owner's token of that recorded game answers it by offering him the
 * ruling's changes to his pieces (Adjudicator.ownerAsked), and says to both when he applied them.
 * It is never logged: a log replayed later asks nobody (by e-mail the owner applies them in his
 * next file, "Apply the rulings' changes to my pieces").
 */
final class OwnerAsked extends Command {
  static final String PREFIX = "korea.adjudicator.owner\t";

  private final Adjudicator adjudicator;
  final String gameId;
  final long seq;
  final String owner;
  final String asker;

  OwnerAsked(Adjudicator adjudicator, String gameId, long seq, String owner, String asker) {
    this.adjudicator = adjudicator;
    this.gameId = gameId;
    this.seq = seq;
    this.owner = owner;
    this.asker = asker;
  }

  /** Sends it to the other players in the room (nothing is run here). Event thread. */
  void send() {
    GameModule.getGameModule().getServer().sendToOthers(this);
  }

  String encoded() {
    final Map<String, Object> json = new LinkedHashMap<>();
    json.put("game_id", gameId);
    json.put("seq", seq);
    json.put("owner", owner);
    json.put("asker", asker);
    return PREFIX + Json.write(json);
  }

  /** The request a command string carries, or null when it is none (or damaged). */
  static OwnerAsked decode(Adjudicator adjudicator, String command) {
    if (command == null || !command.startsWith(PREFIX)) return null;
    try {
      final Map<String, Object> json = Json.parseObject(command.substring(PREFIX.length()));
      if (!(json.get("seq") instanceof Number)) return null;
      return new OwnerAsked(adjudicator, String.valueOf(json.get("game_id")), ((Number) json.get("seq")).longValue(),
                            String.valueOf(json.get("owner")), String.valueOf(json.get("asker")));
    }
    catch (IllegalArgumentException e) {
      return null;
    }
  }

  @Override
  protected void executeCommand() {
    adjudicator.ownerAsked(gameId, seq, owner, asker);
  }

  @Override
  protected Command myUndoCommand() {
    return null;
  }

  @Override
  public boolean isLoggable() {
    return false;
  }
}
