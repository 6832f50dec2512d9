package VASSAL.counters;

import java.awt.event.ActionEvent;

import javax.swing.AbstractAction;
import javax.swing.KeyStroke;

/** Compile-only declaration (see ../../README.md): a piece's menu command (VASSAL.counters.KeyCommand). */
public class KeyCommand extends AbstractAction {
  private static final long serialVersionUID = 1L;

  public String getName() { return null; }

  public KeyStroke getKeyStroke() { return null; }

  public boolean isGlobal() { return false; }

  public void setGlobal(boolean global) { }

  @Override
  public void actionPerformed(ActionEvent evt) { }
}
