package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.util.BasaltIOException;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.BufferOverflowException;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ExceptionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.junit.jupiter.api.Test;

class ResponseFramesTest {
  private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

  @Test
  void emptyMessageIsWrittenAsOneZeroByte() {
    byte[] f =
        bytes(ResponseFrames.success(ALLOC, 1, GetClusterIdResponse.getDefaultInstance(), null));
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
        bytes(
            ResponseFrames.success(
                ALLOC, 9, GetClusterIdResponse.newBuilder().setClusterId("c").build(), block));
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
    ByteBuf direct = ResponseFrames.success(ALLOC, 5, m, cells, CellBlockCodec.KEY_VALUE);
    assertThat(direct.isDirect()).isTrue();
    assertThat(bytes(direct))
        .isEqualTo(
            bytes(ResponseFrames.success(ALLOC, 5, m, CellBlockCodec.KEY_VALUE.encode(cells))));
  }

  @Test
  void aFrameThatCannotBeBuiltReleasesItsBuffer() {
    List<ByteBuf> handedOut = new ArrayList<>();
    ByteBufAllocator recording =
        new AbstractByteBufAllocator(true) {
          @Override
          protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            ByteBuf b = Unpooled.directBuffer(initialCapacity, maxCapacity);
            handedOut.add(b);
            return b;
          }

          @Override
          protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return Unpooled.buffer(initialCapacity, maxCapacity);
          }

          @Override
          public boolean isDirectBufferPooled() {
            return false;
          }
        };
    Cell cell =
        KeyValue.of(
            Bytes.toBytes("r"),
            Bytes.toBytes("f"),
            Bytes.toBytes("q"),
            1,
            CellType.PUT,
            new byte[9]);
    // Sized with one cell, written with two: the frame overflows its buffer (a server bug).
    List<Cell> growing =
        new AbstractList<>() {
          int sizeCalls;

          @Override
          public int size() {
            return ++sizeCalls <= 1 ? 1 : 2;
          }

          @Override
          public Cell get(int i) {
            return cell;
          }
        };
    GetClusterIdResponse m = GetClusterIdResponse.newBuilder().setClusterId("c").build();
    assertThatThrownBy(
            () -> ResponseFrames.success(recording, 2, m, growing, CellBlockCodec.KEY_VALUE))
        .isInstanceOf(BufferOverflowException.class);
    assertThat(handedOut).hasSize(1);
    assertThat(handedOut.get(0).refCnt()).isZero();
  }

  private static byte[] bytes(ByteBuf b) {
    try {
      return ByteBufUtil.getBytes(b);
    } finally {
      b.release();
    }
  }
}
