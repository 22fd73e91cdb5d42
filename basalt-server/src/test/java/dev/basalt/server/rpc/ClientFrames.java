package dev.basalt.server.rpc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.CellBlockMeta;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ResponseHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.UserInformation;
import org.apache.hadoop.hbase.shaded.protobuf.generated.TracingProtos.RPCTInfo;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/** The client's side of the wire, written from the protocol document, for tests. */
final class ClientFrames {
  private ClientFrames() {}

  static byte[] preamble() {
    return preamble(0, 80);
  }

  static byte[] preamble(int version, int auth) {
    return new byte[] {'H', 'B', 'a', 's', (byte) version, (byte) auth};
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  static ConnectionHeader header(String service, String codec, String compressor) {
    ConnectionHeader.Builder b =
        ConnectionHeader.newBuilder()
            .setUserInfo(UserInformation.newBuilder().setEffectiveUser("tester"))
            .setServiceName(service);
    if (codec != null) {
      b.setCellBlockCodecClass(codec);
    }
    if (compressor != null) {
      b.setCellBlockCompressorClass(compressor);
    }
    return b.build();
  }

  /** A connection header as its frame: int32 length + the message, not delimited. */
  static byte[] headerFrame(ConnectionHeader h) {
    byte[] body = h.toByteArray();
    return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
  }

  /** Preamble plus a connection header with the default codec, as the stock client sends. */
  static byte[] open(String service) {
    return concat(
        preamble(), headerFrame(header(service, CellBlockCodec.KEY_VALUE.className(), null)));
  }

  static RequestHeader.Builder requestHeader(int callId, String method) {
    return RequestHeader.newBuilder()
        .setCallId(callId)
        .setTraceInfo(RPCTInfo.getDefaultInstance())
        .setMethodName(method)
        .setRequestParam(true)
        .setPriority(0)
        .setTimeout(60000);
  }

  static byte[] request(int callId, String method, Message param) {
    return request(requestHeader(callId, method).build(), param, null);
  }

  static byte[] request(int callId, String method, Message param, byte[] cellBlock) {
    RequestHeader.Builder h = requestHeader(callId, method);
    if (cellBlock != null) {
      h.setCellBlockMeta(CellBlockMeta.newBuilder().setLength(cellBlock.length));
    }
    return request(h.build(), param, cellBlock);
  }

  static byte[] request(RequestHeader h, Message param, byte[] cellBlock) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    try {
      h.writeDelimitedTo(body);
      if (param != null) {
        param.writeDelimitedTo(body);
      }
      if (cellBlock != null) {
        body.write(cellBlock);
      }
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    byte[] b = body.toByteArray();
    return ByteBuffer.allocate(4 + b.length).putInt(b.length).put(b).array();
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /**
   * One response frame, parsed.
   *
   * @param message the response message bytes, null when the header has an exception
   * @param cellBlock the cell block, null when there is none
   */
  record Response(ResponseHeader header, byte[] message, byte[] cellBlock) {
    int callId() {
      return header.getCallId();
    }

    boolean failed() {
      return header.hasException();
    }

    String exceptionClass() {
      return header.getException().getExceptionClassName();
    }

    String exceptionText() {
      return header.getException().getStackTrace();
    }

    <M extends Message> M message(M prototype) throws IOException {
      @SuppressWarnings("unchecked")
      M m = (M) prototype.getParserForType().parseFrom(message);
      return m;
    }
  }

  /**
   * Parses a stream of complete response frames, strictly: anything left over or inconsistent fails
   * the test.
   */
  static List<Response> parseAll(byte[] stream) throws IOException {
    List<Response> out = new ArrayList<>();
    ByteBuffer in = ByteBuffer.wrap(stream);
    while (in.hasRemaining()) {
      if (in.remaining() < 4) {
        throw new IOException(in.remaining() + " stray bytes after the last frame");
      }
      int length = in.getInt();
      if (length < 0 || length > in.remaining()) {
        throw new IOException("frame length " + length + ", " + in.remaining() + " bytes left");
      }
      byte[] frame = new byte[length];
      in.get(frame);
      out.add(parse(frame));
    }
    return out;
  }

  /** Parses one frame body (without its length), strictly. */
  static Response parse(byte[] frame) throws IOException {
    CodedInputStream cis = CodedInputStream.newInstance(frame);
    int hl = cis.readRawVarint32();
    int limit = cis.pushLimit(hl);
    ResponseHeader h = ResponseHeader.parseFrom(cis);
    cis.popLimit(limit);
    byte[] message = null;
    if (!h.hasException()) {
      int ml = cis.readRawVarint32();
      message = cis.readRawBytes(ml);
    }
    byte[] block = null;
    if (h.hasCellBlockMeta()) {
      block = cis.readRawBytes(h.getCellBlockMeta().getLength());
    }
    if (!cis.isAtEnd()) {
      throw new IOException("bytes left after the response parts");
    }
    return new Response(h, message, block);
  }
}
