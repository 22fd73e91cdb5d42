package dev.basalt.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.CellBlockMeta;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * One call of an {@link RpcClient}, from submission until it is answered, fails or times out. The
 * future is completed at most once (whichever comes first wins; later answers are dropped). Every
 * field but the immutable ones is touched only on the client's event loop.
 */
final class ClientCall {
  /** Where the call goes: the connection it needs. */
  final RpcClient.Key key;

  /** host:port as the caller named the server, for messages. */
  final String server;

  final String service;
  final String method;
  final Message request;

  /** The request's cell block, encoded; null for none. */
  final byte[] cells;

  final Message responsePrototype;
  final int timeoutMillis;
  final CompletableFuture<Message> future = new CompletableFuture<>();

  /** The call id on the wire, -1 until the call is written to a connection. Event loop only. */
  int callId = -1;

  /** The connection the call waits on; null before it has one. Event loop only. */
  ClientConnection owner;

  private ScheduledFuture<?> timer;

  ClientCall(
      RpcClient.Key key,
      String method,
      Message request,
      byte[] cells,
      Message responsePrototype,
      int timeoutMillis) {
    this.cells = cells;
    this.key = key;
    this.server = RpcClient.hostPort(key.address());
    this.service = key.service();
    this.method = method;
    this.request = request;
    this.responsePrototype = responsePrototype;
    this.timeoutMillis = timeoutMillis;
  }

  /** "Service.Method". */
  String name() {
    return service + "." + method;
  }

  /** "call Service.Method to host:port", the start of every error message about the call. */
  String describe() {
    return "call " + name() + " to " + server;
  }

  boolean isDone() {
    return future.isDone();
  }

  /** Starts the call's clock; on the event loop, once, when the call is first dispatched. */
  void startTimer(EventLoop loop) {
    timer = loop.schedule(this::timeOut, timeoutMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * The deadline passed: fail the call and forget it, so that a late answer finds no call and is
   * dropped. The connection stays open: a slow call says nothing about the others on it.
   */
  private void timeOut() {
    if (!future.isDone()) {
      String where =
          callId < 0 ? " (it was still waiting for the connection to be set up)" : " (sent)";
      future.completeExceptionally(
          new SocketTimeoutException(
              describe() + " timed out after " + timeoutMillis + " ms with no answer" + where));
    }
    // Also when the caller cancelled it: this is where a cancelled call is forgotten.
    if (owner != null) {
      owner.forget(this);
    }
  }

  void succeed(Message response) {
    stopTimer();
    future.complete(response);
  }

  void fail(IOException e) {
    stopTimer();
    future.completeExceptionally(e);
  }

  private void stopTimer() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  /**
   * The request frame (docs/formats/rpc.md): int32 length, then the delimited RequestHeader
   * (call_id, method_name, request_param = true, timeout, and cell_block_meta when the call has
   * cells) and the delimited parameter, then the cell block if any.
   */
  ByteBuf encode(int id) {
    RequestHeader.Builder h =
        RequestHeader.newBuilder()
            .setCallId(id)
            .setMethodName(method)
            .setRequestParam(true)
            .setTimeout(timeoutMillis);
    int cellBytes = cells == null ? 0 : cells.length;
    if (cells != null) {
      h.setCellBlockMeta(CellBlockMeta.newBuilder().setLength(cellBytes));
    }
    RequestHeader header = h.build();
    int headerSize = header.getSerializedSize();
    int paramSize = request.getSerializedSize();
    long total =
        (long) CodedOutputStream.computeUInt32SizeNoTag(headerSize)
            + headerSize
            + CodedOutputStream.computeUInt32SizeNoTag(paramSize)
            + paramSize
            + cellBytes;
    if (total > Integer.MAX_VALUE - 4) {
      throw new IllegalArgumentException(
          "the request of " + describe() + " is " + total + " bytes, too large for a frame");
    }
    int length = (int) total;
    byte[] frame = new byte[4 + length];
    ByteBuffer.wrap(frame).putInt(length);
    CodedOutputStream out = CodedOutputStream.newInstance(frame, 4, length - cellBytes);
    try {
      out.writeUInt32NoTag(headerSize);
      header.writeTo(out);
      out.writeUInt32NoTag(paramSize);
      request.writeTo(out);
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new AssertionError("writing into an array of the computed size failed", e);
    }
    if (cells != null) {
      System.arraycopy(cells, 0, frame, 4 + length - cellBytes, cellBytes);
    }
    return Unpooled.wrappedBuffer(frame);
  }
}
