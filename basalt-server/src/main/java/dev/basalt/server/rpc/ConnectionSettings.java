package dev.basalt.server.rpc;

import dev.basalt.util.BasaltIOException;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * What a connection header settles for the rest of the connection. The header is the first frame
 * after the preamble, a ConnectionHeader message (not delimited: the frame length is its length):
 *
 * <pre>
 * field                         #  handling
 * user_info.effective_user      1  kept as the call's user (SIMPLE auth: not verified)
 * service_name                  2  must name a registered service, else FatalConnectionException
 * cell_block_codec_class        3  absent/empty: no cell blocks; KeyValueCodec or
 *                                  KeyValueCodecWithTags; else UnsupportedCellCodecException
 * cell_block_compressor_class   4  read only with a codec; absent/empty: none; GzipCodec,
 *                                  DefaultCodec, DeflateCodec; else
 *                                  UnsupportedCompressionCodecException
 * version_info                  5  ignored (every 2.x client understands every exception sent)
 * rpc_crypto_cipher_...         6  ignored (SASL only)
 * attribute                     7  ignored
 * </pre>
 *
 * @param service the service every call of the connection goes to
 * @param codec the cell block codec, null for none
 * @param compression the cell block compression, null for none
 * @param user the effective user, "" when absent
 */
record ConnectionSettings(
    RpcService service, CellBlockCodec codec, CellBlockCompression compression, String user) {

  /**
   * Reads a connection header frame.
   *
   * @throws BasaltIOException of the FatalConnectionException family, naming the problem
   */
  static ConnectionSettings parse(byte[] frame, Map<String, RpcService> services)
      throws BasaltIOException {
    ConnectionHeader h;
    try {
      h = ConnectionHeader.parseFrom(frame);
    } catch (InvalidProtocolBufferException e) {
      throw RpcErrors.fatal(
          "the "
              + frame.length
              + "-byte connection header is not a ConnectionHeader: "
              + e.getMessage());
    }
    String name = h.getServiceName();
    if (name.isEmpty()) {
      throw RpcErrors.fatal("the connection header names no service");
    }
    RpcService service = services.get(name);
    if (service == null) {
      throw RpcErrors.fatal(
          "unknown service '" + name + "'; this server offers " + new TreeSet<>(services.keySet()));
    }
    CellBlockCodec codec = null;
    CellBlockCompression compression = null;
    String codecName = h.getCellBlockCodecClass();
    if (!codecName.isEmpty()) {
      codec = CellBlockCodec.forClassName(codecName);
      if (codec == null) {
        throw RpcErrors.unsupportedCellCodec(
            "cell block codec "
                + codecName
                + " is not supported; use "
                + CellBlockCodec.KEY_VALUE.className()
                + " or "
                + CellBlockCodec.KEY_VALUE_WITH_TAGS.className());
      }
      // As in HBase, a compressor only means something together with a codec.
      String compressorName = h.getCellBlockCompressorClass();
      if (!compressorName.isEmpty()) {
        compression = CellBlockCompression.forClassName(compressorName);
        if (compression == null) {
          throw RpcErrors.unsupportedCompressionCodec(
              "cell block compressor "
                  + compressorName
                  + " is not supported; use "
                  + CellBlockCompression.GZIP.className()
                  + " or "
                  + CellBlockCompression.ZLIB.className()
                  + ", or none");
        }
      }
    }
    String user = h.hasUserInfo() ? h.getUserInfo().getEffectiveUser() : "";
    return new ConnectionSettings(service, codec, compression, user);
  }
}
