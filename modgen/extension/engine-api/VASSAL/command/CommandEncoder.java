package VASSAL.command;

/** Compile-only declaration (see ../../README.md): VASSAL.command.CommandEncoder, turning commands into text and back. */
public interface CommandEncoder {
  Command decode(String command);

  String encode(Command c);
}
