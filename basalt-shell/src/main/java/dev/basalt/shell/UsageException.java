package dev.basalt.shell;

/** A command was called the wrong way; the message says how to call it (one line). */
final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
