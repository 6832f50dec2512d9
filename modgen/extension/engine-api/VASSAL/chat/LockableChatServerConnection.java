package VASSAL.chat;

/** Compile-only declaration (see ../../README.md): the members of VASSAL.chat.LockableChatServerConnection the extension calls. */
public interface LockableChatServerConnection extends ChatServerConnection {
  boolean isDefaultRoom(Room r);
}
