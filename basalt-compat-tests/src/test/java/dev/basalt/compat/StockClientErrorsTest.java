package dev.basalt.compat;

import static dev.basalt.compat.StockClients.CF;
import static dev.basalt.compat.StockClients.Q;
import static dev.basalt.compat.StockClients.create;
import static dev.basalt.compat.StockClients.table;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.InvalidFamilyOperationException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The exceptions the stock client throws for bad requests against a Basalt server: each is the
 * class HBase's client throws against HBase, and none is retried (the fixture's retry budget is
 * small anyway, so a retried error would still end, as RetriesExhaustedException, and fail here).
 */
class StockClientErrorsTest extends OneConnectionTest {
  private static final byte[] NO_SUCH_FAMILY = Bytes.toBytes("nope");

  private static Put put(String row) {
    return new Put(Bytes.toBytes(row)).addColumn(CF, Q, Bytes.toBytes("v"));
  }

  // ---------------------------------------------------------------- unknown tables

  @Test
  void unknownTableOnGetPutAndScan() throws Exception {
    TableName tn = TableName.valueOf("errors_no_such_table");
    try (Table t = conn.getTable(tn)) {
      assertThatThrownBy(() -> t.get(new Get(Bytes.toBytes("r"))))
          .isInstanceOf(TableNotFoundException.class)
          .hasMessageContaining(tn.getNameAsString());
      assertThatThrownBy(() -> t.put(put("r")))
          .isInstanceOf(TableNotFoundException.class)
          .hasMessageContaining(tn.getNameAsString());
      assertThatThrownBy(
              () -> {
                try (ResultScanner s = t.getScanner(new Scan())) {
                  s.next();
                }
              })
          .isInstanceOf(TableNotFoundException.class)
          .hasMessageContaining(tn.getNameAsString());
    }
  }

  @Test
  void unknownTableOnAdminCalls() throws Exception {
    TableName tn = TableName.valueOf("errors_no_such_table_admin");
    try (Admin admin = conn.getAdmin()) {
      assertThat(admin.tableExists(tn)).isFalse();
      assertThatThrownBy(() -> admin.getDescriptor(tn)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.disableTable(tn)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.enableTable(tn)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.deleteTable(tn)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.isTableEnabled(tn)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.addColumnFamily(tn, ColumnFamilyDescriptorBuilder.of("x")))
          .isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.flush(tn)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.modifyTable(table(tn)))
          .isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.truncateTable(tn, false))
          .isInstanceOf(TableNotFoundException.class);
      // HBase's client lists the table's rows in hbase:meta without an existence check
      assertThat(admin.getRegions(tn)).isEmpty();
    }
  }

  @Test
  void aTableDroppedByAnotherClientIsNotFoundThroughCachedLocations() throws Exception {
    TableName tn = TableName.valueOf("errors_dropped_elsewhere");
    try (Admin admin = conn.getAdmin()) {
      create(admin, tn, "m");
    }
    try (Table t = conn.getTable(tn)) {
      t.put(put("a"));
      t.put(put("x")); // both regions cached
      try (Connection other = ConnectionFactory.createConnection(target.rpcRegistryClientConf());
          Admin admin = other.getAdmin()) {
        admin.disableTable(tn);
        admin.deleteTable(tn);
      }
      assertThatThrownBy(() -> t.get(new Get(Bytes.toBytes("a"))))
          .isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> t.put(put("x"))).isInstanceOf(TableNotFoundException.class);
    }
  }

  // ---------------------------------------------------------------- unknown families

  @Test
  void unknownFamilyOnPutAndGet() throws Exception {
    TableName tn = TableName.valueOf("errors_family");
    try (Admin admin = conn.getAdmin()) {
      create(admin, tn);
    }
    try (Table t = conn.getTable(tn)) {
      Put bad = new Put(Bytes.toBytes("r1")).addColumn(NO_SUCH_FAMILY, Q, Bytes.toBytes("v"));
      assertThatThrownBy(() -> t.put(bad))
          .isInstanceOf(NoSuchColumnFamilyException.class)
          .hasMessageContaining("nope");
      assertThatThrownBy(() -> t.get(new Get(Bytes.toBytes("r1")).addFamily(NO_SUCH_FAMILY)))
          .isInstanceOf(NoSuchColumnFamilyException.class)
          .hasMessageContaining("nope");
      assertThatThrownBy(() -> t.delete(new Delete(Bytes.toBytes("r1")).addFamily(NO_SUCH_FAMILY)))
          .isInstanceOf(NoSuchColumnFamilyException.class);
      assertThatThrownBy(
              () -> {
                try (ResultScanner s = t.getScanner(new Scan().addFamily(NO_SUCH_FAMILY))) {
                  s.next();
                }
              })
          .isInstanceOf(NoSuchColumnFamilyException.class);

      // a batch reports the failed action and applies the others, as HBase's AsyncProcess does
      assertThatThrownBy(() -> t.put(List.of(put("r2"), bad, put("r3"))))
          .isInstanceOfSatisfying(
              RetriesExhaustedWithDetailsException.class,
              e -> {
                assertThat(e.getNumExceptions()).isEqualTo(1);
                assertThat(e.getCause(0)).isInstanceOf(NoSuchColumnFamilyException.class);
                assertThat(Bytes.toString(e.getRow(0).getRow())).isEqualTo("r1");
              });
      assertThat(t.exists(new Get(Bytes.toBytes("r2")))).isTrue();
      assertThat(t.exists(new Get(Bytes.toBytes("r3")))).isTrue();
      assertThat(t.exists(new Get(Bytes.toBytes("r1")))).isFalse();
    }
  }

  // ---------------------------------------------------------------- table states

  @Test
  void createTwiceIsTableExists() throws Exception {
    TableName tn = TableName.valueOf("errors_twice");
    try (Admin admin = conn.getAdmin()) {
      create(admin, tn);
      assertThatThrownBy(() -> create(admin, tn))
          .isInstanceOf(TableExistsException.class)
          .hasMessageContaining(tn.getNameAsString());
    }
  }

  @Test
  void stateTransitionsOutOfOrder() throws Exception {
    TableName tn = TableName.valueOf("errors_states");
    try (Admin admin = conn.getAdmin()) {
      create(admin, tn);
      assertThatThrownBy(() -> admin.deleteTable(tn))
          .isInstanceOf(TableNotDisabledException.class)
          .hasMessageContaining(tn.getNameAsString());
      assertThatThrownBy(() -> admin.enableTable(tn))
          .isInstanceOf(TableNotDisabledException.class)
          .hasMessageContaining(tn.getNameAsString());
      assertThatThrownBy(() -> admin.truncateTable(tn, true))
          .isInstanceOf(TableNotDisabledException.class);
      admin.disableTable(tn);
      assertThatThrownBy(() -> admin.disableTable(tn))
          .isInstanceOf(TableNotEnabledException.class)
          .hasMessageContaining(tn.getNameAsString());
      assertThat(admin.isTableDisabled(tn)).isTrue();
    }
  }

  @Test
  void readsAndWritesOnADisabledTable() throws Exception {
    TableName tn = TableName.valueOf("errors_disabled");
    try (Admin admin = conn.getAdmin()) {
      create(admin, tn);
      try (Table t = conn.getTable(tn)) {
        t.put(put("r1")); // the location is cached now
        admin.disableTable(tn);
        assertThatThrownBy(() -> t.put(put("r2")))
            .isInstanceOf(TableNotEnabledException.class)
            .hasMessageContaining(tn.getNameAsString());
        assertThatThrownBy(() -> t.get(new Get(Bytes.toBytes("r1"))))
            .isInstanceOf(TableNotEnabledException.class);
        assertThatThrownBy(
                () -> {
                  try (ResultScanner s = t.getScanner(new Scan())) {
                    s.next();
                  }
                })
            .isInstanceOf(TableNotEnabledException.class);
      }
      // a client that never saw the table enabled
      try (Connection fresh = ConnectionFactory.createConnection(target.rpcRegistryClientConf());
          Table t = fresh.getTable(tn)) {
        assertThatThrownBy(() -> t.put(put("r3"))).isInstanceOf(TableNotEnabledException.class);
      }
      admin.enableTable(tn);
      try (Table t = conn.getTable(tn)) {
        assertThat(t.exists(new Get(Bytes.toBytes("r1")))).isTrue();
        assertThat(t.exists(new Get(Bytes.toBytes("r2")))).isFalse();
      }
    }
  }

  // ---------------------------------------------------------------- schema errors

  @Test
  void familyErrors() throws Exception {
    TableName tn = TableName.valueOf("errors_schema");
    try (Admin admin = conn.getAdmin()) {
      create(admin, tn);
      assertThatThrownBy(() -> admin.addColumnFamily(tn, ColumnFamilyDescriptorBuilder.of(CF)))
          .isInstanceOf(InvalidFamilyOperationException.class)
          .hasMessageContaining("cf");
      assertThatThrownBy(() -> admin.deleteColumnFamily(tn, NO_SUCH_FAMILY))
          .isInstanceOf(InvalidFamilyOperationException.class)
          .hasMessageContaining("nope");
      assertThatThrownBy(
              () -> admin.modifyColumnFamily(tn, ColumnFamilyDescriptorBuilder.of(NO_SUCH_FAMILY)))
          .isInstanceOf(InvalidFamilyOperationException.class)
          .hasMessageContaining("nope");
      // the last family cannot go
      assertThatThrownBy(() -> admin.deleteColumnFamily(tn, CF))
          .isInstanceOf(InvalidFamilyOperationException.class);
      assertThat(admin.getDescriptor(tn).hasColumnFamily(CF)).isTrue();
    }
  }

  @Test
  void invalidDescriptorsAreRefusedByTheClientOrTheServer() throws Exception {
    try (Admin admin = conn.getAdmin()) {
      // what the client's builders check themselves
      assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.of("bad:family"))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> TableName.valueOf("bad table name"))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(
              () ->
                  admin.createTable(
                      table(TableName.valueOf("errors_empty_split")),
                      new byte[][] {Bytes.toBytes("a"), new byte[0]}))
          .isInstanceOf(IllegalArgumentException.class);

      // what only the server can check: values set as raw attributes, and table-wide rules
      TableName tn = TableName.valueOf("errors_bad_versions");
      assertThatThrownBy(
              () ->
                  admin.createTable(
                      TableDescriptorBuilder.newBuilder(tn)
                          .setColumnFamily(
                              ColumnFamilyDescriptorBuilder.newBuilder(CF)
                                  .setValue("VERSIONS", "0")
                                  .build())
                          .build()))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("VERSIONS");
      assertThat(admin.tableExists(tn)).isFalse();

      TableName minOverMax = TableName.valueOf("errors_min_over_max");
      assertThatThrownBy(
              () ->
                  admin.createTable(
                      TableDescriptorBuilder.newBuilder(minOverMax)
                          .setColumnFamily(
                              ColumnFamilyDescriptorBuilder.newBuilder(CF)
                                  .setMaxVersions(2)
                                  .setMinVersions(3)
                                  .build())
                          .build()))
          .isInstanceOf(DoNotRetryIOException.class);
      assertThat(admin.tableExists(minOverMax)).isFalse();

      TableName noFamilies = TableName.valueOf("errors_no_families");
      assertThatThrownBy(
              () -> admin.createTable(TableDescriptorBuilder.newBuilder(noFamilies).build()))
          .isInstanceOf(DoNotRetryIOException.class);
      assertThat(admin.tableExists(noFamilies)).isFalse();

      assertThatThrownBy(
              () -> admin.createTable(table(TableName.valueOf("no_such_ns", "errors_t"))))
          .isInstanceOf(NamespaceNotFoundException.class);
    }
  }

  @Test
  void readReplicasAreRefused() throws Exception {
    TableName tn = TableName.valueOf("errors_replicas");
    try (Admin admin = conn.getAdmin()) {
      assertThatThrownBy(
              () ->
                  admin.createTable(
                      TableDescriptorBuilder.newBuilder(tn)
                          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF))
                          .setRegionReplication(2)
                          .build()))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("REGION_REPLICATION");
      assertThat(admin.tableExists(tn)).isFalse();
    }
  }

  /** What a DDL future's get throws: the call's own failure, or the procedure's (unwrapped). */
  private static Throwable failureOf(Callable<?> call) {
    Throwable t = catchThrowable(call::call);
    return t instanceof ExecutionException ? t.getCause() : t;
  }

  @Test
  void splitsAndMergesThatCannotBe() throws Exception {
    TableName tn = TableName.valueOf("errors_split_merge");
    try (Admin admin = conn.getAdmin()) {
      create(admin, tn, "g", "p");
      List<RegionInfo> regions = admin.getRegions(tn);
      byte[] middle = regions.get(1).getRegionName();
      // at the region's start key: the client refuses it itself
      assertThatThrownBy(() -> admin.splitRegionAsync(middle, Bytes.toBytes("g")))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("startkey");
      // outside the region
      assertThat(
              failureOf(() -> admin.splitRegionAsync(middle, Bytes.toBytes("x")).get(60, SECONDS)))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("outside");
      // regions that are not neighbours
      assertThat(
              failureOf(
                  () ->
                      admin
                          .mergeRegionsAsync(
                              regions.get(0).getEncodedNameAsBytes(),
                              regions.get(2).getEncodedNameAsBytes(),
                              false)
                          .get(60, SECONDS)))
          .isInstanceOf(DoNotRetryIOException.class);
      // splits switched off
      assertThat(admin.splitSwitch(false, true)).isTrue();
      try {
        assertThat(
                failureOf(
                    () ->
                        admin
                            .splitRegionAsync(regions.get(2).getRegionName(), Bytes.toBytes("t"))
                            .get(60, SECONDS)))
            .isInstanceOf(DoNotRetryIOException.class);
      } finally {
        admin.splitSwitch(true, true);
      }
      assertThat(admin.getRegions(tn)).hasSize(3);
    }
  }

  // ---------------------------------------------------------------- data errors

  @Test
  void incrementOfAValueThatIsNotALong() throws Exception {
    TableName tn = TableName.valueOf("errors_increment");
    try (Admin admin = conn.getAdmin()) {
      create(admin, tn);
    }
    try (Table t = conn.getTable(tn)) {
      t.put(new Put(Bytes.toBytes("r")).addColumn(CF, Q, Bytes.toBytes("abc")));
      assertThatThrownBy(() -> t.increment(new Increment(Bytes.toBytes("r")).addColumn(CF, Q, 1)))
          .isInstanceOf(DoNotRetryIOException.class)
          .hasMessageContaining("3 bytes wide, not an 8-byte long");
      assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("r"))).getValue(CF, Q)))
          .isEqualTo("abc");
      assertThat(t.incrementColumnValue(Bytes.toBytes("n"), CF, Q, 5)).isEqualTo(5);
    }
  }

  @Test
  void oversizeRowKeyIsRefusedByTheClient() throws Exception {
    byte[] huge = new byte[Short.MAX_VALUE + 1];
    assertThatThrownBy(() -> new Put(huge)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Get(huge)).isInstanceOf(IllegalArgumentException.class);
    // A large legal key works end to end. (Not the largest, 32767 bytes: the client's region
    // lookup builds the hbase:meta key "table,row,99999999999999" from it, which must itself be
    // a legal row key, so the stock client cannot locate rows that long against HBase either.)
    TableName tn = TableName.valueOf("errors_big_row");
    try (Admin admin = conn.getAdmin()) {
      create(admin, tn);
    }
    byte[] biggest = new byte[30_000];
    biggest[0] = 'k';
    try (Table t = conn.getTable(tn)) {
      t.put(new Put(biggest).addColumn(CF, Q, Bytes.toBytes("v")));
      assertThat(t.get(new Get(biggest)).getValue(CF, Q)).isEqualTo(Bytes.toBytes("v"));
    }
  }
}
