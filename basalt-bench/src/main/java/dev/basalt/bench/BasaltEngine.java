package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.compaction.CompactionSettings;
import dev.basalt.db.Database;
import dev.basalt.db.DatabaseSettings;
import dev.basalt.db.ResultScanner;
import dev.basalt.db.Table;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.RegionSettings;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.Compression;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Basalt's embedded {@link Database}: one table, one family {@code f}, one qualifier {@code q},
 * default durability (SYNC_WAL: every put is written to the OS before it returns, not forced to the
 * device), BLOOMFILTER ROW, COMPRESSION NONE, the given BLOCKSIZE.
 */
final class BasaltEngine implements StorageEngine {
  static final TableName TABLE = TableName.valueOf("usertable");
  static final byte[] FAMILY = Bytes.toBytes("f");
  static final byte[] QUALIFIER = Bytes.toBytes("q");

  static final Kind KIND =
      new Kind() {
        @Override
        public String name() {
          return "basalt";
        }

        @Override
        public StorageEngine open(Path dir, Settings s) throws IOException {
          return new BasaltEngine(dir, s);
        }

        @Override
        public String describe(Settings s) {
          return String.join(
              "\n",
              "Database.open(dir, config); table 'usertable', family 'f' (BLOCKSIZE "
                  + s.blockBytes()
                  + ", BLOOMFILTER ROW, COMPRESSION NONE, DATA_BLOCK_ENCODING NONE, VERSIONS 1),"
                  + " qualifier 'q'",
              "durability: table default = SYNC_WAL (WAL written to the OS per put, no fsync)",
              "hfile.block.cache.size = "
                  + fraction(s.cacheBytes())
                  + " of max heap = "
                  + mib(s.cacheBytes())
                  + " MiB block cache (Caffeine W-TinyLFU; index and bloom blocks held by each"
                  + " reader, outside the cache)",
              "hbase.hregion.memstore.flush.size = "
                  + mib(s.writeBufferBytes())
                  + " MiB (memstore heap bytes)",
              "hbase.hstore.compaction.throughput.higher.bound = 0 (unthrottled, like RocksDB"
                  + " without a rate limiter); other compaction settings default (min 3 files,"
                  + " ratio 1.2)",
              "background: 1 flush thread, 1 compaction thread");
        }
      };

  private final Path dir;
  private final Database db;
  private final Table table;

  private BasaltEngine(Path dir, Settings s) throws IOException {
    this.dir = dir;
    Config config =
        Config.builder()
            .set(DatabaseSettings.BLOCK_CACHE_FRACTION, fraction(s.cacheBytes()))
            .set(RegionSettings.FLUSH_SIZE, s.writeBufferBytes())
            .set(CompactionSettings.THROUGHPUT_LIMIT, 0L)
            .build();
    this.db = Database.open(dir, config);
    if (s.create()) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(TABLE)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
                      .setBlocksize(s.blockBytes())
                      .setBloomFilterType(BloomType.ROW)
                      .setCompressionType(Compression.NONE)
                      .build())
              .build());
    }
    this.table = db.getTable(TABLE);
  }

  private static double fraction(long cacheBytes) {
    return cacheBytes / (double) Runtime.getRuntime().maxMemory();
  }

  private static long mib(long bytes) {
    return bytes >> 20;
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    table.put(new Put(key).addColumn(FAMILY, QUALIFIER, value));
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    return table.get(new Get(key)).getValue(FAMILY, QUALIFIER);
  }

  @Override
  public long scan(byte[] start, int rows) throws IOException {
    long bytes = 0;
    int n = 0;
    try (ResultScanner s = table.getScanner(new Scan().withStartRow(start).setLimit(rows))) {
      Result r;
      while (n < rows && (r = s.next()) != null) {
        bytes += r.getRow().length + r.value().length;
        n++;
      }
    }
    return bytes;
  }

  @Override
  public void flushAndWait() throws IOException {
    db.flush(TABLE);
    // A flush queues a minor compaction on the background thread. A synchronous minor compaction
    // waits for a running one (same lock) and then does whatever is still due, so when it returns
    // no compaction is pending; the queued request then finds nothing to do.
    db.compact(TABLE);
    waitForNoTemporaryFiles();
  }

  private void waitForNoTemporaryFiles() throws IOException {
    long quietSince = System.nanoTime();
    while (System.nanoTime() - quietSince < 300_000_000L) {
      if (countFiles(dir.resolve("data"), ".tmp") > 0) {
        quietSince = System.nanoTime();
      }
      sleep(20);
    }
  }

  @Override
  public void majorCompact() throws IOException {
    db.majorCompact(TABLE);
  }

  @Override
  public long liveDataFileBytes() throws IOException {
    return EngineComparison.sizeOf(dir.resolve("data"), p -> !p.endsWith(".tmp"));
  }

  @Override
  public long liveWalBytes() throws IOException {
    return EngineComparison.sizeOf(dir.resolve("WALs"), p -> true);
  }

  @Override
  public String fileLayout() throws IOException {
    long storeFiles;
    try (Stream<Path> s = Files.walk(dir.resolve("data/default/usertable"))) {
      storeFiles =
          s.filter(Files::isRegularFile)
              .filter(p -> p.getParent().getFileName().toString().equals("f"))
              .filter(p -> !p.getFileName().toString().endsWith(".tmp"))
              .count();
    }
    return storeFiles
        + " store files; archive/ "
        + countFiles(dir.resolve("archive"), "")
        + ", oldWALs/ "
        + countFiles(dir.resolve("oldWALs"), "")
        + " files";
  }

  @Override
  public String cacheStats() {
    return db.getBlockCache().toString();
  }

  private static long countFiles(Path root, String suffix) throws IOException {
    if (!Files.exists(root)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().endsWith(suffix))
          .count();
    }
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException();
    }
  }

  @Override
  public void close() throws IOException {
    db.close();
  }
}
