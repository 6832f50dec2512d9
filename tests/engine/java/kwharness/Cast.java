package kwharness;

import java.util.List;
import java.util.Map;

/** Parsed JSON values (korea.adjudicator's Json, compiled into this package) as what the caller knows they are. */
final class Cast {
  private Cast() {
  }

  /** A parsed JSON array (unchecked: the caller knows the shape). */
  @SuppressWarnings("unchecked")
  static List<Object> list(Object o) {
    return (List<Object>) o;
  }

  /** A parsed JSON object (unchecked: the caller knows the shape). */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object o) {
    return (Map<String, Object>) o;
  }
}
