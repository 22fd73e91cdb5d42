package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.G;
import static dev.basalt.region.TestRegions.b;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.filter.KeyOnlyFilter;
import dev.basalt.ops.CheckAndMutate;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The row cache: which gets it answers, that puts update cached rows and other writes drop them,
 * and that it never serves old rows.
 */
class RowCacheTest {
  private static Region region(RowCache cache, TableDescriptor table) {
    return Region.inMemory(
        table,
        RegionServices.of(Clock.system(), Config.defaults(), EditLog.NONE).withRowCache(cache));
  }

  private static Region region(RowCache cache) {
    return region(cache, TestRegions.table(f -> f));
  }

  @Test
  void aRepeatedWholeRowGetIsAnsweredFromTheCacheAndWritesAreSeen() throws Exception {
    RowCache cache = new RowCache(1 << 20);
    Region r = region(cache);
    r.put(new Put(b("row")).addColumn(F, b("q"), b("1")).addColumn(G, b("q"), b("g")));
    Result first = r.get(new Get(b("row")));
    assertThat(cache.misses()).isEqualTo(1);
    Result second = r.get(new Get(b("row")).addFamily(F).addFamily(G));
    assertThat(cache.hits()).isEqualTo(1);
    assertThat(second.cells()).containsExactlyElementsOf(first.cells());
    assertThat(r.get(new Get(b("row")).setCheckExistenceOnly(true)).getExists()).isTrue();
    assertThat(cache.hits()).isEqualTo(2);

    r.put(new Put(b("row")).addColumn(F, b("q"), b("2")));
    assertThat(r.get(new Get(b("row"))).getValue(F, b("q"))).isEqualTo(b("2"));
    r.increment(new Increment(b("row")).addColumn(F, b("n"), 5));
    assertThat(Bytes.toLong(r.get(new Get(b("row"))).getValue(F, b("n")))).isEqualTo(5);
    r.delete(new Delete(b("row")));
    assertThat(r.get(new Get(b("row"))).isEmpty()).isTrue();
    assertThat(r.get(new Get(b("row")).setCheckExistenceOnly(true)).getExists()).isFalse();
  }

  @Test
  void putsUpdateACachedRowAndOtherWritesDropIt() throws Exception {
    RowCache cache = new RowCache(1 << 20);
    Region r = region(cache, TestRegions.table(f -> f.setMaxVersions(3)));
    r.put(new Put(b("row")).addColumn(F, b("b"), 10L, b("b10")).addColumn(G, b("q"), b("g")));
    r.get(new Get(b("row"))); // cached
    r.put(new Put(b("row")).addColumn(F, b("b"), 20L, b("b20"))); // newer: replaces
    r.put(new Put(b("row")).addColumn(F, b("b"), 5L, b("b5"))); // older: the cached one stays
    r.put(new Put(b("row")).addColumn(F, b("a"), 1L, b("a1"))); // a new column, before b
    r.put(new Put(b("row")).addColumn(F, b("c"), b("c"))); // after b
    r.put(new Put(b("row")).addColumn(F, b("a"), 1L, b("a1'"))); // same version: overwrites
    assertThat(cache.updates()).isEqualTo(4);
    long hits = cache.hits();
    Result cached = r.get(new Get(b("row")));
    assertThat(cache.hits()).isEqualTo(hits + 1);
    assertThat(cached.cells()).containsExactlyElementsOf(uncached(r, "row").cells());
    assertThat(cached.getValue(F, b("a"))).isEqualTo(b("a1'"));
    assertThat(cached.getValue(F, b("b"))).isEqualTo(b("b20"));

    r.increment(new Increment(b("row")).addColumn(G, b("n"), 7));
    assertThat(Bytes.toLong(r.get(new Get(b("row"))).getValue(G, b("n")))).isEqualTo(7);
    assertThat(cache.hits()).isEqualTo(hits + 2);

    // A failed condition writes nothing: the row stays cached as it was.
    CheckAndMutateResult failed =
        r.checkAndMutate(
            CheckAndMutate.newBuilder(b("row"))
                .ifEquals(F, b("a"), b("nope"))
                .build(new Put(b("row")).addColumn(F, b("a"), b("x"))));
    assertThat(failed.isSuccess()).isFalse();
    r.get(new Get(b("row")));
    assertThat(cache.hits()).isEqualTo(hits + 3);

    // A delete may uncover an older version the cache does not hold: the row is dropped.
    r.delete(new Delete(b("row")).addColumn(F, b("b"), 20L));
    long misses = cache.misses();
    assertThat(r.get(new Get(b("row"))).getValue(F, b("b"))).isEqualTo(b("b10"));
    assertThat(cache.misses()).isEqualTo(misses + 1);
  }

  @Test
  void putsToFamiliesWithClassicDeletesDropTheRow() throws Exception {
    RowCache cache = new RowCache(1 << 20);
    Region r = region(cache, TestRegions.table(f -> f.setNewVersionBehavior(false)));
    r.put(new Put(b("row")).addColumn(F, b("q"), 10L, b("v10")));
    r.delete(new Delete(b("row")).addColumns(F, b("q"), 30L));
    r.get(new Get(b("row"))); // cached: empty
    // Classic rules: the earlier delete masks this put, which the cached row cannot tell.
    r.put(new Put(b("row")).addColumn(F, b("q"), 20L, b("v20")));
    assertThat(cache.updates()).isZero();
    assertThat(r.get(new Get(b("row"))).isEmpty()).isTrue();
    r.put(new Put(b("row")).addColumn(G, b("q"), b("g"))); // G has deterministic history
    assertThat(cache.updates()).isEqualTo(1);
  }

  @Test
  void aBatchUpdatesEachRowWithItsOwnCells() throws Exception {
    RowCache cache = new RowCache(1 << 20);
    Region r = region(cache);
    for (String row : List.of("r1", "r2", "r3")) {
      r.put(new Put(b(row)).addColumn(F, b("q"), 1L, b(row + "@1")));
      r.get(new Get(b(row)));
    }
    List<OperationStatus> statuses =
        r.batchMutate(
            List.of(
                new Put(b("r1")).addColumn(F, b("q"), 2L, b("r1@2")),
                new Delete(b("r2")).addColumns(F, b("q")),
                new Put(b("r3")).addColumn(G, b("x"), b("r3x")),
                new Put(b("r1")).addColumn(G, b("y"), b("r1y"))));
    assertThat(statuses).allMatch(OperationStatus::isSuccess);
    assertThat(cache.updates()).isEqualTo(2); // r1 (two puts) and r3; r2 dropped
    for (String row : List.of("r1", "r2", "r3")) {
      assertThat(r.get(new Get(b(row))).cells())
          .as(row)
          .containsExactlyElementsOf(uncached(r, row).cells());
    }
    assertThat(r.get(new Get(b("r1"))).getValue(F, b("q"))).isEqualTo(b("r1@2"));
  }

  /**
   * A get that starts while a write's edit is visible but the write has not ended must not serve
   * the row from before the edit, even when the write ends between its lookup and its use.
   */
  @Test
  void aGetDuringAWritesEndNeverServesTheRowFromBeforeIt() throws Exception {
    RowCache cache = new RowCache(1 << 20);
    Region r = region(cache);
    r.put(new Put(b("row")).addColumn(F, b("q"), b("old")));
    r.get(new Get(b("row"))); // cached
    CountDownLatch committed = new CountDownLatch(1);
    CountDownLatch releaseWriter = new CountDownLatch(1);
    CountDownLatch lookedUp = new CountDownLatch(1);
    CountDownLatch releaseReader = new CountDownLatch(1);
    TestRegions.pauseAt(Region.FAULT_AFTER_COMMIT, "writer", committed, releaseWriter);
    TestRegions.pauseAt(RowCache.FAULT_LOOKED_UP, "reader", lookedUp, releaseReader);
    ExecutorService writer = Executors.newSingleThreadExecutor(named("writer"));
    ExecutorService reader = Executors.newSingleThreadExecutor(named("reader"));
    try {
      Future<?> write =
          writer.submit(
              () -> {
                r.put(new Put(b("row")).addColumn(F, b("q"), b("new")));
                return null;
              });
      assertThat(committed.await(10, TimeUnit.SECONDS)).isTrue(); // visible, not yet ended
      Future<Result> read = reader.submit(() -> r.get(new Get(b("row"))));
      // A get that looks the row up now would pause there; one that does not answers at once.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      while (!read.isDone() && lookedUp.getCount() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      releaseWriter.countDown();
      write.get(10, TimeUnit.SECONDS);
      releaseReader.countDown();
      assertThat(read.get(10, TimeUnit.SECONDS).getValue(F, b("q"))).isEqualTo(b("new"));
    } finally {
      FaultPoints.disarmAll();
      releaseWriter.countDown();
      releaseReader.countDown();
      writer.shutdownNow();
      reader.shutdownNow();
    }
  }

  /**
   * A read that checked for writes just before a write began may put its row into the cache after
   * the write looked for the row: the write's end must still drop it, not leave the row from before
   * its edit cached.
   */
  @Test
  void anOfferRacingAWritesBeginningIsDropped() throws Exception {
    RowCache cache = new RowCache(1 << 20);
    Region r = region(cache);
    r.put(new Put(b("row")).addColumn(F, b("q"), b("old")));
    CountDownLatch checked = new CountDownLatch(1);
    CountDownLatch releaseReader = new CountDownLatch(1);
    TestRegions.pauseAt(RowCache.FAULT_OFFER_CHECKED, "reader", checked, releaseReader);
    ExecutorService writer = Executors.newSingleThreadExecutor(named("writer"));
    ExecutorService reader = Executors.newSingleThreadExecutor(named("reader"));
    try {
      Future<Result> read = reader.submit(() -> r.get(new Get(b("row"))));
      assertThat(checked.await(10, TimeUnit.SECONDS)).isTrue(); // about to cache "old"
      Future<?> write =
          writer.submit(
              () -> {
                r.put(new Put(b("row")).addColumn(F, b("q"), b("new")));
                return null;
              });
      try {
        write.get(500, TimeUnit.MILLISECONDS); // may wait for the reader's entry lock
      } catch (TimeoutException e) {
        // the write's end waits for the offer to finish: fine
      }
      releaseReader.countDown();
      assertThat(read.get(10, TimeUnit.SECONDS).getValue(F, b("q"))).isEqualTo(b("old"));
      write.get(10, TimeUnit.SECONDS);
      assertThat(r.get(new Get(b("row"))).getValue(F, b("q"))).isEqualTo(b("new"));
    } finally {
      FaultPoints.disarmAll();
      releaseReader.countDown();
      writer.shutdownNow();
      reader.shutdownNow();
    }
  }

  private static ThreadFactory named(String name) {
    return task -> new Thread(task, name);
  }

  /**
   * Random puts, increments and deletes over a few rows, columns and timestamps, with a whole-row
   * get after each: the cache's answer is always what a read of the region finds.
   */
  @Test
  void randomWritesNeverLeaveAStaleRow() throws Exception {
    for (boolean deterministic : new boolean[] {true, false}) {
      RowCache cache = new RowCache(1 << 20);
      Region r =
          region(
              cache,
              TestRegions.table(f -> f.setMaxVersions(2).setNewVersionBehavior(deterministic)));
      Random random = new Random(deterministic ? 1 : 2);
      for (int step = 0; step < 3_000; step++) {
        String row = "r" + random.nextInt(3);
        byte[] family = random.nextBoolean() ? F : G;
        byte[] q = b("q" + random.nextInt(4));
        long ts = 1 + random.nextInt(6);
        switch (random.nextInt(8)) {
          case 0 -> r.delete(new Delete(b(row)).addColumn(family, q, ts));
          case 1 -> r.delete(new Delete(b(row)).addColumns(family, q, ts));
          case 2 -> r.increment(new Increment(b(row)).addColumn(family, b("n"), 1));
          case 3 -> r.put(new Put(b(row)).addColumn(family, q, b("now" + step)));
          default ->
              r.put(
                  new Put(b(row))
                      .addColumn(family, q, ts, b(step + "@" + ts))
                      .addColumn(F, b("q" + random.nextInt(4)), ts, b(step + "F@" + ts)));
        }
        String read = "r" + random.nextInt(3);
        assertThat(r.get(new Get(b(read))).cells())
            .as("step %d, row %s", step, read)
            .containsExactlyElementsOf(uncached(r, read).cells());
      }
      assertThat(cache.hits()).isPositive();
      if (deterministic) {
        assertThat(cache.updates()).isPositive();
      }
    }
  }

  /** The row as a read of the region finds it, bypassing the cache (a per-family limit does). */
  private static Result uncached(Region r, String row) throws Exception {
    return r.get(new Get(b(row)).setMaxResultsPerColumnFamily(Integer.MAX_VALUE));
  }

  @Test
  void otherGetsBypassTheCache() throws Exception {
    RowCache cache = new RowCache(1 << 20);
    Region r = region(cache, TestRegions.table(f -> f.setMaxVersions(3)));
    r.put(new Put(b("row")).addColumn(F, b("q"), 5L, b("old")).addColumn(F, b("q"), 6L, b("new")));
    r.get(new Get(b("row")).addFamily(F)); // one family of two
    r.get(new Get(b("row")).addColumn(F, b("q")).addFamily(G));
    r.get(new Get(b("row")).readVersions(2));
    r.get(new Get(b("row")).setTimeRange(0, 6));
    r.get(new Get(b("row")).setFilter(new KeyOnlyFilter()));
    r.get(new Get(b("row")).setMaxResultsPerColumnFamily(1));
    assertThat(cache.hits() + cache.misses()).isZero();
    assertThat(r.get(new Get(b("row")).setTimeRange(0, 6)).getValue(F, b("q"))).isEqualTo(b("old"));
  }

  @Test
  void tablesWithATtlAreNotCached() throws Exception {
    RowCache cache = new RowCache(1 << 20);
    Region r = region(cache, TestRegions.table(f -> f.setTimeToLive(3600)));
    r.put(new Put(b("row")).addColumn(F, b("q"), b("v")));
    r.get(new Get(b("row")));
    r.get(new Get(b("row")));
    assertThat(cache.hits() + cache.misses()).isZero();
  }

  @Test
  void cachedCellsAreCopiesInOneArray() {
    RowCache cache = new RowCache(1 << 20);
    RowCache.Key key = RowCache.Key.of(1, b("row"));
    byte[] shared = new byte[64];
    KeyValue a = KeyValue.of(b("row"), F, b("a"), 1, CellType.PUT, b("x"));
    KeyValue c = KeyValue.of(b("row"), F, b("c"), 1, CellType.PUT, b("y"));
    cache.offer(key, cache.startRead(key), Result.create(List.of(a, c)));
    Result cached = cache.get(key);
    assertThat(cached.cells()).containsExactly(a, c);
    KeyValue first = (KeyValue) cached.cells().get(0);
    assertThat(first.getBuffer()).isSameAs(((KeyValue) cached.cells().get(1)).getBuffer());
    assertThat(first.getBuffer()).isNotSameAs(a.getBuffer()).isNotSameAs(shared);
  }

  @Test
  void aReadOverlappingAWriteIsNotCached() {
    RowCache cache = new RowCache(1 << 20);
    RowCache.Key key = RowCache.Key.of(1, b("row"));
    Result old = Result.create(List.of(KeyValue.of(b("row"), F, b("q"), 1, CellType.PUT, b("o"))));

    long token = cache.startRead(key);
    cache.beginWrite(key);
    cache.endWrite(key, null);
    cache.offer(key, token, old); // read before the write, offered after it: stale
    assertThat(cache.get(key)).isNull();

    cache.beginWrite(key);
    assertThat(cache.startRead(key)).isNegative(); // reads during a write are not cached
    long during = cache.startRead(key);
    cache.offer(key, during, old);
    assertThat(cache.get(key)).isNull();
    cache.endWrite(key, null);

    cache.offer(key, cache.startRead(key), old);
    assertThat(cache.get(key)).isNotNull();
    cache.beginWrite(key);
    assertThat(cache.get(key)).isNull(); // not served while the row is being written
    cache.endWrite(key, null);
    assertThat(cache.get(key)).isNull(); // and dropped once the write is visible
  }

  @Test
  void droppingARegionForgetsItsRowsAndRefusesReadsStartedBefore() {
    RowCache cache = new RowCache(1 << 20);
    RowCache.Key a = RowCache.Key.of(1, b("a"));
    RowCache.Key c = RowCache.Key.of(1, b("c"));
    RowCache.Key other = RowCache.Key.of(2, b("a"));
    Result row = Result.create(List.of(KeyValue.of(b("a"), F, b("q"), 1, CellType.PUT, b("v"))));
    cache.offer(a, cache.startRead(a), row);
    cache.offer(other, cache.startRead(other), row);
    long before = cache.startRead(c); // a read of region 1 in flight across the drop

    cache.dropRegion(1);
    assertThat(cache.get(a)).isNull();
    assertThat(cache.get(other)).isNotNull(); // other regions keep their rows
    cache.offer(c, before, row); // read before the change, offered after it: stale
    assertThat(cache.get(c)).isNull();
    cache.offer(c, cache.startRead(c), row); // a read started after the change is cached
    assertThat(cache.get(c)).isNotNull();
  }

  @Test
  void rowsTooLargeAreNotCached() {
    RowCache cache = new RowCache(64L << 20);
    RowCache.Key key = RowCache.Key.of(1, b("row"));
    List<KeyValue> many = new ArrayList<>();
    for (int i = 0; i <= RowCache.MAX_CELLS; i++) {
      many.add(KeyValue.of(b("row"), F, b(String.format("q%05d", i)), 1, CellType.PUT, b("v")));
    }
    cache.offer(key, cache.startRead(key), Result.create(many));
    assertThat(cache.get(key)).isNull();
    KeyValue big =
        KeyValue.of(b("row"), F, b("q"), 1, CellType.PUT, new byte[RowCache.MAX_BYTES + 1]);
    cache.offer(key, cache.startRead(key), Result.create(List.of(big)));
    assertThat(cache.get(key)).isNull();
  }

  /**
   * Writers keep raising a counter column while readers get the row over and over: a reader must
   * never see the counter go down (a stale cached row would).
   */
  @Test
  void readersNeverSeeARowGoBackInTime() throws Exception {
    RowCache cache = new RowCache(1 << 20);
    Region r = region(cache);
    r.put(new Put(b("row")).addColumn(F, b("n"), Bytes.toBytes(0L)));
    ExecutorService pool = Executors.newFixedThreadPool(6);
    AtomicBoolean stop = new AtomicBoolean();
    List<Future<?>> fs = new ArrayList<>();
    try {
      for (int w = 0; w < 2; w++) {
        fs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 5_000; i++) {
                    r.increment(new Increment(b("row")).addColumn(F, b("n"), 1));
                  }
                  return null;
                }));
      }
      for (int t = 0; t < 4; t++) {
        fs.add(
            pool.submit(
                () -> {
                  long last = 0;
                  while (!stop.get()) {
                    long now = Bytes.toLong(r.get(new Get(b("row"))).getValue(F, b("n")));
                    assertThat(now).isGreaterThanOrEqualTo(last);
                    last = now;
                  }
                  return null;
                }));
      }
      fs.get(0).get(60, TimeUnit.SECONDS);
      fs.get(1).get(60, TimeUnit.SECONDS);
      stop.set(true);
      for (Future<?> f : fs) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
    long hits = cache.hits();
    assertThat(Bytes.toLong(r.get(new Get(b("row"))).getValue(F, b("n")))).isEqualTo(10_000);
    assertThat(Bytes.toLong(r.get(new Get(b("row"))).getValue(F, b("n")))).isEqualTo(10_000);
    assertThat(cache.hits()).isGreaterThan(hits);
  }

  private static Result rowOf(RowCache.Key key, int seed) {
    List<KeyValue> cells = new ArrayList<>();
    int n = 1 + seed % 7;
    for (int i = 0; i < n; i++) {
      byte[] value = new byte[50 + (seed * 31 + i) % 400];
      Arrays.fill(value, (byte) (seed + i));
      cells.add(
          KeyValue.of(key.row(), F, b("q" + i), 1, CellType.PUT, value).withSequenceId(seed + i));
    }
    return Result.create(cells);
  }

  private static void assertSameRow(Result cached, Result expected) {
    assertThat(cached.cells()).containsExactlyElementsOf(expected.cells());
    for (int i = 0; i < cached.size(); i++) {
      assertThat(cached.cells().get(i).getSequenceId())
          .isEqualTo(expected.cells().get(i).getSequenceId());
    }
  }

  /**
   * Rows come and go (dropped by writes, evicted by size) far beyond the cache's capacity: the
   * slabs stay within their limit, and every cached row reads back exactly as it was offered, with
   * its sequence ids, including rows moved out of emptied slabs.
   */
  @Test
  void slabsStayBoundedAndRowsSurviveBeingMoved() {
    RowCache cache = new RowCache(256 << 10);
    Random random = new Random(42);
    Map<Integer, Result> model = new HashMap<>();
    List<RowCache.Key> keys = new ArrayList<>();
    for (int k = 0; k < 2_000; k++) {
      keys.add(RowCache.Key.of(7, b("row" + k)));
    }
    // A few rows read over and over stay cached while thousands of others churn around them.
    for (int k = 0; k < 20; k++) {
      cache.offer(keys.get(k), cache.startRead(keys.get(k)), rowOf(keys.get(k), k));
      model.put(k, rowOf(keys.get(k), k));
    }
    long cached = 0;
    for (int step = 0; step < 40_000; step++) {
      int k = 20 + random.nextInt(keys.size() - 20);
      RowCache.Key key = keys.get(k);
      if (random.nextInt(3) == 0) {
        cache.beginWrite(key);
        cache.endWrite(key, null);
        model.remove(k);
      } else {
        int seed = random.nextInt(1_000);
        cache.offer(key, cache.startRead(key), rowOf(key, seed));
        model.put(k, rowOf(key, seed));
      }
      assertThat(cache.slabBytes()).isLessThanOrEqualTo(cache.slabLimit());
      int hot = random.nextInt(20);
      Result r = cache.get(keys.get(hot));
      assertThat(r).as("hot row %d", hot).isNotNull();
      assertSameRow(r, model.get(hot));
    }
    for (int k = 0; k < keys.size(); k++) {
      Result r = cache.get(keys.get(k));
      if (r != null) {
        assertThat(model).containsKey(k);
        assertSameRow(r, model.get(k));
        cached++;
      }
    }
    assertThat(cached).isGreaterThan(20);
    assertThat(cache.rowsMoved()).isGreaterThan(20); // the hot rows' first slab was emptied
    // Emptied slabs are reused: far fewer were made than the rows offered would have filled.
    assertThat(cache.slabsCreated())
        .isLessThanOrEqualTo(cache.slabLimit() / (16 << 10) + RowSlabs.POOL + 2);
  }

  /**
   * Threads offer, drop and read rows at once while slabs are emptied and moved: a hit is always
   * the row's own cells (each row's content depends only on its key), never another row's bytes.
   */
  @Test
  void concurrentChurnNeverServesAnotherRowsBytes() throws Exception {
    RowCache cache = new RowCache(128 << 10);
    List<RowCache.Key> keys = new ArrayList<>();
    for (int k = 0; k < 500; k++) {
      keys.add(RowCache.Key.of(3, b("row" + k)));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<Long>> fs = new ArrayList<>();
    try {
      for (int t = 0; t < 4; t++) {
        int thread = t;
        fs.add(
            pool.submit(
                () -> {
                  Random random = new Random(thread);
                  long hits = 0;
                  for (int i = 0; i < 50_000; i++) {
                    int k = random.nextInt(keys.size());
                    RowCache.Key key = keys.get(k);
                    Result r = cache.get(key);
                    if (r != null) {
                      assertSameRow(r, rowOf(key, k));
                      hits++;
                    } else if (random.nextInt(4) == 0) {
                      cache.beginWrite(key);
                      cache.endWrite(key, null);
                    } else {
                      cache.offer(key, cache.startRead(key), rowOf(key, k));
                    }
                  }
                  return hits;
                }));
      }
      long hits = 0;
      for (Future<Long> f : fs) {
        hits += f.get(120, TimeUnit.SECONDS);
      }
      assertThat(hits).isPositive();
      assertThat(cache.rowsMoved()).isPositive();
    } finally {
      pool.shutdownNow();
    }
    assertThat(cache.slabBytes()).isLessThanOrEqualTo(cache.slabLimit() + (64 << 10));
  }
}
