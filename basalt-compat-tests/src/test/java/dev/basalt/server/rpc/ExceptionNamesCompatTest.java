package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.db.NamespaceNotFoundException;
import dev.basalt.db.TableExistsException;
import dev.basalt.db.TableNotFoundException;
import dev.basalt.region.InvalidMutationException;
import dev.basalt.region.NoSuchColumnFamilyException;
import dev.basalt.region.RegionClosedException;
import dev.basalt.region.RegionTooBusyException;
import dev.basalt.region.RowLockTimeoutException;
import dev.basalt.region.WrongRegionException;
import dev.basalt.util.BasaltIOException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.ipc.RemoteWithExtrasException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;
import org.junit.jupiter.api.Test;

/**
 * Every exception the RPC layer sends, and those the engine names, is rebuilt by the stock client
 * into the class the server named (the client loads it and calls its String constructor; a name it
 * cannot load or instantiate turns into a generic "Unable to load exception" error), with the
 * server's text as its message, and the client's retry decision (by class) agrees with the
 * do_not_retry flag the server sent. Lives in the server's package to reach its error factories.
 */
class ExceptionNamesCompatTest {

  /** The RPC layer's own errors. */
  private static List<Throwable> rpcErrors() {
    return List.of(
        RpcErrors.fatal("x"),
        RpcErrors.wrongVersion("x"),
        RpcErrors.badAuth("x"),
        RpcErrors.unsupportedCellCodec("x"),
        RpcErrors.unsupportedCompressionCodec("x"),
        RpcErrors.requestTooBig("x"),
        RpcErrors.callQueueTooBig("x"),
        RpcErrors.serverStopping("x"),
        BasaltIOException.doNotRetry("x"),
        new FileNotFoundException("plain IOException"),
        new IllegalStateException("a bug"));
  }

  /** The engine's exceptions with their HBase names. */
  private static List<Throwable> engineErrors() {
    return List.of(
        new TableNotFoundException("t"),
        new TableExistsException("t"),
        new NamespaceNotFoundException("ns"),
        new NoSuchColumnFamilyException("f"),
        new RegionTooBusyException("busy"),
        new RegionClosedException("closed"),
        new RowLockTimeoutException("lock"),
        new WrongRegionException("wrong"),
        new InvalidMutationException("bad"));
  }

  private static IOException rebuild(ExceptionResponse r) {
    return new RemoteWithExtrasException(
            r.getExceptionClassName(), r.getStackTrace(), r.getDoNotRetry())
        .unwrapRemoteException();
  }

  @Test
  void theStockClientRebuildsEveryClassWeSend() {
    for (Throwable t : concat(rpcErrors(), engineErrors())) {
      ExceptionResponse r = RemoteExceptions.toResponse(t);
      IOException rebuilt = rebuild(r);
      assertThat(rebuilt.getClass().getName()).as("for %s", t).isEqualTo(r.getExceptionClassName());
      assertThat(rebuilt.getMessage()).isEqualTo(r.getStackTrace());
    }
  }

  /**
   * The client decides whether to retry by the class; the do_not_retry flag the RPC layer sends for
   * its own errors says the same. (The flag is informational for the client.)
   */
  @Test
  void rpcErrorsFlagTheRetryDecisionTheClientMakes() {
    for (Throwable t : rpcErrors()) {
      ExceptionResponse r = RemoteExceptions.toResponse(t);
      assertThat(rebuild(r) instanceof DoNotRetryIOException)
          .as("client retry decision for %s", r.getExceptionClassName())
          .isEqualTo(r.getDoNotRetry());
    }
  }

  private static List<Throwable> concat(List<Throwable> a, List<Throwable> b) {
    List<Throwable> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /**
   * SecurityNotEnabledException has no String constructor; the client recognises it by name in its
   * "Securi" preamble path and never rebuilds it.
   */
  @Test
  void securityNotEnabledIsKnownToTheClient() throws Exception {
    assertThat(Class.forName(RpcErrors.SECURITY_NOT_ENABLED)).isNotNull();
  }
}
