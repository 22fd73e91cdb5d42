package dev.basalt.server.cluster;

import dev.basalt.server.meta.MetaTable;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.List;
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
 * not empty). What it answers comes from a {@link Source}, asked on each call: standalone's fixed
 * pair of servers, a cluster master's election, a region server's view of the masters.
 */
public final class ClientMetaServiceHandlers {
  /** What the registry answers; asked on each call. */
  public interface Source {
    String clusterId() throws IOException;

    /** The active master; MasterNotRunningException (which the client retries) when none is. */
    ServerName activeMaster() throws IOException;

    List<ServerName> backupMasters() throws IOException;

    /** The server that serves hbase:meta. */
    ServerName metaServer() throws IOException;

    /** Servers a client may bootstrap from next time (not empty). */
    List<ServerName> bootstrapNodes() throws IOException;
  }

  private final Source source;

  public ClientMetaServiceHandlers(Source source) {
    this.source = source;
  }

  /**
   * Standalone's registry: the master and the region server (which also serves hbase:meta); both
   * are bootstrap nodes, so either port works as a bootstrap address.
   *
   * @param cluster asked on each call, since ports are known only once the servers listen
   */
  public static ClientMetaServiceHandlers of(Supplier<ClusterInfo> cluster) {
    return new ClientMetaServiceHandlers(
        new Source() {
          @Override
          public String clusterId() {
            return cluster.get().clusterId();
          }

          @Override
          public ServerName activeMaster() {
            return cluster.get().master();
          }

          @Override
          public List<ServerName> backupMasters() {
            return List.of();
          }

          @Override
          public ServerName metaServer() {
            return cluster.get().regionServer();
          }

          @Override
          public List<ServerName> bootstrapNodes() {
            ClusterInfo c = cluster.get();
            return c.regionServer().equals(c.master())
                ? List.of(c.master())
                : List.of(c.master(), c.regionServer());
          }
        });
  }

  /** The error a client retries while no master is active. */
  public static BasaltIOException masterNotRunning(String why) {
    return new BasaltIOException(why, "org.apache.hadoop.hbase.MasterNotRunningException", false);
  }

  public RpcService service() {
    return RpcService.builder(ClientMetaService.getDescriptor())
        .method(
            "GetClusterId",
            GetClusterIdRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetClusterIdResponse.newBuilder().setClusterId(source.clusterId()).build()))
        .method(
            "GetActiveMaster",
            GetActiveMasterRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetActiveMasterResponse.newBuilder()
                        .setServerName(source.activeMaster().toProto())
                        .build()))
        .method(
            "GetMasters",
            GetMastersRequest.getDefaultInstance(),
            (req, call) -> {
              GetMastersResponse.Builder b =
                  GetMastersResponse.newBuilder()
                      .addMasterServers(
                          GetMastersResponseEntry.newBuilder()
                              .setServerName(source.activeMaster().toProto())
                              .setIsActive(true));
              for (ServerName backup : source.backupMasters()) {
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
                                .setServerName(source.metaServer().toProto())
                                .setSeqNum(0))
                        .build()))
        .method(
            "GetBootstrapNodes",
            GetBootstrapNodesRequest.getDefaultInstance(),
            (req, call) -> {
              GetBootstrapNodesResponse.Builder b = GetBootstrapNodesResponse.newBuilder();
              for (ServerName n : source.bootstrapNodes()) {
                b.addServerName(n.toProto());
              }
              return RpcReply.of(b.build());
            })
        .build();
  }
}
