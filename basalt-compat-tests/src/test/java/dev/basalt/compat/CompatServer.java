package dev.basalt.compat;

import dev.basalt.cell.Cell;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcServer;
import dev.basalt.server.rpc.RpcServerConfig;
import dev.basalt.server.rpc.RpcService;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Result;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionInfo;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionLocation;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.ServerName;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.TableName;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsMasterRunningRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsMasterRunningResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterService;
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
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * A Basalt RPC server on a free loopback port playing a one-node cluster for the stock client:
 * ClientMetaService as the RPC connection registry describes it (protocol document 3.1.2), a
 * MasterService that only says it is running, and a ClientService whose Mutate echoes the request
 * cells back (for cell block tests). It records what the client made it do.
 */
final class CompatServer implements AutoCloseable {
  static final String CLUSTER_ID = "basalt-compat-cluster";
  static final long START_CODE = 1_700_000_000_000L;

  final AtomicInteger registryPreambles = new AtomicInteger();
  final AtomicInteger getClusterIdCalls = new AtomicInteger();
  final Queue<List<Cell>> receivedCells = new ConcurrentLinkedQueue<>();
  private final RpcServer server;
  private final InetSocketAddress address;

  CompatServer() throws IOException {
    this(RpcServerConfig.defaults("127.0.0.1", 0).withHandlers(4, 256));
  }

  CompatServer(RpcServerConfig config) throws IOException {
    server =
        new RpcServer(
            config,
            List.of(meta(), master(), client()),
            () -> {
              registryPreambles.incrementAndGet();
              return CLUSTER_ID;
            });
    address = server.start();
  }

  int port() {
    return address.getPort();
  }

  /** host:port as hbase.client.bootstrap.servers wants it. */
  String hostAndPort() {
    return "127.0.0.1:" + port();
  }

  private ServerName self() {
    return ServerName.newBuilder()
        .setHostName("127.0.0.1")
        .setPort(port())
        .setStartCode(START_CODE)
        .build();
  }

  private RpcService meta() {
    RegionInfo metaRegion =
        RegionInfo.newBuilder()
            .setRegionId(1)
            .setTableName(
                TableName.newBuilder()
                    .setNamespace(ByteString.copyFromUtf8("hbase"))
                    .setQualifier(ByteString.copyFromUtf8("meta")))
            .setReplicaId(0)
            .build();
    return RpcService.builder(ClientMetaService.getDescriptor())
        .method(
            "GetClusterId",
            GetClusterIdRequest.getDefaultInstance(),
            (req, call) -> {
              getClusterIdCalls.incrementAndGet();
              return RpcReply.of(
                  GetClusterIdResponse.newBuilder().setClusterId(CLUSTER_ID).build());
            })
        .method(
            "GetActiveMaster",
            GetActiveMasterRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(GetActiveMasterResponse.newBuilder().setServerName(self()).build()))
        .method(
            "GetMasters",
            GetMastersRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetMastersResponse.newBuilder()
                        .addMasterServers(
                            GetMastersResponseEntry.newBuilder()
                                .setServerName(self())
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
                                .setRegionInfo(metaRegion)
                                .setServerName(self())
                                .setSeqNum(0))
                        .build()))
        .method(
            "GetBootstrapNodes",
            GetBootstrapNodesRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(GetBootstrapNodesResponse.newBuilder().addServerName(self()).build()))
        .build();
  }

  /** IsMasterRunning only: every other master call is "not implemented". */
  private static RpcService master() {
    return RpcService.builder(MasterService.getDescriptor())
        .method(
            "IsMasterRunning",
            IsMasterRunningRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(IsMasterRunningResponse.newBuilder().setIsMasterRunning(true).build()))
        .build();
  }

  private RpcService client() {
    return RpcService.builder(ClientService.getDescriptor())
        .method(
            "Mutate",
            MutateRequest.getDefaultInstance(),
            (req, call) -> {
              receivedCells.add(call.cells());
              return RpcReply.of(
                  MutateResponse.newBuilder()
                      .setProcessed(true)
                      .setResult(Result.newBuilder().setAssociatedCellCount(call.cells().size()))
                      .build(),
                  call.cells());
            })
        .build();
  }

  @Override
  public void close() {
    server.close();
  }
}
