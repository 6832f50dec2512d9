package VASSAL.command;

/** Compile-only declaration (see ../../README.md): the members of VASSAL.command.Command the extension calls or implements. */
public abstract class Command {
  public void execute() { }

  public Command append(Command c) { return null; }

  protected abstract void executeCommand();

  protected abstract Command myUndoCommand();

  public boolean isLoggable() { return false; }
}
