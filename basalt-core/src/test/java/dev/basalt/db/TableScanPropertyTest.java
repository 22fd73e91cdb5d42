package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.filter.PageFilter;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.RegionSettings;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Scans over a table of many regions return exactly what the same scan returns over the same rows
 * in a one-region table: random rows (some wide, read in partial results with a batch size), random
 * split keys (at rows, between them, outside them), and random scans: both directions, inclusive or
 * exclusive bounds, a row prefix, a limit, a batch size, a page filter whose count spans regions.
 * Half of the data is flushed, so regions read store files and memstores.
 */
class TableScanPropertyTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static Path dir;
  private static Database db;
  private static int tableCounter;

  @BeforeContainer
  static void open() throws IOException {
    Path shm = Path.of("/dev/shm"); // no fsync cost: this test is about reads
    dir =
        Files.isDirectory(shm) && Files.isWritable(shm)
            ? Files.createTempDirectory(shm, "basalt-table-scan-")
            : Files.createTempDirectory("basalt-table-scan-");
    db = Database.open(dir, Config.builder().set(RegionSettings.FLUSH_SIZE, 1L << 40).build());
  }

  @AfterContainer
  static void close() throws IOException {
    db.close();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** A row and how many columns it has. */
  record Row(String key, int columns) {}

  /** One scan's settings. */
  record ScanSpec(
      String start,
      boolean includeStart,
      String stop,
      boolean includeStop,
      String prefix,
      boolean reversed,
      int limit,
      int batch,
      int pageSize) {
    Scan build() {
      Scan s = new Scan().setReversed(reversed);
      if (prefix != null) {
        s.setRowPrefixFilter(Bytes.toBytes(prefix));
      } else {
        s.withStartRow(Bytes.toBytes(start), includeStart);
        s.withStopRow(Bytes.toBytes(stop), includeStop);
      }
      if (limit > 0) {
        s.setLimit(limit);
      }
      if (batch > 0) {
        s.setBatch(batch);
      }
      if (pageSize > 0) {
        s.setFilter(new PageFilter(pageSize));
      }
      return s;
    }
  }

  @Property(tries = 100)
  void aMultiRegionTableScansLikeOneRegion(
      @ForAll("rows") List<Row> rows,
      @ForAll("keys") Set<String> splits,
      @ForAll("scans") List<ScanSpec> scans)
      throws IOException {
    TableName one = TableName.valueOf("one" + tableCounter);
    TableName many = TableName.valueOf("many" + tableCounter++);
    byte[][] keys = new byte[splits.size()][];
    int k = 0;
    for (String s : new java.util.TreeSet<>(splits)) {
      keys[k++] = Bytes.toBytes(s);
    }
    db.createTable(table(one));
    db.createTable(table(many), keys);
    try {
      assertThat(db.getRegions(many)).hasSize(keys.length + 1);
      List<Put> puts = new ArrayList<>();
      for (Row r : rows) {
        Put p = new Put(Bytes.toBytes(r.key()));
        for (int c = 0; c < r.columns(); c++) {
          p.addColumn(F, Bytes.toBytes("c" + c), 1000 + c, Bytes.toBytes(r.key() + "/" + c));
        }
        puts.add(p);
      }
      int half = puts.size() / 2;
      for (TableName t : List.of(one, many)) {
        db.getTable(t).put(puts.subList(0, half));
        db.flush(t);
        db.getTable(t).put(puts.subList(half, puts.size()));
      }
      for (ScanSpec spec : scans) {
        Object expected = scanAll(db.getTable(one), spec.build());
        Object actual = scanAll(db.getTable(many), spec.build());
        assertThat(actual).as("%s over regions split at %s", spec, splits).isEqualTo(expected);
      }
    } finally {
      for (TableName t : List.of(one, many)) {
        db.disableTable(t);
        db.deleteTable(t);
      }
    }
  }

  private static TableDescriptor table(TableName name) {
    return TableDescriptorBuilder.newBuilder(name)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
        .build();
  }

  /**
   * The results, each as its cells and partial flag (sequence ids differ between the tables), or
   * the error (a batch size with a whole-row filter is refused).
   */
  private static Object scanAll(Table t, Scan scan) {
    List<String> out = new ArrayList<>();
    try (ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        StringBuilder sb = new StringBuilder();
        for (Cell c : r.cells()) {
          sb.append(Bytes.toStringBinary(CellUtil.cloneRow(c)))
              .append('/')
              .append(Bytes.toStringBinary(CellUtil.cloneQualifier(c)))
              .append('@')
              .append(c.getTimestamp())
              .append('=')
              .append(Bytes.toStringBinary(CellUtil.cloneValue(c)))
              .append(' ');
        }
        out.add(sb.append(r.mayHaveMoreCellsInRow() ? "(partial)" : "").toString());
      }
    } catch (IOException | UncheckedIOException e) {
      return "error " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }
    return out;
  }

  private static final List<String> KEYS =
      List.of("", "a", "a0", "a1", "ab", "b", "b5", "ba", "c", "c0", "cc", "d", "e", "e1", "z");

  @Provide
  Arbitrary<String> key() {
    return Arbitraries.of(KEYS);
  }

  @Provide
  Arbitrary<List<Row>> rows() {
    Arbitrary<Integer> width =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.just(1)), Tuple.of(1, Arbitraries.integers().between(2, 7)));
    return Combinators.combine(
            Arbitraries.of(KEYS).filter(s -> !s.isEmpty()).list().ofMaxSize(14).uniqueElements(),
            width.list().ofSize(14))
        .as(
            (keys, widths) -> {
              List<Row> out = new ArrayList<>();
              for (int i = 0; i < keys.size(); i++) {
                out.add(new Row(keys.get(i), widths.get(i)));
              }
              return out;
            });
  }

  @Provide
  Arbitrary<Set<String>> keys() {
    return Arbitraries.of(KEYS).filter(s -> !s.isEmpty()).set().ofMinSize(1).ofMaxSize(6);
  }

  @Provide
  Arbitrary<List<ScanSpec>> scans() {
    Arbitrary<ScanSpec> bounded =
        Combinators.combine(
                key(),
                Arbitraries.of(true, false),
                key(),
                Arbitraries.of(true, false),
                Arbitraries.of(true, false),
                Arbitraries.of(-1, -1, 1, 2, 5),
                Arbitraries.of(-1, -1, 1, 3),
                Arbitraries.of(0, 0, 0, 1, 3))
            .as(
                (start, incStart, stop, incStop, reversed, limit, batch, page) ->
                    new ScanSpec(
                        start, incStart, stop, incStop, null, reversed, limit, batch, page));
    Arbitrary<ScanSpec> prefixed =
        Combinators.combine(
                Arbitraries.of("a", "b", "c", "e", "x"),
                Arbitraries.of(true, false),
                Arbitraries.of(-1, 2))
            .as(
                (p, reversed, limit) ->
                    new ScanSpec("", true, "", false, p, reversed, limit, -1, 0));
    return Arbitraries.oneOf(bounded, bounded, bounded, prefixed).list().ofMinSize(1).ofMaxSize(8);
  }
}
