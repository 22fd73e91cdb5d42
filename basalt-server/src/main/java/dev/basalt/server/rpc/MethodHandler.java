package dev.basalt.server.rpc;

import java.io.IOException;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * Serves one method of a protobuf service. Runs on an RPC handler thread, so it may block, e.g. on
 * a WAL sync; or, when the method was registered with an {@link InlineRule} that accepted the call,
 * on the network thread inside {@link dev.basalt.util.NoWait#attempt}, where every point that would
 * wait throws instead (the call then runs again on a handler thread, so it must not have changed
 * anything before such a point). Many calls run at once, so it must be thread-safe.
 *
 * <p>Errors: throw a {@link dev.basalt.util.BasaltIOException} to send its HBase exception class;
 * any other exception is answered as described in {@link RemoteExceptions}. Either way only this
 * call fails; the connection stays open.
 *
 * @param <Q> the request message type of the method
 */
@FunctionalInterface
public interface MethodHandler<Q extends Message> {
  RpcReply handle(Q request, RpcCall call) throws IOException;
}
