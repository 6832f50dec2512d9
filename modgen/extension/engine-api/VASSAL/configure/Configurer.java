package VASSAL.configure;

/** Compile-only declaration (see ../../README.md): VASSAL.configure.Configurer, as a type. */
public abstract class Configurer {
}
