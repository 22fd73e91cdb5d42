package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Large cells and wide rows through the stock client: 10 MiB values put, read and scanned (with
 * both sides' cell size limits raised to 12 MiB, as an HBase user would), cells over the limits
 * refused; and a row of 100,000 columns read by a batched scan and by one get.
 */
class StockClientLargeValuesTest {
  private static final byte[] F = b("f");
  private static final int MIB = 1024 * 1024;
  private static final int LIMIT = 12 * MIB;
  private static final int COLUMNS = 100_000;

  @TempDir static Path dir;
  private static StandaloneCluster cluster;
  private static Connection conn;
  private static Table table;

  @BeforeAll
  static void start() throws Exception {
    cluster =
        StandaloneCluster.start(
            dir, Map.of("hbase.server.keyvalue.maxsize", String.valueOf(LIMIT)));
    Configuration conf = cluster.zooKeeperClientConf();
    conf.setInt("hbase.client.keyvalue.maxsize", LIMIT);
    conn = ConnectionFactory.createConnection(conf);
    TableName tn;
    try (Admin admin = conn.getAdmin()) {
      tn = StockClientFixtures.create(admin, "large", 1, StockClientFixtures.splits("m"), "f");
    }
    table = conn.getTable(tn);
  }

  @AfterAll
  static void stop() throws Exception {
    if (table != null) {
      table.close();
    }
    if (conn != null) {
      conn.close();
    }
    cluster.close();
  }

  private static byte[] bytes(int size, long seed) {
    byte[] v = new byte[size];
    new Random(seed).nextBytes(v);
    return v;
  }

  @Test
  void tenMebibyteValuesPutGetAndScan() throws Exception {
    byte[] a = bytes(10 * MIB, 1);
    byte[] z = bytes(10 * MIB, 2);
    byte[] small = b("small");
    table.put(new Put(b("big-a")).addColumn(F, b("v"), a).addColumn(F, b("s"), small));
    table.put(new Put(b("z-big")).addColumn(F, b("v"), z));
    // two at once, in one batch across both regions
    byte[] c = bytes(10 * MIB, 3);
    byte[] y = bytes(10 * MIB, 4);
    table.put(
        List.of(
            new Put(b("big-c")).addColumn(F, b("v"), c),
            new Put(b("y-big")).addColumn(F, b("v"), y)));

    Result ra = table.get(new Get(b("big-a")));
    assertThat(Arrays.equals(ra.getValue(F, b("v")), a)).isTrue();
    assertThat(ra.getValue(F, b("s"))).isEqualTo(small);
    assertThat(Arrays.equals(table.get(new Get(b("z-big"))).getValue(F, b("v")), z)).isTrue();
    // only the small column of the big row
    assertThat(table.get(new Get(b("big-a")).addColumn(F, b("s"))).getValue(F, b("s")))
        .isEqualTo(small);
    Result[] both = table.get(List.of(new Get(b("big-c")), new Get(b("y-big"))));
    assertThat(Arrays.equals(both[0].getValue(F, b("v")), c)).isTrue();
    assertThat(Arrays.equals(both[1].getValue(F, b("v")), y)).isTrue();

    Map<String, byte[]> want = Map.of("big-a", a, "big-c", c, "y-big", y, "z-big", z);
    for (Scan scan :
        List.of(new Scan(), new Scan().setCaching(1), new Scan().setReversed(true).setCaching(2))) {
      List<String> rows = new ArrayList<>();
      try (ResultScanner s = table.getScanner(scan.addColumn(F, b("v")))) {
        for (Result r : s) {
          String row = Bytes.toString(r.getRow());
          rows.add(row);
          assertThat(Arrays.equals(r.getValue(F, b("v")), want.get(row))).as(row).isTrue();
        }
      }
      assertThat(rows).hasSize(4);
      assertThat(rows).containsExactlyInAnyOrder("big-a", "big-c", "y-big", "z-big");
    }
  }

  @Test
  void cellsOverTheLimitsAreRefused() throws Exception {
    byte[] tooBig = new byte[LIMIT + 1];
    // the client's own check (hbase.client.keyvalue.maxsize)
    Throwable client =
        catchThrowable(() -> table.put(new Put(b("over")).addColumn(F, b("v"), tooBig)));
    assertThat(client)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too large");
    // with the client's check off, the server refuses it (hbase.server.keyvalue.maxsize)
    Configuration unchecked = cluster.zooKeeperClientConf();
    unchecked.setInt("hbase.client.keyvalue.maxsize", 0);
    try (Connection c = ConnectionFactory.createConnection(unchecked);
        Table t = c.getTable(table.getName())) {
      Throwable server =
          catchThrowable(() -> t.put(new Put(b("over")).addColumn(F, b("v"), tooBig)));
      assertThat(server)
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("hbase.server.keyvalue.maxsize");
    }
    assertThat(table.exists(new Get(b("over")))).isFalse();
  }

  @Test
  void aRowOfOneHundredThousandColumns() throws Exception {
    byte[] row = b("wide");
    Put p = new Put(row);
    for (int i = 0; i < COLUMNS; i++) {
      p.addColumn(F, qualifier(i), Bytes.toBytes(i));
    }
    table.put(p);
    table.put(new Put(b("wide0")).addColumn(F, b("after"), b("x")));

    // a batched scan hands the row out 1000 cells at a time, in column order
    int results = 0;
    int cells = 0;
    try (ResultScanner s =
        table.getScanner(new Scan().withStartRow(row).withStopRow(row, true).setBatch(1000))) {
      for (Result r : s) {
        assertThat(r.size()).isEqualTo(1000);
        for (Cell c : r.rawCells()) {
          assertThat(CellUtil.cloneQualifier(c)).isEqualTo(qualifier(cells));
          assertThat(Bytes.toInt(CellUtil.cloneValue(c))).isEqualTo(cells);
          cells++;
        }
        results++;
      }
    }
    assertThat(results).isEqualTo(COLUMNS / 1000);
    assertThat(cells).isEqualTo(COLUMNS);

    // batched, partial results allowed, and the next row after it
    List<Result> partial =
        StockClientFixtures.scan(
            table,
            new Scan()
                .withStartRow(row)
                .withStopRow(b("wide0"), true)
                .setBatch(1000)
                .setAllowPartialResults(true)
                .setMaxResultSize(64 * 1024));
    assertThat(partial.stream().mapToInt(Result::size).sum()).isEqualTo(COLUMNS + 1);
    assertThat(Bytes.toString(partial.get(partial.size() - 1).getRow())).isEqualTo("wide0");

    // no batch, partial results allowed: the server cuts the row where a call's cells reach the
    // result size, as HBase does, and flags every part but the last
    List<Result> parts =
        StockClientFixtures.scan(
            table,
            new Scan()
                .withStartRow(row)
                .withStopRow(row, true)
                .setAllowPartialResults(true)
                .setMaxResultSize(64 * 1024));
    assertThat(parts.size()).isGreaterThan(10);
    assertThat(parts.stream().mapToInt(Result::size).sum()).isEqualTo(COLUMNS);
    for (int i = 0; i < parts.size(); i++) {
      Result part = parts.get(i);
      assertThat(part.mayHaveMoreCellsInRow()).as("part %d", i).isEqualTo(i < parts.size() - 1);
      long bytes = 0;
      for (Cell c : part.rawCells()) {
        // KeyValue layout: lengths (8), key (row, family, qualifier + 12), value
        bytes +=
            20L
                + c.getRowLength()
                + c.getFamilyLength()
                + c.getQualifierLength()
                + c.getValueLength();
      }
      assertThat(bytes).as("part %d", i).isLessThan(64 * 1024 + 100);
    }

    // without a batch the client hands out the whole row as one result (put back together from
    // the parts of several calls: the row is larger than the default 2 MB result size)
    List<Result> whole =
        StockClientFixtures.scan(table, new Scan().withStartRow(row).withStopRow(row, true));
    assertThat(whole).hasSize(1);
    assertThat(whole.get(0).size()).isEqualTo(COLUMNS);

    // a get of the huge row returns it all, as HBase does
    Result all = table.get(new Get(row));
    assertThat(all.size()).isEqualTo(COLUMNS);
    assertThat(Bytes.toInt(all.getValue(F, qualifier(COLUMNS - 1)))).isEqualTo(COLUMNS - 1);
    assertThat(Bytes.toInt(all.getValue(F, qualifier(54_321)))).isEqualTo(54_321);

    // a slice of it
    Result slice = table.get(new Get(row).setFilter(new ColumnPaginationFilter(10, 50_000)));
    assertThat(slice.size()).isEqualTo(10);
    assertThat(CellUtil.cloneQualifier(slice.rawCells()[0])).isEqualTo(qualifier(50_000));
    assertThat(
            table
                .get(
                    new Get(row)
                        .setMaxResultsPerColumnFamily(5)
                        .setRowOffsetPerColumnFamily(99_998))
                .size())
        .isEqualTo(2);
  }

  private static byte[] qualifier(int i) {
    return b(String.format("c%06d", i));
  }
}
