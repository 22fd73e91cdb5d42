package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.db.Database;
import dev.basalt.ops.Get;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Requests reach the database's regions by the region names hbase:meta will publish. */
class DatabaseRegionsTest {
  @TempDir Path dir;

  private static HBaseProtos.RegionSpecifier spec(byte[] name) {
    return HBaseProtos.RegionSpecifier.newBuilder()
        .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFrom(name))
        .build();
  }

  private static ClientProtos.MutateRequest put(byte[] region, String row) {
    return ClientProtos.MutateRequest.newBuilder()
        .setRegion(spec(region))
        .setMutation(
            MutationProto.newBuilder()
                .setRow(ByteString.copyFromUtf8(row))
                .setMutateType(MutationProto.MutationType.PUT)
                .addColumnValue(
                    MutationProto.ColumnValue.newBuilder()
                        .setFamily(ByteString.copyFromUtf8("f"))
                        .addQualifierValue(
                            MutationProto.ColumnValue.QualifierValue.newBuilder()
                                .setQualifier(ByteString.copyFromUtf8("q"))
                                .setValue(ByteString.copyFromUtf8("v-" + row)))))
        .build();
  }

  @Test
  void writesReachTheRegionTheirNameNamesAndOtherNamesAreNotServed() throws Exception {
    TableName t = TableName.valueOf("t");
    try (Database db = Database.open(dir)) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Bytes.toBytes("f")))
              .build(),
          new byte[][] {Bytes.toBytes("m")});
      List<RegionInfo> regions = db.getRegions(t);
      assertThat(regions).hasSize(2);
      ClientOperations ops =
          new ClientOperations(
              new DatabaseRegions(db),
              null,
              new ServerNonces(Clock.system(), ServerNonces.GRACE_MILLIS));
      ops.mutate(put(regions.get(0).getRegionName(), "a"), List.<Cell>of().iterator(), null);
      ops.mutate(put(regions.get(1).getRegionName(), "z"), List.<Cell>of().iterator(), null);
      assertThat(db.getTable(t).get(new Get(Bytes.toBytes("z"))).value())
          .isEqualTo(Bytes.toBytes("v-z"));
      assertThatThrownBy(
              () ->
                  ops.mutate(
                      put(regions.get(0).getRegionName(), "z"), List.<Cell>of().iterator(), null))
          .isInstanceOfSatisfying(
              BasaltIOException.class,
              e ->
                  assertThat(e.hbaseExceptionClass())
                      .isEqualTo("org.apache.hadoop.hbase.regionserver.WrongRegionException"));
      assertThatThrownBy(
              () ->
                  ops.mutate(
                      put(Bytes.toBytes("t,,1.nope."), "a"), List.<Cell>of().iterator(), null))
          .isInstanceOfSatisfying(
              BasaltIOException.class,
              e -> assertThat(e.hbaseExceptionClass()).isEqualTo(RegionLookup.NOT_SERVING));
      db.disableTable(t);
      assertThatThrownBy(
              () ->
                  ops.mutate(
                      put(regions.get(0).getRegionName(), "a"), List.<Cell>of().iterator(), null))
          .isInstanceOfSatisfying(
              BasaltIOException.class,
              e -> assertThat(e.hbaseExceptionClass()).isEqualTo(RegionLookup.NOT_SERVING));
    }
  }
}
