package dev.basalt.server.rpc;

import dev.basalt.cell.Cell;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 * Every frame is built whole into one buffer, so writes of one connection never interleave.
 * Successful answers are built in a pooled direct buffer that the channel releases once written:
 * scan answers run to hundreds of kilobytes, and a fresh array per answer was half of the server's
 * allocation in workload E (young collections twice as often), besides the copy into a direct
 * buffer the socket write makes of an array.
 */
final class ResponseFrames {
  /** The call id of answers that belong to no call: preambles and connection setup errors. */
  static final int NO_CALL = -1;

  private ResponseFrames() {}

  /** Writes a frame's cell block into the buffer positioned after the message. */
  private interface BlockWriter {
    void writeTo(ByteBuffer out);
  }

  /** A successful call; {@code cellBlock} is null or the (possibly compressed) block. */
  static ByteBuf success(ByteBufAllocator alloc, int callId, Message message, byte[] cellBlock) {
    int blockLength = cellBlock == null ? 0 : cellBlock.length;
    return direct(
        alloc,
        successHeader(callId, cellBlock != null, blockLength),
        message,
        blockLength,
        out -> {
          if (cellBlock != null) {
            out.put(cellBlock);
          }
        });
  }

  /**
   * A successful call whose cells the codec writes straight into the frame (uncompressed blocks):
   * the block is not built on its own and then copied.
   */
  static ByteBuf success(
      ByteBufAllocator alloc,
      int callId,
      Message message,
      List<? extends Cell> cells,
      CellBlockCodec codec) {
    int blockLength = codec.encodedLength(cells);
    return direct(
        alloc,
        successHeader(callId, true, blockLength),
        message,
        blockLength,
        out -> codec.encodeInto(cells, out));
  }

  private static ResponseHeader successHeader(int callId, boolean cellBlock, int blockLength) {
    ResponseHeader.Builder h = ResponseHeader.newBuilder().setCallId(callId);
    if (cellBlock) {
      h.setCellBlockMeta(CellBlockMeta.newBuilder().setLength(blockLength));
    }
    return h.build();
  }

  /** A failed call, or with {@link #NO_CALL} a connection-level error (rare: a plain array). */
  static byte[] error(int callId, ExceptionResponse exception) {
    ResponseHeader header =
        ResponseHeader.newBuilder().setCallId(callId).setException(exception).build();
    int total = frameLength(header, null, 0);
    byte[] out = new byte[4 + total];
    writeFrame(ByteBuffer.wrap(out), total, header, null, null);
    return out;
  }

  private static ByteBuf direct(
      ByteBufAllocator alloc,
      ResponseHeader header,
      Message message,
      int blockLength,
      BlockWriter block) {
    int total = frameLength(header, message, blockLength);
    ByteBuf buf = alloc.directBuffer(4 + total);
    try {
      writeFrame(buf.nioBuffer(0, 4 + total), total, header, message, block);
      buf.writerIndex(4 + total);
      return buf;
    } catch (RuntimeException | Error e) {
      buf.release();
      throw e;
    }
  }

  /** The bytes after the length prefix: header, message and {@code blockLength} of cell block. */
  private static int frameLength(ResponseHeader header, Message message, int blockLength) {
    long total = delimitedSize(header) + (long) blockLength;
    if (message != null) {
      total += delimitedSize(message);
    }
    if (total > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("response of " + total + " bytes does not fit a frame");
    }
    return (int) total;
  }

  /** The length prefix, header, message and block into {@code out}, which holds exactly those. */
  private static void writeFrame(
      ByteBuffer out, int total, ResponseHeader header, Message message, BlockWriter block) {
    out.putInt(total);
    CodedOutputStream cos = CodedOutputStream.newInstance(out);
    try {
      cos.writeUInt32NoTag(header.getSerializedSize());
      header.writeTo(cos);
      if (message != null) {
        cos.writeUInt32NoTag(message.getSerializedSize());
        message.writeTo(cos);
      }
      cos.flush(); // moves out's position past what was written
    } catch (IOException e) {
      throw new AssertionError("writing to a buffer of the computed size failed", e);
    }
    if (block != null) {
      block.writeTo(out);
    }
    if (out.hasRemaining()) {
      throw new AssertionError(
          "response frame: " + out.remaining() + " of " + (4 + total) + " bytes left unwritten");
    }
  }

  private static long delimitedSize(Message m) {
    int size = m.getSerializedSize();
    return CodedOutputStream.computeUInt32SizeNoTag(size) + (long) size;
  }
}
