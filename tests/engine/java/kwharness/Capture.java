package kwharness;

import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.Window;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.swing.AbstractButton;
import javax.swing.JLabel;
import javax.swing.JTabbedPane;
import javax.swing.SwingUtilities;
import javax.swing.text.Document;
import javax.swing.text.JTextComponent;

import org.slf4j.LoggerFactory;

import VASSAL.build.GameModule;
import VASSAL.tools.ErrorDialog;
import VASSAL.tools.bug.BugHandler;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;

/**
 * Everything the engine says while the script runs: WARN/ERROR log events, bug reports
 * (ErrorDialog.bug, uncaught exceptions), dialogs (recorded with title and text, then closed,
 * so nothing waits for a person) and the chat window's lines. Each entry carries the index
 * of the step that was running, so a test can ask what one step caused.
 */
final class Capture {
  static final List<Map<String, Object>> LOG = Collections.synchronizedList(new ArrayList<>());
  static final List<Map<String, Object>> BUGS = Collections.synchronizedList(new ArrayList<>());
  static final List<Map<String, Object>> DIALOGS = Collections.synchronizedList(new ArrayList<>());
  static final List<Map<String, Object>> CHAT = Collections.synchronizedList(new ArrayList<>());
  /** Dialogs to answer instead of closing: {"title": regex, "button": text}, each used once, in order. */
  static final List<Map<String, Object>> ANSWERS = Collections.synchronizedList(new ArrayList<>());

  /** The step running now (-1 while the module opens). */
  static volatile int step = -1;
  /** Dialogs are closed once recorded (false: they stay for the script to answer as a person does). */
  static volatile boolean autoClose = true;
  /** The dialogs recorded already (each is recorded once, when it first shows). */
  private static final java.util.Map<Window, Boolean> SEEN = new java.util.WeakHashMap<>();

  private static final AtomicBoolean STOPPED = new AtomicBoolean(false);
  /** Chat lines already taken from the chat window's document. */
  private static int chatLinesSeen;
  /** When the harness started: times in the report are milliseconds since then (System.nanoTime). */
  static final long EPOCH = System.nanoTime();
  /** Each insert into the chat window's document: {nanoTime, the text inserted}, in order. */
  private static final List<Object[]> CHAT_INSERTS = Collections.synchronizedList(new ArrayList<>());
  private static int chatInsertsUsed;
  private static Document listened;

  private Capture() { }

  static Map<String, Object> entry() {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("step", step);
    return m;
  }

  static String trace(Throwable t) {
    return ThrowableProxyUtil.asString(new ThrowableProxy(t));
  }

  static void bug(String where, Throwable t) {
    final Map<String, Object> m = entry();
    m.put("where", where);
    m.put("what", trace(t));
    BUGS.add(m);
  }

  /** When each window opened (System.nanoTime of its WINDOW_OPENED event): event thread only. */
  private static final java.util.Map<Window, Long> OPENED = new java.util.WeakHashMap<>();

  /** When {@code w} opened, or null when it opened before the harness listened; event thread. */
  static Long openedAt(Window w) {
    return OPENED.get(w);
  }

  static void start() {
    installLogAppender();
    java.awt.Toolkit.getDefaultToolkit().addAWTEventListener(e -> {
      if (e.getID() == java.awt.event.WindowEvent.WINDOW_OPENED) OPENED.put(((java.awt.event.WindowEvent) e).getWindow(), System.nanoTime());
    }, java.awt.AWTEvent.WINDOW_EVENT_MASK);
    ErrorDialog.addBugHandler(new BugHandler() {
      @Override public boolean accept(Throwable t) { return true; }
      @Override public void handle(Throwable t) { bug("ErrorDialog.bug", t); }
    });
    Thread.setDefaultUncaughtExceptionHandler((th, t) -> bug("uncaught in " + th.getName(), t));
    startDialogWatchdog();
  }

  static void stop() {
    STOPPED.set(true);
  }

  private static void installLogAppender() {
    final LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    final AppenderBase<ILoggingEvent> app = new AppenderBase<>() {
      @Override
      protected void append(ILoggingEvent e) {
        if (!e.getLevel().isGreaterOrEqual(Level.WARN)) return;
        final Map<String, Object> m = entry();
        m.put("level", e.getLevel().toString());
        m.put("logger", e.getLoggerName());
        m.put("message", e.getFormattedMessage());
        final IThrowableProxy tp = e.getThrowableProxy();
        if (tp != null) m.put("throwable", ThrowableProxyUtil.asString(tp));
        LOG.add(m);
      }
    };
    app.setContext(ctx);
    app.setName("kw-harness");
    app.start();
    ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(app);
  }

  /** Every 100 ms: record each showing dialog (title + text) and close it. */
  private static void startDialogWatchdog() {
    final Thread t = new Thread(() -> {
      while (!STOPPED.get()) {
        try {
          Thread.sleep(100);
        }
        catch (InterruptedException e) {
          return;
        }
        SwingUtilities.invokeLater(Capture::closeDialogs);
      }
    }, "kw-harness-dialogs");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Records every showing dialog and closes it, or presses the button a waiting answer names
   * (a person's click: the dialog's own code then runs); must run on the event thread.
   */
  static void closeDialogs() {
    for (final Window w : Window.getWindows()) {
      if (w instanceof Dialog && w.isShowing()) {
        if (!autoClose && SEEN.containsKey(w)) continue;
        SEEN.put(w, Boolean.TRUE);
        final StringBuilder sb = new StringBuilder();
        collectText(w, sb);
        final String title = ((Dialog) w).getTitle();
        final Map<String, Object> m = entry();
        m.put("title", title);
        m.put("text", sb.toString().trim());
        DIALOGS.add(m);
        if (!autoClose) continue;  // a person answers it
        final Map<String, Object> answer = answer(title);
        final AbstractButton button = answer == null ? null : findButton(w, String.valueOf(answer.get("button")));
        if (answer != null) m.put("typed", Fields.fill(w, answer.get("fields")));
        if (button != null) {
          m.put("answered", button.getText());
          button.doClick(0);
        }
        if (w.isShowing()) w.dispose();
      }
    }
  }

  private static Map<String, Object> answer(String title) {
    synchronized (ANSWERS) {
      for (final Map<String, Object> a : ANSWERS) {
        if (title != null && java.util.regex.Pattern.compile(String.valueOf(a.get("title"))).matcher(title).find()) {
          ANSWERS.remove(a);
          return a;
        }
      }
    }
    return null;
  }

  private static AbstractButton findButton(Component c, String text) {
    if (c instanceof AbstractButton && text.equals(((AbstractButton) c).getText())) return (AbstractButton) c;
    if (c instanceof Container) {
      for (final Component k : ((Container) c).getComponents()) {
        final AbstractButton b = findButton(k, text);
        if (b != null) return b;
      }
    }
    return null;
  }

  private static void collectText(Component c, StringBuilder sb) {
    if (c instanceof JLabel && ((JLabel) c).getText() != null) {
      sb.append(((JLabel) c).getText()).append('\n');
    }
    else if (c instanceof JTextComponent) {
      sb.append(((JTextComponent) c).getText()).append('\n');
    }
    else if (c instanceof AbstractButton) {
      return; // buttons are not content
    }
    else if (c instanceof JTabbedPane) {
      final JTabbedPane tabs = (JTabbedPane) c;
      for (int i = 0; i < tabs.getTabCount(); i++) sb.append("[tab] ").append(tabs.getTitleAt(i)).append('\n');
    }
    if (c instanceof Container) {
      for (final Component k : ((Container) c).getComponents()) collectText(k, sb);
    }
  }

  /** Milliseconds since the harness started, for a System.nanoTime() reading. */
  static double ms(long nanos) {
    return (nanos - EPOCH) / 1e6;
  }

  /**
   * Takes the chat window's new lines, each with the time its text went into the window's
   * document ("at_ms": a listener on the document stamps every insert); must run on the event thread.
   */
  static void takeChat() {
    final GameModule g = GameModule.getGameModule();
    if (g == null || g.getChatter() == null) return;
    listen(g.getChatter());
    final StringBuilder sb = new StringBuilder();
    collectDocText(g.getChatter(), sb);
    final List<String> lines = new ArrayList<>();
    for (final String line : sb.toString().split("\n")) {
      if (!line.isBlank()) lines.add(line.strip());
    }
    for (int i = chatLinesSeen; i < lines.size(); i++) {
      final Map<String, Object> m = entry();
      m.put("text", lines.get(i));
      final Long at = insertedAt(lines.get(i));
      if (at != null) m.put("at_ms", ms(at));
      CHAT.add(m);
    }
    chatLinesSeen = Math.max(chatLinesSeen, lines.size());
  }

  /** The time of the first insert (from the last one used on) whose text holds the line; null when none does. */
  private static Long insertedAt(String line) {
    synchronized (CHAT_INSERTS) {
      for (int i = chatInsertsUsed; i < CHAT_INSERTS.size(); i++) {
        if (((String) CHAT_INSERTS.get(i)[1]).contains(line)) {
          chatInsertsUsed = i;
          return (Long) CHAT_INSERTS.get(i)[0];
        }
      }
    }
    return null;
  }

  /** Stamps every insert into the chat window's conversation (its first text pane) with its time. */
  private static void listen(Component chatter) {
    final javax.swing.JTextPane pane = firstTextPane(chatter);
    if (pane == null || pane.getDocument() == listened) return;
    listened = pane.getDocument();
    listened.addDocumentListener(new javax.swing.event.DocumentListener() {
      @Override
      public void insertUpdate(javax.swing.event.DocumentEvent e) {
        final long now = System.nanoTime();
        try {
          CHAT_INSERTS.add(new Object[] {now, e.getDocument().getText(e.getOffset(), e.getLength())});
        }
        catch (javax.swing.text.BadLocationException ignored) {
          CHAT_INSERTS.add(new Object[] {now, ""});
        }
      }

      @Override
      public void removeUpdate(javax.swing.event.DocumentEvent e) { }

      @Override
      public void changedUpdate(javax.swing.event.DocumentEvent e) { }
    });
  }

  private static javax.swing.JTextPane firstTextPane(Component c) {
    if (c instanceof javax.swing.JTextPane) return (javax.swing.JTextPane) c;
    if (c instanceof Container) {
      for (final Component k : ((Container) c).getComponents()) {
        final javax.swing.JTextPane found = firstTextPane(k);
        if (found != null) return found;
      }
    }
    return null;
  }

  private static void collectDocText(Component c, StringBuilder sb) {
    if (c instanceof JTextComponent) {
      final Document d = ((JTextComponent) c).getDocument();
      try {
        sb.append(d.getText(0, d.getLength())).append('\n');
      }
      catch (Exception ignored) {
        // a document being edited: its text is taken at the next step
      }
    }
    if (c instanceof Container) {
      for (final Component k : ((Container) c).getComponents()) collectDocText(k, sb);
    }
  }

  /** The entries of one list that a step caused. */
  static List<Map<String, Object>> during(List<Map<String, Object>> all, int index) {
    final List<Map<String, Object>> out = new ArrayList<>();
    synchronized (all) {
      for (final Map<String, Object> m : all) {
        if (Integer.valueOf(index).equals(m.get("step"))) out.add(m);
      }
    }
    return out;
  }
}
