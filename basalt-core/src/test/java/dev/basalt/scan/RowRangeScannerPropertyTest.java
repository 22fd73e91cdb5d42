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

/**
 * A row-range view walks exactly the cells of its rows, forwards and backwards, alone and merged
 * with other scanners.
 */
class RowRangeScannerPropertyTest {
  private static final String[] ROWS = {"a", "b", "bb", "c", "d", "e"};
  private static final String[] BOUNDS = {"", "a", "b", "ba", "bb", "c", "e", "f"};

  private static List<KeyValue> cells(Random rnd) {
    List<KeyValue> out = new ArrayList<>();
    int n = rnd.nextInt(30);
    for (int i = 1; i <= n; i++) {
      out.add(
          KeyValue.of(
                  Bytes.toBytes(ROWS[rnd.nextInt(ROWS.length)]),
                  Bytes.toBytes("f"),
                  Bytes.toBytes("q" + rnd.nextInt(3)),
                  1 + rnd.nextInt(3),
                  CellType.PUT,
                  Bytes.toBytes("v" + i))
              .withSequenceId(i));
    }
    return out;
  }

  private static boolean inRange(Cell c, byte[] start, byte[] stop) {
    byte[] row = CellUtil.cloneRow(c);
    return Bytes.compareTo(row, start) >= 0 && (stop.length == 0 || Bytes.compareTo(row, stop) < 0);
  }

  @Property(tries = 300)
  void forwardAndReversedWalksSeeExactlyTheRange(@ForAll long seed) throws IOException {
    Random rnd = new Random(seed);
    List<KeyValue> all = cells(rnd);
    byte[] start = Bytes.toBytes(BOUNDS[rnd.nextInt(BOUNDS.length)]);
    byte[] stop = Bytes.toBytes(BOUNDS[rnd.nextInt(BOUNDS.length)]);
    Memstore m = new Memstore();
    all.forEach(m::add);
    List<KeyValue> expected = new ArrayList<>();
    for (KeyValue kv : all) {
      if (inRange(kv, start, stop)) {
        expected.add(kv);
      }
    }
    // Forward, through a heap with a second (empty) source.
    expected.sort(CellComparator.INSTANCE);
    KeyValueScanner fwd = new RowRangeScanner(m.scanner(Long.MAX_VALUE), start, stop);
    fwd.seek(KeyValue.firstOnRow(Bytes.EMPTY));
    KeyValueHeap heap =
        new KeyValueHeap(List.of(fwd, new Memstore().scanner(1)), CellComparator.INSTANCE);
    List<Cell> got = new ArrayList<>();
    Cell c;
    while ((c = heap.next()) != null) {
      got.add(c);
    }
    assertThat(got)
        .as("forward, range [%s, %s)", Bytes.toString(start), Bytes.toString(stop))
        .isEqualTo(expected);
    // Reversed.
    expected.sort(CellComparator.REVERSED_ROWS);
    KeyValueScanner rev = new RowRangeScanner(m.scanner(Long.MAX_VALUE), start, stop);
    rev.seekToLastRow();
    ReversedKeyValueHeap rheap = new ReversedKeyValueHeap(List.of(rev));
    got.clear();
    while ((c = rheap.next()) != null) {
      got.add(c);
    }
    assertThat(got)
        .as("reversed, range [%s, %s)", Bytes.toString(start), Bytes.toString(stop))
        .isEqualTo(expected);
    // Random seeks land on the first in-range cell at or after the key.
    for (int i = 0; i < 10; i++) {
      KeyValue key = KeyValue.firstOnRow(Bytes.toBytes(BOUNDS[rnd.nextInt(BOUNDS.length)]));
      RowRangeScanner s = new RowRangeScanner(m.scanner(Long.MAX_VALUE), start, stop);
      s.seek(key);
      expected.sort(CellComparator.INSTANCE);
      Cell want = null;
      for (KeyValue kv : expected) {
        if (CellComparator.INSTANCE.compare(kv, key) >= 0) {
          want = kv;
          break;
        }
      }
      assertThat(s.peek()).isEqualTo(want);
      // backwardSeek: first cell >= key in key's row, else the first cell of the previous row.
      RowRangeScanner b = new RowRangeScanner(m.scanner(Long.MAX_VALUE), start, stop);
      b.backwardSeek(key);
      Cell wantBack = null;
      for (KeyValue kv : expected) {
        if (CellUtil.matchingRows(kv, key) && CellComparator.INSTANCE.compare(kv, key) >= 0) {
          wantBack = kv;
          break;
        }
      }
      if (wantBack == null) {
        for (int j = expected.size() - 1; j >= 0; j--) {
          if (CellComparator.INSTANCE.compareRows(expected.get(j), key) < 0) {
            byte[] row = CellUtil.cloneRow(expected.get(j));
            for (KeyValue kv : expected) {
              if (CellUtil.matchingRow(kv, row)) {
                wantBack = kv;
                break;
              }
            }
            break;
          }
        }
      }
      assertThat(b.peek()).as("backwardSeek(%s)", key).isEqualTo(wantBack);
    }
  }
}
