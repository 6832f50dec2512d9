package VASSAL.launch;

/** Compile-only declaration (see ../../README.md): VASSAL.launch.PlayerWindow, the Player's main window. */
public class PlayerWindow extends javax.swing.JFrame {
}
