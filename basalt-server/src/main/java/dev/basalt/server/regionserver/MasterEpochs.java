package dev.basalt.server.regionserver;

import dev.basalt.util.BasaltIOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fence against a deposed master: the highest master epoch this region server has seen (the
 * czxid of the {@code <parent>/master} znode of the master that sent a command, or that the server
 * found there), and the refusal of commands from an older one. A master that lost its ZooKeeper
 * session may not know yet; its commands must not undo the new master's. HBase 2.6 checks the epoch
 * only on the master side; Basalt checks it here too (design decision D4). Thread-safe.
 */
public final class MasterEpochs {
  private final AtomicLong highest = new AtomicLong(Long.MIN_VALUE);

  /** Notes an epoch seen in ZooKeeper. */
  public void saw(long epoch) {
    highest.accumulateAndGet(epoch, Math::max);
  }

  /** The highest epoch seen, or Long.MIN_VALUE before any. */
  public long highest() {
    return highest.get();
  }

  /**
   * Accepts a command of a master of this epoch (and remembers the epoch when it is new).
   *
   * @throws BasaltIOException DoNotRetryIOException when a newer master was seen
   */
  public void check(long epoch) throws BasaltIOException {
    long h = highest.accumulateAndGet(epoch, Math::max);
    if (epoch < h) {
      throw BasaltIOException.doNotRetry(
          "a newer master (epoch " + h + ") is active; this command came from epoch " + epoch);
    }
  }
}
