package dev.basalt.filter;

import static dev.basalt.filter.Fixture.b;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.filter.FilterList.Operator;
import dev.basalt.filter.MultiRowRangeFilter.RowRange;
import dev.basalt.ops.Put;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seek hints over data spread across two store files and the memstore (each seek repositions every
 * source) return what the same filters return over the memstore alone.
 */
class StoreFileHintsTest {
  @TempDir Path dir;
  private Region stored;
  private Region memory;

  @BeforeEach
  void load() throws IOException {
    stored = Fixture.stored(dir, 3);
    memory = Fixture.memory(3);
    for (int part = 0; part < 3; part++) {
      for (int i = part; i < 60; i += 3) {
        String row = String.format("r%02d", i);
        for (String q : new String[] {"a", "ab", "b", "ba", "c"}) {
          for (byte[] fam : new byte[][] {Fixture.F, Fixture.G}) {
            Put p = new Put(b(row)).addColumn(fam, b(q), 1 + (i % 4), b(row + q));
            stored.put(p);
            memory.put(p);
          }
        }
      }
      if (part < 2) {
        stored.flush();
      }
    }
    assertThat(stored.getStoreFileCount()).isGreaterThanOrEqualTo(2);
  }

  private void same(Supplier<Filter> f, int expectedRows) throws IOException {
    for (boolean reversed : new boolean[] {false, true}) {
      Scan s = new Scan().readAllVersions().setReversed(reversed);
      List<String> fromFiles = Fixture.scan(stored, s.setFilter(f.get()));
      Scan t = new Scan().readAllVersions().setReversed(reversed);
      assertThat(fromFiles).isEqualTo(Fixture.scan(memory, t.setFilter(f.get())));
      assertThat(fromFiles).hasSize(expectedRows);
    }
  }

  @Test
  void rowHints() throws IOException {
    same(() -> new PrefixFilter(b("r3")), 10);
    same(
        () ->
            new MultiRowRangeFilter(
                new ArrayList<>(
                    List.of(
                        new RowRange("r05", true, "r07", false),
                        new RowRange("r20", false, "r22", true),
                        new RowRange("r58", true, "", false)))),
        6);
    same(() -> new FuzzyRowFilter(List.of(Map.entry(b("r?5"), new byte[] {0, 1, 0}))), 6);
  }

  @Test
  void columnHintsAndListsOfBoth() throws IOException {
    same(() -> new ColumnPrefixFilter(b("b")), 60);
    same(() -> new ColumnRangeFilter(b("ab"), false, b("ba"), true), 60);
    same(() -> new MultipleColumnPrefixFilter(new byte[][] {b("ab"), b("c")}), 60);
    same(() -> new ColumnPaginationFilter(2, b("b")), 60);
    same(
        () ->
            new FilterList(
                Operator.MUST_PASS_ONE,
                new FilterList(new PrefixFilter(b("r1")), new ColumnPrefixFilter(b("a"))),
                new FilterList(
                    new FuzzyRowFilter(List.of(Map.entry(b("r?7"), new byte[] {0, 1, 0}))),
                    new ColumnRangeFilter(b("c"), true, null, false))),
        15);
  }
}
