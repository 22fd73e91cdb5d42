package dev.basalt.server.rpc;

import dev.basalt.util.BasaltIOException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.MethodDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * Runs a handler and checks what it returns before it reaches the wire. A response the client
 * cannot parse (wrong type, a proto2 required field missing) would not fail one call cleanly: the
 * stock client's channel handler throws, the call hangs until its timeout and the connection's
 * other calls fail. So a bad reply is turned into a DoNotRetryIOException naming the handler's
 * mistake instead.
 */
final class CallRunner {
  private CallRunner() {}

  @SuppressWarnings("unchecked")
  static RpcReply invoke(RpcService.Method method, Message param, RpcCall call) throws IOException {
    // The parameter was parsed with the prototype registered together with this handler.
    MethodHandler<Message> handler = (MethodHandler<Message>) method.handler();
    return handler.handle(param, call);
  }

  /** The response frame of a reply, or an exception describing why the reply cannot be sent. */
  static ByteBuf encode(
      ByteBufAllocator alloc,
      int callId,
      RpcService.Method method,
      RpcReply reply,
      ConnectionSettings conn)
      throws IOException {
    MethodDescriptor md = method.descriptor();
    String where = md.getService().getName() + "." + md.getName();
    if (reply == null) {
      throw BasaltIOException.doNotRetry(
          "server bug: the handler of " + where + " returned no reply");
    }
    Message m = reply.message();
    if (m.getDescriptorForType() != md.getOutputType()) {
      throw BasaltIOException.doNotRetry(
          "server bug: the handler of "
              + where
              + " answered "
              + m.getDescriptorForType().getFullName()
              + " instead of "
              + md.getOutputType().getFullName());
    }
    if (!m.isInitialized()) {
      throw BasaltIOException.doNotRetry(
          "server bug: the reply of "
              + where
              + " misses required fields "
              + m.findInitializationErrors());
    }
    if (reply.cells().isEmpty()) {
      return ResponseFrames.success(alloc, callId, m, null);
    }
    if (conn.codec() == null) {
      throw BasaltIOException.doNotRetry(
          "server bug: the handler of "
              + where
              + " returned "
              + reply.cells().size()
              + " cells for a cell block, but the connection named no codec");
    }
    if (conn.compression() == null) {
      return ResponseFrames.success(alloc, callId, m, reply.cells(), conn.codec());
    }
    return ResponseFrames.success(
        alloc, callId, m, conn.compression().compress(conn.codec().encode(reply.cells())));
  }
}
