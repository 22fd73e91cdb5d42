package dev.basalt.shell;

/**
 * Ctrl-C for the running command. The signal handler (a JLine or JVM thread) calls {@link
 * #cancel()}, which marks the command cancelled and interrupts the thread running it: loops over
 * rows check {@link #check()} between rows, and a thread waiting inside the HBase client for an
 * answer is woken by the interrupt (the client then throws InterruptedIOException).
 */
final class Cancellation {
  private volatile boolean requested;
  private volatile Thread worker;

  /** The current thread starts a command. */
  void begin() {
    requested = false;
    worker = Thread.currentThread();
  }

  /** The command ended; clears an interrupt that arrived too late to matter. */
  void end() {
    worker = null;
    Thread.interrupted();
  }

  void cancel() {
    requested = true;
    Thread w = worker;
    if (w != null) {
      w.interrupt();
    }
  }

  boolean requested() {
    return requested;
  }

  void check() throws CancelledException {
    if (requested) {
      throw new CancelledException();
    }
  }
}
