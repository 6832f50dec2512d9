package korea.adjudicator;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import javax.swing.SwingUtilities;

/**
 * The event thread, where the engine's pieces live and Swing draws: work run there from a thread that
 * waits for the server, and the calls that wait for the server refused on it.
 */
final class EventThread {
  private EventThread() {
  }

  static void requireOff() {
    if (SwingUtilities.isEventDispatchThread()) {
      throw new IllegalStateException("this waits for the server: call it off the event thread");
    }
  }

  /** Runs work on the event thread (where the engine's pieces live): at once when on it, else waiting for its result. */
  static <T> T anywhere(Callable<T> work) throws Server.Problem {
    if (!SwingUtilities.isEventDispatchThread()) return call(work);
    try {
      return work.call();
    }
    catch (Server.Problem p) {
      throw p;
    }
    catch (Exception e) {
      throw new Server.Problem(0, "Cannot read the board", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  /** Runs work on the event thread and waits for its result (off the event thread). */
  static <T> T call(Callable<T> work) throws Server.Problem {
    final List<T> result = new ArrayList<>(1);
    final List<Exception> error = new ArrayList<>(1);
    try {
      SwingUtilities.invokeAndWait(() -> {
        try {
          result.add(work.call());
        }
        catch (Exception e) {
          error.add(e);
        }
      });
    }
    catch (InterruptedException | InvocationTargetException e) {
      throw new Server.Problem(0, "Interrupted", String.valueOf(e.getMessage()));
    }
    if (!error.isEmpty()) {
      if (error.get(0) instanceof Server.Problem) throw (Server.Problem) error.get(0);
      throw new Server.Problem(0, "Cannot read the board", error.get(0).getClass().getSimpleName() + ": " + error.get(0).getMessage());
    }
    return result.get(0);
  }
}
