package VASSAL.build.module;

import VASSAL.command.Command;

/** Compile-only declaration (see ../../../README.md): VASSAL.build.module.ServerConnection, the live server a module talks to. */
public interface ServerConnection {
  String CONNECTED = "Connected";

  void sendToOthers(Command c);

  void setConnected(boolean connect);

  boolean isConnected();

  void addPropertyChangeListener(String propertyName, java.beans.PropertyChangeListener l);
}
