package VASSAL.configure;

/** Compile-only declaration (see ../../README.md): VASSAL.configure.StringConfigurer's constructor. */
public class StringConfigurer extends Configurer {
  public StringConfigurer(String key, String name, String val) { }
}
