package dev.basalt.util;

/**
 * Lets a thread that must not wait try an operation: a server's network thread runs a short call
 * itself instead of handing it to a handler thread (a hand-over costs two thread wake-ups, which on
 * a small machine is more than a warm get). Inside {@link #attempt}, the engine's waiting points —
 * a row lock another writer holds, a region being flushed or closed, memstores over their global
 * limit, a store with too many files — throw {@link WouldWait} instead of waiting, always before
 * the operation has changed anything, so the caller can hand the same operation to a thread that
 * may wait. Waits that cannot be avoided once a write has begun (the WAL group commit of a SYNC_WAL
 * edit, the back-pressure of ASYNC_WAL) still happen: they are short, and callers keep edits that
 * must be forced to the device (FSYNC_WAL) off such threads.
 *
 * <p>The flag is per thread; {@link #active()} costs one thread-local read.
 */
public final class NoWait {
  private static final ThreadLocal<boolean[]> ACTIVE =
      ThreadLocal.withInitial(() -> new boolean[1]);

  private NoWait() {}

  /** An operation {@link #attempt} runs. */
  @FunctionalInterface
  public interface Attempt<T, E extends Exception> {
    T run() throws E;
  }

  /**
   * Runs {@code op} on this thread with every waiting point turned into {@link WouldWait}.
   *
   * @throws WouldWait when {@code op} would have waited; nothing was changed
   */
  public static <T, E extends Exception> T attempt(Attempt<T, E> op) throws E {
    boolean[] flag = ACTIVE.get();
    boolean outer = flag[0];
    flag[0] = true;
    try {
      return op.run();
    } finally {
      flag[0] = outer;
    }
  }

  /** Whether this thread is inside {@link #attempt}. */
  public static boolean active() {
    return ACTIVE.get()[0];
  }

  /**
   * Called at a point that is about to wait: throws when the thread must not.
   *
   * @param what what the operation would wait for, for the exception's message
   */
  public static void beforeWaiting(String what) {
    if (active()) {
      throw new WouldWait(what);
    }
  }

  /**
   * The operation would have had to wait; it changed nothing and can be run again where waiting is
   * allowed. Unchecked so that it passes through every {@code throws IOException} signature between
   * the waiting point and {@link #attempt}'s caller, which must catch it.
   */
  public static final class WouldWait extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WouldWait(String what) {
      super("would wait for " + what, null, false, false);
    }
  }
}
