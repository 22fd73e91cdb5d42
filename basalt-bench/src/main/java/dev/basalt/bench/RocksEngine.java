package dev.basalt.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * RocksDB through its JNI binding, set up to match {@link BasaltEngine}: block-based tables with
 * the same block size, a full bloom filter of 10 bits per key, an LRU block cache of the same size
 * (index and filter blocks outside it, as in Basalt), no compression, WAL on and not synced, a
 * write buffer of the same size as Basalt's flush size, two background jobs. Everything else is
 * RocksDB's default (leveled compaction with dynamic level sizes, 4 L0 files trigger a compaction).
 */
final class RocksEngine implements StorageEngine {
  static {
    RocksDB.loadLibrary();
  }

  static final Kind KIND =
      new Kind() {
        @Override
        public String name() {
          return "rocksdb";
        }

        @Override
        public StorageEngine open(Path dir, Settings s) throws IOException {
          return new RocksEngine(dir, s);
        }

        @Override
        public String describe(Settings s) {
          return String.join(
              "\n",
              "rocksdbjni " + RocksDB.rocksdbVersion() + ", default column family",
              "BlockBasedTableConfig: block_size "
                  + s.blockBytes()
                  + ", filter_policy BloomFilter("
                  + s.bloomBitsPerKey()
                  + " bits/key, full filter), block_cache LRUCache("
                  + (s.cacheBytes() >> 20)
                  + " MiB), cache_index_and_filter_blocks false (default)",
              "compression NO_COMPRESSION on every level",
              "write_buffer_size "
                  + (s.writeBufferBytes() >> 20)
                  + " MiB (memtable arena bytes), max_write_buffer_number 2 (default)",
              "WriteOptions: sync=false, disableWAL=false (WAL written to the OS per put, no"
                  + " fsync)",
              "max_background_jobs 2 (default); leveled compaction, other options default");
        }
      };

  private final Path dir;
  private final Options options;
  private final LRUCache cache;
  private final BloomFilter bloom;
  private final WriteOptions writeOptions = new WriteOptions();
  private final ReadOptions readOptions = new ReadOptions();
  private final RocksDB db;

  private RocksEngine(Path dir, Settings s) throws IOException {
    this.dir = dir;
    cache = new LRUCache(s.cacheBytes());
    bloom = new BloomFilter(s.bloomBitsPerKey(), false);
    BlockBasedTableConfig table =
        new BlockBasedTableConfig()
            .setBlockSize(s.blockBytes())
            .setFilterPolicy(bloom)
            .setBlockCache(cache);
    options =
        new Options()
            .setCreateIfMissing(true)
            .setWriteBufferSize(s.writeBufferBytes())
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setMaxBackgroundJobs(2)
            .setTableFormatConfig(table);
    try {
      db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    try {
      db.put(writeOptions, key, value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    try {
      return db.get(readOptions, key);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public long scan(byte[] start, int rows) throws IOException {
    long bytes = 0;
    try (RocksIterator it = db.newIterator(readOptions)) {
      it.seek(start);
      for (int n = 0; n < rows && it.isValid(); n++) {
        bytes += it.key().length + it.value().length;
        it.next();
      }
      it.status();
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    return bytes;
  }

  @Override
  public void flushAndWait() throws IOException {
    try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
      db.flush(f);
      while (db.getLongProperty("rocksdb.compaction-pending") > 0
          || db.getLongProperty("rocksdb.num-running-compactions") > 0
          || db.getLongProperty("rocksdb.num-running-flushes") > 0
          || db.getLongProperty("rocksdb.mem-table-flush-pending") > 0) {
        Thread.sleep(20);
      }
    } catch (RocksDBException e) {
      throw new IOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException();
    }
  }

  @Override
  public void majorCompact() throws IOException {
    try (CompactRangeOptions o =
        new CompactRangeOptions()
            .setExclusiveManualCompaction(true)
            .setBottommostLevelCompaction(
                CompactRangeOptions.BottommostLevelCompaction.kForceOptimized)) {
      db.compactRange(db.getDefaultColumnFamily(), null, null, o);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public long liveDataFileBytes() throws IOException {
    try {
      return db.getLongProperty("rocksdb.live-sst-files-size");
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Override
  public long liveWalBytes() throws IOException {
    return EngineComparison.sizeOf(dir, p -> p.getFileName().toString().endsWith(".log"));
  }

  @Override
  public String fileLayout() throws IOException {
    StringBuilder sb = new StringBuilder();
    try {
      for (int level = 0; level < 7; level++) {
        long n = Long.parseLong(db.getProperty("rocksdb.num-files-at-level" + level).trim());
        if (n > 0) {
          sb.append(sb.length() == 0 ? "" : " ").append("L").append(level).append(":").append(n);
        }
      }
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    return sb + " SST files";
  }

  @Override
  public String cacheStats() {
    return "LRUCache{usage=" + cache.getUsage() + "}";
  }

  /** RocksDB's own per-level compaction statistics (text), for the log. */
  String compactionStats() {
    try {
      return db.getProperty("rocksdb.cfstats-no-file-histogram");
    } catch (RocksDBException e) {
      return e.toString();
    }
  }

  @Override
  public void close() {
    db.close();
    options.close();
    writeOptions.close();
    readOptions.close();
    bloom.close();
    cache.close();
  }
}
