package dev.basalt.sstable;

import static dev.basalt.sstable.TestCells.assertSameCell;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueHeap;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.scan.ReversedKeyValueHeap;
import dev.basalt.schema.BloomType;
import dev.basalt.schema.Compression;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * A store file scanner walks exactly the sorted, read-point-filtered cells of its file under any
 * mix of forward (seek, reseek, next) and reversed (seekToPreviousRow, backwardSeek, seekToLastRow)
 * operations, with tiny and normal blocks, one- and multi-level indexes, cached and uncached
 * readers; and store file scanners merge correctly in the scan heaps.
 */
class StoreFileScannerPropertyTest {
  private static final byte[][] FAMILIES = {Bytes.toBytes("f"), Bytes.toBytes("fa")};
  private static final byte[][] QUALIFIERS = {
    Bytes.EMPTY, Bytes.toBytes("a"), Bytes.toBytes("ab"), Bytes.toBytes("q1")
  };

  /** One or more files over random cells, opened with a random cache setup. */
  private static final class Fixture implements AutoCloseable {
    final List<KeyValue> all;
    final List<KeyValue> visible;
    final List<StoreFileReader> readers = new ArrayList<>();
    final List<byte[]> rows = new ArrayList<>();
    final long readPoint;

    Fixture(Random rnd, int cells, int files) throws IOException {
      all = TestCells.random(rnd, cells, 1 + rnd.nextInt(12), 30);
      readPoint = rnd.nextInt(3) == 0 ? Long.MAX_VALUE : rnd.nextInt(3 * cells + 2);
      visible = TestCells.visible(all, readPoint);
      for (KeyValue kv : all) {
        rows.add(CellUtil.cloneRow(kv));
      }
      int[] blockSizes = {1, 40, 150, 4096};
      MemoryStorage storage = new MemoryStorage();
      BlockCache cache = rnd.nextInt(3) == 0 ? null : new BlockCache(rnd.nextInt(4000) + 100);
      List<List<KeyValue>> parts = new ArrayList<>();
      for (int i = 0; i < files; i++) {
        parts.add(new ArrayList<>());
      }
      for (KeyValue kv : all) {
        parts.get(rnd.nextInt(files)).add(kv);
      }
      for (int i = 0; i < files; i++) {
        StoreFileOptions o =
            new StoreFileOptions(
                blockSizes[rnd.nextInt(blockSizes.length)],
                Compression.values()[rnd.nextInt(Compression.values().length)],
                BloomType.values()[rnd.nextInt(BloomType.values().length)],
                rnd.nextBoolean() ? 40 : StoreFileOptions.DEFAULT_INDEX_BLOCK_SIZE);
        TestCells.write(storage, "f" + i, parts.get(i), o);
        readers.add(
            StoreFileReader.open(storage, "f" + i, cache, rnd.nextBoolean(), rnd.nextBoolean()));
      }
    }

    byte[] randomRow(Random rnd) {
      int k = rnd.nextInt(10);
      if (k == 0) {
        return Bytes.EMPTY;
      }
      if (k < 4 || rows.isEmpty()) {
        return TestCells.randomRow(rnd);
      }
      return rows.get(rnd.nextInt(rows.size()));
    }

    KeyValue randomKey(Random rnd) {
      byte[] row = randomRow(rnd);
      byte[] fam = FAMILIES[rnd.nextInt(FAMILIES.length)];
      byte[] qual = QUALIFIERS[rnd.nextInt(QUALIFIERS.length)];
      switch (rnd.nextInt(6)) {
        case 0:
          return KeyValue.firstOnRow(row);
        case 1:
          return KeyValue.firstOnColumn(row, fam, qual);
        case 2:
          return KeyValue.firstOnColumnAt(row, fam, qual, rnd.nextInt(5));
        case 3:
          return KeyValue.lastOnColumn(
              KeyValue.of(row, fam, qual, 0, dev.basalt.cell.CellType.PUT, Bytes.EMPTY));
        default:
          if (all.isEmpty()) {
            return KeyValue.firstOnRow(row);
          }
          // An existing cell, exactly or with a neighbouring sequence id.
          KeyValue c = all.get(rnd.nextInt(all.size()));
          return c.withSequenceId(c.getSequenceId() + rnd.nextInt(3) - 1);
      }
    }

    @Override
    public void close() throws IOException {
      for (StoreFileReader r : readers) {
        r.close();
      }
    }
  }

  /** The model: a position in the visible cells, moved as the KeyValueScanner contract says. */
  private static final class Model {
    final List<KeyValue> cells;
    int pos;

    Model(List<KeyValue> cells) {
      this.cells = cells;
      this.pos = cells.size();
    }

    Cell peek() {
      return pos < cells.size() ? cells.get(pos) : null;
    }

    boolean seek(Cell key) {
      pos = 0;
      while (pos < cells.size() && CellComparator.INSTANCE.compare(cells.get(pos), key) < 0) {
        pos++;
      }
      return peek() != null;
    }

    boolean seekToPreviousRow(Cell key) {
      int last = -1;
      for (int i = 0; i < cells.size(); i++) {
        if (CellComparator.INSTANCE.compareRows(cells.get(i), key) < 0) {
          last = i;
        }
      }
      if (last < 0) {
        pos = cells.size();
        return false;
      }
      pos = last;
      while (pos > 0 && CellUtil.matchingRows(cells.get(pos - 1), cells.get(last))) {
        pos--;
      }
      return true;
    }

    boolean backwardSeek(Cell key) {
      if (seek(key) && CellUtil.matchingRows(peek(), key)) {
        return true;
      }
      return seekToPreviousRow(key);
    }

    boolean seekToLastRow() {
      if (cells.isEmpty()) {
        pos = 0;
        return false;
      }
      return seekToPreviousRow(
          KeyValue.firstOnRow(Bytes.nextRow(CellUtil.cloneRow(cells.get(cells.size() - 1)))));
    }
  }

  @Property(tries = 200)
  void everyOperationMatchesTheModel(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 60) int cells) throws IOException {
    Random rnd = new Random(seed);
    try (Fixture fx = new Fixture(rnd, cells, 1)) {
      KeyValueScanner s = fx.readers.get(0).scanner(fx.readPoint);
      Model m = new Model(fx.visible);
      if (rnd.nextBoolean()) {
        assertThat(s.seekToLastRow()).isEqualTo(m.seekToLastRow());
      } else {
        KeyValue k = KeyValue.firstOnRow(Bytes.EMPTY);
        assertThat(s.seek(k)).isEqualTo(m.seek(k));
      }
      for (int step = 0; step < 60; step++) {
        assertSameCell(s.peek(), m.peek(), "step " + step);
        int op = rnd.nextInt(10);
        KeyValue key = fx.randomKey(rnd);
        String what = "step " + step + " op " + op + " key " + key;
        if (op < 4) {
          Cell expected = m.peek();
          Cell returned = s.next();
          assertSameCell(returned, expected, what);
          if (expected != null) {
            m.pos++;
          }
          assertRelationIsTrue(s.relationToLast(), s.peek(), returned, what);
        } else if (op == 4) {
          assertThat(s.seek(key)).as(what).isEqualTo(m.seek(key));
        } else if (op == 5) {
          if (m.peek() != null && CellComparator.INSTANCE.compare(key, m.peek()) >= 0) {
            assertThat(s.reseek(key)).as(what).isEqualTo(m.seek(key));
          } else if (m.peek() != null) {
            // A reseek to a key at or before the current cell stays put.
            assertThat(s.reseek(key)).as(what).isTrue();
          }
        } else if (op == 6) {
          Cell at = rnd.nextBoolean() && m.peek() != null ? m.peek() : key;
          assertThat(s.seekToPreviousRow(at)).as(what).isEqualTo(m.seekToPreviousRow(at));
        } else if (op == 7 || op == 8) {
          assertThat(s.backwardSeek(key)).as(what).isEqualTo(m.backwardSeek(key));
        } else {
          assertThat(s.seekToLastRow()).as(what).isEqualTo(m.seekToLastRow());
        }
      }
      s.close();
    }
  }

  /** A claimed relation (not -1, "not known") must be the keys' own. */
  private static void assertRelationIsTrue(int relation, Cell peek, Cell returned, String what) {
    if (relation >= 0) {
      assertThat(peek).as(what).isNotNull();
      assertThat(relation).as(what).isEqualTo(CellUtil.keyRelation(peek, returned));
    }
  }

  @Test
  void aScannerKnowsHowItsNextCellRelatesToTheLastWithinABlock() throws IOException {
    List<KeyValue> cells = new ArrayList<>();
    for (String row : List.of("r1", "r2", "r3")) {
      for (String q : List.of("a", "b", "c")) {
        for (long ts : q.equals("b") ? new long[] {2, 1} : new long[] {1}) {
          cells.add(
              KeyValue.of(
                  Bytes.toBytes(row),
                  FAMILIES[0],
                  Bytes.toBytes(q),
                  ts,
                  dev.basalt.cell.CellType.PUT,
                  Bytes.toBytes("v")));
        }
      }
    }
    MemoryStorage storage = new MemoryStorage();
    TestCells.write(
        storage,
        "f",
        cells,
        new StoreFileOptions(
            4096, Compression.NONE, BloomType.NONE, StoreFileOptions.DEFAULT_INDEX_BLOCK_SIZE));
    try (StoreFileReader r = StoreFileReader.open(storage, "f", null, false, false)) {
      KeyValueScanner s = r.scanner(Long.MAX_VALUE);
      s.seek(KeyValue.firstOnRow(Bytes.EMPTY));
      assertThat(s.relationToLast()).isEqualTo(-1); // after a seek nothing is known
      List<Integer> known = new ArrayList<>();
      while (s.peek() != null) {
        s.next();
        known.add(s.relationToLast());
      }
      // Per row: a -> b@2 (same row), b@2 -> b@1 (same column), b@1 -> c (same row), c -> next
      // row's a; after r3/c the scanner is done (nothing known).
      int row = CellUtil.SAME_ROW;
      int column = CellUtil.SAME_COLUMN;
      int other = CellUtil.DIFFERENT_ROW;
      assertThat(known)
          .containsExactly(row, column, row, other, row, column, row, other, row, column, row, -1);
      s.close();
    }
  }

  @Property(tries = 100)
  void forwardHeapOverFilesWalksTheSortedCells(
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 60) int cells,
      @ForAll @IntRange(min = 1, max = 3) int files)
      throws IOException {
    Random rnd = new Random(seed);
    try (Fixture fx = new Fixture(rnd, cells, files)) {
      List<KeyValueScanner> scanners = new ArrayList<>();
      for (StoreFileReader r : fx.readers) {
        KeyValueScanner s = r.scanner(fx.readPoint);
        s.seek(KeyValue.firstOnRow(Bytes.EMPTY));
        scanners.add(s);
      }
      KeyValueHeap heap = new KeyValueHeap(scanners, CellComparator.INSTANCE);
      Model m = new Model(fx.visible);
      m.seek(KeyValue.firstOnRow(Bytes.EMPTY));
      for (int step = 0; step < 60; step++) {
        assertSameCell(heap.peek(), m.peek(), "step " + step);
        int op = rnd.nextInt(4);
        if (op <= 1) {
          Cell expected = m.peek();
          Cell returned = heap.next();
          assertSameCell(returned, expected, "next at step " + step);
          if (expected != null) {
            m.pos++;
          }
          // The merge may only pass on a source's relation while nothing of another source lies
          // between that source's cells.
          assertRelationIsTrue(heap.relationToLast(), heap.peek(), returned, "step " + step);
        } else if (op == 2) {
          KeyValue key = fx.randomKey(rnd);
          if (m.peek() != null && CellComparator.INSTANCE.compare(key, m.peek()) >= 0) {
            heap.reseek(key);
            m.seek(key);
          }
        } else {
          KeyValue key = fx.randomKey(rnd);
          heap.seek(key);
          m.seek(key);
        }
      }
      heap.close();
    }
  }

  @Property(tries = 100)
  void reversedHeapOverFilesWalksRowsBackwards(
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 60) int cells,
      @ForAll @IntRange(min = 1, max = 3) int files)
      throws IOException {
    Random rnd = new Random(seed);
    try (Fixture fx = new Fixture(rnd, cells, files)) {
      List<KeyValue> expected = new ArrayList<>(fx.visible);
      expected.sort(CellComparator.REVERSED_ROWS);
      List<KeyValueScanner> scanners = new ArrayList<>();
      for (StoreFileReader r : fx.readers) {
        KeyValueScanner s = r.scanner(fx.readPoint);
        s.seekToLastRow();
        scanners.add(s);
      }
      ReversedKeyValueHeap heap = new ReversedKeyValueHeap(scanners);
      int pos = 0;
      for (int step = 0; step < 80; step++) {
        Cell cur = heap.peek();
        assertSameCell(cur, pos < expected.size() ? expected.get(pos) : null, "step " + step);
        if (cur == null) {
          break;
        }
        int op = rnd.nextInt(4);
        if (op <= 1) {
          assertSameCell(heap.next(), cur, "next at step " + step);
          pos++;
        } else if (op == 2) {
          heap.seekToPreviousRow(cur);
          pos = firstOfRowBefore(expected, cur);
        } else {
          KeyValue key =
              KeyValue.firstOnColumn(
                  CellUtil.cloneRow(cur),
                  FAMILIES[rnd.nextInt(FAMILIES.length)],
                  QUALIFIERS[rnd.nextInt(QUALIFIERS.length)]);
          if (CellComparator.INSTANCE.compare(key, cur) > 0) {
            heap.backwardSeek(key);
            pos = backwardSeekIndex(expected, key);
          }
        }
      }
      heap.close();
    }
  }

  private static int firstOfRowBefore(List<KeyValue> reversedOrder, Cell key) {
    for (int i = 0; i < reversedOrder.size(); i++) {
      if (CellComparator.INSTANCE.compareRows(reversedOrder.get(i), key) < 0) {
        return i;
      }
    }
    return reversedOrder.size();
  }

  private static int backwardSeekIndex(List<KeyValue> reversedOrder, Cell key) {
    for (int i = 0; i < reversedOrder.size(); i++) {
      KeyValue c = reversedOrder.get(i);
      if (CellUtil.matchingRows(c, key) && CellComparator.INSTANCE.compare(c, key) >= 0) {
        return i;
      }
    }
    return firstOfRowBefore(reversedOrder, key);
  }
}
