package dev.basalt.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.memstore.Memstore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The merging heaps over several memstore segments walk exactly the sorted, read-point-filtered
 * union of their cells, forwards (next, seek, reseek) and reversed (next across rows,
 * seekToPreviousRow, backwardSeek, seekToLastRow).
 */
class KeyValueHeapPropertyTest {
  private static final String[] ROWS = {"a", "b", "bb", "c", "d"};
  private static final String[] QUALS = {"", "x", "y"};
  private static final CellType[] TYPES = {
    CellType.PUT, CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN, CellType.DELETE_FAMILY
  };

  private static KeyValue randomCell(Random rnd, long seq) {
    CellType t = TYPES[rnd.nextInt(TYPES.length)];
    String q = t == CellType.DELETE_FAMILY ? "" : QUALS[rnd.nextInt(QUALS.length)];
    return KeyValue.of(
            Bytes.toBytes(ROWS[rnd.nextInt(ROWS.length)]),
            Bytes.toBytes("f"),
            Bytes.toBytes(q),
            1 + rnd.nextInt(4),
            t,
            Bytes.toBytes("v" + seq))
        .withSequenceId(seq);
  }

  private static KeyValue randomKey(Random rnd) {
    switch (rnd.nextInt(3)) {
      case 0:
        return KeyValue.firstOnRow(Bytes.toBytes(ROWS[rnd.nextInt(ROWS.length)]));
      case 1:
        return KeyValue.firstOnColumn(
            Bytes.toBytes(ROWS[rnd.nextInt(ROWS.length)]),
            Bytes.toBytes("f"),
            Bytes.toBytes(QUALS[rnd.nextInt(QUALS.length)]));
      default:
        return KeyValue.lastOnColumn(randomCell(rnd, 0));
    }
  }

  private static final class Fixture {
    final List<KeyValueScanner> sources = new ArrayList<>();
    final List<KeyValue> visible = new ArrayList<>();

    Fixture(Random rnd, int cells, int segments) {
      List<Memstore> stores = new ArrayList<>();
      for (int i = 0; i < segments; i++) {
        stores.add(new Memstore());
      }
      long readPoint = 1 + rnd.nextInt(cells + 1);
      for (int seq = 1; seq <= cells; seq++) {
        KeyValue kv = randomCell(rnd, seq);
        stores.get(rnd.nextInt(segments)).add(kv);
        if (seq <= readPoint) {
          visible.add(kv);
        }
      }
      for (Memstore m : stores) {
        sources.add(m.scanner(readPoint));
      }
    }
  }

  /** Index of the first cell at or after key in list, by comparator. */
  private static int ceiling(List<KeyValue> list, Cell key, CellComparator cmp) {
    int i = 0;
    while (i < list.size() && cmp.compare(list.get(i), key) < 0) {
      i++;
    }
    return i;
  }

  private static Cell at(List<KeyValue> list, int i) {
    return i < list.size() ? list.get(i) : null;
  }

  @Property(tries = 300)
  void forwardWalkMatchesTheSortedUnion(
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 40) int cells,
      @ForAll @IntRange(min = 1, max = 3) int segments)
      throws IOException {
    Random rnd = new Random(seed);
    Fixture fx = new Fixture(rnd, cells, segments);
    List<KeyValue> expected = new ArrayList<>(fx.visible);
    expected.sort(CellComparator.INSTANCE);
    for (KeyValueScanner s : fx.sources) {
      s.seek(KeyValue.firstOnRow(Bytes.EMPTY));
    }
    KeyValueHeap heap = new KeyValueHeap(fx.sources, CellComparator.INSTANCE);
    int pos = 0;
    for (int step = 0; step < 60; step++) {
      assertThat(heap.peek()).as("step %d", step).isEqualTo(at(expected, pos));
      int op = rnd.nextInt(4);
      if (op <= 1) {
        assertThat(heap.next()).isEqualTo(at(expected, pos));
        pos = Math.min(pos + 1, expected.size());
      } else if (op == 2) {
        KeyValue key = randomKey(rnd);
        if (heap.peek() != null && CellComparator.INSTANCE.compare(key, heap.peek()) >= 0) {
          heap.reseek(key);
          pos = ceiling(expected, key, CellComparator.INSTANCE);
        }
      } else {
        KeyValue key = randomKey(rnd);
        heap.seek(key);
        pos = ceiling(expected, key, CellComparator.INSTANCE);
      }
    }
    heap.close();
  }

  /**
   * A source that puts off seeks to columns the way store files do: while the key asks for newer
   * cells than the source holds, it shows (row, family, qualifier, its newest timestamp) instead.
   */
  private static final class PuttingOff implements KeyValueScanner {
    private final KeyValueScanner in;
    private final long maxTs;
    private KeyValue placeholder;
    private Cell pending;
    private boolean pendingAbsolute;
    int enforced;

    PuttingOff(KeyValueScanner in, long maxTs) {
      this.in = in;
      this.maxTs = maxTs;
    }

    @Override
    public boolean requestSeek(Cell key, boolean forward) throws IOException {
      boolean absolute = !forward || (placeholder != null && pendingAbsolute);
      placeholder = null;
      if (key.getFamilyLength() > 0 && key.getTimestamp() > maxTs) {
        placeholder =
            KeyValue.firstOnColumnAt(
                CellUtil.cloneRow(key),
                CellUtil.cloneFamily(key),
                CellUtil.cloneQualifier(key),
                maxTs);
        pending = key;
        pendingAbsolute = absolute;
        return true;
      }
      return absolute ? in.seek(key) : in.reseek(key);
    }

    @Override
    public boolean realSeekDone() {
      return placeholder == null;
    }

    @Override
    public void enforceSeek() throws IOException {
      if (placeholder != null) {
        placeholder = null;
        enforced++;
        if (pendingAbsolute) {
          in.seek(pending);
        } else {
          in.reseek(pending);
        }
      }
    }

    @Override
    public Cell peek() {
      return placeholder != null ? placeholder : in.peek();
    }

    @Override
    public Cell next() throws IOException {
      enforceSeek();
      return in.next();
    }

    @Override
    public boolean seek(Cell key) throws IOException {
      placeholder = null;
      return in.seek(key);
    }

    @Override
    public boolean reseek(Cell key) throws IOException {
      if (placeholder != null) {
        placeholder = null;
        if (pendingAbsolute) {
          return in.seek(key);
        }
      }
      return in.reseek(key);
    }

    @Override
    public boolean seekToPreviousRow(Cell key) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean backwardSeek(Cell key) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean seekToLastRow() {
      throw new UnsupportedOperationException();
    }

    @Override
    public long getScannerOrder() {
      return in.getScannerOrder();
    }

    @Override
    public void close() {
      in.close();
    }
  }

  @Property(tries = 300)
  void aLazyWalkMatchesTheSortedUnion(
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 40) int cells,
      @ForAll @IntRange(min = 1, max = 4) int segments)
      throws IOException {
    Random rnd = new Random(seed);
    Fixture fx = new Fixture(rnd, cells, segments);
    List<KeyValue> expected = new ArrayList<>(fx.visible);
    expected.sort(CellComparator.INSTANCE);
    List<KeyValueScanner> lazy = new ArrayList<>();
    KeyValue start = randomKey(rnd);
    for (KeyValueScanner s : fx.sources) {
      // Each source claims a newest timestamp at or above what it holds (1..4), like a file.
      PuttingOff p = new PuttingOff(s, 4 + rnd.nextInt(2));
      p.requestSeek(start, false);
      lazy.add(p);
    }
    KeyValueHeap heap = new KeyValueHeap(lazy, CellComparator.INSTANCE, true);
    int pos = ceiling(expected, start, CellComparator.INSTANCE);
    for (int step = 0; step < 60; step++) {
      assertThat(heap.peek()).as("step %d", step).isEqualTo(at(expected, pos));
      int op = rnd.nextInt(4);
      if (op <= 1) {
        assertThat(heap.next()).isEqualTo(at(expected, pos));
        pos = Math.min(pos + 1, expected.size());
      } else if (op == 2) {
        KeyValue key = randomKey(rnd);
        if (rnd.nextBoolean()) {
          key =
              KeyValue.firstOnColumnAt(
                  CellUtil.cloneRow(key),
                  Bytes.toBytes("f"),
                  CellUtil.cloneQualifier(key),
                  1 + rnd.nextInt(5));
        }
        if (heap.peek() != null && CellComparator.INSTANCE.compare(key, heap.peek()) >= 0) {
          heap.reseek(key);
          pos = ceiling(expected, key, CellComparator.INSTANCE);
        }
      } else {
        KeyValue key = randomKey(rnd);
        heap.seek(key);
        pos = ceiling(expected, key, CellComparator.INSTANCE);
      }
    }
    heap.close();
  }

  @Property(tries = 300)
  void reversedWalkMatchesRowsDescendingCellsAscending(
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 40) int cells,
      @ForAll @IntRange(min = 1, max = 3) int segments)
      throws IOException {
    Random rnd = new Random(seed);
    Fixture fx = new Fixture(rnd, cells, segments);
    List<KeyValue> expected = new ArrayList<>(fx.visible);
    expected.sort(CellComparator.REVERSED_ROWS);
    for (KeyValueScanner s : fx.sources) {
      s.seekToLastRow();
    }
    ReversedKeyValueHeap heap = new ReversedKeyValueHeap(fx.sources);
    int pos = 0;
    for (int step = 0; step < 60; step++) {
      Cell cur = heap.peek();
      assertThat(cur).as("step %d", step).isEqualTo(at(expected, pos));
      if (cur == null) {
        break;
      }
      int op = rnd.nextInt(4);
      if (op <= 1) {
        assertThat(heap.next()).isEqualTo(cur);
        pos++;
      } else if (op == 2) {
        heap.seekToPreviousRow(cur);
        pos = firstOfRowBefore(expected, cur);
      } else {
        // a within-row seek to a random column of the current row
        KeyValue key =
            KeyValue.firstOnColumn(
                CellUtil.cloneRow(cur),
                Bytes.toBytes("f"),
                Bytes.toBytes(QUALS[rnd.nextInt(QUALS.length)]));
        if (CellComparator.INSTANCE.compare(key, cur) > 0) {
          heap.backwardSeek(key);
          pos = backwardSeekIndex(expected, key);
        }
      }
    }
    heap.close();
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
