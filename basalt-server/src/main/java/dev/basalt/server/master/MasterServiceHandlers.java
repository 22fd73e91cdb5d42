package dev.basalt.server.master;

import dev.basalt.db.Database;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.server.replication.ReplicationLoad;
import dev.basalt.server.replication.ReplicationPeers;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.Clock;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.AddColumnRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.BalanceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.BalanceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.CreateTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteColumnRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DeleteTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DisableTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.EnableTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.FlushTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetClusterStatusRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetNamespaceDescriptorRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetProcedureResultRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetSchemaAlterStatusRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableDescriptorsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableNamesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetTableStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsBalancerEnabledRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsBalancerEnabledResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsCatalogJanitorEnabledRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsCatalogJanitorEnabledResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsCleanerChoreEnabledRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsCleanerChoreEnabledResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsInMaintenanceModeRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsInMaintenanceModeResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsMasterRunningRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsMasterRunningResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsNormalizerEnabledRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsNormalizerEnabledResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsSplitOrMergeEnabledRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsSplitOrMergeEnabledResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListNamespaceDescriptorsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListNamespacesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableDescriptorsByNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableDescriptorsByStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableNamesByNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListTableNamesByStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterSwitchType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MergeTableRegionsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyColumnRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyNamespaceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ModifyTableRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SecurityCapabilitiesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SecurityCapabilitiesResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SetBalancerRunningRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SetBalancerRunningResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SetSplitOrMergeEnabledRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SetSplitOrMergeEnabledResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.SplitTableRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.TruncateTableRequest;

/**
 * The master's MasterService as the stock HBase 2.x client calls it: DDL on tables and namespaces,
 * table and namespace listings, procedure results, cluster status, splits and merges, and the
 * switches. DDL runs synchronously on the {@link Database}, so every procedure id handed out is
 * already finished (see {@link Procedures}).
 *
 * <p>Standalone Basalt has one region server, so there is nothing to balance: the balancer is off
 * and stays off, and a balance run moves nothing. The listings of features Basalt does not have yet
 * answer what is true ({@link AbsentFeatureListings}), older clients' flush by procedure signature
 * is served ({@link NamedProcedures}), and so are the region server group listings ({@link
 * RsGroupEndpoint}), and so are replication peers ({@link ReplicationPeerRpcs}). Methods not
 * registered (taking snapshots, setting quotas, region assignment, store file trackers, ...) are
 * answered by the RPC layer with a DoNotRetryIOException naming the method, which makes the client
 * fail at once.
 */
public final class MasterServiceHandlers {
  /** Procedures remembered for the client's polls; a DDL call polls only its own, right away. */
  private static final int RECENT_PROCEDURES = 1024;

  private final Procedures procedures;
  private final RegionPlacement placement;
  private final SplitMergeSwitches switches;
  private final TableDdl ddl;
  private final TableQueries tables;
  private final NamespaceRpcs namespaces;
  private final ClusterStatusReport status;
  private final AbsentFeatureListings listings;
  private final NamedProcedures named;
  private final RsGroupEndpoint rsGroups;
  private final ReplicationPeerRpcs replication;

  /**
   * The master of a standalone server.
   *
   * @param cluster the cluster's identities; asked on each status call, since the servers' ports
   *     are known only once they listen
   */
  public static MasterServiceHandlers standalone(
      Database db, Supplier<ClusterInfo> cluster, ReplicationPeers peers, ReplicationLoad load) {
    return standalone(db, cluster, Clock.system(), peers, load);
  }

  static MasterServiceHandlers standalone(
      Database db,
      Supplier<ClusterInfo> cluster,
      Clock clock,
      ReplicationPeers peers,
      ReplicationLoad load) {
    return new MasterServiceHandlers(
        new StandaloneAdmin(db),
        new StandaloneView(db, cluster, load),
        new StandalonePlacement(),
        new SplitMergeSwitches(),
        clock,
        peers);
  }

  /**
   * @param switches the split and merge switches, shared with what else starts splits (a cluster
   *     master's handling of region servers' split requests)
   */
  MasterServiceHandlers(
      ClusterAdmin admin,
      ClusterView view,
      RegionPlacement placement,
      SplitMergeSwitches switches,
      Clock clock,
      ReplicationPeers peers) {
    this.switches = switches;
    this.procedures = new Procedures(clock, RECENT_PROCEDURES);
    this.placement = placement;
    this.ddl = new TableDdl(admin, procedures, switches);
    this.tables = new TableQueries(admin);
    this.namespaces = new NamespaceRpcs(admin, procedures);
    this.status = new ClusterStatusReport(admin, view);
    this.listings = new AbsentFeatureListings(procedures);
    this.named = new NamedProcedures(admin, procedures);
    this.replication = new ReplicationPeerRpcs(peers, procedures);
    this.rsGroups =
        new RsGroupEndpoint(
            () -> view.liveServers().keySet().stream().map(ServerName::toProto).toList(),
            () ->
                admin.listTables().stream()
                    .map(d -> SchemaCodec.toProto(d.getTableName()))
                    .toList());
  }

  public RpcService service() {
    RpcService.Builder b = RpcService.builder(MasterService.getDescriptor());
    b.method(
            "IsMasterRunning",
            IsMasterRunningRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(IsMasterRunningResponse.newBuilder().setIsMasterRunning(true).build()))
        .method(
            "getProcedureResult",
            GetProcedureResultRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(procedures.result(q.getProcId())))
        // tables: changes
        .method(
            "CreateTable",
            CreateTableRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.create(q)))
        .method(
            "DeleteTable",
            DeleteTableRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.delete(q)))
        .method(
            "truncateTable",
            TruncateTableRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.truncate(q)))
        .method(
            "EnableTable",
            EnableTableRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.enable(q)))
        .method(
            "DisableTable",
            DisableTableRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.disable(q)))
        .method(
            "ModifyTable",
            ModifyTableRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.modify(q)))
        .method(
            "AddColumn",
            AddColumnRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.addFamily(q)))
        .method(
            "DeleteColumn",
            DeleteColumnRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.deleteFamily(q)))
        .method(
            "ModifyColumn",
            ModifyColumnRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.modifyFamily(q)))
        .method(
            "FlushTable",
            FlushTableRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.flush(q)))
        .method(
            "SplitRegion",
            SplitTableRegionRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.split(q)))
        .method(
            "MergeTableRegions",
            MergeTableRegionsRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(ddl.merge(q)))
        // tables: reads
        .method(
            "GetSchemaAlterStatus",
            GetSchemaAlterStatusRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(tables.alterStatus(q)))
        .method(
            "GetTableDescriptors",
            GetTableDescriptorsRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(tables.descriptors(q)))
        .method(
            "GetTableNames",
            GetTableNamesRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(tables.names(q)))
        .method(
            "GetTableState",
            GetTableStateRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(tables.state(q)))
        .method(
            "ListTableDescriptorsByNamespace",
            ListTableDescriptorsByNamespaceRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(tables.descriptorsOfNamespace(q)))
        .method(
            "ListTableNamesByNamespace",
            ListTableNamesByNamespaceRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(tables.namesOfNamespace(q)))
        .method(
            "ListTableDescriptorsByState",
            ListTableDescriptorsByStateRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(tables.descriptorsByState(q)))
        .method(
            "ListTableNamesByState",
            ListTableNamesByStateRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(tables.namesByState(q)))
        // namespaces
        .method(
            "CreateNamespace",
            CreateNamespaceRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(namespaces.create(q)))
        .method(
            "ModifyNamespace",
            ModifyNamespaceRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(namespaces.modify(q)))
        .method(
            "DeleteNamespace",
            DeleteNamespaceRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(namespaces.delete(q)))
        .method(
            "GetNamespaceDescriptor",
            GetNamespaceDescriptorRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(namespaces.get(q)))
        .method(
            "ListNamespaceDescriptors",
            ListNamespaceDescriptorsRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(namespaces.descriptors(q)))
        .method(
            "ListNamespaces",
            ListNamespacesRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(namespaces.names(q)))
        // cluster
        .method(
            "GetClusterStatus",
            GetClusterStatusRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(status.status(q)))
        .method(
            "getSecurityCapabilities",
            SecurityCapabilitiesRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    SecurityCapabilitiesResponse.newBuilder()
                        .addCapabilities(
                            SecurityCapabilitiesResponse.Capability.SIMPLE_AUTHENTICATION)
                        .build()))
        .method(
            "IsMasterInMaintenanceMode",
            IsInMaintenanceModeRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    IsInMaintenanceModeResponse.newBuilder().setInMaintenanceMode(false).build()))
        // switches
        .method(
            "IsBalancerEnabled",
            IsBalancerEnabledRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    IsBalancerEnabledResponse.newBuilder()
                        .setEnabled(placement.balancerEnabled())
                        .build()))
        .method(
            "SetBalancerRunning",
            SetBalancerRunningRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    SetBalancerRunningResponse.newBuilder()
                        .setPrevBalanceValue(placement.setBalancerEnabled(q.getOn()))
                        .build()))
        .method(
            "Balance",
            BalanceRequest.getDefaultInstance(),
            (q, c) -> {
              RegionPlacement.BalanceResult r = placement.balance(q.getDryRun());
              return RpcReply.of(
                  BalanceResponse.newBuilder()
                      .setBalancerRan(r.ran())
                      .setMovesCalculated(r.movesCalculated())
                      .setMovesExecuted(r.movesExecuted())
                      .build());
            })
        .method(
            "IsSplitOrMergeEnabled",
            IsSplitOrMergeEnabledRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    IsSplitOrMergeEnabledResponse.newBuilder()
                        .setEnabled(switches.isEnabled(q.getSwitchType()))
                        .build()))
        .method(
            "SetSplitOrMergeEnabled",
            SetSplitOrMergeEnabledRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(setSplitOrMerge(q)))
        .method(
            "IsNormalizerEnabled",
            IsNormalizerEnabledRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(IsNormalizerEnabledResponse.newBuilder().setEnabled(false).build()))
        // The engine archives split and merge parents once unreferenced, and old files and WAL
        // segments after their time to live: HBase's catalog janitor and cleaner chores, always on.
        .method(
            "IsCatalogJanitorEnabled",
            IsCatalogJanitorEnabledRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(IsCatalogJanitorEnabledResponse.newBuilder().setValue(true).build()))
        .method(
            "IsCleanerChoreEnabled",
            IsCleanerChoreEnabledRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(IsCleanerChoreEnabledResponse.newBuilder().setValue(true).build()));
    new PlacementRpcs(placement).register(b);
    listings.register(b);
    named.register(b);
    rsGroups.register(b);
    replication.register(b);
    return b.build();
  }

  SetSplitOrMergeEnabledResponse setSplitOrMerge(SetSplitOrMergeEnabledRequest q) {
    SetSplitOrMergeEnabledResponse.Builder b = SetSplitOrMergeEnabledResponse.newBuilder();
    for (MasterSwitchType type : q.getSwitchTypesList()) {
      b.addPrevValue(switches.set(type, q.getEnabled()));
    }
    return b.build();
  }

  Procedures procedures() {
    return procedures;
  }

  TableDdl ddl() {
    return ddl;
  }

  TableQueries tables() {
    return tables;
  }

  NamespaceRpcs namespaces() {
    return namespaces;
  }

  ClusterStatusReport status() {
    return status;
  }

  SplitMergeSwitches switches() {
    return switches;
  }
}
