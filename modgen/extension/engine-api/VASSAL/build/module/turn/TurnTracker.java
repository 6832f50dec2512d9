package VASSAL.build.module.turn;

/** Compile-only declaration (see ../../../../README.md): VASSAL.build.module.turn.TurnTracker, as a type. */
public class TurnTracker {
  /** Declared by the engine in AbstractConfigurable, TurnTracker's ancestor. */
  public String getConfigureName() { return null; }
}
