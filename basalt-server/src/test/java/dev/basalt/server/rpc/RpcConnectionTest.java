package dev.basalt.server.rpc;

import static dev.basalt.server.rpc.ClientFrames.ascii;
import static dev.basalt.server.rpc.ClientFrames.concat;
import static dev.basalt.server.rpc.ClientFrames.header;
import static dev.basalt.server.rpc.ClientFrames.headerFrame;
import static dev.basalt.server.rpc.ClientFrames.open;
import static dev.basalt.server.rpc.ClientFrames.preamble;
import static dev.basalt.server.rpc.ClientFrames.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Cell;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetConnectionRegistryResponse;
import org.junit.jupiter.api.Test;

/** One connection's protocol behaviour, on an embedded channel. */
class RpcConnectionTest {
  private static final GetClusterIdRequest EMPTY = GetClusterIdRequest.getDefaultInstance();

  private static Harness harness() {
    return new Harness(
        List.of(TestServices.meta("cluster-1"), TestServices.client()), () -> "cluster-1", 1 << 20);
  }

  private static ClientFrames.Response only(Harness h) throws Exception {
    List<ClientFrames.Response> rs = h.responses();
    assertThat(rs).hasSize(1);
    return rs.get(0);
  }

  // ---- preambles ----------------------------------------------------------------------------

  @Test
  void registryPreambleGetsTheClusterIdThenClose() throws Exception {
    Harness h = harness().send(ascii("Regist"));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(-1);
    assertThat(r.failed()).isFalse();
    assertThat(r.message(GetConnectionRegistryResponse.getDefaultInstance()).getClusterId())
        .isEqualTo("cluster-1");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void registryPreambleWithoutAClusterIdLooksLikeAnOldServer() throws Exception {
    Harness h = new Harness(List.of(TestServices.meta("c")), () -> null, 1 << 20);
    h.send(ascii("Regist"));
    ClientFrames.Response r = only(h);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.FATAL_CONNECTION);
    // The client falls back to a null cluster id only when the text starts like this.
    assertThat(r.exceptionText())
        .startsWith(RpcErrors.FATAL_CONNECTION + ": ")
        .contains("Expected HEADER=HBas but received HEADER=Regi");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void securityPreambleIsAnsweredAndTheConnectionGoesOn() throws Exception {
    Harness h = harness().send(ascii("Securi"));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(-1);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.SECURITY_NOT_ENABLED);
    assertThat(h.isOpen()).isTrue();
    h.send(concat(open("ClientMetaService"), request(7, "GetClusterId", EMPTY)));
    ClientFrames.Response call = only(h);
    assertThat(call.callId()).isEqualTo(7);
    assertThat(call.message(GetClusterIdResponse.getDefaultInstance()).getClusterId())
        .isEqualTo("cluster-1");
  }

  @Test
  void wrongMagicIsFatal() throws Exception {
    Harness h = harness().send(ascii("GET / HTTP/1.1\r\n\r\n"));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(-1);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.FATAL_CONNECTION);
    assertThat(r.exceptionText()).contains("Expected HEADER=HBas but received HEADER=GET ");
    assertThat(r.header().getException().getDoNotRetry()).isTrue();
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void wrongVersionIsFatal() throws Exception {
    Harness h = harness().send(preamble(3, 80));
    ClientFrames.Response r = only(h);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.WRONG_VERSION);
    assertThat(r.exceptionText()).contains("RPC version 3 is not supported");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void kerberosAuthIsRefused() throws Exception {
    Harness h = harness().send(preamble(0, 81));
    ClientFrames.Response r = only(h);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.BAD_AUTH);
    assertThat(r.exceptionText()).contains("auth method 81", "SIMPLE (80)");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void nothingAfterAFatalPreambleIsProcessed() throws Exception {
    Harness h = harness();
    h.send(
        concat(
            preamble(1, 80),
            headerFrame(header("ClientMetaService", null, null)),
            request(1, "GetClusterId", EMPTY)));
    assertThat(h.responses()).hasSize(1);
  }

  // ---- connection header --------------------------------------------------------------------

  @Test
  void unknownServiceIsFatalAndNamesTheOffer() throws Exception {
    Harness h = harness().send(open("MasterService"));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(-1);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.FATAL_CONNECTION);
    assertThat(r.exceptionText()).contains("unknown service 'MasterService'", "ClientService");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void missingServiceIsFatal() throws Exception {
    Harness h = harness().send(concat(preamble(), headerFrame(header("", null, null))));
    assertThat(only(h).exceptionText()).contains("names no service");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void unsupportedCodecIsFatal() throws Exception {
    Harness h =
        harness()
            .send(
                concat(
                    preamble(),
                    headerFrame(
                        header("ClientService", "org.apache.hadoop.hbase.codec.CellCodec", null))));
    ClientFrames.Response r = only(h);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.UNSUPPORTED_CELL_CODEC);
    assertThat(r.exceptionText()).contains("org.apache.hadoop.hbase.codec.CellCodec");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void unsupportedCompressorIsFatal() throws Exception {
    Harness h =
        harness()
            .send(
                concat(
                    preamble(),
                    headerFrame(
                        header(
                            "ClientService",
                            CellBlockCodec.KEY_VALUE.className(),
                            "org.apache.hadoop.io.compress.SnappyCodec"))));
    ClientFrames.Response r = only(h);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.UNSUPPORTED_COMPRESSION_CODEC);
    assertThat(r.exceptionText()).contains("SnappyCodec");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void garbageConnectionHeaderIsFatal() throws Exception {
    Harness h = harness().send(concat(preamble(), new byte[] {0, 0, 0, 3, (byte) 0xff, 1, 2}));
    ClientFrames.Response r = only(h);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.FATAL_CONNECTION);
    assertThat(r.exceptionText()).contains("is not a ConnectionHeader");
  }

  @Test
  void nothingIsSentBackForAGoodConnectionHeader() throws Exception {
    Harness h = harness().send(open("ClientService"));
    assertThat(h.written()).isEmpty();
    assertThat(h.isOpen()).isTrue();
  }

  // ---- requests -----------------------------------------------------------------------------

  @Test
  void pipelinedRequestsInOneSegmentAreAllAnswered() throws Exception {
    Harness h = harness();
    h.send(
        concat(
            open("ClientMetaService"),
            request(1, "GetClusterId", EMPTY),
            request(2, "GetClusterId", EMPTY),
            request(3, "GetClusterId", EMPTY)));
    assertThat(h.responses()).extracting(ClientFrames.Response::callId).containsExactly(1, 2, 3);
  }

  @Test
  void framesSplitIntoSingleBytesAreReassembled() throws Exception {
    Harness h = harness();
    h.sendBytewise(concat(open("ClientMetaService"), request(41, "GetClusterId", EMPTY)));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(41);
    assertThat(r.message(GetClusterIdResponse.getDefaultInstance()).getClusterId())
        .isEqualTo("cluster-1");
  }

  @Test
  void responsesMayFinishInAnyOrder() throws Exception {
    Harness h = harness().holdCalls();
    h.send(
        concat(
            open("ClientMetaService"),
            request(10, "GetClusterId", EMPTY),
            request(11, "GetClusterId", EMPTY),
            request(12, "GetClusterId", EMPTY)));
    assertThat(h.written()).isEmpty();
    h.runHeldCallsNewestFirst();
    assertThat(h.responses()).extracting(ClientFrames.Response::callId).containsExactly(12, 11, 10);
  }

  @Test
  void emptyResponseMessageIsStillWritten() throws Exception {
    Harness h = harness();
    h.send(concat(open("ClientService"), request(5, "Get", TestServices.get("row"))));
    ClientFrames.Response r = only(h);
    assertThat(r.failed()).isFalse();
    // The message part is present and empty: varint 0.
    assertThat(r.message()).isEmpty();
  }

  @Test
  void unknownMethodIsADoNotRetryErrorNamingServiceAndMethod() throws Exception {
    Harness h = harness();
    h.send(concat(open("ClientMetaService"), request(3, "Frobnicate", EMPTY)));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(3);
    assertThat(r.exceptionClass()).isEqualTo("org.apache.hadoop.hbase.DoNotRetryIOException");
    assertThat(r.exceptionText())
        .contains(
            "UnsupportedOperationException",
            "ClientMetaService.Frobnicate is not a method of the service");
    assertThat(r.header().getException().getDoNotRetry()).isTrue();
    assertThat(h.isOpen()).isTrue();
  }

  @Test
  void declaredButUnimplementedMethodSaysSo() throws Exception {
    Harness h = harness();
    h.send(concat(open("ClientMetaService"), request(4, "GetActiveMaster", EMPTY)));
    assertThat(only(h).exceptionText())
        .contains("ClientMetaService.GetActiveMaster is not implemented by this server");
  }

  @Test
  void handlerBasaltExceptionKeepsItsHBaseClass() throws Exception {
    Harness h = harness();
    h.send(concat(open("ClientService"), request(8, "Get", TestServices.get("missing"))));
    ClientFrames.Response r = only(h);
    assertThat(r.exceptionClass()).isEqualTo("org.apache.hadoop.hbase.TableNotFoundException");
    assertThat(r.exceptionText())
        .isEqualTo("org.apache.hadoop.hbase.TableNotFoundException: table 't' does not exist");
  }

  @Test
  void handlerBugIsADoNotRetryErrorAndTheConnectionGoesOn() throws Exception {
    Harness h = harness();
    h.send(
        concat(
            open("ClientService"),
            request(8, "Get", TestServices.get("bug")),
            request(9, "Get", TestServices.get("row"))));
    List<ClientFrames.Response> rs = h.responses();
    assertThat(rs.get(0).exceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.DoNotRetryIOException");
    assertThat(rs.get(0).exceptionText()).contains("java.lang.IllegalStateException: handler bug");
    assertThat(rs.get(1).failed()).isFalse();
  }

  @Test
  void replyMissingARequiredFieldIsNotSent() throws Exception {
    Harness h = harness();
    h.send(
        concat(
            open("ClientMetaService"),
            request(
                6,
                "GetMetaRegionLocations",
                org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos
                    .GetMetaRegionLocationsRequest.getDefaultInstance())));
    ClientFrames.Response r = only(h);
    assertThat(r.exceptionText()).contains("misses required fields", "region_info");
  }

  @Test
  void malformedParameterFailsOnlyThatCall() throws Exception {
    Harness h = harness();
    byte[] bad = request(ClientFrames.requestHeader(2, "Get").build(), null, null);
    // Hand-made parameter: length 3, then bytes that are not a GetRequest.
    byte[] frame = concat(stripLength(bad), new byte[] {3, (byte) 0xff, (byte) 0xff, (byte) 0xff});
    h.send(
        concat(open("ClientService"), withLength(frame), request(3, "Get", TestServices.get("r"))));
    List<ClientFrames.Response> rs = h.responses();
    assertThat(rs.get(0).callId()).isEqualTo(2);
    assertThat(rs.get(0).exceptionText())
        .contains("parameter of ClientService.Get is not a valid GetRequest");
    assertThat(rs.get(1).failed()).isFalse();
  }

  @Test
  void parameterMissingRequiredFieldsIsRefused() throws Exception {
    Harness h = harness();
    h.send(
        concat(
            open("ClientService"),
            request(
                2,
                "Get",
                org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest
                    .newBuilder()
                    .buildPartial())));
    assertThat(only(h).exceptionText()).contains("not a valid GetRequest", "missing required");
  }

  @Test
  void requestWithoutParamIsRefused() throws Exception {
    Harness h = harness();
    RequestHeader hdr =
        ClientFrames.requestHeader(2, "GetClusterId").setRequestParam(false).build();
    h.send(concat(open("ClientMetaService"), request(hdr, null, null)));
    assertThat(only(h).exceptionText()).contains("has no parameter");
  }

  @Test
  void unreadableRequestHeaderIsFatal() throws Exception {
    Harness h = harness();
    h.send(concat(open("ClientMetaService"), new byte[] {0, 0, 0, 2, 9, 9}));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(-1);
    assertThat(r.exceptionText()).contains("request header length 9 exceeds");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void queueFullIsCallQueueTooBig() throws Exception {
    Harness h = harness().queueFull();
    h.send(concat(open("ClientMetaService"), request(2, "GetClusterId", EMPTY)));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(2);
    assertThat(r.exceptionClass()).isEqualTo("org.apache.hadoop.hbase.CallQueueTooBigException");
    assertThat(r.header().getException().getServerOverloaded()).isTrue();
  }

  // ---- frame size ---------------------------------------------------------------------------

  @Test
  void oversizedRequestGetsRequestTooBigForItsCallThenClose() throws Exception {
    Harness h = new Harness(List.of(TestServices.meta("c")), () -> "c", 200);
    byte[] big = request(77, "GetClusterId", EMPTY, new byte[300]);
    h.send(concat(open("ClientMetaService"), java.util.Arrays.copyOf(big, 40)));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(77);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.REQUEST_TOO_BIG);
    assertThat(r.exceptionText()).contains("larger than the maximum of 200 bytes");
    assertThat(h.isOpen()).isFalse();
  }

  @Test
  void oversizedConnectionHeaderIsFatalNamingTheLimit() throws Exception {
    Harness h = new Harness(List.of(TestServices.meta("c")), () -> "c", 100);
    h.send(concat(preamble(), new byte[] {0x7f, 0, 0, 0}));
    ClientFrames.Response r = only(h);
    assertThat(r.callId()).isEqualTo(-1);
    assertThat(r.exceptionClass()).isEqualTo(RpcErrors.FATAL_CONNECTION);
    assertThat(r.exceptionText()).contains("2130706432 bytes", "maximum of 100 bytes");
    assertThat(h.isOpen()).isFalse();
  }

  // ---- cell blocks --------------------------------------------------------------------------

  @Test
  void requestCellsReachTheHandlerAndResponseCellsComeBack() throws Exception {
    Harness h = harness();
    List<? extends Cell> cells = TestServices.cells(3);
    byte[] block = CellBlockCodec.KEY_VALUE.encode(cells);
    h.send(concat(open("ClientService"), request(1, "Mutate", TestServices.put(3), block)));
    ClientFrames.Response r = only(h);
    assertThat(r.message(MutateResponse.getDefaultInstance()).getResult().getAssociatedCellCount())
        .isEqualTo(3);
    assertThat(r.cellBlock()).isEqualTo(block);
  }

  @Test
  void compressedCellBlocksBothWays() throws Exception {
    Harness h = harness();
    List<? extends Cell> cells = TestServices.cells(5);
    byte[] plain = CellBlockCodec.KEY_VALUE.encode(cells);
    byte[] gz = CellBlockCompression.GZIP.compress(plain);
    h.send(
        concat(
            preamble(),
            headerFrame(
                header(
                    "ClientService",
                    CellBlockCodec.KEY_VALUE.className(),
                    CellBlockCompression.GZIP.className())),
            request(1, "Mutate", TestServices.put(5), gz)));
    ClientFrames.Response r = only(h);
    byte[] back = r.cellBlock();
    assertThat(CellBlockCompression.GZIP.decompress(back, 0, back.length, 1 << 20))
        .isEqualTo(plain);
  }

  @Test
  void cellBlockWithoutCodecIsRefused() throws Exception {
    Harness h = harness();
    byte[] block = CellBlockCodec.KEY_VALUE.encode(TestServices.cells(1));
    h.send(
        concat(
            preamble(),
            headerFrame(header("ClientService", null, null)),
            request(1, "Mutate", TestServices.put(1), block)));
    assertThat(only(h).exceptionText())
        .contains("carries a cell block but the connection named no codec");
  }

  @Test
  void responseCellsWithoutCodecAreAServerBug() throws Exception {
    Harness h = harness();
    h.send(concat(preamble(), headerFrame(header("ClientService", null, null))));
    h.send(request(1, "Get", TestServices.get("cells")));
    assertThat(only(h).exceptionText())
        .contains("returned 2 cells for a cell block, but the connection named no codec");
  }

  @Test
  void cellBlockLengthMustMatchTheFrame() throws Exception {
    Harness h = harness();
    byte[] block = CellBlockCodec.KEY_VALUE.encode(TestServices.cells(1));
    RequestHeader hdr =
        ClientFrames.requestHeader(1, "Mutate")
            .setCellBlockMeta(
                org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.CellBlockMeta
                    .newBuilder()
                    .setLength(block.length + 10))
            .build();
    h.send(concat(open("ClientService"), request(hdr, TestServices.put(1), block)));
    assertThat(only(h).exceptionText()).contains("cell block of ClientService.Mutate should be");
  }

  @Test
  void malformedCellBlockFailsTheCall() throws Exception {
    Harness h = harness();
    byte[] block = {0, 0, 0, 5, 1, 2, 3, 4, 5};
    h.send(concat(open("ClientService"), request(1, "Mutate", TestServices.put(1), block)));
    ClientFrames.Response r = only(h);
    assertThat(r.exceptionClass()).isEqualTo("org.apache.hadoop.hbase.DoNotRetryIOException");
    assertThat(r.exceptionText()).contains("malformed cell block at byte 0");
    assertThat(h.isOpen()).isTrue();
  }

  // ---- back-pressure ------------------------------------------------------------------------

  @Test
  void aClientThatDoesNotReadItsResponsesIsNotReadEither() {
    Harness h = harness();
    h.channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8, 16));
    h.channel.write(Unpooled.wrappedBuffer(new byte[32])); // queued, not yet flushed
    h.channel.runPendingTasks();
    assertThat(h.channel.config().isAutoRead()).isFalse();
    h.channel.flush();
    h.channel.runPendingTasks();
    assertThat(h.channel.config().isAutoRead()).isTrue();
    h.written();
  }

  private static byte[] stripLength(byte[] frame) {
    return java.util.Arrays.copyOfRange(frame, 4, frame.length);
  }

  private static byte[] withLength(byte[] body) {
    return java.nio.ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
  }
}
