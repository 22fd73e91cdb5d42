package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;
import dev.basalt.sstable.BlockCache;
import dev.basalt.sstable.StoreFileOptions;
import dev.basalt.sstable.StoreFileReader;
import dev.basalt.sstable.StoreFileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Block decoding and seeking in a store file (issue 9, item 3), through the public reader API: a
 * seek to a random existing row of one flushed file (1,000,000 rows of one 100-byte cell, 64 KiB
 * blocks, about 1,800 data blocks), returning the cell found.
 *
 * <ul>
 *   <li>{@code cached}: every block is already decoded in the block cache, so a seek is the block
 *       index lookup plus a binary search inside the block: the cost of seeking.
 *   <li>{@code uncached}: the reader has no block cache, so every seek reads its block (from the OS
 *       page cache: the file is small and was just written), checks its CRC32C, decompresses it and
 *       decodes it whole before searching it: seeking plus block decoding. The difference between
 *       the two is what decoding a block costs.
 * </ul>
 *
 * Compression NONE and LZ4 (the codecs a latency-sensitive family would use).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class StoreFileSeekBench {
  static final int ROWS = 1_000_000;
  static final byte[] FAMILY = Bytes.toBytes("f");
  static final byte[] QUALIFIER = Bytes.toBytes("q");

  @Param({"cached", "uncached"})
  public String blocks;

  @Param({"NONE", "LZ4"})
  public String compression;

  Path dir;
  StoreFileReader reader;

  static byte[] row(long i) {
    return Bytes.toBytes(String.format("user%012d", i)); // 16 bytes, as in the other benchmarks
  }

  @Setup(Level.Trial)
  public void writeFile() throws IOException {
    dir = Files.createTempDirectory("storefile-seek-bench");
    LocalStorage storage = new LocalStorage(dir);
    StoreFileOptions options =
        new StoreFileOptions(
            StoreFileOptions.DEFAULT_BLOCK_SIZE, Compression.valueOf(compression), BloomType.NONE);
    SplittableRandom random = new SplittableRandom(1);
    byte[] value = new byte[100];
    try (StoreFileWriter w = StoreFileWriter.create(storage, "file", options)) {
      for (long i = 0; i < ROWS; i++) {
        random.nextBytes(value);
        w.append(
            KeyValue.of(row(i), FAMILY, QUALIFIER, 1, CellType.PUT, value.clone())
                .withSequenceId(i + 1));
      }
      w.finish(ROWS, true);
    }
    boolean cached = blocks.equals("cached");
    BlockCache cache = cached ? new BlockCache(1L << 30) : null;
    reader = StoreFileReader.open(storage, "file", cache, cached, false);
    if (cached) { // decode every block into the cache before measuring
      KeyValueScanner s = reader.scanner(Long.MAX_VALUE);
      s.seek(KeyValue.firstOnRow(row(0)));
      while (s.next() != null) {
        // reading each cell brings each block in
      }
      s.close();
    }
  }

  @TearDown(Level.Trial)
  public void deleteFile() throws IOException {
    reader.close();
    BenchFiles.deleteTree(dir);
  }

  /** One scanner and pre-computed seek keys per benchmark thread. */
  @State(Scope.Thread)
  public static class Seeker {
    static final int KEYS = 1 << 16;
    KeyValueScanner scanner;
    final KeyValue[] keys = new KeyValue[KEYS];
    int next;

    @Setup(Level.Trial)
    public void prepare(StoreFileSeekBench bench) {
      scanner = bench.reader.scanner(Long.MAX_VALUE);
      SplittableRandom random = new SplittableRandom(2);
      for (int i = 0; i < KEYS; i++) {
        keys[i] = KeyValue.firstOnRow(row(random.nextLong(ROWS)));
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      scanner.close();
    }
  }

  @Benchmark
  public Cell seek(Seeker s) throws IOException {
    KeyValue key = s.keys[s.next++ & (Seeker.KEYS - 1)];
    s.scanner.seek(key);
    return s.scanner.peek();
  }
}
