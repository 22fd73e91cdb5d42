package dev.basalt.util;

/**
 * Lets a thread that must not wait try an operation: a server's network thread runs a short call
 * itself instead of handing it to a handler thread (a hand-over costs two thread wake-ups, which on
 * a small machine is more than a warm get). Inside {@link #attempt}, the engine's waiting points —
 * a row lock another writer holds, a region being flushed or closed, memstores over their global
 * limit, a store with too many files, and for operations that change nothing (gets) a read from
 * storage — throw {@link WouldWait} instead of waiting, always before the operation has changed
 * anything, so the caller can hand the same operation to a thread that may wait. Waits that cannot
 * be avoided once a write has begun (the WAL group commit of a SYNC_WAL edit, the back-pressure of
 * ASYNC_WAL) still happen: they are short, and callers keep edits that must be forced to the device
 * (FSYNC_WAL) off such threads.
 *
 * <p>The flag is per thread; {@link #active()} costs one thread-local read.
 */
public final class NoWait {
  /** Per thread: {@link #OFF}, {@link #ON} or {@link #READ_ONLY}. */
  private static final ThreadLocal<int[]> STATE = ThreadLocal.withInitial(() -> new int[1]);

  private static final int OFF = 0;
  private static final int ON = 1;

  /** Inside an attempt whose operation changes nothing: reading storage counts as waiting too. */
  private static final int READ_ONLY = 2;

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
    int[] state = STATE.get();
    int outer = state[0];
    state[0] = ON;
    try {
      return op.run();
    } finally {
      state[0] = outer;
    }
  }

  /** Whether this thread is inside {@link #attempt}. */
  public static boolean active() {
    return STATE.get()[0] != OFF;
  }

  /**
   * Declares that the operation this thread runs from here until {@link #endReadOnly} changes
   * nothing, so that it can be dropped at any point: inside {@link #attempt}, a read from storage
   * (a block not in the cache) then throws {@link WouldWait} too, and the operation runs again on a
   * thread that may wait for the disk. Outside an attempt it has no effect. Operations that change
   * state part-way (a write that read before it wrote, a scanner that moved) must not declare it.
   *
   * @return what {@link #endReadOnly} restores
   */
  public static int beginReadOnly() {
    int[] state = STATE.get();
    int outer = state[0];
    if (outer == ON) {
      state[0] = READ_ONLY;
    }
    return outer;
  }

  /** Ends what {@link #beginReadOnly} began. */
  public static void endReadOnly(int outer) {
    STATE.get()[0] = outer;
  }

  /**
   * Called before reading from storage (the local disk or a remote file system): throws when the
   * thread runs a read-only operation that must not wait.
   *
   * @param file the file about to be read, for the exception's message
   */
  public static void beforeStorageRead(String file) {
    if (STATE.get()[0] == READ_ONLY) {
      throw new WouldWait("a read of " + file);
    }
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
