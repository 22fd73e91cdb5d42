package dev.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ClusterStatus;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.Option;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.ServerLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.TableRegionStatesCount;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterSwitchType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SetSplitOrMergeEnabledRequest;
import org.junit.jupiter.api.Test;

/** Cluster status and switches. */
class MasterServiceClusterTest extends MasterTestBase {
  @Test
  void clusterStatusNamesTheServersAndCarriesEveryRegionsLoad() throws Exception {
    m.create("t", "m");
    m.create("u");
    m.disable("u");
    TableName t = TableName.valueOf("t");
    for (String row : List.of("a", "b", "x")) {
      m.db.getTable(t).put(new Put(Bytes.toBytes(row)).addColumn(f(), f(), Bytes.toBytes("v")));
    }
    m.db.getTable(t).get(new Get(Bytes.toBytes("a")));

    ClusterStatus s =
        m.master.status().status(GetClusterStatusRequest.getDefaultInstance()).getClusterStatus();
    assertThat(s.isInitialized()).isTrue();
    assertThat(s.getHbaseVersion().getVersion()).isEqualTo("2.6.3");
    assertThat(s.getClusterId().getClusterId()).isEqualTo(m.db.getClusterId().toString());
    assertThat(s.getMaster()).isEqualTo(MasterFixture.MASTER.toProto());
    assertThat(s.getBalancerOn()).isFalse();
    assertThat(s.getServersNameList()).containsExactly(MasterFixture.REGION_SERVER.toProto());
    assertThat(s.getLiveServersCount()).isEqualTo(1);
    assertThat(s.getLiveServers(0).getServer()).isEqualTo(MasterFixture.REGION_SERVER.toProto());

    ServerLoad load = s.getLiveServers(0).getServerLoad();
    List<RegionInfo> regions = m.db.getRegions(t);
    assertThat(load.getRegionLoadsList())
        .extracting(r -> r.getRegionSpecifier().getValue().toByteArray())
        .containsExactly(regions.get(0).getRegionName(), regions.get(1).getRegionName());
    RegionLoad first = load.getRegionLoads(0);
    assertThat(first.getStores()).isEqualTo(1);
    assertThat(first.getWriteRequestsCount()).isEqualTo(2);
    assertThat(first.getReadRequestsCount()).isEqualTo(1);
    assertThat(first.getStorefiles()).isZero();
    assertThat(load.getRegionLoads(1).getWriteRequestsCount()).isEqualTo(1);
    assertThat(load.getTotalNumberOfRequests()).isEqualTo(4);
    assertThat(load.getMaxHeapMB()).isPositive();

    assertThat(s.getTableRegionStatesCountList())
        .extracting(
            TableRegionStatesCount::getTableName,
            c -> c.getRegionStatesCount().getOpenRegions(),
            c -> c.getRegionStatesCount().getClosedRegions(),
            c -> c.getRegionStatesCount().getTotalRegions())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(MasterFixture.name("t"), 2, 0, 2),
            org.assertj.core.groups.Tuple.tuple(MasterFixture.name("u"), 0, 1, 1));
  }

  @Test
  void onlyTheRequestedPartsAreFilled() {
    ClusterStatus s =
        m.master
            .status()
            .status(
                GetClusterStatusRequest.newBuilder()
                    .addOptions(Option.CLUSTER_ID)
                    .addOptions(Option.MASTER)
                    .build())
            .getClusterStatus();
    assertThat(s.hasClusterId()).isTrue();
    assertThat(s.hasMaster()).isTrue();
    assertThat(s.hasHbaseVersion()).isFalse();
    assertThat(s.getLiveServersCount()).isZero();
  }

  @Test
  void splitAndMergeSwitchesAnswerTheirPreviousValues() {
    SplitMergeSwitches sw = m.master.switches();
    assertThat(sw.isEnabled(MasterSwitchType.SPLIT)).isTrue();
    assertThat(
            m.master
                .setSplitOrMerge(
                    SetSplitOrMergeEnabledRequest.newBuilder()
                        .setEnabled(false)
                        .addSwitchTypes(MasterSwitchType.MERGE)
                        .build())
                .getPrevValueList())
        .containsExactly(true);
    assertThat(
            m.master
                .setSplitOrMerge(
                    SetSplitOrMergeEnabledRequest.newBuilder()
                        .setEnabled(true)
                        .addSwitchTypes(MasterSwitchType.SPLIT)
                        .addSwitchTypes(MasterSwitchType.MERGE)
                        .build())
                .getPrevValueList())
        .containsExactly(true, false);
    assertThat(sw.isEnabled(MasterSwitchType.MERGE)).isTrue();
  }

  private static byte[] f() {
    return Bytes.toBytes("f");
  }
}
