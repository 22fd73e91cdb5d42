package dev.basalt.bench.workload;

/** Bad command-line input; the message says what was wrong and what is expected. */
final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
