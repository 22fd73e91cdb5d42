package dev.basalt.server.master;

import dev.basalt.schema.RegionInfo;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.server.regionserver.RegionAssignmentHandlers;
import dev.basalt.server.rpc.RpcClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.ExecuteProceduresRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.ExecuteProceduresResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.RemoteProcedureRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * {@link RegionCommands} as AdminService calls through Basalt's RPC client: OpenRegion with the
 * region, the operation id ({@code open_proc_id}), the target's start code and the master's epoch
 * ({@code initiating_master_active_time}); CloseRegion with the encoded name, the destination, the
 * operation id, the start code and the epoch; a split or merge as ExecuteProcedures with one
 * RemoteProcedureRequest of class {@value #HAND_OVER} whose data is the plan. The region server
 * answers at once; what it did comes later in its transition reports.
 */
final class RpcRegionCommands implements RegionCommands {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final RpcClient client;
  private final long epoch;

  RpcRegionCommands(RpcClient client, long epoch) {
    this.client = client;
    this.epoch = epoch;
  }

  @Override
  public void open(ServerName server, RegionInfo region, long op) throws IOException {
    OpenRegionRequest request =
        OpenRegionRequest.newBuilder()
            .addOpenInfo(
                OpenRegionRequest.RegionOpenInfo.newBuilder()
                    .setRegion(SchemaCodec.toProto(region))
                    .setOpenProcId(op))
            .setServerStartCode(server.startCode())
            .setInitiatingMasterActiveTime(epoch)
            .setMasterSystemTime(System.currentTimeMillis())
            .build();
    client.call(
        address(server),
        AdminService.getDescriptor(),
        "OpenRegion",
        request,
        OpenRegionResponse.getDefaultInstance(),
        TIMEOUT);
  }

  @Override
  public void close(ServerName server, RegionInfo region, ServerName destination, long op)
      throws IOException {
    CloseRegionRequest.Builder request =
        CloseRegionRequest.newBuilder()
            // the full name: a server that does not have the region can still report it closed
            .setRegion(
                RegionSpecifier.newBuilder()
                    .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                    .setValue(ByteString.copyFrom(region.getRegionName())))
            .setServerStartCode(server.startCode())
            .setCloseProcId(op)
            .setInitiatingMasterActiveTime(epoch);
    if (destination != null) {
      request.setDestinationServer(destination.toProto());
    }
    client.call(
        address(server),
        AdminService.getDescriptor(),
        "CloseRegion",
        request.build(),
        CloseRegionResponse.getDefaultInstance(),
        TIMEOUT);
  }

  /** The {@code proc_class} of a split or merge in ExecuteProcedures. */
  static final String HAND_OVER = RegionAssignmentHandlers.HAND_OVER;

  @Override
  public void handOver(ServerName server, RegionStateTransition plan, long op) throws IOException {
    client.call(
        address(server),
        AdminService.getDescriptor(),
        "ExecuteProcedures",
        ExecuteProceduresRequest.newBuilder()
            .addProc(
                RemoteProcedureRequest.newBuilder()
                    .setProcId(op)
                    .setProcClass(HAND_OVER)
                    .setProcData(plan.toByteString())
                    .setInitiatingMasterActiveTime(epoch))
            .build(),
        ExecuteProceduresResponse.getDefaultInstance(),
        TIMEOUT);
  }

  static InetSocketAddress address(ServerName server) {
    return InetSocketAddress.createUnresolved(server.host(), server.port());
  }
}
