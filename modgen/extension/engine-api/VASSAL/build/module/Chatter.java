package VASSAL.build.module;

import VASSAL.command.Command;

/** Compile-only declaration (see ../../../README.md): VASSAL.build.module.Chatter and its DisplayText command. */
public class Chatter extends javax.swing.JPanel {
  public static class DisplayText extends Command {
    public DisplayText(Chatter c, String s) { }

    @Override
    public void executeCommand() { }

    @Override
    public Command myUndoCommand() { return null; }
  }
}
