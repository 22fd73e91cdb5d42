package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.G;
import static dev.basalt.region.TestRegions.b;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.filter.KeyOnlyFilter;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The row cache: which gets it answers, that writes drop rows, and that it never serves old rows.
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
  void aRepeatedWholeRowGetIsAnsweredFromTheCacheUntilTheRowIsWritten() throws Exception {
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
    cache.endWrite(key);
    cache.offer(key, token, old); // read before the write, offered after it: stale
    assertThat(cache.get(key)).isNull();

    cache.beginWrite(key);
    assertThat(cache.startRead(key)).isNegative(); // reads during a write are not cached
    long during = cache.startRead(key);
    cache.offer(key, during, old);
    assertThat(cache.get(key)).isNull();
    cache.endWrite(key);

    cache.offer(key, cache.startRead(key), old);
    assertThat(cache.get(key)).isNotNull();
    cache.beginWrite(key);
    assertThat(cache.get(key)).isNull(); // not served while the row is being written
    cache.endWrite(key);
    assertThat(cache.get(key)).isNull(); // and dropped once the write is visible
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
}
