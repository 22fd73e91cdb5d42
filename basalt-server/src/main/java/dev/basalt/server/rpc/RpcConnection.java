package dev.basalt.server.rpc;

import dev.basalt.util.BasaltIOException;
import dev.basalt.util.NoWait;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetConnectionRegistryResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of one client connection: answers the preamble, reads the connection header,
 * hands requests to the handler threads and writes their responses. Runs on the connection's event
 * loop; calls run on a handler thread ({@link #runCall}) unless their method's {@link InlineRule}
 * lets the event loop run them itself and they need not wait (see {@link NoWait}).
 *
 * <p>Connection-level errors (bad preamble, bad connection header, unreadable request header,
 * oversized frame) are answered with one error frame, logged in one line, and the connection is
 * closed; nothing received after them is processed. Errors of one call (unknown method, bad
 * parameter or cell block, handler failure) fail only that call.
 *
 * <p>Not sharable: one instance per connection.
 */
final class RpcConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(RpcConnection.class);

  /** What every connection of a server shares. */
  record Shared(
      Map<String, RpcService> services,
      Supplier<String> clusterId,
      int maxFrameSize,
      CallQueue calls,
      boolean inlineCalls) {}

  private final Shared shared;
  private final RpcFrameDecoder decoder;
  private ConnectionSettings settings;
  private boolean closing;

  RpcConnection(Shared shared, RpcFrameDecoder decoder) {
    this.shared = shared;
    this.decoder = decoder;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (closing) {
      return;
    }
    if (msg instanceof Preamble p) {
      preamble(ctx, p);
    } else if (msg instanceof RpcFrameDecoder.Frame f) {
      if (settings == null) {
        connectionHeader(ctx, f.body());
      } else {
        request(ctx, f.body());
      }
    } else if (msg instanceof FrameTooLarge t) {
      frameTooLarge(ctx, t);
    } else {
      ctx.fireChannelRead(msg);
    }
  }

  private void preamble(ChannelHandlerContext ctx, Preamble p) {
    switch (p.kind()) {
      case REGISTRY -> registry(ctx, p);
      case SECURITY ->
          // Kerberos clients ask for the server principal first; with security off, HBase answers
          // this and keeps the connection open for the ordinary preamble.
          write(
              ctx,
              ResponseFrames.error(
                  ResponseFrames.NO_CALL, errorOf(RpcErrors.securityNotEnabled())));
      case BAD_MAGIC -> fail(ctx, RpcErrors.fatal(expectedHeader(ctx, p)));
      case RPC -> {
        String hello = "version " + p.version() + ", auth method " + p.authMethod();
        if (p.version() != Preamble.CURRENT_VERSION) {
          fail(
              ctx,
              RpcErrors.wrongVersion(
                  "RPC version "
                      + p.version()
                      + " is not supported (server speaks version 0; "
                      + hello
                      + ")"));
        } else if (p.authMethod() != Preamble.AUTH_SIMPLE) {
          fail(
              ctx,
              RpcErrors.badAuth(
                  "auth method "
                      + p.authMethod()
                      + " is not supported; this server accepts only SIMPLE (80)"));
        }
      }
      default -> throw new AssertionError(p.kind());
    }
  }

  /** "Regist": the cluster id, then close (the client opens a new connection for calls). */
  private void registry(ChannelHandlerContext ctx, Preamble p) {
    String clusterId;
    try {
      clusterId = shared.clusterId().get();
    } catch (RuntimeException e) {
      LOG.warn("The cluster id supplier failed; answering as a server without one", e);
      clusterId = null;
    }
    if (clusterId == null) {
      // The client reads "Expected HEADER=" as "this server predates the registry preamble" and
      // goes on without a cluster id.
      fail(
          ctx, RpcErrors.fatal(expectedHeader(ctx, p) + "; this server has no cluster id to give"));
      return;
    }
    ByteBuf frame =
        ResponseFrames.success(
            ctx.alloc(),
            ResponseFrames.NO_CALL,
            GetConnectionRegistryResponse.newBuilder().setClusterId(clusterId).build(),
            null);
    closing = true;
    decoder.stop();
    ctx.writeAndFlush(frame).addListener(ChannelFutureListener.CLOSE);
  }

  private static String expectedHeader(ChannelHandlerContext ctx, Preamble p) {
    return "Expected HEADER=HBas but received HEADER="
        + p.magicText()
        + " from "
        + ctx.channel().remoteAddress();
  }

  private void connectionHeader(ChannelHandlerContext ctx, byte[] frame) {
    try {
      settings = ConnectionSettings.parse(frame, shared.services());
    } catch (BasaltIOException e) {
      fail(ctx, e);
    }
  }

  private void request(ChannelHandlerContext ctx, byte[] frame) {
    RequestParser.RawRequest raw;
    try {
      raw = RequestParser.header(frame);
    } catch (BasaltIOException e) {
      fail(ctx, e);
      return;
    }
    ConnectionSettings conn = settings;
    if (!shared.inlineCalls() || !conn.service().hasInlineRule(raw.header().getMethodName())) {
      submit(ctx, raw, conn, null);
      return;
    }
    RequestParser.Request req;
    try {
      req = RequestParser.body(raw, conn, shared.maxFrameSize());
    } catch (BasaltIOException e) {
      write(ctx, unparsable(ctx.channel(), conn, raw.header(), e));
      return;
    }
    if (req.method().runsInline(req.param())) {
      ByteBuf response = null;
      try {
        response = NoWait.attempt(() -> respond(ctx.channel(), raw.header(), req, conn));
      } catch (NoWait.WouldWait e) {
        // It changed nothing: a handler runs it again below.
      }
      if (response != null) {
        write(ctx, response);
        return;
      }
    }
    submit(ctx, raw, conn, req);
  }

  /** Hands a call to the handler threads ({@code req} null when its body is still unparsed). */
  private void submit(
      ChannelHandlerContext ctx,
      RequestParser.RawRequest raw,
      ConnectionSettings conn,
      RequestParser.Request req) {
    Channel channel = ctx.channel();
    int callId = raw.header().getCallId();
    switch (shared.calls().submit(() -> runCall(channel, raw, conn, req))) {
      case QUEUED -> {}
      case QUEUE_FULL ->
          write(
              ctx,
              ResponseFrames.error(
                  callId,
                  errorOf(
                      RpcErrors.callQueueTooBig(
                          "call queue is full ("
                              + shared.calls().capacity()
                              + " calls, hbase.ipc.server.max.callqueue.length); retry later"))));
      case STOPPED ->
          write(
              ctx,
              ResponseFrames.error(
                  callId, errorOf(RpcErrors.serverStopping("server is stopping"))));
      default -> throw new AssertionError();
    }
  }

  /** On a handler thread: parse the rest of the request if needed, run it, write the answer. */
  private void runCall(
      Channel channel,
      RequestParser.RawRequest raw,
      ConnectionSettings conn,
      RequestParser.Request parsed) {
    RequestHeader h = raw.header();
    ByteBuf response;
    try {
      RequestParser.Request req =
          parsed != null ? parsed : RequestParser.body(raw, conn, shared.maxFrameSize());
      response = respond(channel, h, req, conn);
    } catch (BasaltIOException e) {
      response = Unpooled.wrappedBuffer(unparsable(channel, conn, h, e));
    }
    channel.writeAndFlush(response);
  }

  /**
   * Runs a parsed call and returns its answer: the response, or the error the call ended with. Lets
   * {@link NoWait.WouldWait} through (the call changed nothing and runs again elsewhere) and
   * rethrows errors of the JVM after answering.
   */
  private ByteBuf respond(
      Channel channel, RequestHeader h, RequestParser.Request req, ConnectionSettings conn) {
    try {
      RpcCall call =
          new RpcCall(
              h.getCallId(),
              conn.service().name(),
              h.getMethodName(),
              req.cells(),
              conn.codec() != null,
              h.hasPriority() ? h.getPriority() : -1,
              h.getTimeout(),
              conn.user(),
              channel.remoteAddress());
      RpcReply reply = CallRunner.invoke(req.method(), req.param(), call);
      return CallRunner.encode(channel.alloc(), h.getCallId(), req.method(), reply, conn);
    } catch (NoWait.WouldWait e) {
      throw e;
    } catch (Throwable t) {
      logCallFailure(channel, conn, h, req.param(), t);
      ByteBuf response =
          Unpooled.wrappedBuffer(
              ResponseFrames.error(h.getCallId(), RemoteExceptions.toResponse(t)));
      if (t instanceof VirtualMachineError e) {
        channel.writeAndFlush(response);
        throw e;
      }
      return response;
    }
  }

  /** One line per failed call (see {@link CallFailureLog}); {@code param} null if unparsed. */
  private static void logCallFailure(
      Channel channel, ConnectionSettings conn, RequestHeader h, Message param, Throwable t) {
    CallFailureLog.callFailed(
        conn.service().name() + "." + h.getMethodName(),
        param,
        channel.remoteAddress(),
        conn.user(),
        t,
        conn.service().method(h.getMethodName()) == null);
  }

  private void frameTooLarge(ChannelHandlerContext ctx, FrameTooLarge t) {
    if (t.hasCallId()) {
      closing = true;
      LOG.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), t.message());
      byte[] frame =
          ResponseFrames.error(t.callId(), errorOf(RpcErrors.requestTooBig(t.message())));
      ctx.writeAndFlush(Unpooled.wrappedBuffer(frame)).addListener(ChannelFutureListener.CLOSE);
    } else {
      fail(ctx, RpcErrors.fatal(t.message()));
    }
  }

  /** Answers a connection-level error with call id -1, logs one line, and closes. */
  private void fail(ChannelHandlerContext ctx, BasaltIOException e) {
    closing = true;
    decoder.stop();
    LOG.warn(
        "Closing connection from {}: {}: {}",
        ctx.channel().remoteAddress(),
        e.hbaseExceptionClass(),
        e.getMessage());
    byte[] frame = ResponseFrames.error(ResponseFrames.NO_CALL, errorOf(e));
    ctx.writeAndFlush(Unpooled.wrappedBuffer(frame)).addListener(ChannelFutureListener.CLOSE);
  }

  /**
   * Writes an answer from the event loop. Each leaves at once, not at the end of the read: the
   * client starts on the first answers while later requests of the same read still run (flushing
   * once per read left client and server taking turns on a small machine).
   */
  private static void write(ChannelHandlerContext ctx, ByteBuf frame) {
    ctx.writeAndFlush(frame);
  }

  private static void write(ChannelHandlerContext ctx, byte[] frame) {
    write(ctx, Unpooled.wrappedBuffer(frame));
  }

  /** The answer to a call whose parameter or cell block could not be read (logged). */
  private static byte[] unparsable(
      Channel channel, ConnectionSettings conn, RequestHeader h, BasaltIOException e) {
    logCallFailure(channel, conn, h, null, e);
    return ResponseFrames.error(h.getCallId(), errorOf(e));
  }

  private static org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse
      errorOf(BasaltIOException e) {
    return RemoteExceptions.toResponse(e);
  }

  /** A client that stops reading its responses stops being read until it catches up. */
  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    ctx.channel().config().setAutoRead(ctx.channel().isWritable());
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // Network errors (connection reset) and anything a handler above let escape: drop the
    // connection; the client's pending calls fail with a connection error and are retried.
    if (cause instanceof IOException) {
      LOG.debug("Connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    } else {
      LOG.warn(
          "Closing connection from {} after an unexpected error",
          ctx.channel().remoteAddress(),
          cause);
    }
    closing = true;
    decoder.stop();
    ctx.close();
  }
}
