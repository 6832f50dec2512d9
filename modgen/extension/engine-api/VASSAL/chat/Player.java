package VASSAL.chat;

/** Compile-only declaration (see ../../README.md): the members of VASSAL.chat.Player the extension calls. */
public interface Player {
  String getId();

  String getName();
}
