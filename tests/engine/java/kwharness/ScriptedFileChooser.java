package kwharness;

import java.awt.Component;
import java.io.File;
import java.util.Map;

import VASSAL.tools.filechooser.FileChooser;
import VASSAL.tools.filechooser.FileFilter;

/**
 * The engine's file chooser, answered by the script: a step that makes the engine ask for a
 * file (begin a log) names the file first; an unexpected question is recorded as a dialog and
 * cancelled, as a person pressing Cancel would.
 */
final class ScriptedFileChooser extends FileChooser {
  private File next;
  private File selected;
  private File directory;
  private String title = "";
  private FileFilter filter;

  ScriptedFileChooser() {
    super(null, null);
  }

  /** The answer to the engine's next file question. */
  void answerNext(File file) {
    next = file;
  }

  private int answer(String kind) {
    if (next == null) {
      final Map<String, Object> m = Capture.entry();
      m.put("title", "file chooser (" + kind + "): " + title);
      m.put("text", "the engine asked for a file the script did not name; cancelled");
      Capture.DIALOGS.add(m);
      return CANCEL_OPTION;
    }
    selected = next;
    directory = next.getParentFile();
    next = null;
    return APPROVE_OPTION;
  }

  @Override public int showOpenDialog(Component parent) { return answer("open"); }
  @Override public int showSaveDialog(Component parent) { return answer("save"); }
  @Override public File getCurrentDirectory() { return directory; }
  @Override public void setCurrentDirectory(File dir) { directory = dir; }
  @Override public void rescanCurrentDirectory() { }
  @Override public File getSelectedFile() { return selected; }
  @Override public void setSelectedFile(File file) { selected = file; }
  @Override public String getDialogTitle() { return title; }
  @Override public void setDialogTitle(String t) { title = t == null ? "" : t; }
  @Override public FileFilter getFileFilter() { return filter; }
  @Override public void setFileFilter(FileFilter f) { filter = f; }
  @Override public void addChoosableFileFilter(FileFilter f) { }
  @Override public boolean removeChoosableFileFilter(FileFilter f) { return true; }
  @Override public void resetChoosableFileFilters() { }
}
