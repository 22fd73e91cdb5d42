package dev.basalt.server.rpc;

import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;

/**
 * Turns a server-side exception into the {@code ExceptionResponse} the stock client rebuilds. The
 * client loads {@code exception_class_name} and calls its {@code (String)} constructor with {@code
 * stack_trace}, so the class must exist in the client and the text becomes the message the user
 * sees. Layout of the message sent:
 *
 * <pre>
 * field                 #  value
 * exception_class_name  1  HBase class name (table below)
 * stack_trace           2  "&lt;class name&gt;: &lt;message&gt;", then "Caused by: ..." lines
 * do_not_retry          5  whether no retry can help (informational; the client decides by class)
 * server_overloaded     6  true only for CallQueueTooBigException (the client pauses longer)
 * </pre>
 *
 * <pre>
 * thrown                          sent as
 * BasaltIOException               its hbaseExceptionClass() and isDoNotRetry() (engine and RPC)
 * UnsupportedOperationException   org.apache.hadoop.hbase.DoNotRetryIOException
 * other IOException               java.io.IOException, retried (the message names the real class)
 * anything else (a bug)           org.apache.hadoop.hbase.DoNotRetryIOException
 * </pre>
 *
 * Server stack frames are not sent: they mean nothing to the client and the server logs them.
 */
public final class RemoteExceptions {
  private static final int MAX_CAUSES = 5;

  private RemoteExceptions() {}

  public static ExceptionResponse toResponse(Throwable t) {
    String className;
    boolean doNotRetry;
    String message;
    if (t instanceof BasaltIOException b) {
      className = b.hbaseExceptionClass();
      doNotRetry = b.isDoNotRetry();
      message = String.valueOf(b.getMessage());
    } else if (t instanceof IOException) {
      className = IOException.class.getName();
      doNotRetry = false;
      message = describe(t);
    } else {
      className = BasaltIOException.DO_NOT_RETRY;
      doNotRetry = true;
      message = describe(t);
    }
    StringBuilder text = new StringBuilder(className).append(": ").append(message);
    Throwable cause = t.getCause();
    for (int i = 0; cause != null && cause != t && i < MAX_CAUSES; i++) {
      text.append("\nCaused by: ").append(describe(cause));
      cause = cause.getCause();
    }
    return ExceptionResponse.newBuilder()
        .setExceptionClassName(className)
        .setStackTrace(text.toString())
        .setDoNotRetry(doNotRetry)
        .setServerOverloaded(className.equals(RpcErrors.CALL_QUEUE_TOO_BIG))
        .build();
  }

  private static String describe(Throwable t) {
    return t.getMessage() == null
        ? t.getClass().getName()
        : t.getClass().getName() + ": " + t.getMessage();
  }
}
