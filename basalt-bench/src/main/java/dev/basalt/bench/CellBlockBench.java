package dev.basalt.bench;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.server.rpc.CellBlockCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.codec.Codec;
import org.apache.hadoop.hbase.codec.KeyValueCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * RPC cell blocks (KeyValueCodec layout, docs/formats/rpc.md): encoding a response's cells and
 * decoding a request's, per cell, for Basalt's {@link CellBlockCodec} and, as the baseline, HBase's
 * own {@code KeyValueCodec} from the stock client jar (the code an HBase server runs for the same
 * bytes). Cells are YCSB-shaped: a 16-byte row, family "family", qualifiers field0..field9 and
 * 100-byte values; {@code cells} = 10 is one row of a get or put, 1000 a scan batch of 100 rows.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 8, time = 1)
public class CellBlockBench {
  @Param({"10", "1000"})
  public int cells;

  private List<Cell> basaltCells;
  private List<org.apache.hadoop.hbase.KeyValue> hbaseCells;
  private byte[] block;

  @Setup
  public void cells() throws IOException {
    basaltCells = new ArrayList<>(cells);
    hbaseCells = new ArrayList<>(cells);
    byte[] family = "family".getBytes();
    for (int i = 0; i < cells; i++) {
      byte[] row = RegionFixture.row(i / 10);
      byte[] qualifier = ("field" + (i % 10)).getBytes();
      byte[] value = RegionFixture.value(i);
      basaltCells.add(KeyValue.of(row, family, qualifier, 1_700_000_000_000L, CellType.PUT, value));
      hbaseCells.add(
          new org.apache.hadoop.hbase.KeyValue(
              row,
              family,
              qualifier,
              1_700_000_000_000L,
              org.apache.hadoop.hbase.KeyValue.Type.Put,
              value));
    }
    block = CellBlockCodec.KEY_VALUE.encode(basaltCells);
    byte[] hbaseBlock = encodeHBase();
    if (!java.util.Arrays.equals(block, hbaseBlock)) {
      throw new IllegalStateException("Basalt and HBase encode different bytes");
    }
  }

  @Benchmark
  public byte[] encodeBasalt() {
    return CellBlockCodec.KEY_VALUE.encode(basaltCells);
  }

  @Benchmark
  public byte[] encodeHBase() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(block == null ? 1024 : block.length);
    Codec.Encoder e = new KeyValueCodec().getEncoder(out);
    for (org.apache.hadoop.hbase.KeyValue kv : hbaseCells) {
      e.write(kv);
    }
    e.flush();
    return out.toByteArray();
  }

  @Benchmark
  public void decodeBasalt(Blackhole bh) throws IOException {
    for (Cell c : CellBlockCodec.KEY_VALUE.decode(block, 0, block.length)) {
      bh.consume(c.getValueLength());
    }
  }

  @Benchmark
  public void decodeHBase(Blackhole bh) throws IOException {
    Codec.Decoder d = new KeyValueCodec().getDecoder(new ByteArrayInputStream(block));
    while (d.advance()) {
      bh.consume(d.current().getValueLength());
    }
  }
}
