package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.b;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The stock client's {@code BufferedMutator}: 100,000 small rows written into a table of five
 * regions and read back by a counting scan and spot-check gets; buffered deletes; and how failed
 * mutations reach the caller (the exception listener, or flush()).
 */
class StockClientBufferedMutatorTest extends OneConnectionTest {
  private static final byte[] F = b("f");
  private static final byte[] Q = b("q");
  private static final int ROWS = 100_000;

  private static String row(int i) {
    return String.format("row%06d", i);
  }

  private static byte[] value(int i) {
    return Bytes.toBytes(i);
  }

  @Test
  void hundredThousandRowsThroughABufferedMutatorAcrossFiveRegions() throws Exception {
    TableName tn;
    try (Admin admin = conn.getAdmin()) {
      tn =
          StockClientFixtures.create(
              admin,
              "buffered",
              1,
              StockClientFixtures.splits(row(20_000), row(40_000), row(60_000), row(80_000)),
              "f");
      assertThat(admin.getRegions(tn)).hasSize(5);
    }
    try (BufferedMutator m = conn.getBufferedMutator(tn)) {
      // out of key order, so every buffer flush spans all regions
      for (int k = 0; k < ROWS; k++) {
        int i = (int) ((k * 7919L) % ROWS);
        m.mutate(new Put(b(row(i))).addColumn(F, Q, value(i)));
      }
    } // close flushes

    try (Table t = conn.getTable(tn)) {
      assertThat(countRows(t)).isEqualTo(ROWS);

      // spot checks, one get at a time and as a list
      Random random = new Random(42);
      List<Get> gets = new ArrayList<>();
      List<Integer> wanted = new ArrayList<>();
      for (int n = 0; n < 300; n++) {
        int i = random.nextInt(ROWS);
        wanted.add(i);
        gets.add(new Get(b(row(i))));
      }
      for (int n = 0; n < 20; n++) {
        int i = wanted.get(n);
        assertThat(Bytes.toInt(t.get(new Get(b(row(i)))).getValue(F, Q))).isEqualTo(i);
      }
      Result[] rs = t.get(gets);
      for (int n = 0; n < rs.length; n++) {
        assertThat(Bytes.toInt(rs[n].getValue(F, Q))).isEqualTo(wanted.get(n));
      }
      assertThat(t.exists(new Get(b(row(ROWS))))).isFalse();

      // buffered deletes of every 100th row, mixed with puts of new rows
      try (BufferedMutator m = conn.getBufferedMutator(tn)) {
        List<Mutation> batch = new ArrayList<>();
        for (int i = 0; i < ROWS; i += 100) {
          batch.add(new Delete(b(row(i))));
          batch.add(new Put(b(row(i) + "x")).addColumn(F, Q, value(-i)));
        }
        m.mutate(batch);
        m.flush();
        assertThat(t.exists(new Get(b(row(500))))).isFalse();
        assertThat(Bytes.toInt(t.get(new Get(b(row(500) + "x"))).getValue(F, Q))).isEqualTo(-500);
      }
      assertThat(countRows(t)).isEqualTo(ROWS);
    }
  }

  /** Counts rows with a key-only scan, checking that they come in key order without gaps. */
  private static int countRows(Table t) throws Exception {
    int n = 0;
    String last = "";
    try (ResultScanner s =
        t.getScanner(new Scan().setCaching(5_000).setFilter(new FirstKeyOnlyFilter()))) {
      for (Result r : s) {
        String row = Bytes.toString(r.getRow());
        assertThat(row).isGreaterThan(last);
        last = row;
        n++;
      }
    }
    return n;
  }

  @Test
  void failedMutationsReachTheListenerOrFlush() throws Exception {
    TableName tn;
    try (Admin admin = conn.getAdmin()) {
      tn =
          StockClientFixtures.create(
              admin, "buffered_errors", 1, StockClientFixtures.splits("m"), "f");
    }
    List<RetriesExhaustedWithDetailsException> heard = new CopyOnWriteArrayList<>();
    BufferedMutatorParams params =
        new BufferedMutatorParams(tn).listener((e, mutator) -> heard.add(e));
    try (BufferedMutator m = conn.getBufferedMutator(params)) {
      m.mutate(new Put(b("a")).addColumn(F, Q, b("1")));
      m.mutate(new Put(b("b")).addColumn(b("nope"), Q, b("2")));
      m.mutate(new Put(b("z")).addColumn(F, Q, b("3")));
      m.flush();
    }
    assertThat(heard).isNotEmpty();
    RetriesExhaustedWithDetailsException e = heard.get(0);
    assertThat(e.getNumExceptions()).isEqualTo(1);
    assertThat(e.getCause(0)).isInstanceOf(NoSuchColumnFamilyException.class);
    assertThat(Bytes.toString(e.getRow(0).getRow())).isEqualTo("b");

    BufferedMutator noListener = conn.getBufferedMutator(tn);
    noListener.mutate(new Put(b("c")).addColumn(b("nope"), Q, b("4")));
    noListener.mutate(new Put(b("d")).addColumn(F, Q, b("5")));
    Throwable thrown = catchThrowable(noListener::flush);
    assertThat(thrown).isInstanceOf(RetriesExhaustedWithDetailsException.class);
    assertThat(((RetriesExhaustedWithDetailsException) thrown).getCause(0))
        .isInstanceOf(NoSuchColumnFamilyException.class);
    noListener.close();

    try (Table t = conn.getTable(tn)) {
      assertThat(StockClientFixtures.rows(StockClientFixtures.scan(t, new Scan())))
          .containsExactly("a", "d", "z");
    }
  }
}
