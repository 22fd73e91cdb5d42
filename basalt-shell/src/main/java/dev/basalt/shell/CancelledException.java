package dev.basalt.shell;

/** The user pressed Ctrl-C while a command ran; the command stopped where it was. */
final class CancelledException extends Exception {
  private static final long serialVersionUID = 1L;

  CancelledException() {
    super("cancelled");
  }
}
