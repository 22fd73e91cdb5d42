package dev.basalt.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.memstore.Memstore;
import dev.basalt.ops.Scan;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.KeepDeletedCells;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Under deterministic history, compacting a sequence prefix of a store never changes a read: not at
 * the time of the compaction, not later (TTL moving on), and not after further writes and deletes
 * (docs/SEMANTICS.md section 7).
 */
class CompactionMatcherPropertyTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final String[] ROWS = {"r1", "r2"};
  private static final String[] QUALS = {"", "a", "b"};
  private static final long NOW = 100_000;

  private static final class History {
    final List<KeyValue> cells = new ArrayList<>();
    long seq;

    void mutate(Random rnd) {
      seq++;
      byte[] row = Bytes.toBytes(ROWS[rnd.nextInt(ROWS.length)]);
      long ts = NOW - 1000L * (1 + rnd.nextInt(12)); // some expire with a 5 s TTL, some do not
      int kind = rnd.nextInt(10);
      if (kind < 6) {
        int n = 1 + rnd.nextInt(2);
        for (int i = 0; i < n; i++) {
          byte[] q = Bytes.toBytes(QUALS[rnd.nextInt(QUALS.length)]);
          long t = i == 0 ? ts : NOW - 1000L * (1 + rnd.nextInt(12));
          cells.add(
              KeyValue.of(row, F, q, t, CellType.PUT, Bytes.toBytes("v" + seq))
                  .withSequenceId(seq));
        }
      } else {
        CellType[] types = {
          CellType.DELETE,
          CellType.DELETE_COLUMN,
          CellType.DELETE_FAMILY,
          CellType.DELETE_FAMILY_VERSION
        };
        CellType t = types[rnd.nextInt(types.length)];
        byte[] q =
            t == CellType.DELETE_FAMILY || t == CellType.DELETE_FAMILY_VERSION
                ? Bytes.EMPTY
                : Bytes.toBytes(QUALS[rnd.nextInt(QUALS.length)]);
        cells.add(KeyValue.of(row, F, q, ts, t, Bytes.EMPTY).withSequenceId(seq));
      }
    }
  }

  private static ColumnFamilyDescriptor family(Random rnd) {
    int versions = 1 + rnd.nextInt(3);
    KeepDeletedCells[] kdc = KeepDeletedCells.values();
    return ColumnFamilyDescriptorBuilder.newBuilder(F)
        .setMaxVersions(versions)
        .setMinVersions(rnd.nextInt(versions + 1))
        .setTimeToLive(rnd.nextBoolean() ? ColumnFamilyDescriptor.FOREVER : 5)
        .setKeepDeletedCells(kdc[rnd.nextInt(kdc.length)])
        .build();
  }

  private static Memstore store(List<KeyValue> cells) {
    Memstore m = new Memstore();
    cells.forEach(m::add);
    return m;
  }

  private static List<KeyValue> compactPrefix(
      ColumnFamilyDescriptor f, List<KeyValue> cells, long prefixSeq) {
    List<KeyValue> prefix = new ArrayList<>();
    List<KeyValue> out = new ArrayList<>();
    for (KeyValue kv : cells) {
      (kv.getSequenceId() <= prefixSeq ? prefix : out).add(kv);
    }
    prefix.sort(CellComparator.INSTANCE);
    CompactionMatcher m =
        CompactionMatcher.create(f, CompactionMatcher.Kind.DETERMINISTIC_PREFIX, NOW);
    for (KeyValue kv : prefix) {
      if (m.keep(kv)) {
        out.add(kv);
      }
    }
    return out;
  }

  /** Every cell a read returns, over all rows, as text. */
  private static List<String> read(ColumnFamilyDescriptor f, Memstore m, Scan scan, long now)
      throws IOException {
    NavigableSet<byte[]> cols = scan.getFamilyMap().get(F);
    List<KeyValueScanner> sources = new ArrayList<>();
    sources.add(m.scanner(Long.MAX_VALUE));
    StoreScanner s =
        new StoreScanner(
            sources,
            new QueryMatcher(ScanPolicy.forRead(f, scan, cols, now), null),
            Bytes.EMPTY,
            true,
            false,
            -1,
            0,
            false);
    List<Cell> out = new ArrayList<>();
    while (s.peek() != null) {
      s.nextInRow(out, Integer.MAX_VALUE);
    }
    s.close();
    List<String> text = new ArrayList<>();
    for (Cell c : out) {
      text.add(c.toString() + "=" + Bytes.toString(dev.basalt.cell.CellUtil.cloneValue(c)));
    }
    return text;
  }

  private static List<Scan> reads(Random rnd) {
    List<Scan> scans = new ArrayList<>();
    scans.add(new Scan().readAllVersions());
    scans.add(new Scan());
    for (int i = 0; i < 4; i++) {
      Scan s = new Scan().readVersions(1 + rnd.nextInt(3));
      long a = NOW - 1000L * rnd.nextInt(14);
      s.setTimeRange(Math.max(0, a - 1000L * rnd.nextInt(8)), a + 1);
      if (rnd.nextBoolean()) {
        TreeSet<String> q = new TreeSet<>();
        q.add(QUALS[rnd.nextInt(QUALS.length)]);
        q.forEach(x -> s.addColumn(F, Bytes.toBytes(x)));
      }
      scans.add(s);
    }
    return scans;
  }

  @Property(tries = 1000)
  void compactingASequencePrefixChangesNoRead(@ForAll long seed) throws IOException {
    Random rnd = new Random(seed);
    ColumnFamilyDescriptor f = family(rnd);
    History h = new History();
    int n = 5 + rnd.nextInt(30);
    for (int i = 0; i < n; i++) {
      h.mutate(rnd);
    }
    long prefix = 1 + rnd.nextInt((int) h.seq);
    List<KeyValue> compacted = compactPrefix(f, h.cells, prefix);
    // ...then more history arrives, on both stores alike.
    List<KeyValue> before = new ArrayList<>(h.cells);
    int more = rnd.nextInt(10);
    for (int i = 0; i < more; i++) {
      h.mutate(rnd);
    }
    List<KeyValue> later = h.cells.subList(before.size(), h.cells.size());
    List<KeyValue> full = new ArrayList<>(h.cells);
    List<KeyValue> afterCompaction = new ArrayList<>(compacted);
    afterCompaction.addAll(later);

    Memstore a = store(full);
    Memstore b = store(afterCompaction);
    String context = "family " + f + ", prefix seq " + prefix + ", cells " + full;
    for (Scan scan : reads(rnd)) {
      for (long now : new long[] {NOW, NOW + 4_000, NOW + 60_000}) {
        assertThat(read(f, b, scan, now))
            .as("%s at now=%d: %s", scan, now, context)
            .isEqualTo(read(f, a, scan, now));
      }
    }
  }
}
