package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.b;
import static dev.basalt.compat.StockClientFixtures.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnCountGetFilter;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Answers that must be HBase's to the letter (issue 37; each checked against HBase 2.6.1): reads
 * whose limits sit at their maximum values (CopyTable's {@code setBatch(Integer.MAX_VALUE)}), and
 * check-and-mutate's result and its handling of an action on a missing family.
 */
class StockClientHBaseAnswersTest extends OneConnectionTest {
  private static final byte[] F = b("f");
  private static Table table;

  @BeforeAll
  static void createTable() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      TableName tn =
          StockClientFixtures.create(
              admin, "answers", 3, StockClientFixtures.splits("m"), "f", "g");
      table = conn.getTable(tn);
    }
    for (String row : List.of("a", "k", "n", "z")) {
      table.put(
          new Put(b(row))
              .addColumn(F, b("q1"), 1, b(row + "1@1"))
              .addColumn(F, b("q1"), 2, b(row + "1@2"))
              .addColumn(F, b("q2"), 1, b(row + "2"))
              .addColumn(b("g"), b("q"), 1, b(row + "g")));
    }
  }

  private static int cells(Scan scan) throws Exception {
    int n = 0;
    for (Result r : StockClientFixtures.scan(table, scan)) {
      n += r.size();
    }
    return n;
  }

  @Test
  void limitsAtTheirMaximumValuesMeanNoLimit() throws Exception {
    assertThat(cells(new Scan().setBatch(Integer.MAX_VALUE))).isEqualTo(12);
    assertThat(
            cells(
                new Scan()
                    .setBatch(Integer.MAX_VALUE)
                    .setCaching(Integer.MAX_VALUE)
                    .setLimit(Integer.MAX_VALUE)
                    .setMaxResultSize(Long.MAX_VALUE)
                    .setMaxResultsPerColumnFamily(Integer.MAX_VALUE)
                    .readVersions(Integer.MAX_VALUE)))
        .isEqualTo(16);
    assertThat(cells(new Scan().setBatch(Integer.MAX_VALUE).setReversed(true))).isEqualTo(12);
    assertThat(cells(new Scan().setFilter(new PageFilter(Long.MAX_VALUE)))).isEqualTo(12);
    assertThat(cells(new Scan().setFilter(new ColumnPaginationFilter(Integer.MAX_VALUE, 0))))
        .isEqualTo(12);
    // The offset skips each row's first column (f:q1) and the limit is no limit.
    assertThat(cells(new Scan().setFilter(new ColumnPaginationFilter(Integer.MAX_VALUE, 1))))
        .isEqualTo(8);
    assertThat(cells(new Scan().setFilter(new ColumnCountGetFilter(Integer.MAX_VALUE))))
        .isEqualTo(12);
    Result r =
        table.get(
            new Get(b("k"))
                .readVersions(Integer.MAX_VALUE)
                .setMaxResultsPerColumnFamily(Integer.MAX_VALUE)
                .setRowOffsetPerColumnFamily(0));
    assertThat(r.size()).isEqualTo(4);
  }

  @Test
  void checkAndMutateResultIsNullUnlessTheActionReturnsCells() throws Exception {
    byte[] row = b("cam");
    table.put(new Put(row).addColumn(F, b("c"), b("v")));
    CheckAndMutate.Builder holds = CheckAndMutate.newBuilder(row).ifEquals(F, b("c"), b("v"));
    CheckAndMutate.Builder fails = CheckAndMutate.newBuilder(row).ifEquals(F, b("c"), b("no"));
    Put put = new Put(row).addColumn(F, b("p"), b("x"));
    CheckAndMutateResult r = table.checkAndMutate(holds.build(put));
    assertThat(r.isSuccess()).isTrue();
    assertThat(r.getResult()).isNull();
    r = table.checkAndMutate(fails.build(put));
    assertThat(r.isSuccess()).isFalse();
    assertThat(r.getResult()).isNull();
    r = table.checkAndMutate(holds.build(new Delete(row).addColumns(F, b("p"))));
    assertThat(r.getResult()).isNull();
    RowMutations puts = RowMutations.of(List.of(put));
    assertThat(table.checkAndMutate(holds.build(puts)).getResult()).isNull();
    assertThat(table.checkAndMutate(fails.build(puts)).getResult()).isNull();
    // In a batch too.
    assertThat(table.checkAndMutate(List.of(holds.build(put), fails.build(put))))
        .allSatisfy(each -> assertThat(each.getResult()).isNull());

    // An increment or append returns its cells, alone or in the row mutations.
    r = table.checkAndMutate(holds.build(new Increment(row).addColumn(F, b("n"), 2)));
    assertThat(r.getResult().getValue(F, b("n"))).hasSize(8);
    RowMutations withAppend =
        RowMutations.of(List.of(put, new Append(row).addColumn(F, b("a"), b("z"))));
    r = table.checkAndMutate(holds.build(withAppend));
    assertThat(s(r.getResult().getValue(F, b("a")))).isEqualTo("z");
    r = table.checkAndMutate(fails.build(new Increment(row).addColumn(F, b("n"), 2)));
    assertThat(r.isSuccess()).isFalse();
    assertThat(r.getResult()).isNull();
  }

  @Test
  void anActionOnAMissingFamilyFailsOnlyWhenTheConditionHolds() throws Exception {
    byte[] row = b("fam");
    table.put(new Put(row).addColumn(F, b("c"), b("v")));
    Put elsewhere = new Put(row).addColumn(b("nofam"), b("q"), b("x"));
    CheckAndMutate.Builder holds = CheckAndMutate.newBuilder(row).ifEquals(F, b("c"), b("v"));
    CheckAndMutate.Builder fails = CheckAndMutate.newBuilder(row).ifEquals(F, b("c"), b("no"));

    assertThat(table.checkAndMutate(fails.build(elsewhere)).isSuccess()).isFalse();
    assertThat(table.checkAndMutate(fails.build(RowMutations.of(List.of(elsewhere)))).isSuccess())
        .isFalse();
    assertThat(table.checkAndMutate(List.of(fails.build(elsewhere))).get(0).isSuccess()).isFalse();

    assertThatThrownBy(() -> table.checkAndMutate(holds.build(elsewhere)))
        .isInstanceOf(NoSuchColumnFamilyException.class)
        .hasMessageContaining("nofam");
    assertThatThrownBy(
            () -> table.checkAndMutate(holds.build(new Delete(row).addFamily(b("nofam")))))
        .isInstanceOf(NoSuchColumnFamilyException.class);
    assertThatThrownBy(() -> table.checkAndMutate(holds.build(RowMutations.of(List.of(elsewhere)))))
        .hasMessageContaining("nofam");
    // A condition on a missing family fails either way, as in HBase.
    assertThatThrownBy(
            () ->
                table.checkAndMutate(
                    CheckAndMutate.newBuilder(row)
                        .ifEquals(b("nofam"), b("c"), b("v"))
                        .build(new Put(row).addColumn(F, b("p"), b("x")))))
        .isInstanceOf(NoSuchColumnFamilyException.class);
    assertThat(table.get(new Get(row)).size()).isOne();
  }
}
