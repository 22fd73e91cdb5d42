package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.b;
import static dev.basalt.compat.StockClientFixtures.versions;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * Per-cell TTLs ({@code Mutation.setTTL}, sent by the stock client as attribute {@code _ttl}),
 * checked against what HBase 2.6.1 answered to the same operations (issue 37, item 9). Expiry is
 * made immediate where possible by writing timestamps in the past; the few tests that must see a
 * cell expire wait for it (about 2 s each).
 */
class StockClientCellTtlTest extends OneConnectionTest {
  private static final byte[] F = b("f");
  private static final byte[] Q = b("q");
  private static final byte[] R = b("r");

  private static Table table(String name, boolean nvb, int versions, int familyTtlSeconds)
      throws IOException {
    TableName tn = TableName.valueOf(name);
    ColumnFamilyDescriptorBuilder f =
        ColumnFamilyDescriptorBuilder.newBuilder(F)
            .setNewVersionBehavior(nvb)
            .setMaxVersions(versions);
    if (familyTtlSeconds > 0) {
      f.setTimeToLive(familyTtlSeconds);
    }
    try (Admin admin = conn.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(tn).setColumnFamily(f.build()).build());
    }
    return conn.getTable(tn);
  }

  private static List<String> all(Table t, byte[] row) throws IOException {
    return versions(t.get(new Get(row).readAllVersions()));
  }

  private static List<String> scanValues(Table t) throws IOException {
    List<String> out = new ArrayList<>();
    for (Result r : StockClientFixtures.scan(t, new Scan().readAllVersions())) {
      for (var c : r.rawCells()) {
        out.add(
            Bytes.toString(r.getRow())
                + "="
                + Bytes.toString(c.getValueArray(), c.getValueOffset(), c.getValueLength()));
      }
    }
    return out;
  }

  private static void sleepUntil(long time) throws InterruptedException {
    long wait = time - System.currentTimeMillis();
    if (wait > 0) {
      Thread.sleep(wait);
    }
  }

  @Test
  void aPutsTtlExpiresItsCells() throws Exception {
    try (Table t = table("ttl_put", true, 1, 0)) {
      long now = System.currentTimeMillis();
      t.put(new Put(b("long")).addColumn(F, Q, b("l")).setTTL(600_000));
      // Timestamp + TTL before now: expired when written (HBase shows nothing either).
      t.put(new Put(b("past")).addColumn(F, Q, now - 10_000, b("p")).setTTL(5_000));
      t.put(new Put(b("short")).addColumn(F, Q, now, b("s")).setTTL(1_500));
      assertThat(scanValues(t)).containsExactly("long=l", "short=s");
      sleepUntil(now + 2_000);
      assertThat(scanValues(t)).containsExactly("long=l");
      assertThat(t.get(new Get(b("short"))).isEmpty()).isTrue();
    }
  }

  @Test
  void anExpiredCellKeepsItsPlaceAmongTheVersions() throws Exception {
    // HBase 2.6.1: v1, then v2 with a TTL, VERSIONS=1; once v2 expires, HBase shows v1 again
    // until a flush (classic) or major compaction (NEW_VERSION_BEHAVIOR) ran while v2 was alive,
    // and nothing after one. Basalt gives the answer after one throughout.
    for (boolean nvb : new boolean[] {true, false}) {
      try (Table t = table(nvb ? "ttl_place_nvb" : "ttl_place_classic", nvb, 1, 0);
          Admin admin = conn.getAdmin()) {
        long now = System.currentTimeMillis();
        t.put(new Put(R).addColumn(F, Q, now - 20_000, b("v1")));
        t.put(new Put(R).addColumn(F, Q, now - 10_000, b("v2")).setTTL(5_000));
        assertThat(all(t, R)).as("nvb %s", nvb).isEmpty();
        admin.flush(t.getName());
        admin.majorCompact(t.getName());
        Thread.sleep(500);
        assertThat(all(t, R)).as("nvb %s, flushed and compacted", nvb).isEmpty();
      }
    }
    // An expired version takes none of the versions a read returns: v1, v2, then v3 with a TTL
    // run out, VERSIONS=3: one version is v2, all are v2 and v1 (HBase 2.6.1 answers the same).
    try (Table t = table("ttl_three", true, 3, 0)) {
      long now = System.currentTimeMillis();
      t.put(new Put(R).addColumn(F, Q, now - 30, b("v1")));
      t.put(new Put(R).addColumn(F, Q, now - 20, b("v2")));
      t.put(new Put(R).addColumn(F, Q, now - 10, b("v3")).setTTL(1));
      assertThat(versions(t.get(new Get(R)))).containsExactly("f:q@" + (now - 20) + "=v2");
      assertThat(all(t, R)).hasSize(2);
    }
  }

  @Test
  void theFamilysTtlStillApplies() throws Exception {
    try (Table t = table("ttl_family", true, 1, 2)) {
      long now = System.currentTimeMillis();
      t.put(new Put(R).addColumn(F, Q, now - 3_000, b("v")).setTTL(600_000));
      assertThat(all(t, R)).isEmpty(); // a per-cell TTL only shortens a cell's life
    }
  }

  @Test
  void incrementsAndAppendsTakeOrCarryTheTtl() throws Exception {
    try (Table t = table("ttl_counters", true, 1, 0)) {
      t.increment(new Increment(R).addColumn(F, b("n"), 1).setTTL(1_500));
      t.increment(new Increment(R).addColumn(F, b("n"), 1)); // carries the 1.5 s forward
      t.append(new Append(R).addColumn(F, b("s"), b("x")).setTTL(1_500));
      t.append(new Append(R).addColumn(F, b("s"), b("y")));
      t.put(new Put(R).addColumn(F, b("keep"), b("k")));
      long written = System.currentTimeMillis();
      Result r = t.get(new Get(R));
      assertThat(Bytes.toLong(r.getValue(F, b("n")))).isEqualTo(2);
      assertThat(Bytes.toString(r.getValue(F, b("s")))).isEqualTo("xy");
      sleepUntil(written + 1_600);
      r = t.get(new Get(R));
      assertThat(r.getValue(F, b("n"))).isNull();
      assertThat(r.getValue(F, b("s"))).isNull();
      assertThat(Bytes.toString(r.getValue(F, b("keep")))).isEqualTo("k");
    }
  }

  @Test
  void rowMutationsChecksAndBatchesCarryTheTtl() throws Exception {
    try (Table t = table("ttl_forms", true, 1, 0)) {
      long past = System.currentTimeMillis() - 10_000;
      RowMutations rm = new RowMutations(R);
      rm.add(new Put(R).addColumn(F, b("rm"), past, b("x")).setTTL(5_000));
      rm.add(new Put(R).addColumn(F, b("rm2"), past, b("y")).setTTL(600_000));
      t.mutateRow(rm);
      t.checkAndMutate(
          CheckAndMutate.newBuilder(R)
              .ifNotExists(F, b("cam"))
              .build(new Put(R).addColumn(F, b("cam"), past, b("z")).setTTL(5_000)));
      Object[] results = new Object[2];
      t.batch(
          List.of(
              new Put(b("r2")).addColumn(F, Q, past, b("b")).setTTL(5_000),
              new Put(b("r3")).addColumn(F, Q, past, b("c")).setTTL(600_000)),
          results);
      assertThat(all(t, R)).containsExactly("f:rm2@" + past + "=y");
      assertThat(all(t, b("r2"))).isEmpty();
      assertThat(all(t, b("r3"))).containsExactly("f:q@" + past + "=c");
    }
  }

  @Test
  void theRowCacheNeverServesAnExpiredCell() throws Exception {
    try (Table t = table("ttl_cached", true, 1, 0)) {
      long now = System.currentTimeMillis();
      t.put(new Put(R).addColumn(F, b("a"), b("plain")));
      t.put(new Put(R).addColumn(F, b("b"), now, b("brief")).setTTL(1_500));
      // Whole-row gets of the latest version: what the row cache answers.
      for (int i = 0; i < 3; i++) {
        assertThat(t.get(new Get(R)).size()).isEqualTo(2);
      }
      sleepUntil(now + 2_000);
      for (int i = 0; i < 3; i++) {
        assertThat(StockClientFixtures.columns(t.get(new Get(R)))).containsOnlyKeys("f:a");
      }
    }
  }

  @Test
  void ttlsSurviveFlushesCompactionsAndARestart() throws Exception {
    TableName name;
    long now;
    try (Table t = table("ttl_restart", true, 1, 0);
        Admin admin = conn.getAdmin()) {
      name = t.getName();
      now = System.currentTimeMillis();
      t.put(new Put(b("flushed")).addColumn(F, Q, now, b("f")).setTTL(12_000));
      t.put(new Put(b("long")).addColumn(F, Q, now, b("l")).setTTL(600_000));
      admin.flush(name);
      admin.majorCompact(name);
      // Only in the memstore and the WAL until the restart flushes it.
      t.put(new Put(b("logged")).addColumn(F, Q, now, b("g")).setTTL(12_000));
    }
    cluster.restartOnSamePorts();
    try (Table t = conn.getTable(name)) {
      assertThat(scanValues(t)).containsExactly("flushed=f", "logged=g", "long=l");
      sleepUntil(now + 12_500);
      assertThat(scanValues(t)).containsExactly("long=l");
    }
  }
}
