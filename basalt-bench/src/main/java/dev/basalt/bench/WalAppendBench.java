package dev.basalt.bench;

import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.ops.Durability;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The WAL append hot path without waiting for the disk: one entry per row mutation (encoded once at
 * exact size with its CRC32C, appended under the log's lock) followed by an ASYNC_WAL sync request,
 * which only hands the batch to the background syncer. {@code cells} = 1 is a one-column put, 10 a
 * YCSB row. Disk-bound throughput with SYNC_WAL and FSYNC_WAL is {@code WalThroughput}'s job; this
 * isolates what a writer thread spends before it waits.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 8, time = 1)
@Threads(1)
public class WalAppendBench {
  @Param({"1", "10"})
  public int cells;

  private Path dir;
  private Wal wal;
  private WalEntry entry;

  @Setup
  public void open() throws IOException {
    dir = Files.createTempDirectory("wal-append-bench");
    wal = new Wal(new LocalStorage(dir), "bench", Config.defaults(), Clock.system(), List.of());
    List<KeyValue> kvs = new ArrayList<>(cells);
    for (int i = 0; i < cells; i++) {
      kvs.add(
          KeyValue.of(
              RegionFixture.row(i),
              "family".getBytes(),
              ("field" + i).getBytes(),
              1_700_000_000_000L,
              CellType.PUT,
              RegionFixture.value(i)));
    }
    entry = new WalEntry("region", 1_700_000_000_000L, List.of(), kvs);
  }

  @Benchmark
  public long append() throws IOException {
    long txid = wal.append(entry);
    wal.sync(txid, Durability.ASYNC_WAL);
    return txid;
  }

  @TearDown
  public void close() throws IOException {
    wal.close();
    BenchFiles.deleteTree(dir);
  }
}
