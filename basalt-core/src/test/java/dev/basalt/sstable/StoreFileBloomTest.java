package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bloom filters through the reader: what they let a get skip, and what they never deny. */
class StoreFileBloomTest {
  private static final byte[] F = Bytes.toBytes("f");

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%06d", i));
  }

  private static StoreFileReader file(MemoryStorage s, BloomType type, List<KeyValue> cells)
      throws IOException {
    TestCells.write(s, "b", cells, new StoreFileOptions(1024, Compression.LZ4, type));
    // No cache: every seek that needs a block reads it, so the counter shows each one.
    return StoreFileReader.open(s, "b", null, false, false);
  }

  /** Even rows 0..2n-2, columns "a" and "b" in each. */
  private static List<KeyValue> evenRows(int n) {
    List<KeyValue> cells = new ArrayList<>();
    long seq = 1;
    for (int i = 0; i < 2 * n; i += 2) {
      for (String q : new String[] {"a", "b"}) {
        cells.add(
            KeyValue.of(row(i), F, Bytes.toBytes(q), 5, CellType.PUT, Bytes.toBytes("v"))
                .withSequenceId(seq++));
      }
    }
    return cells;
  }

  /** A get of one row as the store layer does it: ask the bloom, seek only on "maybe". */
  private static Cell get(StoreFileReader r, byte[] row) throws IOException {
    if (!r.mightContainRow(row, 0, row.length)) {
      return null;
    }
    KeyValueScanner s = r.scanner(Long.MAX_VALUE);
    s.seek(KeyValue.firstOnRow(row));
    Cell c = s.peek();
    return c != null && CellUtil.matchingRow(c, row) ? c : null;
  }

  @Test
  void rowBloomNeverDeniesAPresentRowAndDeniesAbout99PercentOfAbsentOnes() throws IOException {
    int n = 5000;
    try (StoreFileReader r = file(new MemoryStorage(), BloomType.ROW, evenRows(n))) {
      for (int i = 0; i < 2 * n; i += 2) {
        assertThat(r.mightContainRow(row(i), 0, row(i).length)).as("row %d", i).isTrue();
        // With a ROW bloom a column check asks about the row.
        assertThat(r.mightContainRowCol(row(i), F, Bytes.toBytes("zzz"))).isTrue();
      }
      int maybe = 0;
      for (int i = 1; i < 2 * n; i += 2) {
        if (r.mightContainRow(row(i), 0, row(i).length)) {
          maybe++;
        }
      }
      double rate = (double) maybe / n;
      System.out.printf("ROW bloom false-positive rate through a reader: %.3f%%%n", rate * 100);
      assertThat(rate).isLessThan(0.03);
      assertThat(r.dataBlocksReadFromStorage()).isZero();
    }
  }

  @Test
  void getOfAnAbsentRowReadsNoDataBlockWhenTheBloomSaysNo() throws IOException {
    try (StoreFileReader r = file(new MemoryStorage(), BloomType.ROW, evenRows(500))) {
      int denied = 0;
      for (int i = 1; i < 1000; i += 2) {
        if (!r.mightContainRow(row(i), 0, row(i).length)) {
          assertThat(get(r, row(i))).isNull();
          denied++;
        }
      }
      assertThat(denied).isGreaterThan(470);
      assertThat(r.dataBlocksReadFromStorage()).isZero();
      // A present row does cost a read: the counter counts.
      assertThat(get(r, row(10))).isNotNull();
      assertThat(r.dataBlocksReadFromStorage()).isEqualTo(1);
    }
    try (StoreFileReader r = file(new MemoryStorage(), BloomType.NONE, evenRows(500))) {
      assertThat(get(r, row(11))).isNull();
      assertThat(r.dataBlocksReadFromStorage()).as("no bloom: the seek reads").isEqualTo(1);
    }
  }

  @Test
  void rowColBloomAnswersPerColumn() throws IOException {
    try (StoreFileReader r = file(new MemoryStorage(), BloomType.ROWCOL, evenRows(2000))) {
      int maybe = 0;
      for (int i = 0; i < 4000; i += 2) {
        assertThat(r.mightContainRowCol(row(i), F, Bytes.toBytes("a"))).isTrue();
        assertThat(r.mightContainRowCol(row(i), F, Bytes.toBytes("b"))).isTrue();
        // A ROWCOL bloom cannot answer for a whole row.
        assertThat(r.mightContainRow(row(i), 0, row(i).length)).isTrue();
        for (String q : new String[] {"c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}) {
          if (r.mightContainRowCol(row(i), F, Bytes.toBytes(q))) {
            maybe++;
          }
        }
      }
      double rate = maybe / 20000.0;
      System.out.printf("ROWCOL bloom false-positive rate through a reader: %.3f%%%n", rate * 100);
      assertThat(rate).isBetween(0.003, 0.02);
      assertThat(r.dataBlocksReadFromStorage()).isZero();
    }
  }

  @Test
  void rowColBloomKnowsFamilyDeleteMarkersAndKeepsRowAndQualifierApart() throws IOException {
    List<KeyValue> cells = evenRows(2000);
    // Row 1 has a DeleteFamily marker, row 3 a DeleteFamilyVersion; row "ab" only column "c".
    cells.add(
        KeyValue.of(row(1), F, Bytes.EMPTY, 9, CellType.DELETE_FAMILY, Bytes.EMPTY)
            .withSequenceId(90_000));
    cells.add(
        KeyValue.of(row(3), F, Bytes.EMPTY, 9, CellType.DELETE_FAMILY_VERSION, Bytes.EMPTY)
            .withSequenceId(90_001));
    cells.add(
        KeyValue.of(Bytes.toBytes("ab"), F, Bytes.toBytes("c"), 1, CellType.PUT, Bytes.EMPTY)
            .withSequenceId(90_002));
    cells.sort(dev.basalt.cell.CellComparator.INSTANCE);
    try (StoreFileReader r = file(new MemoryStorage(), BloomType.ROWCOL, cells)) {
      assertThat(r.info().deleteFamilyMarkerCount()).isEqualTo(2);
      // A get of any column of a row with a family delete marker must read the file.
      for (int q = 0; q < 100; q++) {
        assertThat(r.mightContainRowCol(row(1), F, Bytes.toBytes("q" + q))).isTrue();
        assertThat(r.mightContainRowCol(row(3), F, Bytes.toBytes("q" + q))).isTrue();
      }
      assertThat(r.mightContainRowCol(Bytes.toBytes("ab"), F, Bytes.toBytes("c"))).isTrue();
      assertThat(r.mightContainRowCol(Bytes.toBytes("a"), F, Bytes.toBytes("bc"))).isFalse();
      // Rows without markers: a column false positive, or a marker false positive (~2% in all).
      int maybe = 0;
      for (int i = 0; i < 4000; i += 2) {
        if (r.mightContainRowCol(row(i), F, Bytes.toBytes("zz"))) {
          maybe++;
        }
      }
      assertThat(maybe / 2000.0).isLessThan(0.04);
    }
  }

  @Test
  void withoutBloomEverythingMightBeThere() throws IOException {
    try (StoreFileReader r = file(new MemoryStorage(), BloomType.NONE, evenRows(10))) {
      assertThat(r.mightContainRow(row(1), 0, row(1).length)).isTrue();
      assertThat(r.mightContainRowCol(row(1), F, Bytes.toBytes("x"))).isTrue();
    }
  }
}
