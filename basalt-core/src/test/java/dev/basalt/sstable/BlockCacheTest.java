package dev.basalt.sstable;

import static dev.basalt.sstable.TestCells.assertSameCells;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.KeyValue;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Data blocks through the block cache: hits, eviction, IN_MEMORY preference, opting out. */
class BlockCacheTest {
  private final MemoryStorage storage = new MemoryStorage();

  private List<KeyValue> file(String path, int cells, long seed) throws IOException {
    List<KeyValue> kvs = TestCells.random(new Random(seed), cells, cells / 4 + 1, 40);
    TestCells.write(storage, path, kvs, new StoreFileOptions(512, Compression.LZ4, BloomType.ROW));
    return kvs;
  }

  @Test
  void secondReadHitsTheCacheAndOtherReadersShareIt() throws IOException {
    List<KeyValue> cells = file("a", 400, 1);
    BlockCache cache = new BlockCache(16 << 20);
    try (StoreFileReader r = StoreFileReader.open(storage, "a", cache, true, false)) {
      long blocks = r.info().dataBlockCount();
      assertThat(blocks).isGreaterThan(10);
      assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
      assertThat(r.dataBlocksReadFromStorage()).isEqualTo(blocks);
      assertThat(cache.missCount()).isEqualTo(blocks);
      assertThat(cache.hitCount()).isZero();
      assertThat(cache.blockCount()).isEqualTo(blocks);
      assertThat(cache.sizeBytes()).isPositive();

      assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
      assertThat(r.dataBlocksReadFromStorage()).as("second scan").isEqualTo(blocks);
      assertThat(cache.hitCount()).isEqualTo(blocks);

      try (StoreFileReader r2 = StoreFileReader.open(storage, "a", cache, true, false)) {
        assertSameCells(TestCells.scanAll(r2.scanner(Long.MAX_VALUE)), cells);
        assertThat(r2.dataBlocksReadFromStorage()).as("another reader of the file").isZero();
      }
    }
  }

  @Test
  void smallCacheEvictsAndStaysWithinItsCapacity() throws IOException {
    List<KeyValue> cells = file("a", 1000, 2);
    BlockCache cache = new BlockCache(4_000);
    try (StoreFileReader r = StoreFileReader.open(storage, "a", cache, true, false)) {
      for (int i = 0; i < 3; i++) {
        assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
      }
      cache.cleanUp();
      assertThat(cache.evictionCount()).isPositive();
      assertThat(cache.sizeBytes()).isPositive().isLessThanOrEqualTo(4_000);
      assertThat(r.dataBlocksReadFromStorage()).isGreaterThan(r.info().dataBlockCount());
    }
  }

  @Test
  void inMemoryFamiliesKeepTheirBlocksWhileOthersChurn() throws IOException {
    List<KeyValue> small = file("small", 60, 3);
    List<KeyValue> big = file("big", 3000, 4);
    for (boolean inMemory : new boolean[] {true, false}) {
      BlockCache cache = new BlockCache(40_000);
      try (StoreFileReader hot = StoreFileReader.open(storage, "small", cache, true, inMemory);
          StoreFileReader churn = StoreFileReader.open(storage, "big", cache, true, false)) {
        assertSameCells(TestCells.scanAll(hot.scanner(Long.MAX_VALUE)), small);
        long first = hot.dataBlocksReadFromStorage();
        for (int i = 0; i < 4; i++) {
          assertSameCells(TestCells.scanAll(churn.scanner(Long.MAX_VALUE)), big);
        }
        assertSameCells(TestCells.scanAll(hot.scanner(Long.MAX_VALUE)), small);
        cache.cleanUp();
        assertThat(cache.sizeBytes()).isLessThanOrEqualTo(40_000);
        if (inMemory) {
          assertThat(cache.inMemorySizeBytes()).isPositive().isLessThanOrEqualTo(10_000);
          assertThat(hot.dataBlocksReadFromStorage())
              .as("IN_MEMORY blocks survive the churn")
              .isEqualTo(first);
        } else {
          assertThat(cache.inMemorySizeBytes()).isZero();
          assertThat(hot.dataBlocksReadFromStorage())
              .as("without IN_MEMORY the churn evicts them")
              .isGreaterThan(first);
        }
      }
    }
  }

  @Test
  void generalBlocksUseTheWholeCapacityWhileNoInMemoryFamilyIsRead() throws IOException {
    file("big", 3000, 5);
    BlockCache cache = new BlockCache(40_000);
    try (StoreFileReader r = StoreFileReader.open(storage, "big", cache, true, false)) {
      TestCells.scanAll(r.scanner(Long.MAX_VALUE));
      cache.cleanUp();
      assertThat(cache.sizeBytes()).isGreaterThan(30_000).isLessThanOrEqualTo(40_000);
    }
  }

  @Test
  void readersThatDoNotCacheDataBlocksNeverAddOne() throws IOException {
    List<KeyValue> cells = file("a", 400, 6);
    BlockCache cache = new BlockCache(16 << 20);
    try (StoreFileReader r = StoreFileReader.open(storage, "a", cache, false, false)) {
      long blocks = r.info().dataBlockCount();
      assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
      assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
      assertThat(cache.blockCount()).isZero();
      assertThat(cache.sizeBytes()).isZero();
      assertThat(r.dataBlocksReadFromStorage()).isEqualTo(2 * blocks);
      // Blocks another reader cached are used, though.
      try (StoreFileReader caching = StoreFileReader.open(storage, "a", cache, true, false)) {
        TestCells.scanAll(caching.scanner(Long.MAX_VALUE));
      }
      assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
      assertThat(r.dataBlocksReadFromStorage()).isEqualTo(2 * blocks);
    }
  }

  @Test
  void aRewrittenFileAtTheSamePathDoesNotHitTheOldBlocks() throws IOException {
    BlockCache cache = new BlockCache(16 << 20);
    file("a", 300, 7);
    try (StoreFileReader r = StoreFileReader.open(storage, "a", cache, true, false)) {
      TestCells.scanAll(r.scanner(Long.MAX_VALUE));
    }
    storage.delete("a");
    List<KeyValue> other = file("a", 301, 8);
    try (StoreFileReader r = StoreFileReader.open(storage, "a", cache, true, false)) {
      assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), other);
    }
  }

  @Test
  void concurrentScannersShareOneReaderAndCache() throws Exception {
    List<KeyValue> cells = file("a", 2000, 9);
    BlockCache cache = new BlockCache(30_000);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (StoreFileReader r = StoreFileReader.open(storage, "a", cache, true, false)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 5; i++) {
                    assertSameCells(TestCells.scanAll(r.scanner(Long.MAX_VALUE)), cells);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }
}
