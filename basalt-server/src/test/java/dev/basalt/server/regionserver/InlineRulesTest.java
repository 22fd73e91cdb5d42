package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Durability;
import dev.basalt.region.EditLog;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.ManualClock;
import dev.basalt.util.config.Config;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

class InlineRulesTest {
  private static Region region(Durability tableDefault) {
    return Region.inMemory(
        TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Bytes.toBytes("f")))
            .setDurability(tableDefault)
            .build(),
        RegionServices.of(new ManualClock(0), Config.defaults(), EditLog.NONE));
  }

  private static InlineRules rules(Region region) {
    return new InlineRules(
        spec -> {
          if (region == null) {
            throw new BasaltIOException("not here", RegionLookup.NOT_SERVING, false);
          }
          return region;
        });
  }

  private static MutateRequest put(MutationProto.Durability d) {
    return MutateRequest.newBuilder()
        .setRegion(
            HBaseProtos.RegionSpecifier.newBuilder()
                .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFromUtf8("t,,1.0123456789abcdef0123456789abcdef.")))
        .setMutation(
            MutationProto.newBuilder()
                .setRow(ByteString.copyFromUtf8("r"))
                .setMutateType(MutationProto.MutationType.PUT)
                .setDurability(d))
        .build();
  }

  @Test
  void mutationsForcedToTheDeviceGoToHandlers() {
    InlineRules plain = rules(region(Durability.USE_DEFAULT));
    assertThat(plain.mutate(put(MutationProto.Durability.USE_DEFAULT))).isTrue();
    assertThat(plain.mutate(put(MutationProto.Durability.SYNC_WAL))).isTrue();
    assertThat(plain.mutate(put(MutationProto.Durability.ASYNC_WAL))).isTrue();
    assertThat(plain.mutate(put(MutationProto.Durability.FSYNC_WAL))).isFalse();

    InlineRules forced = rules(region(Durability.FSYNC_WAL));
    assertThat(forced.mutate(put(MutationProto.Durability.USE_DEFAULT))).isFalse();
    // The mutation's own durability wins over the table's, as when it is applied.
    assertThat(forced.mutate(put(MutationProto.Durability.SYNC_WAL))).isTrue();
  }

  @Test
  void aMutationForARegionNotServedHereIsAnsweredAtOnce() {
    assertThat(rules(null).mutate(put(MutationProto.Durability.USE_DEFAULT))).isTrue();
  }

  private static ScanRequest scanCall(int rows) {
    return ScanRequest.newBuilder().setScannerId(1).setNumberOfRows(rows).build();
  }

  @Test
  void onlyScanCallsForAFewRowsRunInline() {
    assertThat(InlineRules.scan(scanCall(0).toBuilder().setCloseScanner(true).build())).isTrue();
    assertThat(InlineRules.scan(scanCall(InlineRules.MAX_INLINE_SCAN_ROWS))).isTrue();
    assertThat(InlineRules.scan(scanCall(InlineRules.MAX_INLINE_SCAN_ROWS + 1))).isFalse();
    assertThat(InlineRules.scan(scanCall(Integer.MAX_VALUE))).isFalse();
  }
}
