package dev.basalt.region;

import dev.basalt.compaction.CompactionSettings;
import dev.basalt.db.Database;
import dev.basalt.db.DatabaseSettings;
import dev.basalt.db.ResultScanner;
import dev.basalt.db.Table;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Row;
import dev.basalt.ops.RowMutations;
import dev.basalt.ops.Scan;
import dev.basalt.region.RegionModelSteps.Restart;
import dev.basalt.region.RegionModelSteps.Step;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.util.ManualClock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A model history's engine on storage: a {@link Database} in a fresh temporary directory (deleted
 * by {@link #close}) holding the history's one table, driven through the public {@link Table} API,
 * with the history's manual clock.
 *
 * <p>Determinism. Only the history's steps flush, compact or restart: the flush size, periodic
 * flushes and major compactions, the maintenance interval and the blocking file count are all set
 * out of reach. One thing cannot be configured away: every flush (also the one that opening runs
 * after a WAL replay) asks the database's background compactor for a minor compaction, which runs
 * when the selection policy finds work (with {@code hbase.hstore.compaction.min} at 2, usually from
 * the second file on). So that a history always does the same thing, after every flush and open
 * this waits until the database's background executors have run everything queued ({@link
 * #awaitBackgroundWork}); a flush step is therefore "flush, then the minor compaction it asked for,
 * if any".
 *
 * <p>{@code basalt.flush.on.close} is fixed when a database opens, so the harness's look-ahead
 * gives each open the setting of the restart that will close it ({@link Restart#flushOnClose}).
 */
final class RegionModelDatabaseTarget implements RegionModelTarget {
  static final String DIR_PROPERTY = "basalt.model.dir";
  private static final long FAR = 1L << 40;

  /**
   * Directories of databases not closed yet. A history cut off by jqwik's shrinking time bound goes
   * on in its abandoned thread until the JVM exits; at exit every operation of such a history
   * fails, so that it closes its database, and what is left after a few seconds is deleted.
   */
  private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

  private static volatile boolean exiting;

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(RegionModelDatabaseTarget::cleanUpAtExit, "basalt-model-exit"));
  }

  private static void cleanUpAtExit() {
    exiting = true;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!LIVE.isEmpty() && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        break;
      }
    }
    for (Path p : LIVE) {
      try {
        deleteRecursively(p);
      } catch (RuntimeException e) {
        // best effort
      }
    }
  }

  private void checkNotExiting() {
    if (exiting) {
      throw new IllegalStateException("the JVM is exiting; this history was abandoned");
    }
  }

  private final Path dir;
  private final ManualClock clock;
  private final TableName name;
  private final List<Boolean> flushOnCloseByRestart;
  private final int minFiles;
  private final byte[][] splitKeys;
  private int restarts;
  private Database db;
  private Table table;
  private List<ExecutorService> background;

  private RegionModelDatabaseTarget(
      Path dir,
      ManualClock clock,
      TableName name,
      List<Boolean> flushOnCloseByRestart,
      int minFiles,
      byte[][] splitKeys) {
    this.dir = dir;
    this.clock = clock;
    this.name = name;
    this.flushOnCloseByRestart = flushOnCloseByRestart;
    this.minFiles = minFiles;
    this.splitKeys = splitKeys;
  }

  /**
   * A new database with the table, for a history of {@code steps}, whose minor compactions take at
   * least {@code minFiles} files.
   */
  static RegionModelDatabaseTarget open(
      TableDescriptor desc, ManualClock clock, List<Step> steps, int minFiles) throws IOException {
    return open(desc, clock, steps, minFiles, new byte[0][]);
  }

  /**
   * A new database whose table is split into regions at {@code splitKeys} (the history must read as
   * from one region: rows are routed, and scans and batches cross the boundaries).
   */
  static RegionModelDatabaseTarget open(
      TableDescriptor desc, ManualClock clock, List<Step> steps, int minFiles, byte[][] splitKeys)
      throws IOException {
    List<Boolean> plan = new ArrayList<>();
    for (Step s : steps) {
      if (s instanceof Restart) {
        plan.add(((Restart) s).flushOnClose());
      }
    }
    if (exiting) {
      throw new IllegalStateException("the JVM is exiting");
    }
    Path dir = Files.createTempDirectory(baseDirectory(), "basalt-model-");
    LIVE.add(dir);
    RegionModelDatabaseTarget t =
        new RegionModelDatabaseTarget(dir, clock, desc.getTableName(), plan, minFiles, splitKeys);
    try {
      t.openDatabase();
      t.db.createTable(desc, splitKeys);
      t.table = t.db.getTable(t.name);
    } catch (IOException | RuntimeException e) {
      t.close();
      throw e;
    }
    return t;
  }

  /**
   * Where the databases go: {@code -Dbasalt.model.dir}, else {@code /dev/shm} when it is a writable
   * directory (a memory file system, where the engine's fsyncs cost nothing: the histories restart
   * cleanly and never test durability against a machine crash), else the temporary directory.
   */
  static Path baseDirectory() {
    String configured = System.getProperty(DIR_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      return shm;
    }
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** The settings of every open: nothing happens unless a step asks (see the class comment). */
  static Config config(boolean flushOnClose, int minFiles) {
    return Config.builder()
        .set(RegionSettings.FLUSH_SIZE, FAR)
        .set(DatabaseSettings.MAINTENANCE_INTERVAL, FAR)
        .set(DatabaseSettings.PERIODIC_FLUSH, 0L)
        .set(DatabaseSettings.FLUSH_ON_CLOSE, flushOnClose)
        .set(CompactionSettings.MAJOR_PERIOD, 0L)
        .set(CompactionSettings.MIN_FILES, minFiles)
        .set(CompactionSettings.BLOCKING_FILES, 100_000)
        .set(CompactionSettings.THROUGHPUT_LIMIT, 0L)
        .build();
  }

  private void openDatabase() throws IOException {
    // After the last restart the setting only decides how much work the final close does.
    boolean flushOnClose =
        restarts < flushOnCloseByRestart.size() && flushOnCloseByRestart.get(restarts);
    db = Database.open(dir, config(flushOnClose, minFiles), clock);
    background = backgroundExecutors(db);
    awaitBackgroundWork();
  }

  // ---- storage steps ----------------------------------------------------------------------

  @Override
  public void flush() throws IOException {
    checkNotExiting();
    db.flush(name);
    awaitBackgroundWork();
  }

  @Override
  public void compact(boolean major) throws IOException {
    checkNotExiting();
    if (major) {
      db.majorCompact(name);
    } else {
      db.compact(name);
    }
    awaitBackgroundWork();
  }

  @Override
  public void split(String row) throws IOException {
    checkNotExiting();
    byte[] at = dev.basalt.cell.Bytes.toBytes(row);
    db.flush(name);
    db.compact(name);
    awaitBackgroundWork();
    for (dev.basalt.schema.RegionInfo r : db.getRegions(name)) {
      if (java.util.Arrays.equals(r.getStartKey(), at)) {
        return;
      }
    }
    db.split(name, at);
    awaitBackgroundWork();
  }

  @Override
  public void merge(int index) throws IOException {
    checkNotExiting();
    db.flush(name);
    db.compact(name);
    awaitBackgroundWork();
    List<dev.basalt.schema.RegionInfo> regions = db.getRegions(name);
    if (regions.size() < 2) {
      return;
    }
    int i = index % (regions.size() - 1);
    db.mergeRegions(regions.get(i).getRegionName(), regions.get(i + 1).getRegionName());
    awaitBackgroundWork();
  }

  @Override
  public void restart(boolean flushOnClose) throws IOException {
    checkNotExiting();
    if (restarts >= flushOnCloseByRestart.size()
        || flushOnCloseByRestart.get(restarts) != flushOnClose) {
      throw new IllegalStateException(
          "restart " + (restarts + 1) + " was not planned as flushOnClose=" + flushOnClose);
    }
    db.close();
    restarts++;
    db = null;
    openDatabase();
    table = db.getTable(name);
  }

  /**
   * Whether the archive holds a file: compactions archive their inputs (../shared/ARCHITECTURE.md
   * section 5).
   */
  @Override
  public boolean compactedSoFar() {
    return archivedFiles() > 0;
  }

  @Override
  public int archivedFiles() {
    Path archive = dir.resolve("archive");
    if (!Files.isDirectory(archive)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(archive)) {
      return (int) files.filter(Files::isRegularFile).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits until the database's background executors (flushers, compactors, the split thread,
   * chores) have run every task queued so far, three times over, so that a compaction asked for by
   * a flush, and the work after it, has finished. They are found by reflection, by type: {@code
   * Database} keeps its maintenance object in a field, and that object keeps {@link
   * ExecutorService}s. A pool of n threads is drained by n tasks that wait for each other: once all
   * n run, every task queued before them has finished.
   */
  private void awaitBackgroundWork() {
    for (int round = 0; round < 3; round++) {
      for (ExecutorService e : background) {
        int threads =
            e instanceof java.util.concurrent.ThreadPoolExecutor
                ? ((java.util.concurrent.ThreadPoolExecutor) e).getCorePoolSize()
                : 1;
        java.util.concurrent.CyclicBarrier all = new java.util.concurrent.CyclicBarrier(threads);
        List<java.util.concurrent.Future<?>> waits = new ArrayList<>();
        try {
          for (int i = 0; i < threads; i++) {
            waits.add(
                e.submit(
                    () -> {
                      all.await(5, TimeUnit.MINUTES);
                      return null;
                    }));
          }
          for (java.util.concurrent.Future<?> w : waits) {
            w.get(5, TimeUnit.MINUTES);
          }
        } catch (RejectedExecutionException ex) {
          // shut down: nothing more will run there
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted waiting for background work", ex);
        } catch (ExecutionException | TimeoutException ex) {
          throw new IllegalStateException("background work did not finish", ex);
        }
      }
    }
  }

  private static List<ExecutorService> backgroundExecutors(Database db) {
    List<ExecutorService> out = new ArrayList<>();
    try {
      for (Field f : Database.class.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())
            || !f.getType().getName().startsWith("dev.basalt.")) {
          continue;
        }
        f.setAccessible(true);
        Object holder = f.get(db);
        if (holder == null) {
          continue;
        }
        for (Field g : holder.getClass().getDeclaredFields()) {
          if (!Modifier.isStatic(g.getModifiers())
              && ExecutorService.class.isAssignableFrom(g.getType())) {
            g.setAccessible(true);
            out.add((ExecutorService) g.get(holder));
          }
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("cannot reach the database's background executors", e);
    }
    if (out.isEmpty()) {
      throw new IllegalStateException(
          "found no background executors in Database's fields; RegionModelDatabaseTarget needs"
              + " them to wait for the compactions flushes ask for");
    }
    return out;
  }

  // ---- operations -------------------------------------------------------------------------

  @Override
  public void put(Put put) throws IOException {
    checkNotExiting();
    table.put(put);
  }

  @Override
  public void delete(Delete delete) throws IOException {
    checkNotExiting();
    table.delete(delete);
  }

  @Override
  public Result increment(Increment increment) throws IOException {
    checkNotExiting();
    return table.increment(increment);
  }

  @Override
  public Result append(Append append) throws IOException {
    checkNotExiting();
    return table.append(append);
  }

  @Override
  public void mutateRow(RowMutations mutations) throws IOException {
    checkNotExiting();
    table.mutateRow(mutations);
  }

  @Override
  public CheckAndMutateResult checkAndMutate(CheckAndMutate checkAndMutate) throws IOException {
    checkNotExiting();
    return table.checkAndMutate(checkAndMutate);
  }

  @Override
  public List<OperationStatus> batchMutate(List<? extends Row> ops) throws IOException {
    checkNotExiting();
    return table.batch(ops);
  }

  @Override
  public Result get(Get get) throws IOException {
    checkNotExiting();
    return table.get(get);
  }

  @Override
  public Scanner getScanner(Scan scan) throws IOException {
    checkNotExiting();
    ResultScanner s = table.getScanner(scan);
    return new Scanner() {
      @Override
      public Result next() throws IOException {
        return s.next();
      }

      @Override
      public void close() {
        s.close();
      }
    };
  }

  @Override
  public void close() {
    try {
      if (db != null) {
        db.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      db = null;
      deleteRecursively(dir);
      LIVE.remove(dir);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + dir, e);
    }
  }

  @Override
  public String toString() {
    return "a database in "
        + dir
        + " ("
        + CompactionSettings.MIN_FILES.key()
        + "="
        + minFiles
        + (splitKeys.length == 0 ? "" : ", split at " + splitKeyList())
        + ")";
  }

  private String splitKeyList() {
    List<String> out = new ArrayList<>();
    for (byte[] k : splitKeys) {
      out.add(dev.basalt.cell.Bytes.toStringBinary(k));
    }
    return out.toString();
  }
}
