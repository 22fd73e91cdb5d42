package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.util.BasaltIOException;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.junit.jupiter.api.Test;

class ResponseFramesTest {

  @Test
  void emptyMessageIsWrittenAsOneZeroByte() {
    byte[] f = ResponseFrames.success(1, GetClusterIdResponse.getDefaultInstance(), null);
    // length 4 | header: varint 2, field 1 (call_id) = 1 | message: varint 0
    assertThat(HexFormat.of().formatHex(f)).isEqualTo("00000004" + "02" + "0801" + "00");
  }

  @Test
  void callIdMinusOneIsTheFiveByteVarint() {
    byte[] f = ResponseFrames.error(-1, ExceptionResponse.getDefaultInstance());
    // header: call_id 08 ff ff ff ff 0f, exception (field 2, empty) 12 00
    assertThat(HexFormat.of().formatHex(f)).isEqualTo("00000009" + "08" + "08ffffffff0f" + "1200");
  }

  @Test
  void cellBlockFollowsTheMessageAndIsAnnounced() throws Exception {
    byte[] block = {1, 2, 3};
    byte[] f =
        ResponseFrames.success(
            9, GetClusterIdResponse.newBuilder().setClusterId("c").build(), block);
    ClientFrames.Response r = ClientFrames.parseAll(f).get(0);
    assertThat(r.callId()).isEqualTo(9);
    assertThat(r.header().getCellBlockMeta().getLength()).isEqualTo(3);
    assertThat(r.message(GetClusterIdResponse.getDefaultInstance()).getClusterId()).isEqualTo("c");
    assertThat(r.cellBlock()).isEqualTo(block);
  }

  @Test
  void exceptionFramesCarryNoMessage() throws Exception {
    byte[] f =
        ResponseFrames.error(4, RemoteExceptions.toResponse(BasaltIOException.doNotRetry("no")));
    ClientFrames.Response r = ClientFrames.parseAll(f).get(0);
    assertThat(r.failed()).isTrue();
    assertThat(r.message()).isNull();
    assertThat(r.exceptionText()).isEqualTo("org.apache.hadoop.hbase.DoNotRetryIOException: no");
  }

  @Test
  void cellsWrittenIntoTheFrameGiveTheBytesOfACopiedBlock() {
    List<Cell> cells =
        List.of(
            KeyValue.of(
                Bytes.toBytes("r1"),
                Bytes.toBytes("f"),
                Bytes.toBytes("q"),
                7,
                CellType.PUT,
                Bytes.toBytes("v1")),
            KeyValue.of(
                Bytes.toBytes("r2"),
                Bytes.toBytes("f"),
                Bytes.toBytes("q"),
                8,
                CellType.PUT,
                new byte[300]));
    GetClusterIdResponse m = GetClusterIdResponse.newBuilder().setClusterId("c").build();
    assertThat(ResponseFrames.success(5, m, cells, CellBlockCodec.KEY_VALUE))
        .isEqualTo(ResponseFrames.success(5, m, CellBlockCodec.KEY_VALUE.encode(cells)));
  }
}
