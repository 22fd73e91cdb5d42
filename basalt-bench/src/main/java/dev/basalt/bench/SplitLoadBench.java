package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Basalt;
import dev.basalt.db.Database;
import dev.basalt.db.DatabaseSettings;
import dev.basalt.db.RegionMetrics;
import dev.basalt.db.ResultScanner;
import dev.basalt.db.Table;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.StoreFileReference;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * Loads a table that starts as one region and splits by itself as it grows (issue 6 measurement),
 * then reads it back.
 *
 * <pre>
 * java -Xms4g -Xmx4g -cp basalt-bench/target/benchmarks.jar dev.basalt.bench.SplitLoadBench DIR
 *     [--rows=10000000] [--split-mb=256] [--threads=2] [--batch=100] [--gets=200000]
 *     [--scans=5000] [--scan-rows=100]
 * </pre>
 *
 * Keys are 20 bytes ("user" + 16 digits), values 100 random bytes; rows are written once each, in a
 * scrambled order (row i is number {@code i * 1000003 mod rows}), by {@code threads} threads in
 * batches of {@code batch} puts (Table.put(List), as a buffered client would). {@code
 * hbase.hregion.max.filesize} is {@code split-mb}; every other setting is the default (SYNC_WAL).
 *
 * <ol>
 *   <li><b>load</b>: wall time and rows/s of the puts alone;
 *   <li><b>settle</b>: flush, then wait until no region has queued compactions or references and
 *       the region count has not changed for 10 s: the time until the table is fully split and
 *       compacted, and the region count;
 *   <li><b>major compaction</b> of the whole table;
 *   <li><b>random gets</b> of existing rows and <b>scans</b> of {@code scan-rows} rows from random
 *       existing rows, on {@code threads} threads: ops/s and latency.
 * </ol>
 *
 * Write amplification is every byte the process passed to write(2) ({@code wchar} in /proc/self/io:
 * WAL, flushes, compactions, splits) divided by the user bytes (rows x 120), up to the end of the
 * settle phase and then including the major compaction. Space amplification is the bytes of the
 * table's live region directories after the major compaction over the user bytes.
 */
public final class SplitLoadBench {
  private static final TableName TABLE = TableName.valueOf("load");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int KEY = 20;
  private static final int VALUE = 100;
  private static final long SCRAMBLE = 1_000_003L;

  private SplitLoadBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long rows = arg(args, "rows", 10_000_000L);
    long splitMb = arg(args, "split-mb", 256);
    int threads = (int) arg(args, "threads", 2);
    int batch = (int) arg(args, "batch", 100);
    int gets = (int) arg(args, "gets", 200_000);
    int scans = (int) arg(args, "scans", 5_000);
    int scanRows = (int) arg(args, "scan-rows", 100);
    if (rows % SCRAMBLE == 0) {
      throw new IllegalArgumentException("rows must not be a multiple of " + SCRAMBLE);
    }
    BenchFiles.deleteTree(dir);
    Config config =
        Config.builder().set(DatabaseSettings.MAX_FILESIZE, splitMb * 1024 * 1024).build();
    long userBytes = rows * (KEY + VALUE);
    long w0 = EngineComparison.wchar();
    try (Database db = Basalt.open(dir, config)) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(TABLE)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build());
      Table t = db.getTable(TABLE);

      long start = System.nanoTime();
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < threads; w++) {
        int id = w;
        Thread th =
            new Thread(
                () -> {
                  SplittableRandom rnd = new SplittableRandom(id);
                  List<Put> puts = new ArrayList<>(batch);
                  try {
                    for (long i = id; i < rows; i += threads) {
                      byte[] value = new byte[VALUE];
                      rnd.nextBytes(value);
                      puts.add(new Put(key(i * SCRAMBLE % rows)).addColumn(F, Q, value));
                      if (puts.size() == batch) {
                        t.put(puts);
                        puts = new ArrayList<>(batch);
                      }
                    }
                    if (!puts.isEmpty()) {
                      t.put(puts);
                    }
                  } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                },
                "loader-" + w);
        th.start();
        writers.add(th);
      }
      for (Thread th : writers) {
        th.join();
      }
      double loadSecs = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "load: %,d rows in %.1f s = %,.0f rows/s; %d regions at the end of the puts%n",
          rows,
          loadSecs,
          rows / loadSecs,
          db.getRegions(TABLE).size());

      db.flush(TABLE);
      int regions = settle(db, dir);
      double settleSecs = (System.nanoTime() - start) / 1e9;
      long written = EngineComparison.wchar() - w0;
      System.out.printf(
          Locale.ROOT,
          "settled (split and compacted): %.1f s after the start; %d regions;"
              + " write amplification %.2f%n",
          settleSecs,
          regions,
          written / (double) userBytes);

      long c0 = System.nanoTime();
      db.majorCompact(TABLE);
      double compactSecs = (System.nanoTime() - c0) / 1e9;
      long writtenAll = EngineComparison.wchar() - w0;
      long live = 0;
      for (RegionMetrics m : db.getRegionMetrics(TABLE)) {
        live += m.getStoreFileSize();
      }
      System.out.printf(
          Locale.ROOT,
          "major compaction: %.1f s; write amplification with it %.2f; store files %,d bytes,"
              + " space amplification %.2f%n",
          compactSecs,
          writtenAll / (double) userBytes,
          live,
          live / (double) userBytes);

      reads(
          t,
          rows,
          gets,
          threads,
          "get",
          (rnd) -> {
            Result r = t.get(new Get(key(rnd.nextLong(rows))));
            if (r.isEmpty()) {
              throw new IllegalStateException("missing row");
            }
          });
      reads(
          t,
          rows,
          scans,
          threads,
          "scan of " + scanRows + " rows",
          (rnd) -> {
            int n = 0;
            try (ResultScanner s =
                t.getScanner(new Scan().withStartRow(key(rnd.nextLong(rows))).setLimit(scanRows))) {
              for (Result r = s.next(); r != null; r = s.next()) {
                n++;
              }
            }
            if (n == 0) {
              throw new IllegalStateException("empty scan");
            }
          });
    }
  }

  @FunctionalInterface
  private interface Op {
    void run(SplittableRandom rnd) throws IOException;
  }

  private static void reads(Table t, long rows, int count, int threads, String what, Op op)
      throws Exception {
    // One warm-up pass over a tenth of the operations, then the measured ones.
    for (int pass = 0; pass < 2; pass++) {
      int n = pass == 0 ? Math.max(1, count / 10) : count;
      long seed = pass * 7L;
      Histogram h = new Histogram(60_000_000_000L, 3);
      List<Thread> ts = new ArrayList<>();
      long start = System.nanoTime();
      for (int w = 0; w < threads; w++) {
        int id = w;
        Thread th =
            new Thread(
                () -> {
                  SplittableRandom rnd = new SplittableRandom(1000L * id + seed);
                  Histogram mine = new Histogram(60_000_000_000L, 3);
                  try {
                    for (int i = id; i < n; i += threads) {
                      long s = System.nanoTime();
                      op.run(rnd);
                      mine.recordValue(System.nanoTime() - s);
                    }
                  } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                  synchronized (h) {
                    h.add(mine);
                  }
                });
        th.start();
        ts.add(th);
      }
      for (Thread th : ts) {
        th.join();
      }
      double secs = (System.nanoTime() - start) / 1e9;
      if (pass == 1) {
        System.out.printf(
            Locale.ROOT,
            "%s: %,d on %d threads, %,.0f ops/s; latency p50 %.0f µs, p99 %.0f µs, p99.9 %.0f µs%n",
            what,
            n,
            threads,
            n / secs,
            h.getValueAtPercentile(50) / 1e3,
            h.getValueAtPercentile(99) / 1e3,
            h.getValueAtPercentile(99.9) / 1e3);
      }
    }
  }

  /**
   * Waits until no region has queued compactions or references and the region count held for 10 s;
   * returns the region count.
   */
  private static int settle(Database db, Path dir) throws Exception {
    int last = -1;
    long stableSince = System.nanoTime();
    while (true) {
      Thread.sleep(500);
      List<RegionMetrics> m = db.getRegionMetrics(TABLE);
      boolean busy = false;
      for (RegionMetrics r : m) {
        busy |= r.getCompactionQueueLength() > 0 || r.getMemstoreSize() > 0;
      }
      busy |= hasReferences(dir);
      if (m.size() != last || busy) {
        last = m.size();
        stableSince = System.nanoTime();
      } else if (System.nanoTime() - stableSince > 10_000_000_000L) {
        return last;
      }
    }
  }

  /** Whether a region of the table still reads a split parent's files. */
  private static boolean hasReferences(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("data/default/" + TABLE.getQualifierAsString()))) {
      return s.anyMatch(p -> StoreFileReference.isReference(p.getFileName().toString()));
    } catch (java.io.UncheckedIOException e) {
      return true; // a file moved while walking: look again later
    }
  }

  private static byte[] key(long k) {
    return Bytes.toBytes(String.format("user%016d", k));
  }

  private static long arg(String[] args, String name, long def) {
    for (String a : args) {
      if (a.startsWith("--" + name + "=")) {
        return Long.parseLong(a.substring(name.length() + 3).replace("_", ""));
      }
    }
    return def;
  }
}
