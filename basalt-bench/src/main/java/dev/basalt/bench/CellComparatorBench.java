package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of {@link CellComparator#compare} on pairs of cells in the shapes a memstore skip list
 * and the scanner heap compare most, once on {@link KeyValue}s (the array fast path) and once on
 * the same KeyValues wrapped in {@link DelegatingCell} (the generic accessor path).
 *
 * <p>Each invocation compares one pre-generated pair; the pairs cycle through a table of {@value
 * #PAIRS} entries, in random order of sign, so that the result is not predictable branch by branch.
 * Nothing is allocated in the measured methods.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class CellComparatorBench {

  /** Pairs per table; a power of two so the index wraps with a mask. */
  static final int PAIRS = 1024;

  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] VALUE = new byte[0];
  private static final long BASE_TS = 1_700_000_000_000L;

  /** The pair shape. */
  public enum Shape {
    /** 16-byte row keys sharing a prefix and differing in the last bytes; same column. */
    DIFFERENT_ROWS,
    /** Same row, same family, different qualifiers ("field000".."field999"). */
    SAME_ROW_DIFFERENT_QUALIFIER,
    /** Same column, different timestamps. */
    SAME_COLUMN_DIFFERENT_TIMESTAMP,
    /** Byte-identical keys (separate arrays) that differ only in sequence id. */
    SEQUENCE_ID_ONLY
  }

  @Param public Shape shape;

  private KeyValue[] leftKv;
  private KeyValue[] rightKv;
  private Cell[] leftGeneric;
  private Cell[] rightGeneric;
  private int index;

  @Setup
  public void setup() {
    SplittableRandom rnd = new SplittableRandom(42);
    leftKv = new KeyValue[PAIRS];
    rightKv = new KeyValue[PAIRS];
    leftGeneric = new Cell[PAIRS];
    rightGeneric = new Cell[PAIRS];
    for (int i = 0; i < PAIRS; i++) {
      KeyValue a;
      KeyValue b;
      switch (shape) {
        case DIFFERENT_ROWS:
          {
            long ra = rnd.nextLong(1_000_000);
            long rb = ra;
            while (rb == ra) {
              rb = rnd.nextLong(1_000_000);
            }
            a = cell(row(ra), qualifier(0), BASE_TS, 1);
            b = cell(row(rb), qualifier(0), BASE_TS, 1);
            break;
          }
        case SAME_ROW_DIFFERENT_QUALIFIER:
          {
            long r = rnd.nextLong(1_000_000);
            int qa = rnd.nextInt(1000);
            int qb = qa;
            while (qb == qa) {
              qb = rnd.nextInt(1000);
            }
            a = cell(row(r), qualifier(qa), BASE_TS, 1);
            b = cell(row(r), qualifier(qb), BASE_TS, 1);
            break;
          }
        case SAME_COLUMN_DIFFERENT_TIMESTAMP:
          {
            long r = rnd.nextLong(1_000_000);
            long ta = BASE_TS + rnd.nextLong(1_000_000);
            long tb = ta;
            while (tb == ta) {
              tb = BASE_TS + rnd.nextLong(1_000_000);
            }
            a = cell(row(r), qualifier(0), ta, 1);
            b = cell(row(r), qualifier(0), tb, 1);
            break;
          }
        case SEQUENCE_ID_ONLY:
          {
            long r = rnd.nextLong(1_000_000);
            long sa = 1 + rnd.nextLong(1_000_000);
            long sb = sa;
            while (sb == sa) {
              sb = 1 + rnd.nextLong(1_000_000);
            }
            a = cell(row(r), qualifier(0), BASE_TS, sa);
            b = cell(row(r), qualifier(0), BASE_TS, sb);
            break;
          }
        default:
          throw new AssertionError(shape);
      }
      leftKv[i] = a;
      rightKv[i] = b;
      leftGeneric[i] = new DelegatingCell(a);
      rightGeneric[i] = new DelegatingCell(b);
      // Both paths must agree, and the shape must decide where it claims to.
      int fast = CellComparator.INSTANCE.compare(a, b);
      int generic = CellComparator.INSTANCE.compare(leftGeneric[i], rightGeneric[i]);
      if (Integer.signum(fast) != Integer.signum(generic) || fast == 0) {
        throw new IllegalStateException("comparator paths disagree on " + a + " vs " + b);
      }
      boolean keysEqual = CellComparator.INSTANCE.compareWithoutSequenceId(a, b) == 0;
      if (keysEqual != (shape == Shape.SEQUENCE_ID_ONLY)) {
        throw new IllegalStateException("pair does not have shape " + shape + ": " + a + ", " + b);
      }
    }
  }

  /** "user" + 12 decimal digits: 16 bytes, so nearby keys differ only in their last bytes. */
  static byte[] row(long n) {
    return Bytes.toBytes(String.format("user%012d", n));
  }

  private static byte[] qualifier(int n) {
    return Bytes.toBytes(String.format("field%03d", n));
  }

  /** A Put cell in its own array, as a memstore holds it. */
  private static KeyValue cell(byte[] row, byte[] qualifier, long ts, long seqId) {
    return KeyValue.of(row, FAMILY, qualifier, ts, CellType.PUT, VALUE).withSequenceId(seqId);
  }

  @Benchmark
  public int keyValue() {
    int i = index++ & (PAIRS - 1);
    return CellComparator.INSTANCE.compare(leftKv[i], rightKv[i]);
  }

  @Benchmark
  public int generic() {
    int i = index++ & (PAIRS - 1);
    return CellComparator.INSTANCE.compare(leftGeneric[i], rightGeneric[i]);
  }
}
