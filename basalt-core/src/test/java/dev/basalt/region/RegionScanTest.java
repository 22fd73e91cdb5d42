package dev.basalt.region;

import static dev.basalt.region.TestRegions.F;
import static dev.basalt.region.TestRegions.G;
import static dev.basalt.region.TestRegions.b;
import static dev.basalt.region.TestRegions.cells;
import static dev.basalt.region.TestRegions.region;
import static dev.basalt.region.TestRegions.scanAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.util.ManualClock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Scan shapes: bounds, direction, batching, limits, column selection, per-family limits. */
class RegionScanTest {
  private final ManualClock clock = new ManualClock(1_000);
  private Region r;

  @BeforeEach
  void load() throws IOException {
    r = region(clock, f -> f.setMaxVersions(3));
    for (String row : new String[] {"a", "b", "c", "d"}) {
      r.put(
          new Put(b(row))
              .addColumn(F, b("x"), 1, b(row + "x1"))
              .addColumn(F, b("y"), 1, b(row + "y1"))
              .addColumn(G, b("z"), 1, b(row + "z1")));
    }
    r.put(new Put(b("b")).addColumn(F, b("x"), 2, b("bx2")));
  }

  private List<String> rows(Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.getScanner(scan)) {
      Result res;
      while ((res = s.next()) != null) {
        out.add(new String(res.getRow()));
      }
    }
    return out;
  }

  @Test
  void forwardBoundsAndInclusiveFlags() throws IOException {
    assertThat(rows(new Scan())).containsExactly("a", "b", "c", "d");
    assertThat(rows(new Scan().withStartRow(b("b")).withStopRow(b("d")))).containsExactly("b", "c");
    assertThat(rows(new Scan().withStartRow(b("b"), false).withStopRow(b("d"), true)))
        .containsExactly("c", "d");
    assertThat(rows(new Scan().withStartRow(b("bb")))).containsExactly("c", "d");
    assertThat(rows(new Scan().withStopRow(b("a")))).isEmpty();
  }

  @Test
  void reversedBoundsStartHighAndWalkDown() throws IOException {
    assertThat(rows(new Scan().setReversed(true))).containsExactly("d", "c", "b", "a");
    assertThat(rows(new Scan().setReversed(true).withStartRow(b("c")).withStopRow(b("a"))))
        .containsExactly("c", "b");
    assertThat(
            rows(
                new Scan().setReversed(true).withStartRow(b("c"), false).withStopRow(b("a"), true)))
        .containsExactly("b", "a");
    assertThat(rows(new Scan().setReversed(true).withStartRow(b("bz")))).containsExactly("b", "a");
  }

  @Test
  void reversedRowsKeepCellsInForwardOrder() throws IOException {
    List<List<String>> res =
        scanAll(r, new Scan().setReversed(true).withStartRow(b("b")).setLimit(1));
    assertThat(res).containsExactly(List.of("b/f:x@2=bx2", "b/f:y@1=by1", "b/g:z@1=bz1"));
  }

  @Test
  void prefixScanWorksInBothDirections() throws IOException {
    r.put(new Put(b("bb")).addColumn(F, b("x"), 1, b("v")));
    assertThat(rows(new Scan().setRowPrefixFilter(b("b")))).containsExactly("b", "bb");
    assertThat(rows(new Scan().setRowPrefixFilter(b("b")).setReversed(true)))
        .containsExactly("bb", "b");
  }

  @Test
  void batchSplitsWideRowsAndFlagsPartialResults() throws IOException {
    List<Boolean> partial = new ArrayList<>();
    List<List<String>> chunks = new ArrayList<>();
    try (RegionScanner s = r.getScanner(new Scan().setBatch(2).withStopRow(b("b"), true))) {
      Result res;
      while ((res = s.next()) != null) {
        chunks.add(cells(res));
        partial.add(res.mayHaveMoreCellsInRow());
      }
    }
    assertThat(chunks)
        .containsExactly(
            List.of("a/f:x@1=ax1", "a/f:y@1=ay1"),
            List.of("a/g:z@1=az1"),
            List.of("b/f:x@2=bx2", "b/f:y@1=by1"),
            List.of("b/g:z@1=bz1"));
    assertThat(partial).containsExactly(true, false, true, false);
  }

  @Test
  void limitCountsRowsNotResults() throws IOException {
    assertThat(scanAll(r, new Scan().setBatch(1).setLimit(2))).hasSize(6);
    assertThat(rows(new Scan().setLimit(3))).containsExactly("a", "b", "c");
  }

  @Test
  void columnsAndFamiliesSelectWhatIsRead() throws IOException {
    assertThat(scanAll(r, new Scan().addColumn(F, b("y")).withStopRow(b("b"))))
        .containsExactly(List.of("a/f:y@1=ay1"));
    assertThat(scanAll(r, new Scan().addFamily(G).withStopRow(b("b"))))
        .containsExactly(List.of("a/g:z@1=az1"));
    assertThat(scanAll(r, new Scan().addColumn(F, b("x")).addFamily(G).withStopRow(b("b"))))
        .containsExactly(List.of("a/f:x@1=ax1", "a/g:z@1=az1"));
    assertThat(cells(r.get(new Get(b("b")).addColumn(F, b("nope"))))).isEmpty();
  }

  @Test
  void versionsAndTimeRanges() throws IOException {
    assertThat(cells(r.get(new Get(b("b")).addColumn(F, b("x")).readAllVersions())))
        .containsExactly("b/f:x@2=bx2", "b/f:x@1=bx1");
    assertThat(cells(r.get(new Get(b("b")).addColumn(F, b("x")).setTimestamp(1))))
        .containsExactly("b/f:x@1=bx1");
    assertThat(cells(r.get(new Get(b("b")).setColumnFamilyTimeRange(F, 2, 3))))
        .containsExactly("b/f:x@2=bx2", "b/g:z@1=bz1");
  }

  @Test
  void perFamilyLimitAndOffset() throws IOException {
    assertThat(cells(r.get(new Get(b("b")).setMaxResultsPerColumnFamily(1))))
        .containsExactly("b/f:x@2=bx2", "b/g:z@1=bz1");
    assertThat(cells(r.get(new Get(b("b")).setRowOffsetPerColumnFamily(1))))
        .containsExactly("b/f:y@1=by1");
  }

  @Test
  void existenceOnlyGets() throws IOException {
    assertThat(r.get(new Get(b("a")).setCheckExistenceOnly(true)).getExists()).isTrue();
    assertThat(r.get(new Get(b("zz")).setCheckExistenceOnly(true)).getExists()).isFalse();
  }

  @Test
  void scannerSeesOneSnapshot() throws IOException {
    try (RegionScanner s = r.getScanner(new Scan())) {
      assertThat(new String(s.next().getRow())).isEqualTo("a");
      r.put(new Put(b("bb")).addColumn(F, b("x"), 1, b("new")));
      r.put(new Put(b("c")).addColumn(F, b("x"), 9, b("new")));
      List<String> rest = new ArrayList<>();
      Result res;
      while ((res = s.next()) != null) {
        rest.addAll(cells(res));
      }
      assertThat(rest).doesNotContain("bb/f:x@1=new", "c/f:x@9=new");
    }
    assertThat(rows(new Scan())).contains("bb");
  }

  @Test
  void emptyQualifierColumnWorksNextToFamilyMarkers() throws IOException {
    Region e = region(clock, f -> f.setMaxVersions(1));
    byte[] row = b("r");
    e.put(new Put(row).addColumn(F, b(""), 10, b("e10")).addColumn(F, b("a"), 3, b("a3")));
    e.put(new Put(row).addColumn(F, b(""), 8, b("e8")));
    e.delete(new dev.basalt.ops.Delete(row).addFamily(F, 5));
    // the family marker at 5 sorts inside the empty-qualifier column, after its newer cells
    assertThat(cells(e.get(new Get(row)))).containsExactly("r/f:@10=e10");
  }
}
