package VASSAL.preferences;

import java.io.IOException;

import VASSAL.configure.Configurer;

/** Compile-only declaration (see ../../README.md): the members of VASSAL.preferences.Prefs the extension calls. */
public class Prefs {
  public void addOption(String category, Configurer o) { }

  public Configurer getOption(String s) { return null; }

  public Object getValue(String key) { return null; }

  public void setValue(String option, Object value) { }

  public void save() throws IOException { }
}
