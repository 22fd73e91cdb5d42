package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.memstore.Memstore;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Memstore insert (issue 9, item 3): {@link Memstore#add} of a ready-made cell (random 16-byte row,
 * one 100-byte value, its own sequence id) into a memstore shared by the benchmark threads; no row
 * lock, MVCC or WAL, which {@link RegionPutBench} includes. The cells are built before the
 * measurement so that only the insert (skip-list search and link, heap-size accounting) is timed.
 *
 * <p>A memstore only grows and inserts slow down as it fills, so it is replaced by an empty one
 * before every 1 s iteration and a full GC runs then (off the clock), as in {@link RegionPutBench};
 * each figure is the rate of filling a memstore from empty for one second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
public class MemstoreInsertBench {
  /** Cells per thread; a power of two so the index wraps with a mask. */
  static final int CELLS_PER_THREAD = 1 << 21;

  @State(Scope.Benchmark)
  public static class MemstoreState {
    Memstore memstore;

    @Setup(Level.Iteration)
    public void fresh() {
      memstore = null;
      System.gc();
      memstore = new Memstore();
    }
  }

  @State(Scope.Thread)
  public static class Cells {
    private static final AtomicLong SEQUENCE = new AtomicLong();
    KeyValue[] cells;
    int next;

    @Setup(Level.Trial)
    public void build(ThreadParams thread) {
      SplittableRandom random = new SplittableRandom(31L * thread.getThreadIndex() + 7);
      byte[] family = Bytes.toBytes("f");
      byte[] qualifier = Bytes.toBytes("q");
      byte[] value = new byte[100];
      cells = new KeyValue[CELLS_PER_THREAD];
      for (int i = 0; i < CELLS_PER_THREAD; i++) {
        byte[] row = Bytes.toBytes(String.format("user%012d", random.nextLong(1_000_000_000_000L)));
        cells[i] =
            KeyValue.of(row, family, qualifier, 1, CellType.PUT, value)
                .withSequenceId(SEQUENCE.incrementAndGet());
      }
    }
  }

  @Benchmark
  @Threads(1)
  public long insert1Thread(MemstoreState m, Cells c) {
    return m.memstore.add(c.cells[c.next++ & (CELLS_PER_THREAD - 1)]);
  }

  @Benchmark
  @Threads(2)
  public long insert2Threads(MemstoreState m, Cells c) {
    return m.memstore.add(c.cells[c.next++ & (CELLS_PER_THREAD - 1)]);
  }
}
