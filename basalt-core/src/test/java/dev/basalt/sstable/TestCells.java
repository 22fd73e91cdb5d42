package dev.basalt.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.Storage;
import dev.basalt.scan.KeyValueScanner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** Random cells, files written from them, and exact comparisons (bytes and sequence ids). */
final class TestCells {
  static final CellType[] TYPES = {
    CellType.PUT,
    CellType.PUT,
    CellType.PUT,
    CellType.DELETE,
    CellType.DELETE_COLUMN,
    CellType.DELETE_FAMILY,
    CellType.DELETE_FAMILY_VERSION
  };
  // Bytes chosen so rows are prefixes of each other and sort differently signed and unsigned.
  private static final byte[] ROW_BYTES = {
    0x00, 0x01, 'a', 'b', 'c', 0x7F, (byte) 0x80, (byte) 0xFF
  };
  private static final String[] QUALIFIERS = {"", "a", "ab", "b", "q1", "q2", "\u00ff"};
  private static final String[] FAMILIES = {"f", "f", "f", "fa"};

  private TestCells() {}

  static byte[] randomRow(Random rnd) {
    byte[] r = new byte[1 + rnd.nextInt(5)];
    for (int i = 0; i < r.length; i++) {
      r[i] = ROW_BYTES[rnd.nextInt(ROW_BYTES.length)];
    }
    return r;
  }

  /**
   * Distinct cells in cell order: rows from a pool of {@code rowPool}, all types, empty and shared
   * qualifiers, equal keys that differ only in sequence id, and values from empty to {@code
   * maxValue} bytes (large ones rare). Sequence ids are distinct, in 1..3n.
   */
  static List<KeyValue> random(Random rnd, int n, int rowPool, int maxValue) {
    List<byte[]> rows = new ArrayList<>();
    for (int i = 0; i < rowPool; i++) {
      rows.add(randomRow(rnd));
    }
    List<Long> seqs = new ArrayList<>();
    for (long s = 1; s <= 3L * n; s++) {
      seqs.add(s);
    }
    Collections.shuffle(seqs, rnd);
    List<KeyValue> cells = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long seq = seqs.get(i);
      if (!cells.isEmpty() && rnd.nextInt(8) == 0) {
        // Same key as an earlier cell, another sequence id and value.
        KeyValue o = cells.get(rnd.nextInt(cells.size()));
        byte[] v = value(rnd, maxValue);
        cells.add(
            KeyValue.create(
                    o.getRowArray(),
                    o.getRowOffset(),
                    o.getRowLength(),
                    o.getFamilyArray(),
                    o.getFamilyOffset(),
                    o.getFamilyLength(),
                    o.getQualifierArray(),
                    o.getQualifierOffset(),
                    o.getQualifierLength(),
                    o.getTimestamp(),
                    o.getTypeByte(),
                    v,
                    0,
                    v.length)
                .withSequenceId(seq));
        continue;
      }
      CellType t = TYPES[rnd.nextInt(TYPES.length)];
      String q =
          t == CellType.DELETE_FAMILY || t == CellType.DELETE_FAMILY_VERSION
              ? ""
              : QUALIFIERS[rnd.nextInt(QUALIFIERS.length)];
      byte[] v = t == CellType.PUT ? value(rnd, maxValue) : Bytes.EMPTY;
      cells.add(
          KeyValue.of(
                  rows.get(rnd.nextInt(rows.size())),
                  Bytes.toBytes(FAMILIES[rnd.nextInt(FAMILIES.length)]),
                  Bytes.toBytes(q),
                  rnd.nextInt(4),
                  t,
                  v)
              .withSequenceId(seq)
              .withTtl(t == CellType.PUT ? ttlFor(seq) : KeyValue.NO_TTL));
    }
    cells.sort(CellComparator.INSTANCE);
    return cells;
  }

  /**
   * A per-cell TTL for some puts, chosen by sequence id so that the random draws (and what older
   * seeds produce) stay as they were: none for most, else values with every sign and size.
   */
  static long ttlFor(long seq) {
    return switch ((int) (seq % 9)) {
      case 2 -> 0;
      case 5 -> seq * 1000;
      case 7 -> Long.MAX_VALUE - 1;
      case 8 -> -seq;
      default -> KeyValue.NO_TTL;
    };
  }

  private static byte[] value(Random rnd, int maxValue) {
    int k = rnd.nextInt(100);
    int len;
    if (k < 15 || maxValue == 0) {
      len = 0;
    } else if (k < 97) {
      len = rnd.nextInt(Math.min(24, maxValue) + 1);
    } else {
      len = rnd.nextInt(maxValue + 1);
    }
    byte[] v = new byte[len];
    // Half the values compressible, half random.
    if (rnd.nextBoolean()) {
      rnd.nextBytes(v);
    } else {
      for (int i = 0; i < len; i++) {
        v[i] = (byte) ('a' + (i % 7));
      }
    }
    return v;
  }

  static long maxSeq(List<KeyValue> cells) {
    long m = 0;
    for (KeyValue kv : cells) {
      m = Math.max(m, kv.getSequenceId());
    }
    return m;
  }

  static StoreFileInfo write(Storage s, String path, List<KeyValue> cells, StoreFileOptions o)
      throws IOException {
    try (StoreFileWriter w = StoreFileWriter.create(s, path, o)) {
      for (KeyValue kv : cells) {
        w.append(kv);
      }
      return w.finish(maxSeq(cells) + 1, false);
    }
  }

  static List<KeyValue> visible(List<KeyValue> cells, long readPoint) {
    List<KeyValue> out = new ArrayList<>();
    for (KeyValue kv : cells) {
      if (kv.getSequenceId() <= readPoint) {
        out.add(kv);
      }
    }
    return out;
  }

  /** Every cell the scanner returns from the start of the file. */
  static List<Cell> scanAll(KeyValueScanner s) throws IOException {
    List<Cell> out = new ArrayList<>();
    s.seek(KeyValue.firstOnRow(Bytes.EMPTY));
    Cell c;
    while ((c = s.next()) != null) {
      out.add(c);
    }
    return out;
  }

  /** Equal bytes and sequence ids; a cell is named by index on a mismatch. */
  static void assertSameCells(List<? extends Cell> actual, List<? extends Cell> expected) {
    for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
      assertSameCell(actual.get(i), expected.get(i), "cell " + i);
    }
    assertThat(actual.size()).as("cell count").isEqualTo(expected.size());
  }

  static void assertSameCell(Cell actual, Cell expected, String what) {
    if (actual == null || expected == null) {
      if (actual != expected) {
        fail(what + ": expected " + expected + " but got " + actual);
      }
      return;
    }
    KeyValue a = KeyValue.copyOf(actual);
    KeyValue e = KeyValue.copyOf(expected);
    if (!a.equals(e) || a.getSequenceId() != e.getSequenceId() || a.getTtl() != e.getTtl()) {
      fail(what + ": expected " + e + " but got " + a);
    }
  }
}
