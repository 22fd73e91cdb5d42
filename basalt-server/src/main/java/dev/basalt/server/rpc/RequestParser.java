package dev.basalt.server.rpc;

import dev.basalt.cell.Cell;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * Reads request frames (client to server), in two steps so that the network thread does only the
 * cheap one:
 *
 * <pre>
 * part            encoding                                      read by
 * RequestHeader   varint32 length + message                     {@link #header}, event loop
 * request param   varint32 length + message of the method's     {@link #body}, handler thread
 *                 input type; present iff request_param = true
 * cell block      raw bytes, length = cell_block_meta.length;   {@link #body}, handler thread
 *                 present iff cell_block_meta is set; must end
 *                 the frame exactly
 * </pre>
 *
 * RequestHeader fields used: call_id #1 (required here), method_name #3, request_param #4,
 * cell_block_meta #5, priority #6, timeout #7. trace_info #2 and attribute #8 are ignored.
 */
final class RequestParser {
  private RequestParser() {}

  /** A request whose header is read and whose parameter and cells are still bytes. */
  record RawRequest(RequestHeader header, byte[] frame, int bodyOffset) {}

  /** A request ready for its handler. */
  record Request(RpcService.Method method, Message param, List<Cell> cells) {}

  /**
   * Reads the header at the start of a frame. Without a header the call cannot be answered, so a
   * failure here ends the connection.
   *
   * @throws BasaltIOException of the FatalConnectionException family
   */
  static RawRequest header(byte[] frame) throws BasaltIOException {
    CodedInputStream cis = CodedInputStream.newInstance(frame);
    RequestHeader header;
    try {
      int length = cis.readRawVarint32();
      if (length < 0 || length > frame.length - cis.getTotalBytesRead()) {
        throw RpcErrors.fatal(
            "request header length "
                + length
                + " exceeds the "
                + (frame.length - cis.getTotalBytesRead())
                + " bytes left in the "
                + frame.length
                + "-byte frame");
      }
      int limit = cis.pushLimit(length);
      header = RequestHeader.parseFrom(cis);
      cis.popLimit(limit);
    } catch (BasaltIOException e) {
      throw e;
    } catch (IOException e) {
      throw RpcErrors.fatal(
          "the "
              + frame.length
              + "-byte frame does not start with a RequestHeader: "
              + e.getMessage());
    }
    if (!header.hasCallId()) {
      throw RpcErrors.fatal("request header has no call_id");
    }
    return new RawRequest(header, frame, cis.getTotalBytesRead());
  }

  /**
   * Resolves the method, parses the parameter and decodes the cell block.
   *
   * @param maxCellBlock most bytes a decompressed cell block may have
   * @throws BasaltIOException (DoNotRetryIOException) naming the service, method and problem
   */
  static Request body(RawRequest raw, ConnectionSettings conn, int maxCellBlock)
      throws BasaltIOException {
    RequestHeader h = raw.header();
    String where = conn.service().name() + "." + h.getMethodName();
    RpcService.Method method = conn.service().method(h.getMethodName());
    if (method == null) {
      boolean declared = conn.service().descriptor().findMethodByName(h.getMethodName()) != null;
      throw BasaltIOException.doNotRetry(
          "java.lang.UnsupportedOperationException: "
              + where
              + (declared
                  ? " is not implemented by this server"
                  : " is not a method of the service"));
    }
    if (!h.getRequestParam()) {
      throw BasaltIOException.doNotRetry(
          "request to " + where + " has no parameter (request_param unset)");
    }
    byte[] frame = raw.frame();
    int p = raw.bodyOffset();
    Message param;
    try {
      CodedInputStream cis = CodedInputStream.newInstance(frame, p, frame.length - p);
      int length = cis.readRawVarint32();
      int left = frame.length - p - cis.getTotalBytesRead();
      if (length < 0 || length > left) {
        throw BasaltIOException.doNotRetry(
            "parameter of "
                + where
                + " claims "
                + length
                + " bytes, the frame has "
                + left
                + " left");
      }
      p += cis.getTotalBytesRead();
      param = method.requestPrototype().getParserForType().parseFrom(frame, p, length);
      p += length;
    } catch (BasaltIOException e) {
      throw e;
    } catch (IOException e) {
      throw BasaltIOException.doNotRetry(
          "parameter of "
              + where
              + " is not a valid "
              + method.descriptor().getInputType().getName()
              + ": "
              + e.getMessage());
    }
    List<Cell> cells = cells(h, conn, frame, p, where, maxCellBlock);
    return new Request(method, param, cells);
  }

  private static List<Cell> cells(
      RequestHeader h, ConnectionSettings conn, byte[] frame, int p, String where, int max)
      throws BasaltIOException {
    int left = frame.length - p;
    if (!h.hasCellBlockMeta()) {
      if (left != 0) {
        throw BasaltIOException.doNotRetry(
            "request to "
                + where
                + " has "
                + left
                + " bytes after its parameter and no cell block");
      }
      return List.of();
    }
    long length = h.getCellBlockMeta().getLength() & 0xffffffffL;
    if (length != left) {
      throw BasaltIOException.doNotRetry(
          "cell block of "
              + where
              + " should be "
              + length
              + " bytes, the frame has "
              + left
              + " after the parameter");
    }
    if (conn.codec() == null) {
      throw BasaltIOException.doNotRetry(
          "request to " + where + " carries a cell block but the connection named no codec");
    }
    if (conn.compression() == null) {
      return conn.codec().decode(frame, p, left);
    }
    byte[] block = conn.compression().decompress(frame, p, left, max);
    return conn.codec().decode(block, 0, block.length);
  }
}
