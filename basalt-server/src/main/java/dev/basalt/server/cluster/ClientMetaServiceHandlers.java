package dev.basalt.server.cluster;

import dev.basalt.server.meta.MetaTable;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
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
 * ClientMetaService, the RPC connection registry (protocol document 3.1.2): what a client
 * configured with {@code hbase.client.bootstrap.servers} asks any master or region server for
 * instead of reading ZooKeeper. Every answer passes the client's validity checks (fields set, lists
 * not empty). Bootstrap nodes are both servers, so either port works as a bootstrap address.
 */
public final class ClientMetaServiceHandlers {
  private final Supplier<ClusterInfo> cluster;

  /**
   * @param cluster asked on each call, since ports are known only once the servers listen
   */
  public ClientMetaServiceHandlers(Supplier<ClusterInfo> cluster) {
    this.cluster = cluster;
  }

  public RpcService service() {
    return RpcService.builder(ClientMetaService.getDescriptor())
        .method(
            "GetClusterId",
            GetClusterIdRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetClusterIdResponse.newBuilder()
                        .setClusterId(cluster.get().clusterId())
                        .build()))
        .method(
            "GetActiveMaster",
            GetActiveMasterRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetActiveMasterResponse.newBuilder()
                        .setServerName(cluster.get().master().toProto())
                        .build()))
        .method(
            "GetMasters",
            GetMastersRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetMastersResponse.newBuilder()
                        .addMasterServers(
                            GetMastersResponseEntry.newBuilder()
                                .setServerName(cluster.get().master().toProto())
                                .setIsActive(true))
                        .build()))
        .method(
            "GetMetaRegionLocations",
            GetMetaRegionLocationsRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetMetaRegionLocationsResponse.newBuilder()
                        .addMetaLocations(
                            RegionLocation.newBuilder()
                                .setRegionInfo(MetaTable.regionInfo())
                                .setServerName(cluster.get().regionServer().toProto())
                                .setSeqNum(0))
                        .build()))
        .method(
            "GetBootstrapNodes",
            GetBootstrapNodesRequest.getDefaultInstance(),
            (req, call) -> {
              ClusterInfo c = cluster.get();
              GetBootstrapNodesResponse.Builder b =
                  GetBootstrapNodesResponse.newBuilder().addServerName(c.master().toProto());
              if (!c.regionServer().equals(c.master())) {
                b.addServerName(c.regionServer().toProto());
              }
              return RpcReply.of(b.build());
            })
        .build();
  }
}
