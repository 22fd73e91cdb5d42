package dev.basalt.server.regionserver;

import dev.basalt.db.Database;
import dev.basalt.ops.Mutation;
import dev.basalt.util.Clock;
import dev.basalt.util.NoWait;
import java.io.InterruptedIOException;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Operations the client marked with a nonce, so that a retried Increment or Append is applied once.
 * HBase's client gives every increment and append a (nonce group, nonce) pair and sends the same
 * pair again when it retries a call whose answer it lost; without this table a retry after a
 * timeout would add the increment twice.
 *
 * <p>As HBase's ServerNonceManager: the first call with a pair runs the operation; a call with the
 * same pair waits while it runs; after it succeeded later calls do not run it again (the caller
 * answers with the row's current values instead); after it failed the next call runs it. Finished
 * pairs are forgotten after the grace period (HBase's {@code hbase.server.hashNonce.gracePeriod},
 * 30 minutes), longer than any client retries a call.
 *
 * <p>The region logs each operation's nonce with its edit; a server that replays the log after a
 * crash learns the nonces of the operations applied within the grace period through {@link
 * #recovered}, as HBase's region servers do from their WAL, so a client retrying across the restart
 * is answered with the current values instead of a second increment. Thread-safe.
 */
final class ServerNonces {
  /** The client's "no nonce" (HConstants.NO_NONCE). */
  static final long NO_NONCE = Mutation.NO_NONCE;

  static final long GRACE_MILLIS = TimeUnit.MINUTES.toMillis(30);

  private record Key(long group, long nonce) {}

  /** One operation's state; waiters use its monitor. */
  private static final class Operation {
    private boolean done;
    private boolean succeeded;
    private long finishedAt;
  }

  private final Map<Key, Operation> operations = new ConcurrentHashMap<>();
  private final Clock clock;
  private final long graceMillis;

  ServerNonces(Clock clock, long graceMillis) {
    this.clock = clock;
    this.graceMillis = graceMillis;
  }

  /**
   * Claims an operation.
   *
   * @return true when the caller must run it (and then call {@link #end}); false when it already
   *     succeeded under this nonce and must not run again
   * @throws InterruptedIOException when interrupted while another call with this nonce runs
   */
  boolean start(long group, long nonce) throws InterruptedIOException {
    if (nonce == NO_NONCE) {
      return true;
    }
    Key key = new Key(group, nonce);
    while (true) {
      Operation mine = new Operation();
      Operation existing = operations.putIfAbsent(key, mine);
      if (existing == null) {
        return true;
      }
      synchronized (existing) {
        if (!existing.done) {
          NoWait.beforeWaiting("the call that runs the operation with nonce " + nonce);
        }
        while (!existing.done) {
          try {
            existing.wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(
                "interrupted waiting for operation with nonce " + nonce);
          }
        }
        if (existing.succeeded) {
          return false;
        }
      }
      operations.remove(key, existing); // it failed: the retry runs it, unless another claims it
    }
  }

  /**
   * Remembers the operations a replayed log shows were applied ({@link
   * Database#recoveredNonces()}), those within the grace period.
   */
  void recovered(Collection<Database.RecoveredNonce> applied) {
    for (Database.RecoveredNonce n : applied) {
      recovered(n.nonceGroup(), n.nonce(), n.writeTime());
    }
  }

  /**
   * Remembers an operation that a replayed log shows was applied at {@code writeTime}
   * (milliseconds), unless that is longer ago than the grace period.
   */
  void recovered(long group, long nonce, long writeTime) {
    if (nonce == NO_NONCE || clock.currentTimeMillis() - writeTime > graceMillis) {
      return;
    }
    Operation op = new Operation();
    op.done = true;
    op.succeeded = true;
    op.finishedAt = writeTime;
    operations.putIfAbsent(new Key(group, nonce), op);
  }

  /** Records the outcome of an operation {@link #start} let run, and wakes calls waiting for it. */
  void end(long group, long nonce, boolean succeeded) {
    if (nonce == NO_NONCE) {
      return;
    }
    Operation op = operations.get(new Key(group, nonce));
    if (op == null) {
      return;
    }
    synchronized (op) {
      op.done = true;
      op.succeeded = succeeded;
      op.finishedAt = clock.currentTimeMillis();
      op.notifyAll();
    }
  }

  /**
   * Forgets operations finished longer ago than the grace period.
   *
   * @return how many were forgotten
   */
  int expire() {
    long now = clock.currentTimeMillis();
    int n = 0;
    for (Map.Entry<Key, Operation> e : operations.entrySet()) {
      Operation op = e.getValue();
      boolean old;
      synchronized (op) {
        old = op.done && now - op.finishedAt > graceMillis;
      }
      if (old && operations.remove(e.getKey(), op)) {
        n++;
      }
    }
    return n;
  }

  int size() {
    return operations.size();
  }
}
