package dev.basalt.server.rpc;

import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.CellBlockMeta;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ResponseHeader;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * Lays out response frames (server to client):
 *
 * <pre>
 * part              encoding
 * total length      int32, bytes after these four
 * ResponseHeader    varint32 length + message: call_id #1, exception #2, cell_block_meta #3
 * response message  varint32 length + message; only without exception, and written even when
 *                   empty (a single 00 byte): the client always reads it
 * cell block        raw bytes, length = cell_block_meta.length; only when that is set
 * </pre>
 *
 * Setup errors and preamble answers use call id -1 (on the wire the uint32 varint ff ff ff ff 0f).
 * Every frame is built whole into one array, so writes of one connection never interleave.
 */
final class ResponseFrames {
  /** The call id of answers that belong to no call: preambles and connection setup errors. */
  static final int NO_CALL = -1;

  private ResponseFrames() {}

  /** A successful call; {@code cellBlock} is null or the (possibly compressed) block. */
  static byte[] success(int callId, Message message, byte[] cellBlock) {
    ResponseHeader.Builder h = ResponseHeader.newBuilder().setCallId(callId);
    if (cellBlock != null) {
      h.setCellBlockMeta(CellBlockMeta.newBuilder().setLength(cellBlock.length));
    }
    return frame(h.build(), message, cellBlock);
  }

  /** A failed call, or with {@link #NO_CALL} a connection-level error. */
  static byte[] error(int callId, ExceptionResponse exception) {
    return frame(
        ResponseHeader.newBuilder().setCallId(callId).setException(exception).build(), null, null);
  }

  private static byte[] frame(ResponseHeader header, Message message, byte[] cellBlock) {
    long total = delimitedSize(header);
    if (message != null) {
      total += delimitedSize(message);
    }
    if (cellBlock != null) {
      total += cellBlock.length;
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("response of " + total + " bytes does not fit a frame");
    }
    byte[] out = new byte[4 + (int) total];
    CodedOutputStream cos = CodedOutputStream.newInstance(out, 4, (int) total);
    try {
      cos.writeUInt32NoTag(header.getSerializedSize());
      header.writeTo(cos);
      if (message != null) {
        cos.writeUInt32NoTag(message.getSerializedSize());
        message.writeTo(cos);
      }
      cos.flush();
    } catch (IOException e) {
      throw new AssertionError("writing to an array of the computed size failed", e);
    }
    int p = 4 + cos.getTotalBytesWritten();
    if (cellBlock != null) {
      System.arraycopy(cellBlock, 0, out, p, cellBlock.length);
    }
    out[0] = (byte) (total >>> 24);
    out[1] = (byte) (total >>> 16);
    out[2] = (byte) (total >>> 8);
    out[3] = (byte) total;
    return out;
  }

  private static long delimitedSize(Message m) {
    int size = m.getSerializedSize();
    return CodedOutputStream.computeUInt32SizeNoTag(size) + (long) size;
  }
}
