package dev.basalt.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.schema.RegionInfo;
import dev.basalt.server.coordination.HBaseZnodes;
import dev.basalt.server.coordination.ZooKeeperSession;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.server.regionserver.MasterLink;
import dev.basalt.server.rpc.RpcClient;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcServer;
import dev.basalt.server.rpc.RpcServerConfig;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameStringPair;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier.RegionSpecifierType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DecommissionRegionServersRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DecommissionRegionServersResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerReportRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerReportResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStatusService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.ReportRegionStateTransitionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.ReportRegionStateTransitionResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.ServiceDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.zookeeper.data.Stat;

/**
 * A stand-in for the active master, for region server tests: RegionServerStatusService and
 * MasterService's DecommissionRegionServers on a real RPC server, recording every call, with its
 * {@code <parent>/master} znode (whose czxid is its epoch); and a client for the region server's
 * AdminService, to send commands as a master does.
 */
final class FakeMaster implements AutoCloseable {
  static final Duration WAIT = Duration.ofSeconds(30);

  final LinkedBlockingQueue<RegionServerStartupRequest> startups = new LinkedBlockingQueue<>();
  final LinkedBlockingQueue<RegionServerReportRequest> loads = new LinkedBlockingQueue<>();
  final LinkedBlockingQueue<RegionStateTransition> transitions = new LinkedBlockingQueue<>();
  final LinkedBlockingQueue<DecommissionRegionServersRequest> decommissions =
      new LinkedBlockingQueue<>();

  /** The cluster id the startup reply gives. */
  volatile String clusterId;

  /** When set, the startup call fails with this HBase exception class (do-not-retry). */
  volatile String refuseStartupWith;

  /** When true, load reports are answered with YouAreDeadException. */
  volatile boolean deadOnReport;

  /** When set, DecommissionRegionServers fails with this text (do-not-retry). */
  volatile String refuseDecommission;

  /** Runs (on a thread of its own) when a region server asks to be decommissioned. */
  volatile Consumer<DecommissionRegionServersRequest> onDecommission = r -> {};

  final ServerName name;
  final long epoch;
  private final RpcServer rpc;
  private final RpcClient client = new RpcClient("fake-master", Duration.ofSeconds(5));
  private final ZooKeeperSession zk;

  FakeMaster(String zooKeeper, String parent, String clusterId) throws IOException {
    this.clusterId = clusterId;
    rpc =
        new RpcServer(
            RpcServerConfig.defaults("127.0.0.1", 0),
            List.of(statusService(), masterService()),
            () -> this.clusterId);
    name = new ServerName("127.0.0.1", rpc.start().getPort(), System.currentTimeMillis());
    zk = ZooKeeperSession.connect(zooKeeper, WAIT, Duration.ofSeconds(30));
    zk.createPersistentPath(parent);
    Stat stat =
        zk.createEphemeral(
            MasterLink.child(parent, "master"),
            HBaseZnodes.masterData(new ClusterInfo(clusterId, name, name, "test")));
    assertThat(stat).as("master znode").isNotNull();
    epoch = stat.getCzxid();
  }

  private RpcService statusService() {
    return RpcService.builder(RegionServerStatusService.getDescriptor())
        .method(
            "RegionServerStartup",
            RegionServerStartupRequest.getDefaultInstance(),
            (req, call) -> {
              startups.add(req);
              String refusal = refuseStartupWith;
              if (refusal != null) {
                throw new BasaltIOException("refused by the test", refusal, true);
              }
              return RpcReply.of(
                  RegionServerStartupResponse.newBuilder()
                      .addMapEntries(entry(MasterLink.SEEN_HOSTNAME, "127.0.0.1"))
                      .addMapEntries(entry(MasterLink.CLUSTER_ID, clusterId))
                      .addMapEntries(entry("hbase.rootdir", "/test"))
                      .build());
            })
        .method(
            "RegionServerReport",
            RegionServerReportRequest.getDefaultInstance(),
            (req, call) -> {
              loads.add(req);
              if (deadOnReport) {
                throw new BasaltIOException(
                    "Server declared dead by the test",
                    "org.apache.hadoop.hbase.YouAreDeadException",
                    true);
              }
              return RpcReply.of(RegionServerReportResponse.getDefaultInstance());
            })
        .method(
            "ReportRegionStateTransition",
            ReportRegionStateTransitionRequest.getDefaultInstance(),
            (req, call) -> {
              transitions.addAll(req.getTransitionList());
              return RpcReply.of(ReportRegionStateTransitionResponse.getDefaultInstance());
            })
        .build();
  }

  private RpcService masterService() {
    return RpcService.builder(MasterService.getDescriptor())
        .method(
            "DecommissionRegionServers",
            DecommissionRegionServersRequest.getDefaultInstance(),
            (req, call) -> {
              decommissions.add(req);
              if (refuseDecommission != null) {
                throw BasaltIOException.doNotRetry(refuseDecommission);
              }
              new Thread(() -> onDecommission.accept(req), "fake-master-offload").start();
              return RpcReply.of(DecommissionRegionServersResponse.getDefaultInstance());
            })
        .build();
  }

  private static NameStringPair entry(String name, String value) {
    return NameStringPair.newBuilder().setName(name).setValue(value).build();
  }

  // ---- talking to a region server -----------------------------------------------------------

  <M extends Message> M call(
      ServerName server, ServiceDescriptor service, String method, Message req, M prototype)
      throws IOException {
    return client.call(
        new InetSocketAddress(server.host(), server.port()), service, method, req, prototype, WAIT);
  }

  OpenRegionResponse open(ServerName rs, RegionInfo region, long procId) throws IOException {
    return call(
        rs,
        AdminService.getDescriptor(),
        "OpenRegion",
        OpenRegionRequest.newBuilder()
            .addOpenInfo(
                OpenRegionRequest.RegionOpenInfo.newBuilder()
                    .setRegion(SchemaCodec.toProto(region))
                    .setOpenProcId(procId))
            .setServerStartCode(rs.startCode())
            .setInitiatingMasterActiveTime(epoch)
            .build(),
        OpenRegionResponse.getDefaultInstance());
  }

  CloseRegionResponse close(ServerName rs, RegionInfo region, ServerName to, long procId)
      throws IOException {
    CloseRegionRequest.Builder b =
        CloseRegionRequest.newBuilder()
            .setRegion(spec(region))
            .setServerStartCode(rs.startCode())
            .setCloseProcId(procId)
            .setInitiatingMasterActiveTime(epoch);
    if (to != null) {
      b.setDestinationServer(to.toProto());
    }
    return call(
        rs,
        AdminService.getDescriptor(),
        "CloseRegion",
        b.build(),
        CloseRegionResponse.getDefaultInstance());
  }

  static RegionSpecifier spec(RegionInfo region) {
    return RegionSpecifier.newBuilder()
        .setType(RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFrom(region.getRegionName()))
        .build();
  }

  /** The next transition report, waiting for it. */
  RegionStateTransition nextTransition() throws InterruptedException {
    RegionStateTransition t = transitions.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(t).as("a transition report within " + WAIT).isNotNull();
    return t;
  }

  /** Stops answering and gives up the master znode. */
  @Override
  public void close() {
    zk.close();
    rpc.close();
    client.close();
  }
}
