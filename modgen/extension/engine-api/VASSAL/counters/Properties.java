package VASSAL.counters;

/** Compile-only declaration (see ../../README.md): the piece property names the extension reads (VASSAL.counters.Properties). */
public interface Properties {
  String KEY_COMMANDS = "KeyCommands";

  String OBSCURED_TO_ME = "Obscured";

  String OBSCURED_TO_OTHERS = "ObscuredToOthers";
}
