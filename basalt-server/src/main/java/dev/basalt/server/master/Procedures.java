package dev.basalt.server.master;

import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ErrorHandlingProtos.ForeignExceptionMessage;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ErrorHandlingProtos.GenericExceptionMessage;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetProcedureResultResponse;

/**
 * The procedure ids DDL answers carry. HBase's master runs DDL as asynchronous procedures and the
 * client polls {@code getProcedureResult} with the id until the procedure is FINISHED; Basalt runs
 * DDL synchronously inside the call, so by the time an id reaches the client its procedure is over
 * and the first poll ends the wait. The outcomes of the most recent procedures are kept for those
 * polls; older ids are NOT_FOUND, which sends the client to its fallback wait (table state checks)
 * and still works.
 *
 * <p>A failed procedure keeps its exception, and its caller throws it at once (the client accepts a
 * DDL call's precondition failure either way), except for an exception the stock client cannot
 * load: as a call's exception it becomes a bare "Unable to load exception" error that loses the
 * message, while from a procedure result the client rebuilds it as an IOException with the message
 * (which is how HBase's client reports those failures, since its master fails such procedures too).
 * That is ConstraintException, which lives in hbase-server: the call answers the procedure's id and
 * the client's poll finds the failure.
 *
 * <p>Nonces: the client sends a (group, nonce) pair with each DDL call and may resend the call when
 * the answer is lost. As in HBase, a pair seen before gets the first call's id instead of running
 * the DDL again. A pair whose DDL failed is forgotten, so that a retry after a transient error runs
 * it again.
 *
 * <p>Ids start at the clock's milliseconds shifted left 16 bits: a restarted server does not hand
 * out the ids of its previous life, which a client may still be polling. Thread-safe.
 */
final class Procedures {
  /** A piece of DDL run as one procedure. */
  @FunctionalInterface
  interface Work {
    void run() throws IOException;
  }

  /** HBase exceptions the engine uses that hbase-shaded-client does not have. */
  private static final Set<String> NOT_IN_CLIENT =
      Set.of("org.apache.hadoop.hbase.constraint.ConstraintException");

  private record NonceKey(long group, long nonce) {}

  /** One procedure; {@code finished} and {@code error} are only written under the lock. */
  private static final class Record {
    final long submitted;
    long lastUpdate;
    boolean finished;
    GenericExceptionMessage error;

    Record(long submitted) {
      this.submitted = submitted;
      this.lastUpdate = submitted;
    }
  }

  private final Clock clock;
  private final Map<Long, Record> recent;
  private final Map<NonceKey, Long> byNonce;
  private long nextId;

  /**
   * @param capacity how many recent procedures (and nonces) are remembered
   */
  Procedures(Clock clock, int capacity) {
    this.clock = clock;
    this.recent = bounded(capacity);
    this.byNonce = bounded(capacity);
    this.nextId = clock.currentTimeMillis() << 16;
  }

  private static <K, V> Map<K, V> bounded(int capacity) {
    return new LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
      }
    };
  }

  /**
   * Runs {@code work} as a new procedure, unless the nonce pair names one already run.
   *
   * @param nonceGroup the client's nonce group (0 with nonce 0: no nonce)
   * @return the procedure's id
   * @throws IOException the work's failure, after recording it (unless the client could not load
   *     it, see above); an {@link IllegalArgumentException} of the engine (a bad argument) becomes
   *     a DoNotRetryIOException
   */
  long run(long nonceGroup, long nonce, Work work) throws IOException {
    NonceKey key = nonceGroup == 0 && nonce == 0 ? null : new NonceKey(nonceGroup, nonce);
    long id;
    synchronized (this) {
      Long prior = key == null ? null : byNonce.get(key);
      if (prior != null) {
        return prior;
      }
      id = nextId++;
      recent.put(id, new Record(clock.currentTimeMillis()));
      if (key != null) {
        byNonce.put(key, id);
      }
    }
    try {
      work.run();
    } catch (IllegalArgumentException e) {
      BasaltIOException bad = BasaltIOException.doNotRetry(e.getMessage());
      fail(id, key, bad);
      throw bad;
    } catch (IOException | RuntimeException e) {
      fail(id, key, e);
      if (e instanceof BasaltIOException b && NOT_IN_CLIENT.contains(b.hbaseExceptionClass())) {
        return id;
      }
      throw e;
    }
    finish(id, null);
    return id;
  }

  private synchronized void fail(long id, NonceKey key, Exception e) {
    if (key != null) {
      byNonce.remove(key);
    }
    finish(id, e);
  }

  private synchronized void finish(long id, Exception e) {
    Record r = recent.get(id);
    if (r != null) {
      r.finished = true;
      r.lastUpdate = clock.currentTimeMillis();
      r.error = e == null ? null : describe(e);
    }
  }

  /** The class and message the client rebuilds (as RemoteExceptions names a call's failure). */
  private static GenericExceptionMessage describe(Exception e) {
    String className;
    String message;
    if (e instanceof BasaltIOException b) {
      className = b.hbaseExceptionClass();
      message = String.valueOf(b.getMessage());
    } else {
      className =
          e instanceof IOException ? IOException.class.getName() : BasaltIOException.DO_NOT_RETRY;
      message = e.getClass().getName() + ": " + e.getMessage();
    }
    return GenericExceptionMessage.newBuilder().setClassName(className).setMessage(message).build();
  }

  /** HBase's {@code getProcedureResult} answer for an id. */
  synchronized GetProcedureResultResponse result(long id) {
    Record r = recent.get(id);
    if (r == null) {
      return GetProcedureResultResponse.newBuilder()
          .setState(GetProcedureResultResponse.State.NOT_FOUND)
          .build();
    }
    GetProcedureResultResponse.Builder b =
        GetProcedureResultResponse.newBuilder()
            .setState(
                r.finished
                    ? GetProcedureResultResponse.State.FINISHED
                    : GetProcedureResultResponse.State.RUNNING)
            .setSubmittedTime(r.submitted)
            .setLastUpdate(r.lastUpdate);
    if (r.error != null) {
      b.setException(ForeignExceptionMessage.newBuilder().setGenericException(r.error));
    }
    return b.build();
  }
}
