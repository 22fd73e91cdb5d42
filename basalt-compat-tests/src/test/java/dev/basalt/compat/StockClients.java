package dev.basalt.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/** Small helpers the stock-client compatibility tests share; stock client API only. */
final class StockClients {
  static final byte[] CF = Bytes.toBytes("cf");
  static final byte[] Q = Bytes.toBytes("q");

  private StockClients() {}

  static TableDescriptor table(TableName name, String... families) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(name);
    for (String f : families.length == 0 ? new String[] {"cf"} : families) {
      b.setColumnFamily(ColumnFamilyDescriptorBuilder.of(f));
    }
    return b.build();
  }

  /** Creates {@code name} with one family {@code cf} and the given split keys (may be none). */
  static void create(Admin admin, TableName name, String... splits) throws IOException {
    StockClientFixtures.createTable(admin, table(name), StockClientFixtures.splits(splits));
  }

  /** Row key {@code prefix} + i zero-padded to 5 digits, so the keys sort as the numbers do. */
  static byte[] row(String prefix, int i) {
    return Bytes.toBytes(String.format("%s%05d", prefix, i));
  }

  /** Writes rows {@code prefix00000 .. prefix(n-1)} with value {@code i} in cf:q, in batches. */
  static void writeRows(Connection c, TableName name, String prefix, int from, int to)
      throws IOException {
    try (Table t = c.getTable(name)) {
      List<Put> batch = new ArrayList<>();
      for (int i = from; i < to; i++) {
        batch.add(new Put(row(prefix, i)).addColumn(CF, Q, Bytes.toBytes(i)));
        if (batch.size() == 500) {
          t.put(batch);
          batch = new ArrayList<>();
        }
      }
      if (!batch.isEmpty()) {
        t.put(batch);
      }
    }
  }

  /** The row keys a full scan of the table returns, in order. */
  static List<String> scanRows(Connection c, TableName name) throws IOException {
    List<String> rows = new ArrayList<>();
    try (Table t = c.getTable(name);
        ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        rows.add(Bytes.toString(r.getRow()));
      }
    }
    return rows;
  }

  /** Waits (up to 30 seconds) until hbase:meta lists {@code n} regions of the table. */
  static void awaitRegions(Admin admin, TableName tn, int n) throws InterruptedException {
    await(
        n + " regions of " + tn,
        Duration.ofSeconds(30),
        () -> {
          try {
            return admin.getRegions(tn).size() == n;
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /** Polls {@code condition} until it holds or the deadline passes (then fails). */
  static void await(String what, Duration deadline, BooleanSupplier condition)
      throws InterruptedException {
    long end = System.nanoTime() + deadline.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out after " + deadline + " waiting for " + what);
      }
      Thread.sleep(20);
    }
  }
}
