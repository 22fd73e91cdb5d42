package dev.basalt.bench;

import dev.basalt.ops.Put;
import dev.basalt.region.Region;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Throughput of {@link Region#put} on an in-memory region (one family, no edit log): each call
 * builds a {@link Put} of one 100-byte value in one column of a random 16-byte row, as a client
 * would, and applies it.
 *
 * <p>An in-memory region only grows, and skip-list inserts slow down (and the live heap the GC must
 * trace grows) as it fills, so the region is replaced by an empty one before every iteration and
 * iterations are kept short (1 s); a full GC runs before each iteration (outside the measurement)
 * so the dropped regions are not collected on the clock. Each figure is therefore the mean rate of
 * filling a region from empty for one second, GC of that region's own allocation included. The heap
 * is fixed (4 GiB) so that runs are comparable.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
public class RegionPutBench {

  /** Per-thread keys; a power of two so the index wraps with a mask. */
  static final int KEYS_PER_THREAD = 1 << 20;

  /** The region, shared by all benchmark threads, replaced before each iteration. */
  @State(Scope.Benchmark)
  public static class RegionState {
    Region region;
    final byte[] value = RegionFixture.value(7);

    @Setup(Level.Iteration)
    public void freshRegion() {
      // Collect the previous iterations' regions off the clock, so that each iteration pays only
      // for the garbage and the live data of its own region.
      System.gc();
      region = RegionFixture.newRegion();
    }

    @TearDown(Level.Iteration)
    public void closeRegion() {
      region.close();
      region = null;
    }
  }

  /** Random row keys, pre-generated per thread (different seeds), used in order. */
  @State(Scope.Thread)
  public static class Keys {
    byte[][] rows;
    int next;

    @Setup(Level.Trial)
    public void generate(ThreadParams thread) {
      SplittableRandom rnd = new SplittableRandom(1000L + thread.getThreadIndex());
      rows = new byte[KEYS_PER_THREAD][];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = RegionFixture.row(rnd.nextLong(1_000_000_000_000L));
      }
    }

    byte[] nextRow() {
      return rows[next++ & (KEYS_PER_THREAD - 1)];
    }
  }

  private static void put(RegionState s, Keys k) throws IOException {
    s.region.put(
        new Put(k.nextRow()).addColumn(RegionFixture.FAMILY, RegionFixture.QUALIFIER, s.value));
  }

  @Benchmark
  @Threads(1)
  public void put1Thread(RegionState s, Keys k) throws IOException {
    put(s, k);
  }

  @Benchmark
  @Threads(2)
  public void put2Threads(RegionState s, Keys k) throws IOException {
    put(s, k);
  }
}
