package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.region.Region;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * The region lookup every client call makes ({@code Database.onlineRegion}: a request names its
 * region in full): a table of {@code regions} regions next to two other tables, each lookup naming
 * the next region in turn.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class OnlineRegionBench {
  @Param({"8", "1000"})
  public int regions;

  private Path dir;
  private Database db;
  private byte[][] names;
  private int next;

  @Setup
  public void open() throws IOException {
    dir = Files.createTempDirectory("online-region-bench");
    db = Database.open(dir);
    for (String t : List.of("alpha", "usertable", "zeta")) {
      int n = t.equals("usertable") ? regions : 4;
      byte[][] splits = new byte[n - 1][];
      for (int i = 1; i < n; i++) {
        splits[i - 1] = Bytes.toBytes(String.format("user%06d", i * (1_000_000 / n)));
      }
      db.createTable(
          TableDescriptorBuilder.newBuilder(TableName.valueOf(t))
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("family"))
              .build(),
          splits);
    }
    List<RegionInfo> infos = db.getRegions(TableName.valueOf("usertable"));
    names = new byte[infos.size()][];
    for (int i = 0; i < names.length; i++) {
      names[i] = infos.get(i).getRegionName();
    }
  }

  @Benchmark
  public Region lookup() throws IOException {
    byte[] name = names[next];
    next = next + 1 == names.length ? 0 : next + 1;
    return db.onlineRegion(name);
  }

  @TearDown
  public void close() throws IOException {
    db.close();
    BenchFiles.deleteTree(dir);
  }
}
