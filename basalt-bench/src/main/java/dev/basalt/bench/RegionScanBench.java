package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.db.Table;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import dev.basalt.region.RegionScanner;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One short scan of workload E as the server runs it, without the network: open a region scanner at
 * a random loaded row, read {@link #rows} rows of 10 columns of 100 bytes, close it. The region
 * holds one flushed store file of {@link #LOADED} rows (blocks in the block cache after the first
 * touch) and a memstore of a few hundred later inserts, as a region does during workload E.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RegionScanBench {
  static final int LOADED = 12_500;
  static final int INSERTED = 600;
  static final int FIELDS = 10;
  static final byte[] FAMILY = Bytes.toBytes("family");

  @Param({"50"})
  public int rows;

  private Path dir;
  private Database db;
  private Region region;
  private byte[][] starts;
  private int next;

  @Setup
  public void load() throws IOException {
    dir = Files.createTempDirectory("region-scan-bench");
    db = Database.open(dir);
    TableName name = TableName.valueOf("usertable");
    db.createTable(
        TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
            .build());
    Table table = db.getTable(name);
    byte[][] qualifiers = new byte[FIELDS][];
    for (int f = 0; f < FIELDS; f++) {
      qualifiers[f] = Bytes.toBytes("field" + f);
    }
    for (int i = 0; i < LOADED; i++) {
      table.put(put(RegionFixture.row(i * 2L), qualifiers, i));
    }
    db.flush(name);
    // Later inserts fall between the loaded rows, as E's inserts land among the loaded keys.
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < INSERTED; i++) {
      table.put(put(RegionFixture.row(rnd.nextLong(LOADED) * 2 + 1), qualifiers, i));
    }
    RegionInfo info = db.getRegions(name).get(0);
    region = db.onlineRegion(info.getRegionName());
    starts = new byte[1 << 12][];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = RegionFixture.row(rnd.nextLong(LOADED - rows) * 2);
    }
    int cells = scan(starts[0]);
    if (cells != rows * FIELDS) {
      throw new IllegalStateException("scan read " + cells + " cells, expected " + rows * FIELDS);
    }
  }

  private static Put put(byte[] row, byte[][] qualifiers, long seed) {
    Put p = new Put(row);
    for (byte[] q : qualifiers) {
      p.addColumn(FAMILY, q, RegionFixture.value(seed++));
    }
    return p;
  }

  @TearDown
  public void close() throws IOException {
    db.close();
    BenchFiles.deleteTree(dir);
  }

  private int scan(byte[] start) throws IOException {
    int cells = 0;
    try (RegionScanner s = region.getScanner(new Scan().withStartRow(start).addFamily(FAMILY))) {
      for (int r = 0; r < rows; r++) {
        Result row = s.next(0, Long.MAX_VALUE);
        if (row == null) {
          break;
        }
        cells += row.size();
      }
    }
    return cells;
  }

  @Benchmark
  public int scanRows() throws IOException {
    return scan(starts[next++ & (starts.length - 1)]);
  }
}
