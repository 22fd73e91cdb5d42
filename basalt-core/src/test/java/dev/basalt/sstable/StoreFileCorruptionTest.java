package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damaged files: a flipped byte anywhere is reported as {@link CorruptStoreFileException} naming
 * the file and the offset of the structure it is in, never returned as data; truncated files fail
 * to open with that exception; and bytes that pass the checksums but are not what the format says
 * (the checksum recomputed after the damage) still raise only that exception.
 */
class StoreFileCorruptionTest {
  private static final String PATH = "data/t/r/f/file1";

  /** A small file with many blocks, a three-level index, a ROWCOL bloom and family deletes. */
  private static byte[] smallFile(Compression c, List<KeyValue> cells) throws IOException {
    MemoryStorage s = new MemoryStorage();
    TestCells.write(s, PATH, cells, new StoreFileOptions(120, c, BloomType.ROWCOL, 48));
    return s.bytes(PATH);
  }

  /** Start offsets of the structures of a file: header, every block, trailer. */
  private static List<Long> structureStarts(byte[] f) {
    List<Long> starts = new ArrayList<>();
    starts.add(0L);
    long trailer = f.length - StoreFileTrailer.SIZE;
    long p = StoreFileTrailer.HEADER_SIZE;
    while (p < trailer) {
      starts.add(p);
      p += BlockFormat.OVERHEAD + Bytes.readInt(f, (int) p + 2);
    }
    assertThat(p).isEqualTo(trailer);
    starts.add(trailer);
    return starts;
  }

  private static long structureOf(List<Long> starts, long pos) {
    long s = 0;
    for (long x : starts) {
      if (x <= pos) {
        s = x;
      }
    }
    return s;
  }

  /** Everything a reader can be asked: forward scan, reversed walk, seeks, bloom checks. */
  private static List<String> readEverything(MemoryStorage s, boolean cached) throws IOException {
    List<String> out = new ArrayList<>();
    try (StoreFileReader r =
        StoreFileReader.open(s, PATH, cached ? new BlockCache(1 << 20) : null, cached, false)) {
      out.add(r.info().toString());
      KeyValueScanner sc = r.scanner(Long.MAX_VALUE);
      for (Cell c : TestCells.scanAll(sc)) {
        out.add(c + "=" + Bytes.toStringBinary(CellUtil.cloneValue(c)));
        byte[] row = CellUtil.cloneRow(c);
        out.add("row " + r.mightContainRow(row, 0, row.length));
        out.add(
            "col "
                + r.mightContainRowCol(row, CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c)));
      }
      if (sc.seekToLastRow()) {
        for (int i = 0; i < 1000 && sc.peek() != null; i++) {
          out.add("reversed " + sc.peek());
          sc.seekToPreviousRow(sc.peek());
        }
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "LZ4", "GZ"})
  void everyFlippedByteIsReportedWithItsStructure(Compression c) throws IOException {
    List<KeyValue> cells = TestCells.random(new Random(77), 70, 12, 20);
    byte[] good = smallFile(c, cells);
    List<Long> starts = structureStarts(good);
    assertThat(starts.size()).as("header, blocks, trailer").isGreaterThan(20);
    MemoryStorage s = new MemoryStorage();
    s.put(PATH, good);
    List<String> expected = readEverything(s, true);
    assertThat(expected).isEqualTo(readEverything(s, false));
    Random rnd = new Random(c.ordinal());
    int reported = 0;
    for (int pos = 0; pos < good.length; pos++) {
      byte[] bad = good.clone();
      bad[pos] ^= (byte) (1 + rnd.nextInt(255));
      s.put(PATH, bad);
      boolean cached = (pos & 1) == 0;
      try {
        List<String> got = readEverything(s, cached);
        // A byte nothing depends on may change nothing; it must never change what is returned.
        assertThat(got).as("flip at %d returned different data", pos).isEqualTo(expected);
      } catch (CorruptStoreFileException e) {
        reported++;
        assertThat(e.file()).isEqualTo(s.describe(PATH));
        assertThat(e.getMessage()).contains(s.describe(PATH)).contains("offset " + e.offset());
        assertThat(e.offset())
            .as("flip at %d: %s", pos, e.getMessage())
            .isEqualTo(structureOf(starts, pos));
      }
    }
    // Every byte is covered by a checksum or a check.
    assertThat(reported).isEqualTo(good.length);
    assertThat(s.openReaders.get()).as("readers that failed to open closed their file").isZero();
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "ZSTD"})
  void truncatedFilesFailToOpenClearly(Compression c) throws IOException {
    byte[] good = smallFile(c, TestCells.random(new Random(3), 40, 8, 20));
    MemoryStorage s = new MemoryStorage();
    for (int len = 0; len < good.length; len++) {
      s.put(PATH, java.util.Arrays.copyOf(good, len));
      assertThatThrownBy(() -> StoreFileReader.open(s, PATH, null, false, false))
          .as("truncated to %d", len)
          .isInstanceOf(CorruptStoreFileException.class)
          .hasMessageContaining(s.describe(PATH))
          .satisfies(
              e -> {
                String m = e.getMessage();
                assertThat(m.contains("truncated") || m.contains("at least")).as(m).isTrue();
              });
    }
    assertThat(s.openReaders.get()).isZero();
  }

  /** Recomputes the checksum of the structure holding {@code pos}, so the damage gets past it. */
  private static void fixChecksum(byte[] f, List<Long> starts, int pos) {
    int start = (int) structureOf(starts, pos);
    int end;
    if (start == f.length - StoreFileTrailer.SIZE) {
      end = f.length;
    } else if (start == 0) {
      return; // the header has no checksum
    } else {
      end = start + BlockFormat.OVERHEAD + Bytes.readInt(f, start + 2);
      if (end > f.length - StoreFileTrailer.SIZE || end < start + BlockFormat.OVERHEAD) {
        return; // the damage hit the size field: the checksum position is unknown
      }
    }
    CRC32C crc = new CRC32C();
    crc.update(f, start, end - start - 4);
    Bytes.putInt(f, end - 4, (int) crc.getValue());
  }

  @Property(tries = 200)
  void damageBehindAValidChecksumRaisesOnlyCorruptStoreFileException(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int flips) throws IOException {
    Random rnd = new Random(seed);
    Compression c = Compression.values()[rnd.nextInt(Compression.values().length)];
    byte[] good = smallFile(c, TestCells.random(rnd, 30, 6, 40));
    List<Long> starts = structureStarts(good);
    byte[] bad = good.clone();
    int pos = 0;
    for (int i = 0; i < flips; i++) {
      // Near the start of a structure (its header and first fields) half the time.
      long at = starts.get(rnd.nextInt(starts.size()));
      pos =
          rnd.nextBoolean()
              ? (int) Math.min(good.length - 5, at + rnd.nextInt(24))
              : rnd.nextInt(good.length);
      bad[pos] ^= (byte) (1 + rnd.nextInt(255));
      fixChecksum(bad, starts, pos);
    }
    MemoryStorage s = new MemoryStorage();
    s.put(PATH, bad);
    try {
      readEverything(s, rnd.nextBoolean());
    } catch (CorruptStoreFileException e) {
      assertThat(e.file()).isEqualTo(s.describe(PATH));
    } catch (Throwable t) {
      fail("damage at " + pos + " (" + c + ") raised " + t, t);
    }
  }

  @Property(tries = 100)
  void garbageIsNotAStoreFile(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3000) int len) {
    Random rnd = new Random(seed);
    byte[] junk = new byte[len];
    rnd.nextBytes(junk);
    if (len >= 4 && rnd.nextBoolean()) {
      // A trailer magic in the right place gets the reader one step further.
      Bytes.putInt(junk, Math.max(0, len - StoreFileTrailer.SIZE), StoreFileTrailer.MAGIC);
    }
    MemoryStorage s = new MemoryStorage();
    s.put(PATH, junk);
    assertThatThrownBy(() -> StoreFileReader.open(s, PATH, null, false, false))
        .isInstanceOf(CorruptStoreFileException.class);
  }

  @org.junit.jupiter.api.Test
  void aBlockDamagedAfterOpeningIsReportedWhenRead() throws IOException {
    List<KeyValue> cells = TestCells.random(new Random(8), 70, 12, 20);
    byte[] good = smallFile(Compression.SNAPPY, cells);
    List<Long> starts = structureStarts(good);
    MemoryStorage s = new MemoryStorage();
    byte[] bad = good.clone();
    int pos = (int) (starts.get(5) + 20); // inside a data block
    bad[pos] ^= 0x10;
    s.put(PATH, bad);
    try (StoreFileReader r = StoreFileReader.open(s, PATH, new BlockCache(1 << 20), true, false)) {
      KeyValueScanner sc = r.scanner(Long.MAX_VALUE);
      assertThatThrownBy(() -> TestCells.scanAll(sc))
          .isInstanceOf(CorruptStoreFileException.class)
          .hasMessageContaining("data block: checksum mismatch")
          .hasMessageContaining("offset " + starts.get(5));
      // The failed block was not cached: reading it again fails again.
      assertThatThrownBy(() -> TestCells.scanAll(r.scanner(Long.MAX_VALUE)))
          .isInstanceOf(CorruptStoreFileException.class);
    }
  }
}
