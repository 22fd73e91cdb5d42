package dev.basalt.server.rpc;

import dev.basalt.util.BasaltIOException;

/**
 * The errors the RPC layer itself reports, each carrying the HBase exception class the stock client
 * rebuilds from the wire (it loads the class by name and calls its {@code (String)} constructor, so
 * every name here exists in {@code hbase-shaded-client} 2.6). Errors raised by the engine already
 * carry their HBase name in {@link BasaltIOException}; they are not repeated here.
 *
 * <p>The client treats a call-id -1 error as fatal for the connection only when the class is {@link
 * #FATAL_CONNECTION} or one of its subclasses, which is why every setup error uses one of them.
 */
final class RpcErrors {
  static final String FATAL_CONNECTION = "org.apache.hadoop.hbase.ipc.FatalConnectionException";
  static final String WRONG_VERSION = "org.apache.hadoop.hbase.ipc.WrongVersionException";
  static final String BAD_AUTH = "org.apache.hadoop.hbase.ipc.BadAuthException";
  static final String UNSUPPORTED_CELL_CODEC =
      "org.apache.hadoop.hbase.ipc.UnsupportedCellCodecException";
  static final String UNSUPPORTED_COMPRESSION_CODEC =
      "org.apache.hadoop.hbase.ipc.UnsupportedCompressionCodecException";
  static final String SECURITY_NOT_ENABLED =
      "org.apache.hadoop.hbase.ipc.SecurityNotEnabledException";
  static final String REQUEST_TOO_BIG = "org.apache.hadoop.hbase.exceptions.RequestTooBigException";
  static final String CALL_QUEUE_TOO_BIG = "org.apache.hadoop.hbase.CallQueueTooBigException";
  static final String SERVER_NOT_RUNNING_YET =
      "org.apache.hadoop.hbase.ipc.ServerNotRunningYetException";

  private RpcErrors() {}

  /** A setup error of the connection that is not one of the specific kinds below. */
  static BasaltIOException fatal(String message) {
    return new BasaltIOException(message, FATAL_CONNECTION, true);
  }

  static BasaltIOException wrongVersion(String message) {
    return new BasaltIOException(message, WRONG_VERSION, true);
  }

  static BasaltIOException badAuth(String message) {
    return new BasaltIOException(message, BAD_AUTH, true);
  }

  static BasaltIOException unsupportedCellCodec(String message) {
    return new BasaltIOException(message, UNSUPPORTED_CELL_CODEC, true);
  }

  static BasaltIOException unsupportedCompressionCodec(String message) {
    return new BasaltIOException(message, UNSUPPORTED_COMPRESSION_CODEC, true);
  }

  /** The answer to the "Securi" preamble when security is off; not fatal, the client goes on. */
  static BasaltIOException securityNotEnabled() {
    return new BasaltIOException("security is not enabled", SECURITY_NOT_ENABLED, false);
  }

  static BasaltIOException requestTooBig(String message) {
    return new BasaltIOException(message, REQUEST_TOO_BIG, true);
  }

  /** Back-pressure: the client retries after its "server overloaded" pause. */
  static BasaltIOException callQueueTooBig(String message) {
    return new BasaltIOException(message, CALL_QUEUE_TOO_BIG, false);
  }

  /** The server is shutting down; the client retries (possibly on another server). */
  static BasaltIOException serverStopping(String message) {
    return new BasaltIOException(message, SERVER_NOT_RUNNING_YET, false);
  }
}
