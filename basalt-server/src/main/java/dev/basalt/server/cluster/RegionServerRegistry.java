package dev.basalt.server.cluster;

import dev.basalt.server.meta.MetaTable;
import dev.basalt.server.regionserver.MasterLink;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionLocation;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.ClientMetaService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetActiveMasterRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetActiveMasterResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetBootstrapNodesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetBootstrapNodesResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMastersRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMastersResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMastersResponseEntry;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMetaRegionLocationsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMetaRegionLocationsResponse;

/**
 * ClientMetaService (the RPC connection registry) on a cluster region server's port, so any region
 * server works as a {@code hbase.client.bootstrap.servers} address: the cluster id, the masters as
 * ZooKeeper lists them (active and standby), hbase:meta's location (the active master serves it),
 * and as bootstrap nodes this server and the active master. Without an active master the master and
 * meta calls fail with MasterNotRunningException, which the client retries.
 *
 * <p>{@link ClientMetaServiceHandlers} answers from a fixed {@link ClusterInfo} whose region server
 * also serves meta, which is standalone's layout, not a cluster's; hence this class.
 */
final class RegionServerRegistry {
  private static final String MASTER_NOT_RUNNING =
      "org.apache.hadoop.hbase.MasterNotRunningException";

  private final String clusterId;
  private final Supplier<ServerName> self;
  private final Supplier<MasterLink> masters;

  /**
   * @param masters the region server's link to the masters; may give null while the server starts
   */
  RegionServerRegistry(String clusterId, Supplier<ServerName> self, Supplier<MasterLink> masters) {
    this.clusterId = clusterId;
    this.self = self;
    this.masters = masters;
  }

  RpcService service() {
    return RpcService.builder(ClientMetaService.getDescriptor())
        .method(
            "GetClusterId",
            GetClusterIdRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(GetClusterIdResponse.newBuilder().setClusterId(clusterId).build()))
        .method(
            "GetActiveMaster",
            GetActiveMasterRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetActiveMasterResponse.newBuilder()
                        .setServerName(activeMaster().toProto())
                        .build()))
        .method(
            "GetMasters",
            GetMastersRequest.getDefaultInstance(),
            (req, call) -> {
              GetMastersResponse.Builder b =
                  GetMastersResponse.newBuilder()
                      .addMasterServers(
                          GetMastersResponseEntry.newBuilder()
                              .setServerName(activeMaster().toProto())
                              .setIsActive(true));
              for (ServerName backup : link().backupMasters()) {
                b.addMasterServers(
                    GetMastersResponseEntry.newBuilder()
                        .setServerName(backup.toProto())
                        .setIsActive(false));
              }
              return RpcReply.of(b.build());
            })
        .method(
            "GetMetaRegionLocations",
            GetMetaRegionLocationsRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetMetaRegionLocationsResponse.newBuilder()
                        .addMetaLocations(
                            RegionLocation.newBuilder()
                                .setRegionInfo(MetaTable.regionInfo())
                                .setServerName(activeMaster().toProto())
                                .setSeqNum(0))
                        .build()))
        .method(
            "GetBootstrapNodes",
            GetBootstrapNodesRequest.getDefaultInstance(),
            (req, call) -> {
              GetBootstrapNodesResponse.Builder b =
                  GetBootstrapNodesResponse.newBuilder().addServerName(self.get().toProto());
              MasterLink link = masters.get();
              MasterLink.ActiveMaster m = link == null ? null : link.activeMaster();
              if (m != null) {
                b.addServerName(m.name().toProto());
              }
              return RpcReply.of(b.build());
            })
        .build();
  }

  private MasterLink link() throws BasaltIOException {
    MasterLink link = masters.get();
    if (link == null) {
      throw new BasaltIOException("this region server is starting", MASTER_NOT_RUNNING, false);
    }
    return link;
  }

  private ServerName activeMaster() throws IOException {
    MasterLink.ActiveMaster m = link().activeMaster();
    if (m == null) {
      throw new BasaltIOException("no active master", MASTER_NOT_RUNNING, false);
    }
    return m.name();
  }
}
