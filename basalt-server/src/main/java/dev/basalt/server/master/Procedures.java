package dev.basalt.server.master;

import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ErrorHandlingProtos.ForeignExceptionMessage;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ErrorHandlingProtos.GenericExceptionMessage;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetProcedureResultResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ProcedureProtos;

/**
 * The procedure ids DDL answers carry. HBase's master runs DDL as asynchronous procedures and the
 * client polls {@code getProcedureResult} with the id until the procedure is FINISHED; Basalt runs
 * DDL synchronously inside the call, so by the time an id reaches the client its procedure is over
 * and the first poll ends the wait. The outcomes of the most recent procedures are kept for those
 * polls; older ids are NOT_FOUND, which sends the client to its fallback wait (table state checks)
 * and still works.
 *
 * <p>A failed procedure keeps its exception, and its caller throws it at once, as HBase's master
 * throws a DDL call's precondition failures (its procedures' prepare steps run before the call
 * returns). The client rebuilds the exception by class name; one it cannot load
 * (ConstraintException lives in hbase-server) reaches the application as a DoNotRetryIOException
 * naming the class, with the message in its cause, exactly as from HBase.
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

  /**
   * A piece of DDL whose first part runs inside the call (checks, the catalog change) and whose
   * rest finishes later (a cluster's regions opening or closing): the procedure is RUNNING until
   * the returned future completes.
   */
  @FunctionalInterface
  interface AsyncWork {
    CompletableFuture<Void> run() throws IOException;
  }

  private record NonceKey(long group, long nonce) {}

  /** One procedure; {@code finished} and {@code error} are only written under the lock. */
  private static final class Record {
    final String name;
    final long submitted;
    long lastUpdate;
    boolean finished;
    GenericExceptionMessage error;

    Record(String name, long submitted) {
      this.name = name;
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
   * @param name what the procedure does, named as HBase's procedure class for the same work (e.g.
   *     "CreateTableProcedure"), which is what {@code list_procedures} shows operators
   * @param nonceGroup the client's nonce group (0 with nonce 0: no nonce)
   * @return the procedure's id
   * @throws IOException the work's failure, after recording it; an {@link IllegalArgumentException}
   *     of the engine (a bad argument) becomes a DoNotRetryIOException
   */
  long run(String name, long nonceGroup, long nonce, Work work) throws IOException {
    return runAsync(
        name,
        nonceGroup,
        nonce,
        () -> {
          work.run();
          return CompletableFuture.completedFuture(null);
        });
  }

  /**
   * Runs {@code work} as a new procedure, as {@link #run} does, but leaves it RUNNING until the
   * future the work returns completes; its failure then becomes the procedure's.
   */
  long runAsync(String name, long nonceGroup, long nonce, AsyncWork work) throws IOException {
    NonceKey key = nonceGroup == 0 && nonce == 0 ? null : new NonceKey(nonceGroup, nonce);
    long id;
    synchronized (this) {
      Long prior = key == null ? null : byNonce.get(key);
      if (prior != null) {
        return prior;
      }
      id = nextId++;
      recent.put(id, new Record(name, clock.currentTimeMillis()));
      if (key != null) {
        byNonce.put(key, id);
      }
    }
    CompletableFuture<Void> rest;
    try {
      rest = work.run();
    } catch (IllegalArgumentException e) {
      BasaltIOException bad = BasaltIOException.doNotRetry(e.getMessage());
      fail(id, key, bad);
      throw bad;
    } catch (IOException | RuntimeException e) {
      fail(id, key, e);
      throw e;
    }
    rest.whenComplete(
        (ok, error) -> {
          if (error == null) {
            finish(id, null);
          } else {
            Throwable cause =
                error instanceof java.util.concurrent.CompletionException
                        && error.getCause() != null
                    ? error.getCause()
                    : error;
            fail(id, key, cause instanceof Exception ex ? ex : new IOException(cause));
          }
        });
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

  /**
   * The procedures remembered, oldest first, as {@code Admin.getProcedures} lists them. Basalt's
   * procedures run inside their call, so each is finished (SUCCESS or FAILED) by the time it is
   * listed, and none holds a lock afterwards ({@code getLocks} is empty).
   */
  synchronized List<ProcedureProtos.Procedure> list() {
    List<ProcedureProtos.Procedure> out = new ArrayList<>(recent.size());
    for (Map.Entry<Long, Record> e : recent.entrySet()) {
      Record r = e.getValue();
      ProcedureProtos.Procedure.Builder p =
          ProcedureProtos.Procedure.newBuilder()
              .setClassName(r.name)
              .setProcId(e.getKey())
              .setSubmittedTime(r.submitted)
              .setLastUpdate(r.lastUpdate)
              .setExecuted(r.finished)
              .setState(
                  !r.finished
                      ? ProcedureProtos.ProcedureState.RUNNABLE
                      : r.error == null
                          ? ProcedureProtos.ProcedureState.SUCCESS
                          : ProcedureProtos.ProcedureState.FAILED);
      if (r.error != null) {
        p.setException(ForeignExceptionMessage.newBuilder().setGenericException(r.error));
      }
      out.add(p.build());
    }
    return out;
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
