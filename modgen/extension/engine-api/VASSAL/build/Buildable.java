package VASSAL.build;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** Compile-only declaration (see ../../README.md): the engine's VASSAL.build.Buildable. */
public interface Buildable {
  void build(Element e);

  void addTo(Buildable parent);

  void add(Buildable child);

  Element getBuildElement(Document doc);
}
