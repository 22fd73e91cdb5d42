package dev.basalt.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.filter.FilterSpecs.Paged;
import dev.basalt.filter.FilterSpecs.Spec;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import dev.basalt.region.RegionScanner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Scans with seek-capable filters (and lists of them) return exactly what a naive evaluation
 * returns: read the versions the filter may see with no filter and no seeking (deterministic
 * families: those the read returns without the filter; classic ones: the newest VERSIONS), keep the
 * cells the filter's parameters accept, then apply the read's version limit (docs/SEMANTICS.md
 * section 3: versions are counted before the filter). Random rows (with 0x00 and 0xFF bytes),
 * columns, versions and deletes; memstore and store files; both delete semantics; forward and
 * reversed scans with random bounds, column selections and batch sizes; Gets. Timestamp hints,
 * which step over versions of a column, must not change what counts.
 */
class FilterSeekPropertyTest {

  /** One random table and its region. */
  private static final class Data implements AutoCloseable {
    final Region region;
    final boolean deterministic;
    final int versions;
    final List<byte[]> rows = new ArrayList<>();
    final List<byte[]> quals = new ArrayList<>();
    private final Path dir;

    Data(Random rnd) throws IOException {
      boolean stored = rnd.nextBoolean();
      boolean familyDeletes = rnd.nextBoolean();
      boolean deletes = rnd.nextInt(3) > 0;
      versions = new int[] {1, 2, 5}[rnd.nextInt(3)];
      deterministic = rnd.nextInt(3) > 0;
      dir = stored ? Files.createTempDirectory("filter-prop") : null;
      region =
          stored
              ? Fixture.stored(dir, versions, deterministic)
              : Fixture.memory(versions, deterministic);
      TreeSet<byte[]> rowSet = new TreeSet<>(Bytes.COMPARATOR);
      int nRows = 4 + rnd.nextInt(14);
      while (rowSet.size() < nRows) {
        rowSet.add(FilterSpecs.randomBytes(rnd, FilterSpecs.ROW_ALPHABET, 1, 3));
      }
      rows.addAll(rowSet);
      TreeSet<byte[]> qualSet = new TreeSet<>(Bytes.COMPARATOR);
      for (int i = 0; i < 6; i++) {
        qualSet.add(FilterSpecs.randomBytes(rnd, FilterSpecs.QUAL_ALPHABET, 0, 2));
      }
      quals.addAll(qualSet);
      List<Runnable> writes = new ArrayList<>();
      for (byte[] row : rows) {
        for (byte[] fam : new byte[][] {Fixture.F, Fixture.G}) {
          if (rnd.nextInt(4) == 0) {
            continue;
          }
          for (byte[] q : quals) {
            if (rnd.nextInt(3) == 0) {
              continue;
            }
            int n = 1 + rnd.nextInt(3);
            for (int v = 0; v < n; v++) {
              long ts = 1 + rnd.nextInt(5);
              byte[] value = Bytes.toBytes("v" + rnd.nextInt(100));
              writes.add(() -> write(new Put(row).addColumn(fam, q, ts, value)));
            }
            if (deletes && rnd.nextInt(5) == 0) {
              long ts = 1 + rnd.nextInt(5);
              Delete d =
                  rnd.nextBoolean()
                      ? new Delete(row).addColumn(fam, q, ts)
                      : new Delete(row).addColumns(fam, q, ts);
              writes.add(() -> delete(d));
            }
          }
          if (deletes && familyDeletes && rnd.nextInt(6) == 0) {
            long ts = 1 + rnd.nextInt(5);
            writes.add(() -> delete(new Delete(row).addFamily(fam, ts)));
          }
        }
      }
      java.util.Collections.shuffle(writes, rnd);
      int flushAt = stored ? rnd.nextInt(writes.size() + 1) : -1;
      for (int i = 0; i < writes.size(); i++) {
        if (i == flushAt) {
          region.flush();
        }
        writes.get(i).run();
      }
    }

    FilterSpecs.Pools pools() {
      return new FilterSpecs.Pools(rows, quals);
    }

    private void write(Put p) {
      try {
        region.put(p);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    private void delete(Delete d) {
      try {
        region.delete(d);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public void close() throws IOException {
      region.close();
      if (dir != null) {
        try (Stream<Path> s = Files.walk(dir)) {
          s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
  }

  /** A random read: bounds, direction, versions, columns. */
  private record Read(
      byte[] start,
      boolean startInc,
      byte[] stop,
      boolean stopInc,
      boolean reversed,
      boolean allVersions,
      int columns,
      byte[] qa,
      byte[] qb,
      byte[] getRow,
      int batch) {

    static Read random(Random rnd, Data d) {
      byte[] start =
          rnd.nextInt(3) == 0
              ? FilterSpecs.randomBytes(rnd, FilterSpecs.ROW_ALPHABET, 1, 2)
              : new byte[0];
      byte[] stop =
          rnd.nextInt(3) == 0
              ? FilterSpecs.randomBytes(rnd, FilterSpecs.ROW_ALPHABET, 1, 2)
              : new byte[0];
      byte[] getRow = rnd.nextInt(5) == 0 ? d.rows.get(rnd.nextInt(d.rows.size())) : null;
      boolean allVersions = rnd.nextBoolean();
      return new Read(
          start,
          rnd.nextBoolean(),
          stop,
          rnd.nextBoolean(),
          rnd.nextBoolean(),
          allVersions,
          rnd.nextInt(4),
          d.quals.get(rnd.nextInt(d.quals.size())),
          d.quals.get(rnd.nextInt(d.quals.size())),
          getRow,
          rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(3) : 0);
    }

    Scan scan(Filter f, boolean everyVersion) {
      Scan s;
      if (getRow != null) {
        s = new Scan(new Get(getRow));
      } else {
        s = new Scan().setReversed(reversed);
        if (start.length > 0) {
          s.withStartRow(start, startInc);
        }
        if (stop.length > 0) {
          s.withStopRow(stop, stopInc);
        }
      }
      if (everyVersion || allVersions) {
        s.readAllVersions();
      }
      if (columns == 1) {
        s.addFamily(Fixture.F);
      } else if (columns == 2) {
        s.addColumn(Fixture.F, qa).addColumn(Fixture.G, qb).addColumn(Fixture.F, qb);
      }
      if (f == null) {
        return s;
      }
      // Slicing rows into batches stops and resumes the store scanners between hints.
      if (batch > 0 && !f.hasFilterRow()) {
        s.setBatch(batch);
      }
      return s.setFilter(f);
    }

    @Override
    public String toString() {
      return (getRow != null
              ? "Get " + FilterSpecs.show(getRow)
              : (reversed ? "reversed " : "")
                  + "scan "
                  + FilterSpecs.show(start)
                  + (startInc ? "[" : "(")
                  + " .. "
                  + FilterSpecs.show(stop)
                  + (stopInc ? "]" : ")"))
          + (allVersions ? " all versions" : " 1 version")
          + (columns == 1 ? " family f" : columns == 2 ? " columns" : "")
          + (batch > 0 ? " batch " + batch : "");
    }
  }

  /** The rows of a scan, slices of one row (from a batch size) joined. */
  private static List<List<Cell>> rows(Region r, Scan s) throws IOException {
    List<List<Cell>> out = new ArrayList<>();
    try (RegionScanner sc = r.getScanner(s)) {
      Result res;
      while ((res = sc.next()) != null) {
        List<Cell> cells = List.of(res.rawCells());
        List<Cell> last = out.isEmpty() ? null : out.get(out.size() - 1);
        if (last != null && CellUtil.matchingRows(last.get(0), cells.get(0))) {
          List<Cell> joined = new ArrayList<>(last);
          joined.addAll(cells);
          out.set(out.size() - 1, joined);
        } else {
          out.add(cells);
        }
      }
    }
    return out;
  }

  private static List<String> render(List<List<Cell>> rows) {
    List<String> out = new ArrayList<>();
    for (List<Cell> row : rows) {
      out.add(Fixture.row(Result.create(row)));
    }
    return out;
  }

  /** Keeps the first {@code max} cells of each column. */
  private static List<Cell> limitVersions(List<Cell> cells, int max) {
    List<Cell> out = new ArrayList<>();
    Cell column = null;
    int n = 0;
    for (Cell c : cells) {
      if (column == null
          || !CellUtil.matchingFamily(c, CellUtil.cloneFamily(column))
          || !CellUtil.matchingQualifiers(c, column)) {
        column = c;
        n = 0;
      }
      if (++n <= max) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * The naive answer: the versions the filter may see, filtered cell by cell, then the read's
   * version limit; rows without cells dropped.
   */
  private static List<String> naive(Data d, Read read, Function<List<Cell>, List<Cell>> perRow)
      throws IOException {
    List<List<Cell>> everything = rows(d.region, read.scan(null, !d.deterministic));
    int max = read.allVersions ? Integer.MAX_VALUE : 1;
    List<List<Cell>> out = new ArrayList<>();
    for (List<Cell> row : everything) {
      List<Cell> kept = limitVersions(perRow.apply(row), max);
      if (!kept.isEmpty()) {
        out.add(kept);
      }
    }
    return render(out);
  }

  private static void check(
      Data d, Read read, Filter filter, Function<List<Cell>, List<Cell>> perRow, Object spec)
      throws IOException {
    List<String> expected = naive(d, read, perRow);
    List<String> actual = render(rows(d.region, read.scan(filter, false)));
    assertThat(actual)
        .as("%s with %s (%s)", read, spec, d.deterministic ? "deterministic" : "classic")
        .isEqualTo(expected);
  }

  @Property(tries = 400)
  void statelessFiltersAndListsSeekOnlyPastCellsThatCannotPass(@ForAll long seed)
      throws IOException {
    Random rnd = new Random(seed);
    try (Data d = new Data(rnd)) {
      for (int i = 0; i < 4; i++) {
        Spec spec = FilterSpecs.random(rnd, d.pools(), 2, true);
        Read read = Read.random(rnd, d);
        check(d, read, spec.build(), row -> row.stream().filter(spec::passes).toList(), spec);
      }
    }
  }

  @Property(tries = 200)
  void columnPagesSeekToTheirOffset(@ForAll long seed) throws IOException {
    Random rnd = new Random(seed);
    try (Data d = new Data(rnd)) {
      for (int i = 0; i < 4; i++) {
        Paged spec = FilterSpecs.randomPaged(rnd, d.pools(), true);
        Read read = Read.random(rnd, d);
        check(d, read, spec.build(), spec::apply, spec);
      }
    }
  }
}
