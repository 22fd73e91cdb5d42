package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.RegionSettings;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.config.Config;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers and readers keep working while regions split and merge under them: no write fails or is
 * lost, and every scan (forward or reversed) returns each row once, in order, including every row
 * acknowledged before it started.
 */
class SplitConcurrencyTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int WRITERS = 3;

  @TempDir Path dir;

  private static byte[] row(int writer, int n) {
    return Bytes.toBytes(String.format("%c%06d", (char) ('a' + writer * 7), n));
  }

  @Test
  void writersAndReadersDuringSplitsAndMergesLoseNothingAndSeeNoDuplicates() throws Exception {
    Config c =
        Config.builder()
            .set(RegionSettings.FLUSH_SIZE, 64L * 1024)
            .set(DatabaseSettings.MAINTENANCE_INTERVAL, 100L)
            .build();
    try (Database db = Basalt.open(dir, c)) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(T)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build());
      Table t = db.getTable(T);
      AtomicIntegerArray acked = new AtomicIntegerArray(WRITERS);
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
      List<Future<?>> work = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        work.add(
            pool.submit(
                () -> {
                  for (int n = 0; !stop.get(); n++) {
                    t.put(new Put(row(writer, n)).addColumn(F, Q, Bytes.toBytes(n)));
                    acked.set(writer, n + 1);
                  }
                  return null;
                }));
      }
      for (int r = 0; r < 2; r++) {
        boolean reversed = r == 1;
        work.add(
            pool.submit(
                () -> {
                  while (!stop.get()) {
                    int[] before = new int[WRITERS];
                    for (int w = 0; w < WRITERS; w++) {
                      before[w] = acked.get(w);
                    }
                    checkScan(t, reversed, before);
                  }
                  return null;
                }));
      }
      Random rnd = new Random(42);
      int splits = 0;
      int merges = 0;
      for (int step = 0; step < 40; step++) {
        Thread.sleep(20);
        List<RegionInfo> regions = db.getRegions(T);
        int action = rnd.nextInt(3);
        if (action == 0 || regions.size() < 3) {
          int w = rnd.nextInt(WRITERS);
          int n = acked.get(w);
          if (n > 10) {
            byte[] at = row(w, rnd.nextInt(n));
            boolean isStart = false;
            for (RegionInfo ri : regions) {
              isStart |= Bytes.equals(ri.getStartKey(), at);
            }
            db.compact(T); // references would refuse the split
            if (!isStart) {
              db.split(T, at);
              splits++;
            }
          }
        } else if (action == 1) {
          db.compact(T);
          regions = db.getRegions(T);
          int i = rnd.nextInt(regions.size() - 1);
          db.mergeRegions(regions.get(i).getRegionName(), regions.get(i + 1).getRegionName());
          merges++;
        } else {
          db.flush(T);
        }
      }
      stop.set(true);
      for (Future<?> f : work) {
        f.get();
      }
      pool.shutdown();
      assertThat(splits).isPositive();
      assertThat(merges).isPositive();
      int[] all = new int[WRITERS];
      for (int w = 0; w < WRITERS; w++) {
        all[w] = acked.get(w);
      }
      checkScan(t, false, all);
      for (int w = 0; w < WRITERS; w++) {
        for (int n = 0; n < all[w]; n += 97) {
          assertThat(Bytes.toInt(t.get(new Get(row(w, n))).getValue(F, Q))).isEqualTo(n);
        }
      }
    }
  }

  /** One scan: rows strictly ordered, and every row acknowledged before it present. */
  private static void checkScan(Table t, boolean reversed, int[] ackedBefore) throws Exception {
    boolean[][] seen = new boolean[WRITERS][];
    for (int w = 0; w < WRITERS; w++) {
      seen[w] = new boolean[ackedBefore[w]];
    }
    byte[] previous = null;
    try (ResultScanner s = t.getScanner(new Scan().setReversed(reversed))) {
      for (Result r : s) {
        byte[] row = r.getRow();
        if (previous != null) {
          int cmp = Bytes.compareTo(previous, row);
          assertThat(reversed ? cmp > 0 : cmp < 0)
              .as(
                  "rows in order, each once: %s then %s",
                  Bytes.toString(previous), Bytes.toString(row))
              .isTrue();
        }
        previous = row;
        int w = (Bytes.toString(row).charAt(0) - 'a') / 7;
        int n = Integer.parseInt(Bytes.toString(row).substring(1));
        assertThat(Bytes.toInt(r.getValue(F, Q))).isEqualTo(n);
        if (n < seen[w].length) {
          seen[w][n] = true;
        }
      }
    }
    for (int w = 0; w < WRITERS; w++) {
      for (int n = 0; n < seen[w].length; n++) {
        if (!seen[w][n]) {
          throw new AssertionError(
              "row " + Bytes.toString(row(w, n)) + " was acknowledged before the scan but missing");
        }
      }
    }
  }
}
