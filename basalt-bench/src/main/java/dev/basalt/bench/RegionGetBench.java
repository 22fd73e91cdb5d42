package dev.basalt.bench;

import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Throughput of {@link Region#get} of one whole row from an in-memory region preloaded with {@link
 * #rows} rows (one family, one column, 100-byte values). Each call builds a {@link Get} for a row
 * picked at random (from a per-thread, pre-generated list) among the loaded ones, so every get
 * hits.
 *
 * <p>Two sizes: 100,000 rows (tens of MB of skip list, far larger than the CPU caches, so each get
 * is a chain of cache misses) and 1,000 rows (cache-resident: the cost of the read path itself).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class RegionGetBench {

  /** Per-thread lookups; a power of two so the index wraps with a mask. */
  static final int LOOKUPS_PER_THREAD = 1 << 16;

  /** The preloaded region, shared by all benchmark threads. */
  @State(Scope.Benchmark)
  public static class RegionState {
    @Param({"1000", "100000"})
    public int rows;

    Region region;
    byte[][] loaded;

    @Setup(Level.Trial)
    public void load() throws IOException {
      region = RegionFixture.newRegion();
      SplittableRandom rnd = new SplittableRandom(1);
      byte[] value = RegionFixture.value(7);
      loaded = new byte[rows][];
      for (int i = 0; i < rows; i++) {
        loaded[i] = RegionFixture.row(rnd.nextLong(1_000_000_000_000L));
        region.put(
            new Put(loaded[i]).addColumn(RegionFixture.FAMILY, RegionFixture.QUALIFIER, value));
      }
      // Sanity check: a loaded row reads back with its value.
      Result r = region.get(new Get(loaded[rows / 2]));
      if (!Arrays.equals(r.getValue(RegionFixture.FAMILY, RegionFixture.QUALIFIER), value)) {
        throw new IllegalStateException("preloaded row does not read back: " + r);
      }
      // Settle the heap before measuring: the loaded region moves to the old generation now, not
      // during the first measured iterations.
      System.gc();
    }

    @TearDown(Level.Trial)
    public void close() {
      region.close();
    }
  }

  /** Row keys to look up, drawn from the loaded rows per thread (different seeds). */
  @State(Scope.Thread)
  public static class Lookups {
    byte[][] rows;
    int next;

    @Setup(Level.Trial)
    public void pick(RegionState s, ThreadParams thread) {
      SplittableRandom rnd = new SplittableRandom(2000L + thread.getThreadIndex());
      rows = new byte[LOOKUPS_PER_THREAD][];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = s.loaded[rnd.nextInt(s.loaded.length)];
      }
    }

    byte[] nextRow() {
      return rows[next++ & (LOOKUPS_PER_THREAD - 1)];
    }
  }

  @Benchmark
  @Threads(1)
  public Result get1Thread(RegionState s, Lookups l) throws IOException {
    return s.region.get(new Get(l.nextRow()));
  }

  @Benchmark
  @Threads(2)
  public Result get2Threads(RegionState s, Lookups l) throws IOException {
    return s.region.get(new Get(l.nextRow()));
  }
}
