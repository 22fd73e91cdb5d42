package dev.basalt.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;

/**
 * Cuts the client's byte stream into the units of the HBase RPC protocol. A connection starts with
 * a six-byte {@link Preamble} (more than one only after "Securi"); after an accepted preamble every
 * unit is a frame:
 *
 * <pre>
 * offset  size  field
 * 0       4     N = length of what follows, unsigned big-endian int32
 * 4       N     frame body: the ConnectionHeader (first frame), later a request
 *               (delimited RequestHeader, delimited param, optional cell block)
 * </pre>
 *
 * Emits {@link Preamble}, {@link Frame} and {@link FrameTooLarge}. A frame longer than the limit is
 * never buffered: the decoder reads only the request header at its start (to learn the call id the
 * error answers), reports it, and discards everything after it. After a preamble that does not open
 * a connection, after an oversized frame, and after {@link #stop} the rest of the stream is
 * discarded, so nothing a client sends after a fatal error is processed.
 *
 * <p>Not sharable: one instance per connection, used only on its event loop.
 */
final class RpcFrameDecoder extends ByteToMessageDecoder {
  /** A request header larger than this cannot be real; the stock client's are ~30 bytes. */
  static final int MAX_HEADER_PEEK = 64 * 1024;

  /** The bytes of one frame, without its length prefix. */
  record Frame(byte[] body) {}

  private enum State {
    PREAMBLE,
    FRAMES,
    TOO_LARGE,
    DISCARD
  }

  private final int maxFrameSize;
  private State state = State.PREAMBLE;
  private long framesDecoded;
  private long oversizedLength;

  RpcFrameDecoder(int maxFrameSize) {
    if (maxFrameSize < 1) {
      throw new IllegalArgumentException("maximum frame size must be positive: " + maxFrameSize);
    }
    this.maxFrameSize = maxFrameSize;
  }

  /** Discard everything still to come; called when the connection is being closed for an error. */
  void stop() {
    state = State.DISCARD;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    switch (state) {
      case PREAMBLE -> decodePreamble(in, out);
      case FRAMES -> decodeFrame(in, out);
      case TOO_LARGE -> decodeOversizedHeader(in, out);
      case DISCARD -> in.skipBytes(in.readableBytes());
      default -> throw new AssertionError(state);
    }
  }

  private void decodePreamble(ByteBuf in, List<Object> out) {
    if (in.readableBytes() < Preamble.LENGTH) {
      return;
    }
    byte[] six = new byte[Preamble.LENGTH];
    in.readBytes(six);
    Preamble p = Preamble.parse(six);
    if (p.opensConnection()) {
      state = State.FRAMES;
    } else if (!p.expectsAnotherPreamble()) {
      state = State.DISCARD;
    }
    out.add(p);
  }

  private void decodeFrame(ByteBuf in, List<Object> out) {
    if (in.readableBytes() < 4) {
      return;
    }
    long length = in.getUnsignedInt(in.readerIndex());
    if (length > maxFrameSize) {
      in.skipBytes(4);
      oversizedLength = length;
      state = State.TOO_LARGE;
      decodeOversizedHeader(in, out);
      return;
    }
    if (in.readableBytes() < 4 + length) {
      return;
    }
    in.skipBytes(4);
    byte[] body = new byte[(int) length];
    in.readBytes(body);
    framesDecoded++;
    out.add(new Frame(body));
  }

  /**
   * Waits for the request header at the start of an oversized frame, then reports the frame. The
   * first frame is the connection header, which has no call id, so it is reported at once.
   */
  private void decodeOversizedHeader(ByteBuf in, List<Object> out) {
    int callId = UNREADABLE;
    if (framesDecoded > 0) {
      long wanted = Math.min(oversizedLength, MAX_HEADER_PEEK + 10);
      int peek = (int) Math.min(in.readableBytes(), wanted);
      byte[] start = new byte[peek];
      in.getBytes(in.readerIndex(), start);
      callId = peekCallId(start);
      if (callId == INCOMPLETE) {
        if (peek < wanted) {
          return; // the rest of the header is still on its way
        }
        callId = UNREADABLE;
      }
    }
    state = State.DISCARD;
    in.skipBytes(in.readableBytes());
    out.add(new FrameTooLarge(oversizedLength, maxFrameSize, callId));
  }

  private static final int INCOMPLETE = -2;
  private static final int UNREADABLE = -1;

  /** The call id of the delimited RequestHeader at the start of {@code start}, or a code. */
  private static int peekCallId(byte[] start) {
    CodedInputStream cis = CodedInputStream.newInstance(start);
    int headerLength;
    try {
      headerLength = cis.readRawVarint32();
    } catch (IOException e) {
      // Protobuf reads up to ten bytes of a varint before calling it malformed.
      return start.length < 10 ? INCOMPLETE : UNREADABLE;
    }
    if (headerLength < 0 || headerLength > MAX_HEADER_PEEK) {
      return UNREADABLE;
    }
    int headerStart = cis.getTotalBytesRead();
    if (start.length - headerStart < headerLength) {
      return INCOMPLETE;
    }
    try {
      RequestHeader h =
          RequestHeader.parseFrom(CodedInputStream.newInstance(start, headerStart, headerLength));
      return h.hasCallId() && h.getCallId() >= 0 ? h.getCallId() : UNREADABLE;
    } catch (IOException e) {
      return UNREADABLE;
    }
  }
}
