package dev.basalt.shell.verify;

/**
 * The comparison cannot run (or cannot finish): a bad argument, an unknown table or family, a
 * cluster that does not answer in time, or a read that failed. The message is one line naming the
 * problem; the tool prints it after "ERROR: " and exits with 2.
 */
final class VerifyException extends Exception {
  VerifyException(String message) {
    super(message);
  }

  VerifyException(String message, Throwable cause) {
    super(message, cause);
  }
}
