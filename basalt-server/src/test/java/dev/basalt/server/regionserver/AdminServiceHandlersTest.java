package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.db.RegionMetrics;
import dev.basalt.ops.Put;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactionSwitchRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.FlushRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.FlushRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse.CompactionState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionLoadRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier.RegionSpecifierType;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AdminService over a real database, called directly (the wire is covered by AdminServiceRpcTest).
 */
class AdminServiceHandlersTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final TableName T = TableName.valueOf("t");
  private static final ServerName SELF = new ServerName("rs.example", 16020, 42L);

  @TempDir Path dir;
  private Database db;
  private ManualExecutor executor;
  private AdminServiceHandlers admin;

  /** Runs submitted tasks only when the test says so. */
  static final class ManualExecutor extends AbstractExecutorService {
    final List<Runnable> pending = new ArrayList<>();
    private boolean shutdown;

    void runAll() {
      List<Runnable> now = new ArrayList<>(pending);
      pending.clear();
      now.forEach(Runnable::run);
    }

    @Override
    public void execute(Runnable command) {
      if (shutdown) {
        throw new java.util.concurrent.RejectedExecutionException("shut down");
      }
      pending.add(command);
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shutdown = true;
      return List.copyOf(pending);
    }

    @Override
    public boolean isShutdown() {
      return shutdown;
    }

    @Override
    public boolean isTerminated() {
      return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }

  @BeforeEach
  void open() throws IOException {
    db = Database.open(dir);
    db.createTable(
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Bytes.toBytes("g")))
            .build(),
        new byte[][] {Bytes.toBytes("m")});
    executor = new ManualExecutor();
    admin =
        new AdminServiceHandlers(
            new DatabaseRegions(db), () -> SELF, new RequestedCompactions(executor));
  }

  @AfterEach
  void close() throws IOException {
    admin.close();
    db.close();
  }

  static HBaseProtos.RegionSpecifier byName(RegionInfo r) {
    return HBaseProtos.RegionSpecifier.newBuilder()
        .setType(RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFrom(r.getRegionName()))
        .build();
  }

  static HBaseProtos.RegionSpecifier byEncodedName(RegionInfo r) {
    return HBaseProtos.RegionSpecifier.newBuilder()
        .setType(RegionSpecifierType.ENCODED_REGION_NAME)
        .setValue(ByteString.copyFromUtf8(r.getEncodedName()))
        .build();
  }

  private RegionInfo first() throws IOException {
    return db.getRegions(T).get(0);
  }

  private void put(String row) throws IOException {
    db.getTable(T)
        .put(new Put(Bytes.toBytes(row)).addColumn(F, Bytes.toBytes("q"), Bytes.toBytes(row)));
  }

  private RegionMetrics metrics(RegionInfo r) throws IOException {
    return db.getRegionMetrics(T).stream()
        .filter(m -> m.getRegionInfo().equals(r))
        .findFirst()
        .orElseThrow();
  }

  private CompactionState state(RegionInfo r) throws IOException {
    return admin
        .getRegionInfo(
            GetRegionInfoRequest.newBuilder().setRegion(byName(r)).setCompactionState(true).build())
        .getCompactionState();
  }

  @Test
  void regionInfoByFullOrEncodedName() throws IOException {
    RegionInfo r = first();
    GetRegionInfoResponse byName =
        admin.getRegionInfo(GetRegionInfoRequest.newBuilder().setRegion(byName(r)).build());
    assertThat(byName.getRegionInfo()).isEqualTo(SchemaCodec.toProto(r));
    assertThat(byName.hasCompactionState()).isFalse();

    GetRegionInfoResponse byEncoded =
        admin.getRegionInfo(
            GetRegionInfoRequest.newBuilder()
                .setRegion(byEncodedName(db.getRegions(T).get(1)))
                .setCompactionState(true)
                .build());
    assertThat(byEncoded.getRegionInfo()).isEqualTo(SchemaCodec.toProto(db.getRegions(T).get(1)));
    assertThat(byEncoded.getCompactionState()).isEqualTo(CompactionState.NONE);
  }

  @Test
  void unknownRegionsAreNotServedHere() {
    HBaseProtos.RegionSpecifier nope =
        HBaseProtos.RegionSpecifier.newBuilder()
            .setType(RegionSpecifierType.REGION_NAME)
            .setValue(ByteString.copyFromUtf8("t,,1.0123456789abcdef0123456789abcdef."))
            .build();
    assertThatThrownBy(
            () -> admin.getRegionInfo(GetRegionInfoRequest.newBuilder().setRegion(nope).build()))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(RegionLookup.NOT_SERVING));
    HBaseProtos.RegionSpecifier encoded =
        nope.toBuilder()
            .setType(RegionSpecifierType.ENCODED_REGION_NAME)
            .setValue(ByteString.copyFromUtf8("0123456789abcdef0123456789abcdef"))
            .build();
    assertThatThrownBy(
            () -> admin.flushRegion(FlushRegionRequest.newBuilder().setRegion(encoded).build()))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> {
              assertThat(e.hbaseExceptionClass()).isEqualTo(RegionLookup.NOT_SERVING);
              assertThat(e).hasMessageContaining("0123456789abcdef0123456789abcdef");
            });
  }

  @Test
  void onlineRegionsAreThoseOfEnabledTables() throws IOException {
    TableName u = TableName.valueOf("u");
    db.createTable(
        TableDescriptorBuilder.newBuilder(u)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
    List<HBaseProtos.RegionInfo> expected = new ArrayList<>();
    for (RegionInfo r : db.getRegions(T)) {
      expected.add(SchemaCodec.toProto(r));
    }
    List<HBaseProtos.RegionInfo> all = admin.getOnlineRegion().getRegionInfoList();
    assertThat(all)
        .hasSize(3)
        .containsAll(expected)
        .contains(SchemaCodec.toProto(db.getRegions(u).get(0)));

    db.disableTable(u);
    assertThat(admin.getOnlineRegion().getRegionInfoList())
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void serverInfoNamesThisServer() {
    assertThat(admin.getServerInfo().getServerInfo().getServerName()).isEqualTo(SELF.toProto());
    assertThat(admin.getServerInfo().getServerInfo().getWebuiPort()).isZero();
  }

  @Test
  void flushWritesTheMemstoreAndHonoursIfOlderThan() throws IOException {
    RegionInfo r = first();
    put("a");
    long before = System.currentTimeMillis();
    FlushRegionResponse flushed =
        admin.flushRegion(FlushRegionRequest.newBuilder().setRegion(byName(r)).build());
    assertThat(flushed.getFlushed()).isTrue();
    assertThat(flushed.getLastFlushTime()).isGreaterThanOrEqualTo(before);
    assertThat(metrics(r).getStoreFileCount()).isEqualTo(1);
    assertThat(metrics(r).getMemstoreSize()).isZero();

    // nothing left to write (the memstore is persisted as of now: that counts as a flush time)
    FlushRegionResponse again =
        admin.flushRegion(FlushRegionRequest.newBuilder().setRegion(byName(r)).build());
    assertThat(again.getFlushed()).isFalse();

    // the last flush is newer than the limit: no flush, even with data in the memstore
    put("b");
    FlushRegionResponse skipped =
        admin.flushRegion(
            FlushRegionRequest.newBuilder().setRegion(byName(r)).setIfOlderThanTs(1L).build());
    assertThat(skipped.getFlushed()).isFalse();
    assertThat(skipped.getLastFlushTime()).isEqualTo(again.getLastFlushTime());
    assertThat(metrics(r).getStoreFileCount()).isEqualTo(1);

    // a family flushes the whole region (the engine flushes regions), after checking it exists
    FlushRegionResponse family =
        admin.flushRegion(
            FlushRegionRequest.newBuilder()
                .setRegion(byName(r))
                .setFamily(ByteString.copyFromUtf8("g"))
                .build());
    assertThat(family.getFlushed()).isTrue();
    assertThat(metrics(r).getStoreFileCount()).isEqualTo(2);
    assertThatThrownBy(
            () ->
                admin.flushRegion(
                    FlushRegionRequest.newBuilder()
                        .setRegion(byName(r))
                        .setFamily(ByteString.copyFromUtf8("nope"))
                        .build()))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e ->
                assertThat(e.hbaseExceptionClass())
                    .isEqualTo("org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException"));
  }

  @Test
  void requestedCompactionsAreQueuedReportedAndRun() throws IOException {
    RegionInfo r = first();
    put("a");
    db.flush(T);
    put("b");
    db.flush(T);
    assertThat(metrics(r).getStoreFileCount()).isEqualTo(2);

    admin.compactRegion(
        CompactRegionRequest.newBuilder().setRegion(byName(r)).setMajor(true).build());
    assertThat(state(r)).isEqualTo(CompactionState.MAJOR);
    admin.compactRegion(
        CompactRegionRequest.newBuilder().setRegion(byName(r)).setMajor(true).build());
    assertThat(executor.pending).hasSize(1); // merged into the waiting request
    admin.compactRegion(CompactRegionRequest.newBuilder().setRegion(byName(r)).build());
    assertThat(state(r)).isEqualTo(CompactionState.MAJOR_AND_MINOR);
    assertThat(state(db.getRegions(T).get(1))).isEqualTo(CompactionState.NONE);
    RegionLoad load =
        admin.getRegionLoad(GetRegionLoadRequest.getDefaultInstance()).getRegionLoadsList().stream()
            .filter(
                l ->
                    l.getRegionSpecifier()
                        .getValue()
                        .equals(ByteString.copyFrom(r.getRegionName())))
            .findFirst()
            .orElseThrow();
    assertThat(load.getCompactionState()).isEqualTo(RegionLoad.CompactionState.MAJOR_AND_MINOR);

    executor.runAll();
    assertThat(state(r)).isEqualTo(CompactionState.NONE);
    assertThat(metrics(r).getStoreFileCount()).isEqualTo(1);
    assertThat(db.getTable(T).get(new dev.basalt.ops.Get(Bytes.toBytes("a"))).value())
        .isEqualTo(Bytes.toBytes("a"));

    assertThatThrownBy(
            () ->
                admin.compactRegion(
                    CompactRegionRequest.newBuilder()
                        .setRegion(byName(r))
                        .setFamily(ByteString.copyFromUtf8("nope"))
                        .build()))
        .isInstanceOf(BasaltIOException.class);
  }

  @Test
  void theCompactionSwitchAnswersThePreviousStateAndStopsRequestedCompactions() throws IOException {
    RegionInfo r = first();
    assertThat(
            admin
                .compactionSwitch(CompactionSwitchRequest.newBuilder().setEnabled(false).build())
                .getPrevState())
        .isTrue();
    assertThat(
            admin
                .compactionSwitch(CompactionSwitchRequest.newBuilder().setEnabled(false).build())
                .getPrevState())
        .isFalse();
    admin.compactRegion(
        CompactRegionRequest.newBuilder().setRegion(byName(r)).setMajor(true).build());
    assertThat(executor.pending).isEmpty();
    assertThat(state(r)).isEqualTo(CompactionState.NONE);

    assertThat(
            admin
                .compactionSwitch(CompactionSwitchRequest.newBuilder().setEnabled(true).build())
                .getPrevState())
        .isFalse();
    admin.compactRegion(
        CompactRegionRequest.newBuilder().setRegion(byName(r)).setMajor(true).build());
    assertThat(executor.pending).hasSize(1);
  }

  @Test
  void regionLoadReportsEachRegionsFigures() throws IOException {
    for (int i = 0; i < 5; i++) {
      put("a" + i);
    }
    put("z");
    db.flush(T);
    put("b");
    List<RegionLoad> loads =
        admin.getRegionLoad(GetRegionLoadRequest.getDefaultInstance()).getRegionLoadsList();
    assertThat(loads).hasSize(2);
    RegionLoad a = loads.get(0);
    assertThat(a.getRegionSpecifier().getType()).isEqualTo(RegionSpecifierType.REGION_NAME);
    assertThat(a.getRegionSpecifier().getValue().toByteArray()).isEqualTo(first().getRegionName());
    assertThat(a.getStores()).isEqualTo(2);
    assertThat(a.getStorefiles()).isEqualTo(1);
    assertThat(a.getWriteRequestsCount()).isEqualTo(6);
    assertThat(a.getStorefileSizeMB()).isZero(); // a few hundred bytes, in whole MB
    assertThat(a.getCompactionState()).isEqualTo(RegionLoad.CompactionState.NONE);
    assertThat(loads.get(1).getWriteRequestsCount()).isEqualTo(1);

    TableName u = TableName.valueOf("u");
    db.createTable(
        TableDescriptorBuilder.newBuilder(u)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build());
    assertThat(admin.getRegionLoad(GetRegionLoadRequest.getDefaultInstance()).getRegionLoadsCount())
        .isEqualTo(3);
    assertThat(
            admin
                .getRegionLoad(
                    GetRegionLoadRequest.newBuilder().setTableName(SchemaCodec.toProto(u)).build())
                .getRegionLoadsCount())
        .isEqualTo(1);
    assertThat(
            admin
                .getRegionLoad(
                    GetRegionLoadRequest.newBuilder()
                        .setTableName(SchemaCodec.toProto(TableName.valueOf("missing")))
                        .build())
                .getRegionLoadsList())
        .isEmpty();
  }

  @Test
  void rollingTheWalStartsANewSegment() throws Exception {
    put("a"); // not flushed: the rolled-away segment is kept
    int before = db.getWal().liveSegments().size();
    admin.rollWalWriter();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (db.getWal().liveSegments().size() == before && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(db.getWal().liveSegments()).hasSize(before + 1);
  }
}
