package dev.basalt.server.rpc;

import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;

/**
 * The server answered a call made with {@link RpcClient} with an {@code ExceptionResponse}: the
 * call reached the server and failed there (or, for {@code FatalConnectionException} and its
 * subclasses, the server refused the connection it came on). Carries what the wire says:
 *
 * <pre>
 * accessor           ExceptionResponse field
 * exceptionClass()   exception_class_name #1, e.g. org.apache.hadoop.hbase.NotServingRegionException
 * getMessage()       stack_trace #2 as sent, e.g. "org.apache...NotServingRegionException: t,,1.abc.
 *                    is not online on rs1,16020,1"; Basalt sends no stack frames (RemoteExceptions)
 * doNotRetry()       do_not_retry #5
 * serverOverloaded() server_overloaded #6 (CallQueueTooBigException: retry after a longer pause)
 * </pre>
 *
 * Unlike the stock client, nothing is rebuilt into an exception of the named class (those classes
 * are not on basalt-server's class path): callers test the name with {@link #is}. Where the call
 * went is in {@link #server()} and {@link #call()}, not in the message, which stays the server's
 * own text.
 */
public final class RemoteCallException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String exceptionClass;
  private final boolean doNotRetry;
  private final boolean serverOverloaded;
  private final String server;
  private final String call;

  /**
   * @param exceptionClass the HBase exception class name the server named
   * @param text the server's text (its stack_trace field); the class name when it sent none
   * @param server the server's address as the caller named it, e.g. "127.0.0.1:16020"
   * @param call "Service.Method", e.g. "AdminService.OpenRegion"
   */
  public RemoteCallException(
      String exceptionClass,
      String text,
      boolean doNotRetry,
      boolean serverOverloaded,
      String server,
      String call) {
    super(text == null || text.isEmpty() ? exceptionClass : text);
    this.exceptionClass = Objects.requireNonNull(exceptionClass, "exceptionClass");
    this.doNotRetry = doNotRetry;
    this.serverOverloaded = serverOverloaded;
    this.server = server;
    this.call = call;
  }

  /** From the wire. */
  static RemoteCallException of(ExceptionResponse e, String server, String call) {
    return new RemoteCallException(
        e.getExceptionClassName(),
        e.getStackTrace(),
        e.getDoNotRetry(),
        e.getServerOverloaded(),
        server,
        call);
  }

  /**
   * A copy thrown from the caller's thread, with the original (from the network thread) as cause.
   */
  RemoteCallException rethrown() {
    RemoteCallException copy =
        new RemoteCallException(
            exceptionClass, getMessage(), doNotRetry, serverOverloaded, server, call);
    copy.initCause(this);
    return copy;
  }

  /** The fully qualified HBase exception class name the server sent. */
  public String exceptionClass() {
    return exceptionClass;
  }

  /** Whether the server said that retrying cannot help. */
  public boolean doNotRetry() {
    return doNotRetry;
  }

  /** Whether the server said it is overloaded (its call queue was full). */
  public boolean serverOverloaded() {
    return serverOverloaded;
  }

  /** True when the server named exactly this class (no subclasses: they are not known here). */
  public boolean is(String hbaseClassName) {
    return exceptionClass.equals(hbaseClassName);
  }

  /** The server the call went to, host:port. */
  public String server() {
    return server;
  }

  /** The call that failed, "Service.Method". */
  public String call() {
    return call;
  }
}
