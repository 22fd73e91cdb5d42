package dev.basalt.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.HdrHistogram.Histogram;

/**
 * Basalt against RocksDB in the same JVM, on the same data and the same key sequences (issue 4).
 *
 * <pre>
 * java -Xms4g -Xmx4g -cp basalt-bench/target/benchmarks.jar dev.basalt.bench.EngineComparison DIR
 *     [--rows=1000000] [--rounds=3] [--reps=5] [--threads=1,2] [--engines=basalt,rocksdb]
 *     [--gets=500000] [--cold-gets=100000] [--scans=20000] [--scan-rows=100]
 *     [--cache-mb=1024] [--cold-cache-mb=8] [--flush-mb=64] [--block-kb=64] [--bloom-bits=10]
 *     [--max-other=0.15] [--retries=4] [--quiet-wait=30] [--jfr=DIR] [--keep] [--verbose]
 * </pre>
 *
 * Keys are 16 bytes ("user" + 12 digits, row numbers 0..rows-1), values 100 random bytes. Both
 * engines are open in the JVM at once, each in its own fresh directory, and every phase runs on one
 * engine and then on the other, back to back (the order alternates between repetitions and rounds),
 * so that the two measurements of a pair meet the same machine:
 *
 * <ol>
 *   <li><b>load</b>: every row once, in one shuffled order (the same for both engines), split
 *       between the threads: puts/s and put latency;
 *   <li><b>flush</b>: write the memory buffers out and wait until no flush or compaction is
 *       pending; write amplification and space after load;
 *   <li><b>warm gets</b>: one full scan fills each block cache (big enough for all the data), then
 *       random gets of existing keys: one warm-up repetition, then {@code reps} measured ones;
 *   <li><b>scans</b>: {@code scan-rows}-row forward scans from random existing keys, same scheme;
 *   <li><b>cold gets</b>: both engines are closed and reopened with a tiny block cache ({@code
 *       cold-cache-mb}), so nearly every get reads a block from its file; the OS page cache still
 *       holds the files (this measures the engine's miss path, not the disk);
 *   <li><b>compaction</b>: reopened with the big cache, one full major compaction each: MiB/s of
 *       input (the data files' size before), then write amplification and space after it.
 * </ol>
 *
 * Write amplification counts every byte the process passed to write(2)/pwrite(2) from opening the
 * fresh directory to the end of the flush, and during the compaction ({@code wchar} in
 * /proc/self/io: WAL, flushes, compactions, metadata; both engines measured the same way), divided
 * by the user bytes (rows x (16 + 100)). Figures are medians over all rounds (load, flush,
 * compaction) or over all measured repetitions of all rounds (reads); the ratio is the median of
 * the per-pair ratios.
 *
 * <p>The machine may be shared. Every measurement records the share of the machine's CPU time that
 * other processes used meanwhile (/proc/stat minus this process), and the 1-minute load average is
 * sampled before every load and compaction. Before each measurement the harness waits (up to {@code
 * --quiet-wait} seconds) for other processes to use less than {@code --max-other} of the CPUs over
 * one second, and a read pair disturbed by more than that is run again (up to {@code --retries}
 * times).
 *
 * <p>{@code --jfr=DIR} records each phase with JDK Flight Recorder's "profile" settings into
 * DIR/ENGINE-PHASE-tT-rR.jfr, Java stacks sampled every millisecond (read them with {@link JfrTop};
 * add {@code -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints} so samples land on the right
 * line); the recordings write to disk, so the amplification figures of such a run are not valid.
 */
public final class EngineComparison {
  static final int KEY_LENGTH = 16;
  static final int VALUE_LENGTH = 100;
  private static final int VALUE_POOL = 4096;
  private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

  static volatile long sink;

  private final Args args;
  private final byte[][] keys;
  private final byte[][] values;
  private final int[] loadOrder;
  private final long userBytes;

  /** Figures per thread count, engine, metric: one entry per round or repetition. */
  private final Map<String, List<Double>> figures = new LinkedHashMap<>();

  private final List<Double> loadAverages = new ArrayList<>();

  private EngineComparison(Args args) {
    this.args = args;
    keys = new byte[args.rows][];
    for (int i = 0; i < args.rows; i++) {
      keys[i] = RegionFixture.row(i);
    }
    values = new byte[VALUE_POOL][];
    for (int i = 0; i < VALUE_POOL; i++) {
      values[i] = RegionFixture.value(i);
    }
    loadOrder = permutation(args.rows, 42);
    userBytes = (long) args.rows * (KEY_LENGTH + VALUE_LENGTH);
  }

  public static void main(String[] argv) throws Exception {
    Args a = Args.parse(argv);
    EngineComparison c = new EngineComparison(a);
    c.run();
  }

  private void run() throws Exception {
    StorageEngine.Settings settings =
        new StorageEngine.Settings(
            args.cacheMb << 20, args.flushMb << 20, args.blockKb << 10, args.bloomBits, true);
    System.out.printf(
        Locale.ROOT,
        "# EngineComparison: %,d rows, %d-byte keys, %d-byte values (%,d user bytes), rounds %d,"
            + " reps %d, threads %s%n",
        args.rows,
        KEY_LENGTH,
        VALUE_LENGTH,
        userBytes,
        args.rounds,
        args.reps,
        args.threads);
    System.out.printf(
        Locale.ROOT,
        "# java %s, %d CPUs, max heap %d MiB, load average at start %s%n",
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20,
        loadAverageLine());
    for (StorageEngine.Kind k : args.engines) {
      System.out.println("# " + k.name() + " settings:");
      for (String line : k.describe(settings).split("\n")) {
        System.out.println("#   " + line);
      }
      System.out.println(
          "#   cold-cache phase: block cache " + args.coldCacheMb + " MiB, same files");
    }
    for (int threads : args.threads) {
      for (int round = 0; round < args.rounds; round++) {
        runRound(settings, threads, round);
      }
    }
    report();
  }

  // ---- one round: both engines, phase by phase, back to back ---------------------------------

  /** Runs one repetition of a read phase on one engine. */
  @FunctionalInterface
  private interface Rep {
    Sample run(StorageEngine engine, int rep) throws Exception;
  }

  /**
   * One round: each engine loads its own fresh directory (one after the other), then every read
   * phase runs its repetitions engine by engine, back to back (the order alternates between
   * repetitions), so that both engines of a pair meet the same machine; then each engine's major
   * compaction. The order of the engines alternates between rounds.
   */
  private void runRound(StorageEngine.Settings s, int threads, int round) throws Exception {
    List<StorageEngine.Kind> order = new ArrayList<>(args.engines);
    if (round % 2 == 1) {
      Collections.reverse(order);
    }
    Map<String, Path> dirs = new LinkedHashMap<>();
    Map<String, StorageEngine> open = new LinkedHashMap<>();
    Map<String, Long> loadWritten = new LinkedHashMap<>();
    System.out.println();
    System.out.println("## round " + round + ", " + threads + " thread(s)");
    try {
      // 1. load, 2. flush and wait for background work
      Map<String, Double> loadRate = new LinkedHashMap<>();
      for (StorageEngine.Kind k : order) {
        String e = k.name();
        Path dir = args.dir.resolve(e + "-t" + threads + "-r" + round);
        BenchFiles.deleteTree(dir);
        Files.createDirectories(dir);
        dirs.put(e, dir);
        quiesce();
        awaitQuiet();
        sampleLoad();
        long w0 = wchar();
        StorageEngine engine = k.open(dir, s);
        open.put(e, engine);
        Sample load;
        try (Jfr j = jfr(e, "load", threads, round, 0)) {
          load =
              runOps(
                  threads,
                  args.rows,
                  i -> {
                    int key = loadOrder[i];
                    engine.put(keys[key], values[key % VALUE_POOL]);
                    return 0;
                  });
        }
        record(threads, e, "load", load);
        loadRate.put(e, load.opsPerSecond());
        System.out.printf(Locale.ROOT, "%s load: %s%n", e, load);

        CpuTimes flushCpu = CpuTimes.now();
        long t0 = System.nanoTime();
        try (Jfr j = jfr(e, "flush", threads, round, 0)) {
          engine.flushAndWait();
        }
        double flushSecs = (System.nanoTime() - t0) / 1e9;
        long written = wchar() - w0;
        loadWritten.put(e, written);
        record(threads, e, "flush.seconds", flushSecs);
        record(threads, e, "flush.seconds.other", CpuTimes.now().othersSince(flushCpu));
        record(threads, e, "wamp.load", written / (double) userBytes);
        long liveData = engine.liveDataFileBytes();
        long liveWal = engine.liveWalBytes();
        long dirBytes = sizeOf(dir, p -> true);
        record(threads, e, "samp.load.live", (liveData + liveWal) / (double) userBytes);
        record(threads, e, "samp.load.dir", dirBytes / (double) userBytes);
        System.out.printf(
            Locale.ROOT,
            "%s flush+wait %.2f s; written since open %,d bytes (%.2fx user); data files %,d,"
                + " live WAL %,d, whole directory %,d; %s%n",
            e,
            flushSecs,
            written,
            written / (double) userBytes,
            liveData,
            liveWal,
            dirBytes,
            engine.fileLayout());
      }
      pairRatio(threads, "load.ops", loadRate);

      // 3. warm gets, after one full scan has filled each block cache
      for (StorageEngine.Kind k : order) {
        StorageEngine engine = open.get(k.name());
        long t0 = System.nanoTime();
        long primed = engine.scan(keys[0], args.rows);
        System.out.printf(
            Locale.ROOT,
            "%s cache primed by a full scan (%,d bytes) in %.2f s; %s%n",
            k.name(),
            primed,
            (System.nanoTime() - t0) / 1e9,
            engine.cacheStats());
      }
      paired(
          "warmget",
          order,
          open,
          threads,
          round,
          (en, rep) -> gets(en, threads, "warmget", args.gets, rep));
      for (StorageEngine.Kind k : order) {
        System.out.println(k.name() + " after warm gets: " + open.get(k.name()).cacheStats());
      }

      // 4. scans
      paired("scan", order, open, threads, round, (en, rep) -> scans(en, threads, rep));

      // 5. cold gets: reopened with a tiny block cache
      closeAll(open);
      for (StorageEngine.Kind k : order) {
        open.put(k.name(), k.open(dirs.get(k.name()), s.withCache(args.coldCacheMb << 20)));
      }
      paired(
          "coldget",
          order,
          open,
          threads,
          round,
          (en, rep) -> gets(en, threads, "coldget", args.coldGets, rep));
      for (StorageEngine.Kind k : order) {
        System.out.println(k.name() + " after cold gets: " + open.get(k.name()).cacheStats());
      }
      closeAll(open);

      // 6. major compaction, reopened with the big cache
      Map<String, Double> compactRate = new LinkedHashMap<>();
      for (StorageEngine.Kind k : order) {
        String e = k.name();
        StorageEngine c = k.open(dirs.get(e), s.withCache(s.cacheBytes()));
        open.put(e, c);
        quiesce();
        awaitQuiet();
        sampleLoad();
        long input = c.liveDataFileBytes();
        String before = c.fileLayout();
        long w1 = wchar();
        CpuTimes cpu0 = CpuTimes.now();
        long t0 = System.nanoTime();
        try (Jfr j = jfr(e, "compact", threads, round, 0)) {
          c.majorCompact();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        double others = CpuTimes.now().othersSince(cpu0);
        record(threads, e, "compact.mbps.other", others);
        record(threads, e, "compact.seconds.other", others);
        long compactWritten = wchar() - w1;
        long after = c.liveDataFileBytes();
        long afterWal = c.liveWalBytes();
        long afterDir = sizeOf(dirs.get(e), p -> true);
        double mbps = input / 1048576.0 / secs;
        compactRate.put(e, mbps);
        record(threads, e, "compact.mbps", mbps);
        record(threads, e, "compact.seconds", secs);
        record(threads, e, "compact.inputMiB", input / 1048576.0);
        record(
            threads, e, "wamp.total", (loadWritten.get(e) + compactWritten) / (double) userBytes);
        record(threads, e, "samp.compacted.live", (after + afterWal) / (double) userBytes);
        record(threads, e, "samp.compacted.data", after / (double) userBytes);
        record(threads, e, "samp.compacted.dir", afterDir / (double) userBytes);
        System.out.printf(
            Locale.ROOT,
            "%s major compaction: %,d bytes in (%s) -> %,d bytes out (%s) in %.2f s = %.1f MiB/s"
                + " of input (other processes used %.0f%% of the CPUs); written %,d bytes; whole"
                + " directory %,d bytes%n",
            e,
            input,
            before,
            after,
            c.fileLayout(),
            secs,
            mbps,
            100 * others,
            compactWritten,
            afterDir);
        if (c instanceof RocksEngine r && args.verbose) {
          System.out.println(r.compactionStats());
        }
      }
      pairRatio(threads, "compact.mbps", compactRate);
    } finally {
      closeAll(open);
    }
    if (!args.keep) {
      for (Path d : dirs.values()) {
        BenchFiles.deleteTree(d);
      }
    }
  }

  private static void closeAll(Map<String, StorageEngine> open) throws IOException {
    for (StorageEngine e : open.values()) {
      e.close();
    }
    open.clear();
  }

  /** Records Basalt ÷ RocksDB for one pair of measurements taken back to back. */
  private void pairRatio(int threads, String metric, Map<String, Double> byEngine) {
    Double b = byEngine.get("basalt");
    Double r = byEngine.get("rocksdb");
    if (b != null && r != null) {
      record(threads, "ratio", metric, b / r);
    }
  }

  /**
   * Runs a read phase: a warm-up repetition, then {@code reps} measured ones, each on every engine
   * back to back. A pair in which other processes took more than {@code --max-other} of the CPUs
   * during either measurement is run again (up to {@code --retries} times; the last attempt
   * counts).
   */
  private void paired(
      String phase,
      List<StorageEngine.Kind> order,
      Map<String, StorageEngine> open,
      int threads,
      int round,
      Rep rep)
      throws Exception {
    for (int r = 0; r <= args.reps; r++) {
      List<StorageEngine.Kind> o = new ArrayList<>(order);
      if (r % 2 == 1) {
        Collections.reverse(o);
      }
      Map<String, Sample> got = new LinkedHashMap<>();
      for (int attempt = 0; ; attempt++) {
        got.clear();
        awaitQuiet();
        for (StorageEngine.Kind k : o) {
          quiesce();
          Sample sm;
          try (Jfr j = jfr(k.name(), phase, threads, round, r)) {
            sm = rep.run(open.get(k.name()), r);
          }
          got.put(k.name(), sm);
          System.out.printf(
              Locale.ROOT, "%s %s %s: %s%n", k.name(), phase, r == 0 ? "warm-up" : "rep " + r, sm);
        }
        boolean disturbed =
            r > 0 && got.values().stream().anyMatch(x -> x.otherCpu() > args.maxOther);
        if (!disturbed || attempt >= args.retries) {
          break;
        }
        System.out.println("(pair disturbed by other processes; again)");
      }
      if (r > 0) {
        Map<String, Double> rates = new LinkedHashMap<>();
        for (Map.Entry<String, Sample> en : got.entrySet()) {
          record(threads, en.getKey(), phase, en.getValue());
          rates.put(en.getKey(), en.getValue().opsPerSecond());
        }
        pairRatio(threads, phase + ".ops", rates);
      }
    }
  }

  private Sample gets(StorageEngine engine, int threads, String phase, int count, int rep)
      throws Exception {
    int[] seq = randomInts(count, args.rows, phase.hashCode() * 31L + rep);
    return runOps(
        threads,
        count,
        i -> {
          int k = seq[i];
          byte[] v = engine.get(keys[k]);
          if (v == null || v.length != VALUE_LENGTH) {
            throw new IllegalStateException("row " + k + ": wrong value " + v);
          }
          if ((i & 63) == 0 && !Arrays.equals(v, values[k % VALUE_POOL])) {
            throw new IllegalStateException("row " + k + ": wrong value bytes");
          }
          return v[0];
        });
  }

  private Sample scans(StorageEngine engine, int threads, int rep) throws Exception {
    int rows = args.scanRows;
    long expected = (long) rows * (KEY_LENGTH + VALUE_LENGTH);
    int[] seq = randomInts(args.scans, args.rows - rows + 1, 7919L * 31 + rep);
    return runOps(
        threads,
        args.scans,
        i -> {
          long bytes = engine.scan(keys[seq[i]], rows);
          if (bytes != expected) {
            throw new IllegalStateException(
                "scan from row " + seq[i] + " read " + bytes + " bytes, not " + expected);
          }
          return bytes;
        });
  }

  // ---- measurement ------------------------------------------------------------------------

  /** One run of a phase: throughput and latency percentiles. */
  record Sample(
      double opsPerSecond,
      double p50Micros,
      double p99Micros,
      double seconds,
      double otherCpu,
      double heapBytesPerOp) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%,.0f ops/s, p50 %.1f us, p99 %.1f us, %,.0f heap bytes/op (%.2f s; other processes"
              + " used %.0f%% of the CPUs)",
          opsPerSecond,
          p50Micros,
          p99Micros,
          heapBytesPerOp,
          seconds,
          100 * otherCpu);
    }
  }

  /**
   * CPU time of the whole machine and of this process, to tell how much of the machine other
   * processes took during a measurement (the machine is shared).
   */
  record CpuTimes(long machineBusy, long machineTotal, long self) {
    static CpuTimes now() {
      try {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long user = Long.parseLong(f[1]);
        long nice = Long.parseLong(f[2]);
        long system = Long.parseLong(f[3]);
        long idle = Long.parseLong(f[4]);
        long iowait = Long.parseLong(f[5]);
        long irq = Long.parseLong(f[6]);
        long softirq = Long.parseLong(f[7]);
        long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
        long busy = user + nice + system + irq + softirq + steal;
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] g = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        long self = Long.parseLong(g[11]) + Long.parseLong(g[12]); // utime + stime
        return new CpuTimes(busy, busy + idle + iowait, self);
      } catch (IOException | RuntimeException e) {
        return new CpuTimes(0, 0, 0);
      }
    }

    /** Share of the machine's CPU time used by other processes since {@code before}. */
    double othersSince(CpuTimes before) {
      long total = machineTotal - before.machineTotal;
      if (total <= 0) {
        return 0;
      }
      long others = (machineBusy - before.machineBusy) - (self - before.self);
      return Math.max(0, others / (double) total);
    }
  }

  @FunctionalInterface
  interface IndexedOp {
    /** Runs operation number {@code i}; returns something that depends on its result. */
    long run(int i) throws Exception;
  }

  /** Runs ops 0..n-1 split into contiguous slices, one per thread, all starting together. */
  static Sample runOps(int threads, int n, IndexedOp op) throws Exception {
    Histogram[] hs = new Histogram[threads];
    Thread[] ts = new Thread[threads];
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    java.util.concurrent.atomic.LongAdder allocated = new java.util.concurrent.atomic.LongAdder();
    for (int t = 0; t < threads; t++) {
      Histogram h = new Histogram(HIGHEST_NANOS, 3);
      hs[t] = h;
      int from = (int) ((long) n * t / threads);
      int to = (int) ((long) n * (t + 1) / threads);
      ts[t] =
          new Thread(
              () -> {
                long acc = 0;
                try {
                  start.await();
                  long heap0 = THREADS.getCurrentThreadAllocatedBytes();
                  for (int i = from; i < to; i++) {
                    long a = System.nanoTime();
                    acc += op.run(i);
                    h.recordValue(Math.min(System.nanoTime() - a, HIGHEST_NANOS));
                  }
                  allocated.add(THREADS.getCurrentThreadAllocatedBytes() - heap0);
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
                sink += acc;
              },
              "bench-" + t);
      ts[t].start();
    }
    CpuTimes cpu0 = CpuTimes.now();
    long t0 = System.nanoTime();
    start.countDown();
    for (Thread t : ts) {
      t.join();
    }
    long elapsed = System.nanoTime() - t0;
    double others = CpuTimes.now().othersSince(cpu0);
    if (failure.get() != null) {
      throw new IllegalStateException("a benchmark thread failed", failure.get());
    }
    Histogram all = new Histogram(HIGHEST_NANOS, 3);
    for (Histogram h : hs) {
      all.add(h);
    }
    double secs = elapsed / 1e9;
    return new Sample(
        n / secs,
        all.getValueAtPercentile(50) / 1000.0,
        all.getValueAtPercentile(99) / 1000.0,
        secs,
        others,
        allocated.sum() / (double) n);
  }

  private void record(int threads, String engine, String phase, Sample s) {
    record(threads, engine, phase + ".ops", s.opsPerSecond());
    record(threads, engine, phase + ".p50", s.p50Micros());
    record(threads, engine, phase + ".p99", s.p99Micros());
    record(threads, engine, phase + ".other", s.otherCpu());
    record(threads, engine, phase + ".heap", s.heapBytesPerOp());
  }

  private void record(int threads, String engine, String metric, double v) {
    figures.computeIfAbsent(threads + "/" + engine + "/" + metric, x -> new ArrayList<>()).add(v);
  }

  private List<Double> values(int threads, String engine, String metric) {
    return figures.getOrDefault(threads + "/" + engine + "/" + metric, List.of());
  }

  static double median(List<Double> xs) {
    if (xs.isEmpty()) {
      return Double.NaN;
    }
    double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }

  /**
   * Waits (at most {@code --quiet-wait} seconds) until other processes use less than {@code
   * --max-other} of the machine over one second, so that measurements start on a quiet machine
   * where possible.
   */
  private void awaitQuiet() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(args.quietWaitSeconds);
    long start = System.nanoTime();
    double others;
    do {
      CpuTimes c0 = CpuTimes.now();
      Thread.sleep(1000);
      others = CpuTimes.now().othersSince(c0);
    } while (others > args.maxOther && System.nanoTime() < deadline);
    long waited = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    if (waited > 2) {
      System.out.printf(
          Locale.ROOT,
          "(waited %d s for other processes to quiet down; last second they used %.0f%%)%n",
          waited,
          100 * others);
    }
  }

  /** A full GC and a short pause, off the clock, so one phase's garbage does not bill the next. */
  private static void quiesce() throws InterruptedException {
    System.gc();
    Thread.sleep(200);
  }

  private void sampleLoad() {
    try {
      String s = Files.readString(Path.of("/proc/loadavg"));
      loadAverages.add(Double.parseDouble(s.split(" ")[0]));
    } catch (IOException | RuntimeException e) {
      // not Linux: no load average
    }
  }

  private static String loadAverageLine() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "n/a";
    }
  }

  /** Bytes this process has passed to write(2) and friends so far (all threads), or 0. */
  static long wchar() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/io"), StandardCharsets.UTF_8)) {
        if (line.startsWith("wchar:")) {
          return Long.parseLong(line.substring(6).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return 0;
  }

  // ---- report -----------------------------------------------------------------------------

  private void report() {
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "# Medians (load average during the run: min %.2f, median %.2f, max %.2f)%n",
        loadAverages.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
        median(loadAverages),
        loadAverages.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
    String b = "basalt";
    String r = "rocksdb";
    for (int t : args.threads) {
      System.out.println();
      System.out.println("### " + t + " thread" + (t == 1 ? "" : "s"));
      System.out.println();
      System.out.println(
          "| phase | metric | Basalt | RocksDB | Basalt ÷ RocksDB (median of back-to-back pairs) |"
              + " target | Basalt min–max |"
              + " RocksDB min–max | others' CPU B / R |");
      System.out.println("| --- | --- | ---: | ---: | ---: | --- | --- | --- | --- |");
      row(t, "random puts (load)", "puts/s", "load.ops", "≥ 0.7×", true);
      row(t, "", "put p50 / p99 µs", "load.p50", "load.p99");
      row(t, "flush + wait for compactions", "seconds", "flush.seconds", "", false);
      row(t, "random gets, warm cache", "gets/s", "warmget.ops", "≥ 1.0×", true);
      row(t, "", "get p50 / p99 µs", "warmget.p50", "warmget.p99");
      row(t, "random gets, cold cache", "gets/s", "coldget.ops", "", true);
      row(t, "", "get p50 / p99 µs", "coldget.p50", "coldget.p99");
      row(t, args.scanRows + "-row scans", "scans/s", "scan.ops", "≥ 1.0×", true);
      row(t, "", "scan p50 / p99 µs", "scan.p50", "scan.p99");
      row(t, "major compaction", "MiB/s of input", "compact.mbps", "", true);
      row(t, "", "seconds", "compact.seconds", "", false);
      row(t, "", "input MiB", "compact.inputMiB", "", false);
      System.out.println();
      System.out.println("| amplification (÷ user bytes) | Basalt | RocksDB |");
      System.out.println("| --- | ---: | ---: |");
      amp(t, "write amp: load + flush (WAL, flushes, compactions)", "wamp.load");
      amp(t, "write amp: + the major compaction", "wamp.total");
      amp(t, "space after load: data files + live WAL", "samp.load.live");
      amp(t, "space after load: whole directory", "samp.load.dir");
      amp(t, "space after major compaction: data files", "samp.compacted.data");
      amp(t, "space after major compaction: data files + live WAL", "samp.compacted.live");
      amp(t, "space after major compaction: whole directory", "samp.compacted.dir");
      System.out.println();
      System.out.println(
          "| Java heap allocated per operation by the benchmark threads (bytes) | Basalt |"
              + " RocksDB |");
      System.out.println("| --- | ---: | ---: |");
      heap(t, "put", "load.heap");
      heap(t, "get, warm cache", "warmget.heap");
      heap(t, "get, cold cache", "coldget.heap");
      heap(t, args.scanRows + "-row scan", "scan.heap");
    }
    System.out.printf(Locale.ROOT, "%n(sink %d)%n", sink);
  }

  private void row(int t, String phase, String metric, String key, String target, boolean ratio) {
    double bv = median(values(t, "basalt", key));
    double rv = median(values(t, "rocksdb", key));
    String other = key.endsWith(".ops") ? key.replace(".ops", ".other") : key + ".other";
    List<Double> bo = values(t, "basalt", other);
    List<Double> ro = values(t, "rocksdb", other);
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
        phase,
        metric,
        fmt(bv),
        fmt(rv),
        ratio
            ? String.format(
                Locale.ROOT,
                "%.2f×",
                values(t, "ratio", key).isEmpty() ? bv / rv : median(values(t, "ratio", key)))
            : "",
        target,
        range(values(t, "basalt", key)),
        range(values(t, "rocksdb", key)),
        bo.isEmpty() && ro.isEmpty()
            ? ""
            : String.format(Locale.ROOT, "%.0f%% / %.0f%%", 100 * median(bo), 100 * median(ro)));
  }

  private static String range(List<Double> xs) {
    if (xs.isEmpty()) {
      return "";
    }
    return fmt(xs.stream().min(Comparator.naturalOrder()).get())
        + "–"
        + fmt(xs.stream().max(Comparator.naturalOrder()).get());
  }

  private void row(int t, String phase, String metric, String p50, String p99) {
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %s / %s | %s / %s | | | | | |%n",
        phase,
        metric,
        fmt(median(values(t, "basalt", p50))),
        fmt(median(values(t, "basalt", p99))),
        fmt(median(values(t, "rocksdb", p50))),
        fmt(median(values(t, "rocksdb", p99))));
  }

  private void amp(int t, String what, String key) {
    System.out.printf(
        Locale.ROOT,
        "| %s | %.2f | %.2f |%n",
        what,
        median(values(t, "basalt", key)),
        median(values(t, "rocksdb", key)));
  }

  private void heap(int t, String what, String key) {
    System.out.printf(
        Locale.ROOT,
        "| %s | %,.0f | %,.0f |%n",
        what,
        median(values(t, "basalt", key)),
        median(values(t, "rocksdb", key)));
  }

  private static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "–";
    }
    if (v >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (v >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  // ---- helpers ----------------------------------------------------------------------------

  /** JFR recording of one phase, or nothing. */
  private Jfr jfr(String engine, String phase, int threads, int round, int rep) throws Exception {
    if (args.jfrDir == null) {
      return () -> {};
    }
    Files.createDirectories(args.jfrDir);
    Recording rec = new Recording(Configuration.getConfiguration("profile"));
    rec.setName(engine + "-" + phase);
    // Denser sampling than the "profile" preset (10 ms / 20 ms): phases last seconds.
    rec.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
    rec.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(2));
    rec.start();
    Path out =
        args.jfrDir.resolve(
            engine + "-" + phase + "-t" + threads + "-r" + round + "-" + rep + ".jfr");
    return () -> {
      rec.stop();
      rec.dump(out);
      rec.close();
    };
  }

  private interface Jfr extends AutoCloseable {
    @Override
    void close() throws IOException;
  }

  static int[] permutation(int n, long seed) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int x = p[i];
      p[i] = p[j];
      p[j] = x;
    }
    return p;
  }

  static int[] randomInts(int n, int bound, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = rnd.nextInt(bound);
    }
    return out;
  }

  /** Bytes of the regular files under {@code root} whose path matches. */
  static long sizeOf(Path root, Predicate<Path> include) throws IOException {
    if (!Files.exists(root)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .filter(include)
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  return 0; // deleted meanwhile
                }
              })
          .sum();
    }
  }

  /** Command-line options. */
  static final class Args {
    Path dir;
    int rows = 1_000_000;
    int rounds = 3;
    int reps = 5;
    List<Integer> threads = List.of(1);
    List<StorageEngine.Kind> engines = List.of(BasaltEngine.KIND, RocksEngine.KIND);
    int gets = 500_000;
    int coldGets = 100_000;
    int scans = 20_000;
    int scanRows = 100;
    long cacheMb = 1024;
    long coldCacheMb = 8;
    long flushMb = 64;
    int blockKb = 64;
    int bloomBits = 10;
    double maxOther = 0.15;
    int retries = 4;
    int quietWaitSeconds = 30;
    Path jfrDir;
    boolean keep;
    boolean verbose;

    static Args parse(String[] argv) {
      Args a = new Args();
      for (String arg : argv) {
        if (!arg.startsWith("--")) {
          a.dir = Path.of(arg);
          continue;
        }
        int eq = arg.indexOf('=');
        String k = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
        String v = eq < 0 ? "" : arg.substring(eq + 1);
        switch (k) {
          case "rows" -> a.rows = Integer.parseInt(v);
          case "rounds" -> a.rounds = Integer.parseInt(v);
          case "reps" -> a.reps = Integer.parseInt(v);
          case "threads" -> a.threads = Arrays.stream(v.split(",")).map(Integer::valueOf).toList();
          case "engines" ->
              a.engines =
                  Arrays.stream(v.split(","))
                      .map(
                          n ->
                              switch (n) {
                                case "basalt" -> BasaltEngine.KIND;
                                case "rocksdb" -> RocksEngine.KIND;
                                default ->
                                    throw new IllegalArgumentException("unknown engine " + n);
                              })
                      .toList();
          case "gets" -> a.gets = Integer.parseInt(v);
          case "cold-gets" -> a.coldGets = Integer.parseInt(v);
          case "scans" -> a.scans = Integer.parseInt(v);
          case "scan-rows" -> a.scanRows = Integer.parseInt(v);
          case "cache-mb" -> a.cacheMb = Long.parseLong(v);
          case "cold-cache-mb" -> a.coldCacheMb = Long.parseLong(v);
          case "flush-mb" -> a.flushMb = Long.parseLong(v);
          case "block-kb" -> a.blockKb = Integer.parseInt(v);
          case "bloom-bits" -> a.bloomBits = Integer.parseInt(v);
          case "max-other" -> a.maxOther = Double.parseDouble(v);
          case "retries" -> a.retries = Integer.parseInt(v);
          case "quiet-wait" -> a.quietWaitSeconds = Integer.parseInt(v);
          case "jfr" -> a.jfrDir = Path.of(v);
          case "keep" -> a.keep = true;
          case "verbose" -> a.verbose = true;
          default -> throw new IllegalArgumentException("unknown option --" + k);
        }
      }
      if (a.dir == null) {
        throw new IllegalArgumentException(
            "usage: EngineComparison DIR [--rows=N] [--rounds=N] [--reps=N] [--threads=1,2]"
                + " [--engines=basalt,rocksdb] [--gets=N] [--cold-gets=N] [--scans=N]"
                + " [--scan-rows=N] [--cache-mb=N] [--cold-cache-mb=N] [--flush-mb=N]"
                + " [--block-kb=N] [--bloom-bits=N] [--max-other=F] [--retries=N]"
                + " [--quiet-wait=SECONDS] [--jfr=DIR]"
                + " [--keep] [--verbose]");
      }
      return a;
    }
  }
}
