package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.util.NoWait;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Exclusive per-row locks for writers, created on demand and dropped when unused. Readers never
 * lock rows (they use MVCC). Locks are reentrant for the owning thread. Thread-safe.
 */
final class RowLocks {
  private static final class Key {
    final byte[] row;
    final int hash;

    Key(byte[] row) {
      this.row = row;
      this.hash = Arrays.hashCode(row);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key && Arrays.equals(((Key) o).row, row);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private static final class Context {
    final ReentrantLock lock = new ReentrantLock();
    int users;
    boolean removed;
  }

  /** A held lock; release it exactly once. */
  final class RowLock implements AutoCloseable {
    private final Key key;
    private final Context ctx;

    private RowLock(Key key, Context ctx) {
      this.key = key;
      this.ctx = ctx;
    }

    @Override
    public void close() {
      ctx.lock.unlock();
      release(key, ctx);
    }
  }

  private final ConcurrentHashMap<Key, Context> locks = new ConcurrentHashMap<>();

  /**
   * Takes the row's lock, waiting at most {@code timeoutMillis}.
   *
   * @throws RowLockTimeoutException when the wait times out
   */
  RowLock lock(byte[] row, long timeoutMillis, String regionName)
      throws RowLockTimeoutException, InterruptedIOException {
    Key key = new Key(row);
    Context ctx;
    while (true) {
      ctx = locks.computeIfAbsent(key, k -> new Context());
      synchronized (ctx) {
        if (!ctx.removed) {
          ctx.users++;
          break;
        }
      }
    }
    boolean locked = ctx.lock.tryLock();
    try {
      if (!locked) {
        NoWait.beforeWaiting("the lock of row " + Bytes.toStringBinary(row));
        locked = ctx.lock.tryLock(timeoutMillis, TimeUnit.MILLISECONDS);
      }
    } catch (NoWait.WouldWait e) {
      release(key, ctx);
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      release(key, ctx);
      throw new InterruptedIOException(
          "interrupted waiting for the lock of row " + Bytes.toStringBinary(row));
    }
    if (!locked) {
      release(key, ctx);
      throw new RowLockTimeoutException(
          "timed out after "
              + timeoutMillis
              + " ms waiting for the lock of row "
              + Bytes.toStringBinary(row)
              + " in region "
              + regionName);
    }
    return new RowLock(key, ctx);
  }

  private void release(Key key, Context ctx) {
    synchronized (ctx) {
      if (--ctx.users == 0) {
        ctx.removed = true;
        locks.remove(key, ctx);
      }
    }
  }

  /** Rows with a lock held or awaited (for tests and metrics). */
  int size() {
    return locks.size();
  }
}
