package dev.basalt.memstore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.scan.KeyValueScanner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * A memstore behaves as a sorted map in cell order in which an equal cell (same key and sequence
 * id) replaces the present one: random inserts (often of equal cells), removals, scans from random
 * keys at random read points and the backward moves of reversed scans, against a {@link TreeMap}.
 */
class MemstorePropertyTest {
  // Rows that share long prefixes, differ past byte 16, and are prefixes of each other.
  private static final String[] ROWS = {
    "a",
    "a\0",
    "ab",
    "user000000000001",
    "user000000000001x",
    "user000000000002",
    "user0000",
    "user0000000000010000a",
    "user0000000000010000b",
    "\u00ff"
  };
  private static final String[] FAMS = {"f", "g"};
  private static final String[] QUALS = {"", "q", "qq"};
  private static final CellType[] TYPES = {
    CellType.PUT, CellType.PUT, CellType.PUT, CellType.DELETE, CellType.DELETE_COLUMN
  };

  private static KeyValue randomCell(Random rnd) {
    return randomCell(rnd, ROWS.length, false);
  }

  /** A cell of one of the first {@code rows} rows; in one column, a put, when {@code narrow}. */
  private static KeyValue randomCell(Random rnd, int rows, boolean narrow) {
    return KeyValue.of(
        Bytes.toBytes(ROWS[rnd.nextInt(rows)]),
        Bytes.toBytes(FAMS[narrow ? 0 : rnd.nextInt(FAMS.length)]),
        Bytes.toBytes(QUALS[narrow ? 0 : rnd.nextInt(QUALS.length)]),
        KeyValue.LATEST_TIMESTAMP,
        TYPES[narrow ? 0 : rnd.nextInt(TYPES.length)],
        Bytes.toBytes("v" + rnd.nextInt(1000)));
  }

  private static KeyValue randomKey(Random rnd) {
    byte[] row = Bytes.toBytes(ROWS[rnd.nextInt(ROWS.length)]);
    switch (rnd.nextInt(4)) {
      case 0:
        return KeyValue.firstOnRow(row);
      case 1:
        return KeyValue.firstOnColumn(
            row,
            Bytes.toBytes(FAMS[rnd.nextInt(FAMS.length)]),
            Bytes.toBytes(QUALS[rnd.nextInt(QUALS.length)]));
      case 2:
        return KeyValue.lastOnColumn(randomCell(rnd));
      default:
        return randomCell(rnd).withSequenceId(rnd.nextInt(40));
    }
  }

  private static void assertSameCell(Cell actual, KeyValue expected) {
    assertThat(actual).isEqualTo(expected); // key and value bytes
    assertThat(actual.getSequenceId()).isEqualTo(expected.getSequenceId());
  }

  @Property(tries = 500)
  void behavesAsASortedMapOfCells(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int operations) throws IOException {
    Random rnd = new Random(seed);
    // Narrow histories (few rows, few sequence ids) make equal cells, which replace each other and
    // leave removed nodes next to live ones, common.
    int rows = 1 + rnd.nextInt(ROWS.length);
    boolean narrow = rnd.nextBoolean();
    int seqs = narrow ? 3 : 30;
    Memstore m = new Memstore();
    NavigableMap<KeyValue, KeyValue> model = new TreeMap<>(CellComparator.INSTANCE);
    List<KeyValue> stored = new ArrayList<>();
    for (int i = 0; i < operations; i++) {
      if (!stored.isEmpty() && rnd.nextInt(6) == 0) {
        KeyValue victim = stored.get(rnd.nextInt(stored.size()));
        long delta = m.remove(victim);
        // Removes the cell with the same key and sequence id, whatever its value.
        boolean removes = model.remove(victim) != null;
        assertThat(delta < 0).isEqualTo(removes);
      } else {
        KeyValue kv = randomCell(rnd, rows, narrow);
        long seq = 1 + rnd.nextInt(seqs);
        long ts = 1 + rnd.nextInt(2);
        KeyValue copy = m.insert(kv, seq, ts);
        KeyValue expected = kv.withTimestamp(ts).withSequenceId(seq);
        assertSameCell(copy, expected);
        model.put(expected, expected);
        stored.add(copy);
      }
    }
    assertThat(m.cellCount()).isEqualTo(model.size());
    assertThat(m.isEmpty()).isEqualTo(model.isEmpty());
    assertThat(m.heapSize() == 0).isEqualTo(model.isEmpty());
    List<KeyValue> all = new ArrayList<>();
    m.cells().forEach(all::add);
    assertThat(all).hasSize(model.size());
    int i = 0;
    for (KeyValue kv : model.values()) {
      assertSameCell(all.get(i++), kv);
    }
    for (int round = 0; round < 10; round++) {
      long readPoint = rnd.nextInt(32);
      checkForward(m, model, readPoint, randomKey(rnd));
      checkBackward(m, model, readPoint, randomKey(rnd));
      checkReseeks(m, model, readPoint, rnd);
    }
  }

  /** Reseeks to random keys (ahead, behind or at the position) from a random start. */
  private static void checkReseeks(
      Memstore m, NavigableMap<KeyValue, KeyValue> model, long readPoint, Random rnd)
      throws IOException {
    List<KeyValue> vis = visible(model, readPoint);
    KeyValueScanner s = m.scanner(readPoint);
    s.seek(randomKey(rnd));
    for (int i = 0; i < 8; i++) {
      Cell at = s.peek();
      KeyValue key = randomKey(rnd);
      KeyValue expected = null;
      for (KeyValue kv : vis) {
        if (at != null
            && CellComparator.INSTANCE.compare(kv, key) >= 0
            && CellComparator.INSTANCE.compare(kv, at) >= 0) {
          expected = kv;
          break;
        }
      }
      assertThat(s.reseek(key)).isEqualTo(expected != null);
      if (expected == null) {
        assertThat(s.peek()).isNull();
        return;
      }
      assertSameCell(s.peek(), expected);
    }
  }

  @Test
  void aReplacedLastCellLeavesItsLiveTwinToBackwardMoves() throws IOException {
    Memstore m = new Memstore();
    KeyValue a = KeyValue.of(Bytes.toBytes("a"), F, Q, 1, CellType.PUT, Bytes.toBytes("1"));
    KeyValue b = KeyValue.of(Bytes.toBytes("b"), F, Q, 1, CellType.PUT, Bytes.toBytes("old"));
    KeyValue b2 = KeyValue.of(Bytes.toBytes("b"), F, Q, 1, CellType.PUT, Bytes.toBytes("new"));
    m.insert(a, 1, 1);
    m.insert(b, 2, 1);
    m.insert(b2, 2, 1); // replaces b: its node, last in the list, is now flagged removed
    KeyValueScanner s = m.scanner(5);
    assertThat(s.seekToLastRow()).isTrue();
    assertSameCell(s.peek(), b2.withSequenceId(2));
    assertThat(s.seekToPreviousRow(KeyValue.firstOnRow(Bytes.toBytes("c")))).isTrue();
    assertSameCell(s.peek(), b2.withSequenceId(2));
    assertThat(m.remove(b2.withSequenceId(2))).isNegative();
    assertThat(s.seekToLastRow()).isTrue();
    assertSameCell(s.peek(), a.withSequenceId(1));
    assertThat(m.cellCount()).isEqualTo(1);
  }

  @Test
  void perCellTtlsAreKeptBesideTheCellsAndCountedInTheHeapSize() throws IOException {
    Memstore m = new Memstore();
    KeyValue plain = KeyValue.of(Bytes.toBytes("a"), F, Q, 1, CellType.PUT, Bytes.toBytes("1"));
    KeyValue ttl = KeyValue.of(Bytes.toBytes("b"), F, Q, 1, CellType.PUT, Bytes.toBytes("2"));
    m.insert(plain, 1, 7);
    long before = m.heapSize();
    KeyValue stored = m.insert(ttl.withTtl(-5), 2, 8);
    assertThat(stored.getTtl()).isEqualTo(-5);
    assertThat(stored.getTimestamp()).isEqualTo(8);
    // The cell, its 8 bytes of TTL, and a node of 40 + 8 x height bytes (height 1..12, random);
    // removing the cell gives back exactly what adding it took.
    long added = m.heapSize() - before;
    assertThat(added - stored.getLength() - 8).isBetween(48L, 136L);
    // Added with its own sequence id (WAL replay), the TTL stays too.
    m.add(
        KeyValue.of(Bytes.toBytes("c"), F, Q, 3, CellType.PUT, Bytes.toBytes("3"))
            .withTtl(9)
            .withSequenceId(3));
    List<Long> ttls = new java.util.ArrayList<>();
    for (KeyValue kv : m.cells()) {
      ttls.add(kv.getTtl());
    }
    assertThat(ttls).containsExactly(KeyValue.NO_TTL, -5L, 9L);
    KeyValueScanner s = m.scanner(5);
    assertThat(s.seek(KeyValue.firstOnRow(Bytes.toBytes("b")))).isTrue();
    assertThat(s.peek().getTtl()).isEqualTo(-5);
    assertThat(m.remove(stored)).isEqualTo(-added);
    assertThat(m.cellCount()).isEqualTo(2);
  }

  @Test
  void reseeksOverLongDistancesLandWhereASeekWould() throws IOException {
    // Enough cells for tall towers, so that reseeks climb several levels before descending.
    Random rnd = new Random(7);
    Memstore m = new Memstore();
    TreeMap<KeyValue, KeyValue> model = new TreeMap<>(CellComparator.INSTANCE);
    for (int i = 0; i < 20_000; i++) {
      KeyValue kv =
          KeyValue.of(
              Bytes.toBytes(String.format("user%08d", rnd.nextInt(5_000))),
              F,
              Bytes.toBytes("q" + rnd.nextInt(4)),
              1 + rnd.nextInt(1_000),
              CellType.PUT,
              Bytes.toBytes("v"));
      long seq = 1 + i;
      m.insert(kv, seq, kv.getTimestamp());
      model.put(kv.withSequenceId(seq), kv.withSequenceId(seq));
    }
    KeyValueScanner s = m.scanner(Long.MAX_VALUE);
    assertThat(s.seek(KeyValue.firstOnRow(Bytes.toBytes("user")))).isTrue();
    for (int i = 0; i < 2_000; i++) {
      KeyValue at = (KeyValue) s.peek();
      byte[] row = Bytes.toBytes(String.format("user%08d", rnd.nextInt(5_200)));
      KeyValue key =
          rnd.nextBoolean()
              ? KeyValue.firstOnRow(row)
              : KeyValue.firstOnColumn(row, F, Bytes.toBytes("q" + rnd.nextInt(4)));
      KeyValue expected = model.ceilingKey(CellComparator.INSTANCE.compare(key, at) > 0 ? key : at);
      assertThat(s.reseek(key)).isEqualTo(expected != null);
      if (expected == null) {
        assertThat(s.seek(KeyValue.firstOnRow(Bytes.toBytes("user")))).isTrue();
        continue;
      }
      assertSameCell(s.peek(), expected);
    }
  }

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  private static List<KeyValue> visible(NavigableMap<KeyValue, KeyValue> model, long readPoint) {
    List<KeyValue> out = new ArrayList<>();
    for (KeyValue kv : model.values()) {
      if (kv.getSequenceId() <= readPoint) {
        out.add(kv);
      }
    }
    return out;
  }

  private static void checkForward(
      Memstore m, NavigableMap<KeyValue, KeyValue> model, long readPoint, KeyValue key)
      throws IOException {
    List<KeyValue> expected = new ArrayList<>();
    for (KeyValue kv : visible(model, readPoint)) {
      if (CellComparator.INSTANCE.compare(kv, key) >= 0) {
        expected.add(kv);
      }
    }
    KeyValueScanner s = m.scanner(readPoint);
    assertThat(s.seek(key)).isEqualTo(!expected.isEmpty());
    for (KeyValue kv : expected) {
      assertSameCell(s.next(), kv);
    }
    assertThat(s.next()).isNull();
  }

  private static void checkBackward(
      Memstore m, NavigableMap<KeyValue, KeyValue> model, long readPoint, KeyValue key)
      throws IOException {
    List<KeyValue> vis = visible(model, readPoint);
    KeyValueScanner s = m.scanner(readPoint);
    // seekToLastRow: the first visible cell of the last row that has one.
    KeyValue lastRowFirst = null;
    for (KeyValue kv : vis) {
      if (lastRowFirst == null || !CellUtil.matchingRows(kv, lastRowFirst)) {
        lastRowFirst = kv;
      }
    }
    assertThat(s.seekToLastRow()).isEqualTo(lastRowFirst != null);
    if (lastRowFirst != null) {
      assertSameCell(s.peek(), lastRowFirst);
    }
    // seekToPreviousRow: the first visible cell of the last row before the key's row.
    KeyValue previous = null;
    for (KeyValue kv : vis) {
      if (CellComparator.INSTANCE.compareRows(kv, key) < 0
          && (previous == null || !CellUtil.matchingRows(kv, previous))) {
        previous = kv;
      }
    }
    assertThat(s.seekToPreviousRow(key)).isEqualTo(previous != null);
    if (previous != null) {
      assertSameCell(s.peek(), previous);
    }
  }
}
