package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.Scan;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Atomicity and isolation under concurrent writers and readers. */
class RegionConcurrencyTest {
  private static final int COLUMNS = 12;
  private final ExecutorService pool = Executors.newFixedThreadPool(8);

  @AfterEach
  void stop() throws InterruptedException {
    FaultPoints.disarmAll();
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  private static Region newRegion() {
    return Region.inMemory(
        TestRegions.table(f -> f),
        RegionServices.of(Clock.system(), Config.defaults(), EditLog.NONE));
  }

  @Test
  void concurrentIncrementsLoseNothing() throws Exception {
    Region r = newRegion();
    int threads = 8;
    int perThread = 2_000;
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      fs.add(
          pool.submit(
              () -> {
                for (int i = 0; i < perThread; i++) {
                  r.increment(new Increment(b("counter")).addColumn(F, b("n"), 1));
                }
                return null;
              }));
    }
    for (Future<?> f : fs) {
      f.get(60, TimeUnit.SECONDS);
    }
    assertThat(Bytes.toLong(r.get(new Get(b("counter"))).getValue(F, b("n"))))
        .isEqualTo((long) threads * perThread);
  }

  /** A put of COLUMNS columns all holding the same generation number. */
  private static Put generation(byte[] row, long gen) {
    Put p = new Put(row);
    for (int c = 0; c < COLUMNS; c++) {
      p.addColumn(F, b("c" + c), Bytes.toBytes(gen));
    }
    return p;
  }

  /** Null when the row is consistent (all columns of one generation), else a description. */
  private static String inconsistency(Result res) {
    if (res.isEmpty()) {
      return null;
    }
    if (res.size() != COLUMNS) {
      return "saw " + res.size() + " of " + COLUMNS + " columns: " + res;
    }
    long first =
        Bytes.toLong(res.rawCells()[0].getValueArray(), res.rawCells()[0].getValueOffset(), 8);
    for (Cell c : res.rawCells()) {
      long v = Bytes.toLong(c.getValueArray(), c.getValueOffset(), 8);
      if (v != first) {
        return "mixed generations " + first + " and " + v;
      }
    }
    return null;
  }

  @Test
  void readersNeverSeePartOfAMultiColumnPutOrRowMutations() throws Exception {
    Region r = newRegion();
    byte[][] rows = {b("r0"), b("r1"), b("r2")};
    for (byte[] row : rows) {
      r.put(generation(row, 0));
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> problem = new AtomicReference<>();
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      final int writer = w;
      writers.add(
          pool.submit(
              () -> {
                for (long gen = 1; !stop.get() && gen < 3_000; gen++) {
                  byte[] row = rows[(int) (gen % rows.length)];
                  if (writer == 0) {
                    r.put(generation(row, gen));
                  } else {
                    // Delete everything, then write the new generation: readers must never see
                    // the empty row in between, nor a mix.
                    r.mutateRow(
                        new RowMutations(row).add(new Delete(row)).add(generation(row, gen)));
                  }
                }
                return null;
              }));
    }
    List<Future<?>> readers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      final boolean useScan = t % 2 == 0;
      readers.add(
          pool.submit(
              () -> {
                while (!stop.get() && problem.get() == null) {
                  if (useScan) {
                    try (RegionScanner s = r.getScanner(new Scan())) {
                      Result res;
                      int seen = 0;
                      while ((res = s.next()) != null) {
                        seen++;
                        String p = inconsistency(res);
                        if (p != null) {
                          problem.compareAndSet(null, "scan: " + p);
                        }
                      }
                      if (seen != rows.length) {
                        problem.compareAndSet(null, "scan saw " + seen + " rows");
                      }
                    }
                  } else {
                    for (byte[] row : rows) {
                      Result res = r.get(new Get(row));
                      String p = res.isEmpty() ? "get saw an empty row" : inconsistency(res);
                      if (p != null) {
                        problem.compareAndSet(null, "get: " + p);
                      }
                    }
                  }
                }
                return null;
              }));
    }
    for (Future<?> f : writers) {
      f.get(120, TimeUnit.SECONDS);
    }
    stop.set(true);
    for (Future<?> f : readers) {
      f.get(30, TimeUnit.SECONDS);
    }
    assertThat(problem.get()).isNull();
  }

  @Test
  void aWriterWaitingTooLongForARowLockGetsATimeout() throws Exception {
    Region r =
        Region.inMemory(
            TestRegions.table(f -> f),
            RegionServices.of(
                Clock.system(),
                Config.builder().set(RegionSettings.ROW_LOCK_WAIT, 50L).build(),
                EditLog.NONE));
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TestRegions.pauseAt(Region.FAULT_ROWS_LOCKED, "holder", holding, release);
    Thread holder =
        new Thread(
            () -> {
              try {
                r.put(new Put(b("row")).addColumn(F, b("q"), b("first")));
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            },
            "holder");
    holder.start();
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
    assertThatThrownBy(() -> r.put(new Put(b("row")).addColumn(F, b("q"), b("second"))))
        .isInstanceOf(RowLockTimeoutException.class)
        .hasMessageContaining("waiting for the lock of row row");
    // Other rows are not blocked.
    r.put(new Put(b("other")).addColumn(F, b("q"), b("x")));
    release.countDown();
    holder.join(10_000);
    assertThat(r.get(new Get(b("row"))).getValue(F, b("q"))).isEqualTo(b("first"));
  }

  @Test
  void uncommittedEditsAreInvisible() throws Exception {
    Region r = newRegion();
    CountDownLatch applied = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    TestRegions.pauseAt(Region.FAULT_BEFORE_COMMIT, null, applied, release);
    Future<?> w =
        pool.submit(
            () -> {
              r.put(new Put(b("row")).addColumn(F, b("q"), b("v")));
              return null;
            });
    assertThat(applied.await(10, TimeUnit.SECONDS)).isTrue();
    FaultPoints.disarmAll();
    assertThat(r.get(new Get(b("row"))).isEmpty()).as("in the memstore, not committed").isTrue();
    release.countDown();
    w.get(10, TimeUnit.SECONDS);
    assertThat(r.get(new Get(b("row"))).isEmpty()).isFalse();
  }
}
