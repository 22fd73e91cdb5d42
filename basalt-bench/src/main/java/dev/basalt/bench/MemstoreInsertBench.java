package dev.basalt.bench;

import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.memstore.Memstore;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time per {@link Memstore#add} while filling an empty memstore with {@value #CELLS} cells, about
 * what a 64 MiB memstore holds in the EngineComparison load (16-byte rows "user" + 12 digits of
 * shuffled row numbers, so the first 10 bytes of every row are equal; one 100-byte value per row).
 *
 * <p>Each invocation fills a fresh memstore from cells built by the benchmark itself, one new cell
 * per add (as a put builds its own), so the figure includes laying out the cell, the skip-list
 * insert with its comparisons, and the garbage collection of the memstore's own allocation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
public class MemstoreInsertBench {
  static final int CELLS = 1 << 18;

  private byte[][] rows;
  private final byte[] value = RegionFixture.value(7);
  private long seq;

  @Setup(Level.Trial)
  public void keys() {
    rows = new byte[CELLS][];
    for (int i = 0; i < CELLS; i++) {
      rows[i] = RegionFixture.row(i);
    }
    SplittableRandom rnd = new SplittableRandom(42);
    for (int i = CELLS - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      byte[] t = rows[i];
      rows[i] = rows[j];
      rows[j] = t;
    }
  }

  @Setup(Level.Invocation)
  public void gc() {
    System.gc(); // the previous invocation's memstore is collected off the clock
  }

  @Benchmark
  @OperationsPerInvocation(CELLS)
  public Memstore fill() {
    Memstore m = new Memstore();
    for (byte[] row : rows) {
      KeyValue kv =
          KeyValue.of(
              row,
              RegionFixture.FAMILY,
              RegionFixture.QUALIFIER,
              1_700_000_000_000L,
              CellType.PUT,
              value);
      m.add(kv.withSequenceId(++seq));
    }
    return m;
  }
}
