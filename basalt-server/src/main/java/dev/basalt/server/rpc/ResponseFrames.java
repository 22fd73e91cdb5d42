package dev.basalt.server.rpc;

import dev.basalt.cell.Cell;
import java.io.IOException;
import java.util.List;
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
    int blockLength = cellBlock == null ? 0 : cellBlock.length;
    byte[] out = frame(successHeader(callId, cellBlock != null, blockLength), message, blockLength);
    if (cellBlock != null) {
      System.arraycopy(cellBlock, 0, out, out.length - blockLength, blockLength);
    }
    return out;
  }

  /**
   * A successful call whose cells the codec writes straight into the frame (uncompressed blocks):
   * the block is not built on its own and then copied.
   */
  static byte[] success(
      int callId, Message message, List<? extends Cell> cells, CellBlockCodec codec) {
    int blockLength = codec.encodedLength(cells);
    byte[] out = frame(successHeader(callId, true, blockLength), message, blockLength);
    codec.encodeInto(cells, out, out.length - blockLength);
    return out;
  }

  private static ResponseHeader successHeader(int callId, boolean cellBlock, int blockLength) {
    ResponseHeader.Builder h = ResponseHeader.newBuilder().setCallId(callId);
    if (cellBlock) {
      h.setCellBlockMeta(CellBlockMeta.newBuilder().setLength(blockLength));
    }
    return h.build();
  }

  /** A failed call, or with {@link #NO_CALL} a connection-level error. */
  static byte[] error(int callId, ExceptionResponse exception) {
    return frame(
        ResponseHeader.newBuilder().setCallId(callId).setException(exception).build(), null, 0);
  }

  /**
   * The length prefix, header and message, with {@code blockLength} bytes left at the end for the
   * caller to fill with the cell block.
   */
  private static byte[] frame(ResponseHeader header, Message message, int blockLength) {
    long total = delimitedSize(header) + (long) blockLength;
    if (message != null) {
      total += delimitedSize(message);
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
