package dev.basalt.sstable;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import java.util.concurrent.atomic.LongAdder;

/**
 * The decoded data blocks of every store file of a database, weighed by their heap size in bytes
 * (Caffeine, W-TinyLFU eviction, so one large scan does not flush the blocks that gets keep using).
 *
 * <p>IN_MEMORY families get a protected segment: their blocks live in a separate Caffeine cache of
 * at most {@code inMemoryFraction} of the capacity (a quarter by default, like HBase's in-memory
 * share of its LRU cache), which blocks of other families never evict. The general segment gets
 * whatever the protected one does not use at the moment (capacity minus the protected segment's
 * current size, adjusted on each insertion), so no space is reserved while no IN_MEMORY family is
 * read, and the two together never exceed the capacity.
 *
 * <p>Index and bloom blocks are not here: each reader keeps its own for as long as it is open.
 * Eviction runs on the inserting thread. Blocks nobody will read again are dropped rather than left
 * to age out (W-TinyLFU would keep once-popular dead blocks ahead of new ones): a file's when a
 * compaction replaced it and its last reader let go, a table's when it is deleted or truncated. A
 * closed region's blocks stay, since it may open again. Thread-safe.
 */
public final class BlockCache {
  /** The share of the capacity IN_MEMORY families may hold when no fraction is given. */
  public static final double DEFAULT_IN_MEMORY_FRACTION = 0.25;

  private final long capacity;
  private final Cache<BlockKey, DataBlock> general;
  private final Cache<BlockKey, DataBlock> inMemory;
  private final Policy.Eviction<BlockKey, DataBlock> generalEviction;
  private final Policy.Eviction<BlockKey, DataBlock> inMemoryEviction;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  public BlockCache(long capacityBytes) {
    this(capacityBytes, DEFAULT_IN_MEMORY_FRACTION);
  }

  /**
   * @param capacityBytes the most bytes of decoded blocks held
   * @param inMemoryFraction the share of the capacity IN_MEMORY families may hold, 0..1
   */
  public BlockCache(long capacityBytes, double inMemoryFraction) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacityBytes);
    }
    if (!(inMemoryFraction >= 0 && inMemoryFraction <= 1)) {
      throw new IllegalArgumentException(
          "in-memory fraction must be in [0, 1]: " + inMemoryFraction);
    }
    this.capacity = capacityBytes;
    this.general = build(capacityBytes);
    this.inMemory = build((long) (capacityBytes * inMemoryFraction));
    this.generalEviction = general.policy().eviction().orElseThrow();
    this.inMemoryEviction = inMemory.policy().eviction().orElseThrow();
  }

  private static Cache<BlockKey, DataBlock> build(long maxWeight) {
    return Caffeine.newBuilder()
        .maximumWeight(maxWeight)
        .weigher((BlockKey k, DataBlock b) -> b.weight())
        .executor(Runnable::run)
        .recordStats()
        .build();
  }

  /** The cached block, looking first in the segment the caller would insert into. */
  DataBlock get(BlockKey key, boolean inMemoryFamily) {
    Cache<BlockKey, DataBlock> first = inMemoryFamily ? inMemory : general;
    Cache<BlockKey, DataBlock> second = inMemoryFamily ? general : inMemory;
    DataBlock b = first.getIfPresent(key);
    if (b == null) {
      b = second.getIfPresent(key);
    }
    if (b == null) {
      misses.increment();
    } else {
      hits.increment();
    }
    return b;
  }

  void put(BlockKey key, DataBlock block, boolean inMemoryFamily) {
    if (inMemoryFamily) {
      inMemory.put(key, block);
    } else {
      general.put(key, block);
    }
    rebalance();
  }

  /** Drops one block, from whichever segment holds it. */
  void invalidate(BlockKey key) {
    general.invalidate(key);
    inMemory.invalidate(key);
  }

  /**
   * Drops the blocks of every file whose storage description starts with {@code dirPrefix} (end it
   * with a separator): for a deleted or truncated table, whose files no reader opens again. A pass
   * over every cached key, which table DDL can afford.
   */
  public void invalidateFilesUnder(String dirPrefix) {
    general.asMap().keySet().removeIf(k -> k.file().startsWith(dirPrefix));
    inMemory.asMap().keySet().removeIf(k -> k.file().startsWith(dirPrefix));
  }

  /** Gives the general segment the capacity the protected segment does not use now. */
  private void rebalance() {
    long want = Math.max(0, capacity - inMemoryEviction.weightedSize().orElse(0));
    if (generalEviction.getMaximum() != want) {
      generalEviction.setMaximum(want);
    }
  }

  public long capacityBytes() {
    return capacity;
  }

  /** Bytes of decoded blocks held now, both segments. */
  public long sizeBytes() {
    return generalEviction.weightedSize().orElse(0) + inMemorySizeBytes();
  }

  /** Bytes held for IN_MEMORY families. */
  public long inMemorySizeBytes() {
    return inMemoryEviction.weightedSize().orElse(0);
  }

  public long blockCount() {
    return general.estimatedSize() + inMemory.estimatedSize();
  }

  public long hitCount() {
    return hits.sum();
  }

  public long missCount() {
    return misses.sum();
  }

  /** Blocks removed to make room (not those removed by {@link #invalidateAll}). */
  public long evictionCount() {
    return general.stats().evictionCount() + inMemory.stats().evictionCount();
  }

  /** Drops every block. */
  public void invalidateAll() {
    general.invalidateAll();
    inMemory.invalidateAll();
    rebalance();
  }

  /** Runs pending eviction work now (tests, and size reports that must be exact). */
  public void cleanUp() {
    general.cleanUp();
    inMemory.cleanUp();
  }

  @Override
  public String toString() {
    return "BlockCache{"
        + sizeBytes()
        + "/"
        + capacity
        + " bytes, "
        + blockCount()
        + " blocks, hits="
        + hitCount()
        + ", misses="
        + missCount()
        + ", evictions="
        + evictionCount()
        + "}";
  }
}
