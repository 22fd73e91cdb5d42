package dev.basalt.server.master;

import static dev.basalt.server.master.MasterFixture.assertFailsWith;
import static dev.basalt.server.master.MasterFixture.bytes;
import static dev.basalt.server.master.MasterFixture.name;
import static dev.basalt.server.master.MasterFixture.schema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import dev.basalt.server.protocol.SchemaCodec;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.AddColumnRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteColumnRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.EnableTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.FlushTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetProcedureResultResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetSchemaAlterStatusRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetSchemaAlterStatusResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterSwitchType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MergeTableRegionsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyColumnRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SetSplitOrMergeEnabledRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SplitTableRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.TruncateTableRequest;
import org.junit.jupiter.api.Test;

/** Table DDL, procedures, flush, split and merge through the master's handlers. */
class MasterServiceDdlTest extends MasterTestBase {
  private static final String TABLE_EXISTS = "org.apache.hadoop.hbase.TableExistsException";
  private static final String NOT_FOUND = "org.apache.hadoop.hbase.TableNotFoundException";
  private static final String NOT_ENABLED = "org.apache.hadoop.hbase.TableNotEnabledException";
  private static final String NOT_DISABLED = "org.apache.hadoop.hbase.TableNotDisabledException";
  private static final String DO_NOT_RETRY = "org.apache.hadoop.hbase.DoNotRetryIOException";
  private static final String BAD_FAMILY =
      "org.apache.hadoop.hbase.InvalidFamilyOperationException";

  private static final TableName T = TableName.valueOf("t");

  @Test
  void theServiceRegistersItsHandlers() {
    assertThat(m.master.service().name()).isEqualTo("MasterService");
  }

  @Test
  void createWithSplitKeysMakesOneRegionPerRangeAndAFinishedProcedure() throws Exception {
    long id = m.create("t", "p", "g");
    List<RegionInfo> regions = m.db.getRegions(T);
    assertThat(regions)
        .extracting(r -> Bytes.toString(r.getStartKey()))
        .containsExactly("", "g", "p");
    GetProcedureResultResponse r = m.result(id);
    assertThat(r.getState()).isEqualTo(GetProcedureResultResponse.State.FINISHED);
    assertThat(r.hasException()).isFalse();
    assertThat(r.getSubmittedTime()).isEqualTo(m.clock.currentTimeMillis());
    assertThat(state("t")).isEqualTo(HBaseProtos.TableState.State.ENABLED);
  }

  @Test
  void createTwiceFailsWithTableExistsAndTheFailureIsRecorded() throws Exception {
    long first = m.create("t");
    assertFailsWith(TABLE_EXISTS, () -> m.create("t"));
    GetProcedureResultResponse r = m.result(first + 1);
    assertThat(r.getState()).isEqualTo(GetProcedureResultResponse.State.FINISHED);
    assertThat(r.getException().getGenericException().getClassName()).isEqualTo(TABLE_EXISTS);
    assertThat(r.getException().getGenericException().getMessage()).contains("t");
    assertThat(m.result(first + 2).getState())
        .isEqualTo(GetProcedureResultResponse.State.NOT_FOUND);
  }

  @Test
  void badRequestsFailWithDoNotRetryNamingTheProblem() throws Exception {
    HBaseProtos.TableSchema replicated =
        schema("t", "f").toBuilder()
            .addAttributes(
                HBaseProtos.BytesBytesPair.newBuilder()
                    .setFirst(bytes("REGION_REPLICATION"))
                    .setSecond(bytes("2")))
            .build();
    assertFailsWith(
            DO_NOT_RETRY,
            () ->
                m.master
                    .ddl()
                    .create(CreateTableRequest.newBuilder().setTableSchema(replicated).build()))
        .hasMessageContaining("REGION_REPLICATION '2'");
    assertFailsWith(DO_NOT_RETRY, () -> m.create("t", "a", "a")).hasMessageContaining("split key");
    assertThat(m.db.tableExists(T)).isFalse();
  }

  @Test
  void deleteNeedsADisabledTableAndStatesFollowDisableAndEnable() throws Exception {
    m.create("t");
    DeleteTableRequest delete = DeleteTableRequest.newBuilder().setTableName(name("t")).build();
    // HBase's master refuses to delete an enabled table with TableNotDisabledException.
    assertFailsWith(NOT_DISABLED, () -> m.master.ddl().delete(delete));
    m.disable("t");
    assertThat(state("t")).isEqualTo(HBaseProtos.TableState.State.DISABLED);
    assertFailsWith(NOT_ENABLED, () -> m.disable("t"));
    EnableTableRequest enable = EnableTableRequest.newBuilder().setTableName(name("t")).build();
    m.master.ddl().enable(enable);
    assertFailsWith(NOT_DISABLED, () -> m.master.ddl().enable(enable));
    assertThat(state("t")).isEqualTo(HBaseProtos.TableState.State.ENABLED);
    m.disable("t");
    long id = m.master.ddl().delete(delete).getProcId();
    assertThat(m.result(id).getState()).isEqualTo(GetProcedureResultResponse.State.FINISHED);
    assertThat(m.db.tableExists(T)).isFalse();
    assertFailsWith(NOT_FOUND, () -> state("t"));
    assertFailsWith(NOT_FOUND, () -> m.master.ddl().delete(delete));
  }

  @Test
  void modifyAndFamilyChangesThenTheAlterStatusHasNothingLeft() throws Exception {
    m.create("t", "m");
    m.master
        .ddl()
        .modify(
            ModifyTableRequest.newBuilder()
                .setTableName(name("t"))
                .setTableSchema(schema("t", "f", "g"))
                .build());
    assertThat(m.db.getDescriptor(T).getColumnFamilyCount()).isEqualTo(2);
    AddColumnRequest addH =
        AddColumnRequest.newBuilder()
            .setTableName(name("t"))
            .setColumnFamilies(
                SchemaCodec.toProto(ColumnFamilyDescriptorBuilder.of(Bytes.toBytes("h"))))
            .build();
    m.master.ddl().addFamily(addH);
    assertFailsWith(BAD_FAMILY, () -> m.master.ddl().addFamily(addH));
    m.master
        .ddl()
        .modifyFamily(
            ModifyColumnRequest.newBuilder()
                .setTableName(name("t"))
                .setColumnFamilies(
                    SchemaCodec.toProto(
                        ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("h"))
                            .setMaxVersions(7)
                            .build()))
                .build());
    assertThat(m.db.getDescriptor(T).getColumnFamily(Bytes.toBytes("h")).getMaxVersions())
        .isEqualTo(7);
    DeleteColumnRequest deleteG =
        DeleteColumnRequest.newBuilder().setTableName(name("t")).setColumnName(bytes("g")).build();
    m.master.ddl().deleteFamily(deleteG);
    assertThat(m.db.getDescriptor(T).hasColumnFamily(Bytes.toBytes("g"))).isFalse();
    assertFailsWith(BAD_FAMILY, () -> m.master.ddl().deleteFamily(deleteG));

    GetSchemaAlterStatusResponse s =
        m.master
            .tables()
            .alterStatus(GetSchemaAlterStatusRequest.newBuilder().setTableName(name("t")).build());
    assertThat(s.getYetToUpdateRegions()).isZero();
    assertThat(s.getTotalRegions()).isEqualTo(2);
    assertFailsWith(
        NOT_FOUND,
        () ->
            m.master
                .tables()
                .alterStatus(
                    GetSchemaAlterStatusRequest.newBuilder().setTableName(name("nope")).build()));
  }

  @Test
  void modifyCannotRenameATable() throws Exception {
    m.create("t");
    assertThatThrownBy(
            () ->
                m.master
                    .ddl()
                    .modify(
                        ModifyTableRequest.newBuilder()
                            .setTableName(name("t"))
                            .setTableSchema(schema("u", "f"))
                            .build()))
        .hasMessageContaining("cannot be renamed");
  }

  @Test
  void truncateKeepsOrDropsTheSplitPoints() throws Exception {
    m.create("t", "g", "p");
    put("a");
    TruncateTableRequest keep =
        TruncateTableRequest.newBuilder().setTableName(name("t")).setPreserveSplits(true).build();
    assertFailsWith(NOT_DISABLED, () -> m.master.ddl().truncate(keep));
    m.disable("t");
    m.master.ddl().truncate(keep);
    assertThat(m.db.isTableEnabled(T)).isTrue();
    assertThat(m.db.getRegions(T))
        .extracting(r -> Bytes.toString(r.getStartKey()))
        .containsExactly("", "g", "p");
    assertThat(m.db.getTable(T).get(new Get(Bytes.toBytes("a"))).isEmpty()).isTrue();
    m.disable("t");
    m.master.ddl().truncate(TruncateTableRequest.newBuilder().setTableName(name("t")).build());
    assertThat(m.db.getRegions(T)).hasSize(1);
  }

  @Test
  void aResentCallWithTheSameNonceGetsTheFirstProcedure() throws Exception {
    CreateTableRequest q =
        CreateTableRequest.newBuilder()
            .setTableSchema(schema("t", "f"))
            .setNonceGroup(5)
            .setNonce(9)
            .build();
    long id = m.master.ddl().create(q).getProcId();
    assertThat(m.master.ddl().create(q).getProcId()).isEqualTo(id);
    CreateTableRequest other = q.toBuilder().setNonce(10).build();
    assertFailsWith(TABLE_EXISTS, () -> m.master.ddl().create(other));
    // A failed call's nonce is forgotten: resending it runs the DDL again.
    assertFailsWith(TABLE_EXISTS, () -> m.master.ddl().create(other));
  }

  @Test
  void idsOfARestartedMasterDoNotRepeatThoseOfItsPreviousLife() {
    Procedures before = new Procedures(m.clock, 4);
    m.clock.advance(1);
    Procedures after = new Procedures(m.clock, 4);
    long a = runNothing(before);
    long b = runNothing(after);
    assertThat(b).isGreaterThan(a);
    assertThat(after.result(a).getState()).isEqualTo(GetProcedureResultResponse.State.NOT_FOUND);
  }

  @Test
  void onlyRecentProceduresAreRemembered() {
    Procedures p = new Procedures(m.clock, 2);
    long first = runNothing(p);
    runNothing(p);
    long third = runNothing(p);
    assertThat(p.result(first).getState()).isEqualTo(GetProcedureResultResponse.State.NOT_FOUND);
    assertThat(p.result(third).getState()).isEqualTo(GetProcedureResultResponse.State.FINISHED);
  }

  private static long runNothing(Procedures p) {
    try {
      return p.run("NothingProcedure", 0, 0, () -> {});
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void flushWritesTheMemstoresToFiles() throws Exception {
    m.create("t");
    put("a");
    assertThat(m.db.getRegionMetrics(T).get(0).getStoreFileCount()).isZero();
    m.master
        .ddl()
        .flush(
            FlushTableRequest.newBuilder()
                .setTableName(name("t"))
                .addColumnFamily(bytes("f"))
                .build());
    assertThat(m.db.getRegionMetrics(T).get(0).getStoreFileCount()).isEqualTo(1);
    m.disable("t");
    assertFailsWith(
        NOT_ENABLED,
        () -> m.master.ddl().flush(FlushTableRequest.newBuilder().setTableName(name("t")).build()));
  }

  @Test
  void splitAtARowAtTheSplitPointAndMergeBack() throws Exception {
    m.create("t");
    for (char c = 'a'; c <= 'z'; c++) {
      put(String.valueOf(c));
    }
    RegionInfo whole = m.db.getRegions(T).get(0);
    long id = m.master.ddl().split(split(whole, "m")).getProcId();
    assertThat(m.result(id).getState()).isEqualTo(GetProcedureResultResponse.State.FINISHED);
    List<RegionInfo> halves = m.db.getRegions(T);
    assertThat(halves).extracting(r -> Bytes.toString(r.getStartKey())).containsExactly("", "m");

    // The parent is gone: its name is unknown now.
    assertFailsWith(
        "org.apache.hadoop.hbase.UnknownRegionException",
        () -> m.master.ddl().split(split(whole, "c")));
    assertFailsWith(DO_NOT_RETRY, () -> m.master.ddl().split(split(halves.get(0), "q")));

    // Daughters read their parent's files until compacted; then they merge (by encoded name, as
    // the client names them) and the merged region splits at its own split point.
    m.db.majorCompact(T);
    m.master.ddl().merge(merge(halves.get(1), halves.get(0)));
    assertThat(m.db.getRegions(T)).hasSize(1);
    m.db.majorCompact(T);
    m.master
        .ddl()
        .split(
            SplitTableRegionRequest.newBuilder()
                .setRegionInfo(SchemaCodec.toProto(m.db.getRegions(T).get(0)))
                .build());
    assertThat(m.db.getRegions(T)).hasSize(2);
    assertThat(m.db.getTable(T).get(new Get(Bytes.toBytes("q"))).isEmpty()).isFalse();
  }

  @Test
  void mergeNeedsTwoRegionsAndTheSwitchesStopSplitsAndMerges() throws Exception {
    m.create("t", "m");
    List<RegionInfo> regions = m.db.getRegions(T);
    assertThatThrownBy(() -> m.master.ddl().merge(merge(regions.get(0))))
        .hasMessageContaining("two regions");
    m.master.setSplitOrMerge(
        SetSplitOrMergeEnabledRequest.newBuilder()
            .setEnabled(false)
            .addSwitchTypes(MasterSwitchType.SPLIT)
            .addSwitchTypes(MasterSwitchType.MERGE)
            .build());
    assertThatThrownBy(() -> m.master.ddl().split(split(regions.get(1), "x")))
        .hasMessageContaining("split switch is off");
    assertThatThrownBy(() -> m.master.ddl().merge(merge(regions.get(0), regions.get(1))))
        .hasMessageContaining("merge switch is off");
    assertThat(m.db.getRegions(T)).hasSize(2);
  }

  private static SplitTableRegionRequest split(RegionInfo r, String row) {
    return SplitTableRegionRequest.newBuilder()
        .setRegionInfo(SchemaCodec.toProto(r))
        .setSplitRow(bytes(row))
        .build();
  }

  /** Names the regions by encoded name, as the client does. */
  private static MergeTableRegionsRequest merge(RegionInfo... regions) {
    MergeTableRegionsRequest.Builder q = MergeTableRegionsRequest.newBuilder();
    for (RegionInfo r : regions) {
      q.addRegion(
          HBaseProtos.RegionSpecifier.newBuilder()
              .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.ENCODED_REGION_NAME)
              .setValue(bytes(r.getEncodedName())));
    }
    return q.build();
  }

  private HBaseProtos.TableState.State state(String table) throws IOException {
    return m.master
        .tables()
        .state(GetTableStateRequest.newBuilder().setTableName(name(table)).build())
        .getTableState()
        .getState();
  }

  /** Writes f:q = "v" at the row of table t. */
  private void put(String row) throws IOException {
    m.db
        .getTable(T)
        .put(
            new Put(Bytes.toBytes(row))
                .addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"), Bytes.toBytes("v")));
  }
}
