package kwharness;

import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.i18n.Localization;
import VASSAL.launch.StandardConfig;
import VASSAL.launch.StartUp;
import VASSAL.tools.DataArchive;

/**
 * The engine harness: opens a module in the real VASSAL engine (under an X display, e.g. Xvfb),
 * runs a JSON script of steps and writes a JSON report. Our own code, compiled at test time
 * against the engine jar; see docs/engine-harness.md.
 *
 *   java kwharness.Driver --module M.vmod --script steps.json --report report.json [--timeout SEC]
 *
 * Exit: 0 every step ran, 1 a step failed (the rest were skipped), 2 the module did not open,
 * 3 timeout, 4 another Player run with it failed (Rooms: several Players at once), 64 usage. The
 * report is written in every case but a crash of the JVM.
 */
public final class Driver {
  private static final Map<String, Object> REPORT = new LinkedHashMap<>();
  private static final List<Object> RESULTS = new ArrayList<>();
  private static final AtomicBoolean DONE = new AtomicBoolean(false);
  private static File reportFile;

  private Driver() { }

  /** The result of an earlier step (for a step that uses what an earlier one answered). */
  @SuppressWarnings("unchecked")
  static Object resultOf(int index) {
    if (index < 0 || index >= RESULTS.size()) throw new IllegalArgumentException("no step " + index + " ran before this one");
    return ((Map<String, Object>) RESULTS.get(index)).get("result");
  }

  public static void main(String[] args) throws Exception {
    String module = null;
    String script = null;
    int timeout = 300;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
      case "--module": module = args[++i]; break;
      case "--script": script = args[++i]; break;
      case "--report": reportFile = new File(args[++i]); break;
      case "--timeout": timeout = Integer.parseInt(args[++i]); break;
      default:
        System.err.println("usage: Driver --module M.vmod --script steps.json --report report.json [--timeout SEC]");
        System.exit(64);
      }
    }
    if (module == null || script == null || reportFile == null) {
      System.err.println("usage: Driver --module M.vmod --script steps.json --report report.json [--timeout SEC]");
      System.exit(64);
    }
    // The engine writes to stdout freely; keep it with the engine's log on stderr.
    System.setOut(new PrintStream(System.err, true, StandardCharsets.UTF_8));
    final List<Object> steps = Cast.list(Json.parse(Files.readString(new File(script).toPath())));

    Capture.start();
    Info.setConfig(new StandardConfig());
    new StartUp().initSystemProperties();
    new HarnessMenuManager();
    REPORT.put("engine_version", Info.getVersion());
    REPORT.put("module", new File(module).getAbsolutePath());
    REPORT.put("steps", RESULTS);
    startTimeout(timeout);
    Rooms.watchPartners(Driver::partnerFailed);

    final File modFile = new File(module).getAbsoluteFile();
    final ScriptedFileChooser chooser = new ScriptedFileChooser();
    try {
      Steps.onEdt(() -> {
        GameModule.init(new GameModule(new DataArchive(modFile.getPath())));
        Localization.getInstance().translate();
        final GameModule g = GameModule.getGameModule();
        final Field fc = GameModule.class.getDeclaredField("fileChooser");
        fc.setAccessible(true);
        fc.set(g, chooser);
        g.getPlayerWindow().setVisible(true);
        return null;
      });
      REPORT.put("module_opened", true);
      REPORT.put("module_name", GameModule.getGameModule().getGameName());
      REPORT.put("module_version", GameModule.getGameModule().getGameVersion());
    }
    catch (Exception e) {
      Capture.bug("open module", e);
      REPORT.put("module_opened", false);
      finish(2);
      return;
    }
    Steps.settle();
    Steps.onEdt(() -> {
      Capture.takeChat();
      return null;
    });

    final Steps runner = new Steps(chooser);
    int failed = -1;
    for (int i = 0; i < steps.size(); i++) {
      final Map<String, Object> step = Cast.object(steps.get(i));
      final Map<String, Object> result = new LinkedHashMap<>();
      result.put("do", step.get("do"));
      Capture.step = i;
      REPORT.put("running_step", i);
      Rooms.progress(i, step);
      final long started = System.nanoTime();
      result.put("started_ms", Capture.ms(started));  // when the step started (a benchmark's reference)
      try {
        result.put("result", runner.run(step));
        result.put("ok", true);
        result.put("ms", (System.nanoTime() - started) / 1e6);
      }
      catch (Exception e) {
        result.put("ok", false);
        result.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
        result.put("trace", Capture.trace(e));
      }
      Steps.settle();
      Steps.onEdt(() -> {
        Capture.closeDialogs();
        Capture.takeChat();
        return null;
      });
      result.put("chat", texts(Capture.during(Capture.CHAT, i)));
      result.put("dialogs", Capture.during(Capture.DIALOGS, i));
      result.put("log", Capture.during(Capture.LOG, i));
      result.put("bugs", Capture.during(Capture.BUGS, i));
      RESULTS.add(result);
      if (!Boolean.TRUE.equals(result.get("ok"))) {
        failed = i;
        break;
      }
    }
    REPORT.put("failed_step", failed < 0 ? null : failed);
    finish(failed < 0 ? 0 : 1);
  }

  private static List<Object> texts(List<Map<String, Object>> entries) {
    final List<Object> out = new ArrayList<>();
    for (final Map<String, Object> m : entries) out.add(m.get("text"));
    return out;
  }

  private static void startTimeout(int seconds) {
    final Thread t = new Thread(() -> {
      try {
        Thread.sleep(seconds * 1000L);
      }
      catch (InterruptedException e) {
        return;
      }
      REPORT.put("timeout", true);
      finish(3);
    }, "kw-harness-timeout");
    t.setDaemon(true);
    t.start();
  }

  /** Another Player run with this one failed: nothing it does can come now, so this one stops too (exit 4). */
  private static void partnerFailed(String why) {
    REPORT.put("partner_failed", why);
    finish(4);
  }

  private static void finish(int code) {
    if (DONE.getAndSet(true)) return;
    if (code != 0 && code != 4) Rooms.failed(code == 3 ? "timed out at step " + REPORT.get("running_step")
                                              : "failed at step " + REPORT.get("failed_step"));
    Capture.stop();
    REPORT.put("chat", new ArrayList<>(Capture.CHAT));
    REPORT.put("dialogs", new ArrayList<>(Capture.DIALOGS));
    REPORT.put("log", new ArrayList<>(Capture.LOG));
    REPORT.put("bugs", new ArrayList<>(Capture.BUGS));
    REPORT.put("exit_code", code);
    REPORT.put("clicks_not_delivered", Person.UNDELIVERED.get());
    try {
      final File tmp = new File(reportFile.getPath() + ".tmp");
      Files.writeString(tmp.toPath(), Json.write(REPORT) + "\n");
      Files.move(tmp.toPath(), reportFile.toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    catch (Exception e) {
      System.err.println("kw-harness: cannot write " + reportFile + ": " + e);
    }
    // halt: skip the engine's shutdown hooks and its "save the game?" questions
    Runtime.getRuntime().halt(code);
  }
}
