package dev.basalt.compat;

import static dev.basalt.compat.StockClientFixtures.b;
import static dev.basalt.compat.StockClientFixtures.columns;
import static dev.basalt.compat.StockClientFixtures.s;
import static dev.basalt.compat.StockClientFixtures.versions;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stock client's {@code Table} API for single rows against a real standalone server, through
 * both registries (ZooKeeper and RPC): puts of one and many columns, explicit timestamps and
 * versions, gets by column, family, versions, time range and timestamp, existence checks, multi-row
 * gets, every kind of delete, and durability settings.
 */
class StockClientTableTest extends TwoRegistriesTest {
  private static final byte[] F = b("f");
  private static final byte[] G = b("g");
  private static final AtomicInteger TABLES = new AtomicInteger();

  /** A new table with families f and g keeping 5 versions, split at r3 and r6. */
  private static Table table(String registry) throws Exception {
    Connection c = connection(registry);
    try (Admin admin = c.getAdmin()) {
      TableName tn =
          StockClientFixtures.create(
              admin,
              "tbl_" + registry + "_" + TABLES.incrementAndGet(),
              5,
              StockClientFixtures.splits("r3", "r6"),
              "f",
              "g");
      return c.getTable(tn);
    }
  }

  private static Put put(String row, String q, long ts, String v) {
    return new Put(b(row)).addColumn(F, b(q), ts, b(v));
  }

  private static Result all(Table t, String row) throws Exception {
    return t.get(new Get(b(row)).readAllVersions());
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void putAndGetOneColumn(String registry) throws Exception {
    try (Table t = table(registry)) {
      t.put(new Put(b("r1")).addColumn(F, b("q"), b("v1")));
      Result r = t.get(new Get(b("r1")));
      assertThat(s(r.getRow())).isEqualTo("r1");
      assertThat(s(r.getValue(F, b("q")))).isEqualTo("v1");
      assertThat(r.size()).isEqualTo(1);
      assertThat(r.rawCells()[0].getTimestamp()).isPositive().isNotEqualTo(Long.MAX_VALUE);
      assertThat(t.get(new Get(b("r2"))).isEmpty()).isTrue();
      assertThat(t.get(new Get(b("r2"))).getRow()).isNull();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void putManyColumnsInTwoFamiliesAndGetThemInCellOrder(String registry) throws Exception {
    try (Table t = table(registry)) {
      Put p = new Put(b("r4"));
      Map<String, String> expected = new TreeMap<>();
      for (int i = 49; i >= 0; i--) {
        String q = String.format("q%02d", i);
        p.addColumn(G, b(q), b("g" + i));
        p.addColumn(F, b(q), b("f" + i));
        expected.put("f:" + q, "f" + i);
        expected.put("g:" + q, "g" + i);
      }
      t.put(p);
      Result r = t.get(new Get(b("r4")));
      assertThat(r.size()).isEqualTo(100);
      assertThat(new ArrayList<>(columns(r).keySet())).isSorted();
      assertThat(columns(r)).isEqualTo(expected);
      assertThat(r.getFamilyMap(F)).hasSize(50);
      assertThat(s(r.getValue(G, b("q17")))).isEqualTo("g17");
      assertThat(r.containsColumn(F, b("q49"))).isTrue();
      assertThat(r.containsColumn(F, b("q50"))).isFalse();

      // a family, and columns of both families
      assertThat(t.get(new Get(b("r4")).addFamily(G)).size()).isEqualTo(50);
      Result cols =
          t.get(
              new Get(b("r4")).addColumn(F, b("q01")).addColumn(G, b("q02")).addColumn(F, b("x")));
      assertThat(columns(cols)).containsExactly(Map.entry("f:q01", "f1"), Map.entry("g:q02", "g2"));
      Result famAndCol = t.get(new Get(b("r4")).addFamily(F).addColumn(G, b("q03")));
      assertThat(famAndCol.size()).isEqualTo(51);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void explicitTimestampsVersionsTimeRangesAndTimestamp(String registry) throws Exception {
    try (Table t = table(registry)) {
      t.put(put("r1", "q", 100, "v100"));
      t.put(put("r1", "q", 300, "v300"));
      t.put(put("r1", "q", 200, "v200"));
      t.put(List.of(put("r1", "q", 400, "v400"), put("r1", "p", 50, "p50")));

      Result latest = t.get(new Get(b("r1")).addColumn(F, b("q")));
      assertThat(versions(latest)).containsExactly("f:q@400=v400");
      assertThat(versions(all(t, "r1")))
          .containsExactly(
              "f:p@50=p50", "f:q@400=v400", "f:q@300=v300", "f:q@200=v200", "f:q@100=v100");
      assertThat(versions(t.get(new Get(b("r1")).addColumn(F, b("q")).readVersions(2))))
          .containsExactly("f:q@400=v400", "f:q@300=v300");
      // time range [150, 301): the newest version inside it, or all of them
      assertThat(versions(t.get(new Get(b("r1")).setTimeRange(150, 301))))
          .containsExactly("f:q@300=v300");
      assertThat(versions(t.get(new Get(b("r1")).setTimeRange(150, 301).readAllVersions())))
          .containsExactly("f:q@300=v300", "f:q@200=v200");
      assertThat(versions(t.get(new Get(b("r1")).setTimeRange(60, 100)))).isEmpty();
      // exactly one timestamp
      assertThat(versions(t.get(new Get(b("r1")).setTimestamp(200))))
          .containsExactly("f:q@200=v200");
      assertThat(versions(t.get(new Get(b("r1")).setTimestamp(50)))).containsExactly("f:p@50=p50");
      assertThat(t.get(new Get(b("r1")).setTimestamp(250)).isEmpty()).isTrue();
      // per-family time range
      t.put(new Put(b("r1")).addColumn(G, b("q"), 150, b("g150")));
      Result cf =
          t.get(
              new Get(b("r1"))
                  .setColumnFamilyTimeRange(F, 250, 350)
                  .setColumnFamilyTimeRange(G, 100, 200));
      assertThat(versions(cf)).containsExactly("f:q@300=v300", "g:q@150=g150");
      // Result accessors over versions
      Result allQ = t.get(new Get(b("r1")).addColumn(F, b("q")).readAllVersions());
      assertThat(allQ.getColumnCells(F, b("q"))).hasSize(4);
      assertThat(allQ.getColumnLatestCell(F, b("q")).getTimestamp()).isEqualTo(400);
      NavigableMap<byte[], NavigableMap<byte[], NavigableMap<Long, byte[]>>> map = allQ.getMap();
      assertThat(map.get(F).get(b("q")).keySet()).containsExactly(400L, 300L, 200L, 100L);
      // rewriting one version replaces it
      t.put(put("r1", "q", 300, "v300b"));
      assertThat(versions(t.get(new Get(b("r1")).setTimestamp(300))))
          .containsExactly("f:q@300=v300b");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void familyVersionLimitCapsWhatGetsReturn(String registry) throws Exception {
    try (Table t = table(registry)) {
      for (long ts = 1; ts <= 8; ts++) {
        t.put(put("r7", "q", ts, "v" + ts));
      }
      // the family keeps 5 versions
      assertThat(versions(all(t, "r7")))
          .containsExactly("f:q@8=v8", "f:q@7=v7", "f:q@6=v6", "f:q@5=v5", "f:q@4=v4");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void existsAndExistsList(String registry) throws Exception {
    try (Table t = table(registry)) {
      t.put(new Put(b("r2")).addColumn(F, b("q"), b("v")));
      t.put(new Put(b("r8")).addColumn(G, b("q"), b("v")));
      assertThat(t.exists(new Get(b("r2")))).isTrue();
      assertThat(t.exists(new Get(b("r3")))).isFalse();
      assertThat(t.exists(new Get(b("r2")).addColumn(F, b("q")))).isTrue();
      assertThat(t.exists(new Get(b("r2")).addColumn(F, b("other")))).isFalse();
      assertThat(t.exists(new Get(b("r8")).addFamily(F))).isFalse();
      assertThat(t.exists(new Get(b("r8")).addFamily(G))).isTrue();
      boolean[] many =
          t.exists(
              List.of(
                  new Get(b("r8")),
                  new Get(b("r0")),
                  new Get(b("r2")),
                  new Get(b("r5")),
                  new Get(b("r2")).addFamily(G)));
      assertThat(many).containsExactly(true, false, true, false, false);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void getListAcrossRegionsKeepsTheOrderAndAnswersMissingRowsEmpty(String registry)
      throws Exception {
    try (Table t = table(registry)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 9; i += 2) {
        puts.add(new Put(b("r" + i)).addColumn(F, b("q"), b("v" + i)));
      }
      t.put(puts);
      List<Get> gets = new ArrayList<>();
      for (int i = 8; i >= 0; i--) {
        gets.add(new Get(b("r" + i)));
      }
      gets.add(new Get(b("r4")).addColumn(G, b("q")));
      Result[] rs = t.get(gets);
      assertThat(rs).hasSize(10);
      for (int k = 0; k < 9; k++) {
        int i = 8 - k;
        if (i % 2 == 0) {
          assertThat(s(rs[k].getRow())).isEqualTo("r" + i);
          assertThat(s(rs[k].getValue(F, b("q")))).isEqualTo("v" + i);
        } else {
          assertThat(rs[k].isEmpty()).as("r%d", i).isTrue();
        }
      }
      assertThat(rs[9].isEmpty()).isTrue();
      assertThat(t.get(List.of())).isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void deleteVariants(String registry) throws Exception {
    try (Table t = table(registry)) {
      // latest version of a column
      t.put(List.of(put("a", "q", 100, "1"), put("a", "q", 200, "2"), put("a", "q", 300, "3")));
      t.delete(new Delete(b("a")).addColumn(F, b("q")));
      assertThat(versions(all(t, "a"))).containsExactly("f:q@200=2", "f:q@100=1");

      // one exact version
      t.put(List.of(put("b", "q", 100, "1"), put("b", "q", 200, "2"), put("b", "q", 300, "3")));
      t.delete(new Delete(b("b")).addColumn(F, b("q"), 200));
      assertThat(versions(all(t, "b"))).containsExactly("f:q@300=3", "f:q@100=1");
      t.delete(new Delete(b("b")).addColumn(F, b("q"), 250)); // no such version: nothing changes
      assertThat(versions(all(t, "b"))).containsExactly("f:q@300=3", "f:q@100=1");

      // all versions of a column, and all versions up to a timestamp
      t.put(
          List.of(
              put("c", "q", 100, "1"),
              put("c", "q", 200, "2"),
              put("c", "p", 100, "p"),
              put("d", "q", 100, "1"),
              put("d", "q", 200, "2"),
              put("d", "q", 300, "3")));
      t.delete(new Delete(b("c")).addColumns(F, b("q")));
      assertThat(versions(all(t, "c"))).containsExactly("f:p@100=p");
      t.delete(new Delete(b("d")).addColumns(F, b("q"), 200));
      assertThat(versions(all(t, "d"))).containsExactly("f:q@300=3");

      // a family, and a family up to a timestamp
      t.put(
          List.of(
              put("e", "q", 100, "1"),
              put("e", "p", 300, "3"),
              new Put(b("e")).addColumn(G, b("q"), 100, b("g"))));
      t.delete(new Delete(b("e")).addFamily(F, 200));
      assertThat(versions(all(t, "e"))).containsExactly("f:p@300=3", "g:q@100=g");
      t.delete(new Delete(b("e")).addFamily(F));
      assertThat(versions(all(t, "e"))).containsExactly("g:q@100=g");

      // every column of a family at exactly one timestamp
      t.put(
          List.of(
              put("f", "q", 100, "q1"),
              put("f", "q", 200, "q2"),
              put("f", "p", 200, "p2"),
              put("f", "o", 300, "o3"),
              new Put(b("f")).addColumn(G, b("q"), 200, b("g2"))));
      t.delete(new Delete(b("f")).addFamilyVersion(F, 200));
      assertThat(versions(all(t, "f"))).containsExactly("f:o@300=o3", "f:q@100=q1", "g:q@200=g2");

      // a whole row, and a whole row up to a timestamp
      t.put(
          List.of(
              put("g", "q", 100, "1"),
              new Put(b("g")).addColumn(G, b("q"), 100, b("g")),
              put("h", "q", 100, "1"),
              put("h", "q", 300, "3"),
              new Put(b("h")).addColumn(G, b("q"), 150, b("g"))));
      t.delete(new Delete(b("g")));
      assertThat(t.get(new Get(b("g"))).isEmpty()).isTrue();
      assertThat(t.exists(new Get(b("g")))).isFalse();
      t.delete(new Delete(b("h"), 200));
      assertThat(versions(all(t, "h"))).containsExactly("f:q@300=3");

      // a Delete's own timestamp applies to columns added without one
      t.put(List.of(put("i", "q", 100, "1"), put("i", "q", 300, "3"), put("i", "p", 100, "p")));
      t.delete(new Delete(b("i"), 200).addColumns(F, b("q")).addColumns(F, b("p")));
      assertThat(versions(all(t, "i"))).containsExactly("f:q@300=3");

      // deleting a missing row or column is fine
      t.delete(new Delete(b("zzz")));
      t.delete(new Delete(b("zzz")).addColumn(F, b("q")));

      // a list of deletes across regions
      t.put(List.of(put("r1", "q", 1, "x"), put("r5", "q", 1, "x"), put("r9", "q", 1, "x")));
      List<Delete> deletes =
          new ArrayList<>(
              List.of(new Delete(b("r1")), new Delete(b("r5")).addFamily(F), new Delete(b("r9"))));
      t.delete(deletes);
      assertThat(deletes).isEmpty(); // the client removes the deletes it applied
      for (String row : List.of("r1", "r5", "r9")) {
        assertThat(t.exists(new Get(b(row)))).as(row).isFalse();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void putsAfterADeleteAreVisibleAgain(String registry) throws Exception {
    try (Table t = table(registry)) {
      t.put(new Put(b("r5")).addColumn(F, b("q"), b("old")));
      t.delete(new Delete(b("r5")));
      t.put(new Put(b("r5")).addColumn(F, b("q"), b("new")));
      assertThat(s(t.get(new Get(b("r5"))).getValue(F, b("q")))).isEqualTo("new");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void everyDurabilityIsAccepted(String registry) throws Exception {
    try (Table t = table(registry)) {
      Map<String, Durability> byRow = new LinkedHashMap<>();
      int i = 0;
      for (Durability d : Durability.values()) {
        byRow.put("r" + i++, d);
      }
      for (Map.Entry<String, Durability> e : byRow.entrySet()) {
        Put p = new Put(b(e.getKey())).addColumn(F, b("q"), b(e.getValue().name()));
        p.setDurability(e.getValue());
        t.put(p);
      }
      List<Put> batch = new ArrayList<>();
      for (Map.Entry<String, Durability> e : byRow.entrySet()) {
        Put p = new Put(b(e.getKey())).addColumn(G, b("q"), b(e.getValue().name()));
        p.setDurability(e.getValue());
        batch.add(p);
      }
      t.put(batch);
      for (Map.Entry<String, Durability> e : byRow.entrySet()) {
        Result r = t.get(new Get(b(e.getKey())));
        assertThat(s(r.getValue(F, b("q")))).isEqualTo(e.getValue().name());
        assertThat(s(r.getValue(G, b("q")))).isEqualTo(e.getValue().name());
      }
      Delete d = new Delete(b("r0")).addFamily(G);
      d.setDurability(Durability.SKIP_WAL);
      t.delete(d);
      assertThat(t.get(new Get(b("r0"))).size()).isEqualTo(1);
      assertThat(StockClientFixtures.scan(t, new Scan())).hasSize(byRow.size());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"zk", "rpc"})
  void binaryRowsQualifiersAndValuesRoundTrip(String registry) throws Exception {
    try (Table t = table(registry)) {
      byte[] row = {0, (byte) 0xff, 'r', 5, 0};
      byte[] q = {(byte) 0x80, 0, 1};
      byte[] v = new byte[256];
      for (int i = 0; i < v.length; i++) {
        v[i] = (byte) i;
      }
      t.put(new Put(row).addColumn(F, q, v).addColumn(F, new byte[0], b("empty-qualifier")));
      t.put(new Put(b("r5")).addColumn(F, b("empty"), new byte[0]));
      Result r = t.get(new Get(row));
      assertThat(r.getValue(F, q)).isEqualTo(v);
      assertThat(s(r.getValue(F, new byte[0]))).isEqualTo("empty-qualifier");
      Result empty = t.get(new Get(b("r5")));
      assertThat(empty.size()).isEqualTo(1);
      assertThat(empty.getValue(F, b("empty"))).isEmpty();
      assertThat(Bytes.equals(r.getRow(), row)).isTrue();
    }
  }
}
