package dev.basalt.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.basalt.cell.Bytes;
import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.RegionHost;
import dev.basalt.fs.LocalStorage;
import dev.basalt.ops.Get;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.coordination.EmbeddedZooKeeper;
import dev.basalt.server.coordination.HBaseZnodes;
import dev.basalt.server.coordination.ZooKeeperSession;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.server.regionserver.MasterLink;
import dev.basalt.server.rpc.RemoteCallException;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionResponse.RegionOpeningState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.StopServerRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.StopServerResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionLoad;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerReportRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition.TransitionCode;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.ClientMetaService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetActiveMasterRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetActiveMasterResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetBootstrapNodesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetBootstrapNodesResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMetaRegionLocationsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMetaRegionLocationsResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region server process's parts wired together, in this JVM: a real ZooKeeper, a fake master
 * ({@link FakeMaster}) recording what the region server tells it and sending it commands, and a
 * cluster root prepared by {@link ClusterCatalog}. Covers registration, the znode, reports, opening
 * and closing on command, the answers clients get, the fences, aborts and the graceful stop.
 */
class RegionServerTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final ServerName ELSEWHERE = new ServerName("rs9.example", 16099, 99L);
  private static final AtomicInteger PARENTS = new AtomicInteger();

  @TempDir static Path zkDir;
  private static EmbeddedZooKeeper zooKeeper;

  @TempDir Path root;
  private String parent;
  private String clusterId;
  private RegionInfo a;
  private RegionInfo b;
  private FakeMaster master;
  private RegionServer rs;
  private ZooKeeperSession observer;

  @BeforeAll
  static void startZooKeeper() throws IOException {
    zooKeeper = EmbeddedZooKeeper.start(zkDir, "127.0.0.1", 0);
  }

  @AfterAll
  static void stopZooKeeper() {
    zooKeeper.close();
  }

  @BeforeEach
  void setUp() throws IOException {
    parent = "/rs-test-" + PARENTS.incrementAndGet();
    ClusterCatalog catalog = ClusterCatalog.open(new LocalStorage(root), Clock.system(), true);
    clusterId = catalog.clusterId().toString();
    List<RegionInfo> regions =
        catalog
            .createTable(
                TableDescriptorBuilder.newBuilder(T)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
                    .build(),
                new byte[][] {Bytes.toBytes("m")})
            .regionInfos();
    a = regions.get(0);
    b = regions.get(1);
    observer =
        ZooKeeperSession.connect(
            zooKeeper.connectString(), FakeMaster.WAIT, Duration.ofSeconds(30));
  }

  @AfterEach
  void tearDown() {
    if (rs != null) {
      rs.abort("test over"); // fast: no flush, no master needed
      rs.terminated().join();
    }
    if (master != null) {
      master.close();
    }
    observer.close();
  }

  private Config config() {
    return Config.builder()
        .set("hbase.cluster.distributed", "true")
        .set("hbase.rootdir", root.toString())
        .set("hbase.regionserver.port", "0")
        .set("hbase.zookeeper.quorum", "127.0.0.1")
        .set("hbase.zookeeper.property.clientPort", Integer.toString(zooKeeper.port()))
        .set("zookeeper.znode.parent", parent)
        .set("zookeeper.session.timeout", "10000")
        .set("basalt.regionserver.report.interval", "100")
        .build();
  }

  private void startBoth() throws IOException {
    master = new FakeMaster(zooKeeper.connectString(), parent, clusterId);
    rs = RegionServer.start(config());
  }

  private String rsZnode() {
    return parent + "/rs/" + rs.serverName();
  }

  /** Opens a region through the master's command and returns its OPENED report. */
  private RegionStateTransition open(RegionInfo r, long procId) throws Exception {
    assertThat(master.open(rs.serverName(), r, procId).getOpeningStateList())
        .containsExactly(RegionOpeningState.OPENED);
    RegionStateTransition t = master.nextTransition();
    assertThat(t.getTransitionCode()).isEqualTo(TransitionCode.OPENED);
    return t;
  }

  private void put(RegionInfo r, String row, String value) throws IOException {
    MutateResponse resp =
        master.call(
            rs.serverName(),
            ClientService.getDescriptor(),
            "Mutate",
            MutateRequest.newBuilder()
                .setRegion(FakeMaster.spec(r))
                .setMutation(
                    MutationProto.newBuilder()
                        .setRow(ByteString.copyFromUtf8(row))
                        .setMutateType(MutationProto.MutationType.PUT)
                        .addColumnValue(
                            MutationProto.ColumnValue.newBuilder()
                                .setFamily(ByteString.copyFrom(F))
                                .addQualifierValue(
                                    MutationProto.ColumnValue.QualifierValue.newBuilder()
                                        .setQualifier(ByteString.copyFrom(Q))
                                        .setValue(ByteString.copyFromUtf8(value)))))
                .build(),
            MutateResponse.getDefaultInstance());
    assertThat(resp.getProcessed()).isTrue();
  }

  private String get(RegionSpecifier region, String row) throws IOException {
    GetResponse resp =
        master.call(
            rs.serverName(),
            ClientService.getDescriptor(),
            "Get",
            GetRequest.newBuilder()
                .setRegion(region)
                .setGet(
                    org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Get.newBuilder()
                        .setRow(ByteString.copyFromUtf8(row)))
                .build(),
            GetResponse.getDefaultInstance());
    return resp.getResult().getCellCount() == 0
        ? null
        : resp.getResult().getCell(0).getValue().toStringUtf8();
  }

  private RemoteCallException getFails(RegionSpecifier region) {
    return catchThrowableOfType(() -> get(region, "k"), RemoteCallException.class);
  }

  @Test
  void registersCreatesItsZnodeAndReportsItsLoad() throws Exception {
    startBoth();
    RegionServerStartupRequest startup = master.startups.poll();
    assertThat(startup.getPort()).isEqualTo(rs.serverName().port());
    assertThat(startup.getServerStartCode()).isEqualTo(rs.serverName().startCode());
    assertThat(startup.getUseThisHostnameInstead()).isEqualTo("127.0.0.1");
    assertThat(rs.serverName().host()).isEqualTo("127.0.0.1");

    byte[] data = observer.getData(rsZnode());
    assertThat(data).as("znode " + rsZnode()).isNotNull();
    HBaseProtos.RegionServerInfo info =
        HBaseProtos.RegionServerInfo.parseFrom(HBaseZnodes.stripMagic(data));
    assertThat(info.getInfoPort()).isZero();
    assertThat(info.getVersionInfo().getVersion()).isEqualTo(BasaltVersion.reported());
    assertThat(observer.exists(rsZnode(), null).getEphemeralOwner())
        .isEqualTo(rs.zooKeeper().sessionId());

    RegionServerReportRequest load = master.loads.poll(30, TimeUnit.SECONDS);
    assertThat(load).as("a load report").isNotNull();
    assertThat(load.getServer()).isEqualTo(rs.serverName().toProto());
    assertThat(load.getLoad().getRegionLoadsCount()).isZero();
  }

  @Test
  void opensOnCommandServesAndMovesARegion() throws Exception {
    startBoth();
    RegionStateTransition opened = open(a, 17);
    assertThat(opened.getProcIdList()).containsExactly(17L);
    assertThat(opened.getInitiatingMasterActiveTime()).isEqualTo(master.epoch);
    assertThat(opened.getOpenSeqNum()).isPositive();

    put(a, "k", "v1");
    assertThat(get(FakeMaster.spec(a), "k")).isEqualTo("v1");

    // a load report taken after the put lists the region by its full name, with the write
    RegionLoad load = null;
    while (load == null) {
      RegionServerReportRequest r = master.loads.poll(30, TimeUnit.SECONDS);
      assertThat(r).isNotNull();
      if (r.getLoad().getRegionLoadsCount() == 1
          && r.getLoad().getRegionLoads(0).getWriteRequestsCount() > 0) {
        load = r.getLoad().getRegionLoads(0);
      }
    }
    assertThat(load.getRegionSpecifier().getValue().toByteArray()).isEqualTo(a.getRegionName());
    assertThat(load.getStores()).isEqualTo(1);
    assertThat(load.getWriteRequestsCount()).isEqualTo(1);

    assertThat(master.close(rs.serverName(), a, ELSEWHERE, 18).getClosed()).isTrue();
    RegionStateTransition closed = master.nextTransition();
    assertThat(closed.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
    assertThat(closed.getProcIdList()).containsExactly(18L);
    assertThat(closed.getOpenSeqNum()).isGreaterThanOrEqualTo(opened.getOpenSeqNum());

    RemoteCallException moved = getFails(FakeMaster.spec(a));
    assertThat(moved.exceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.exceptions.RegionMovedException");
    assertThat(moved.doNotRetry()).isFalse();
    // the wire text is "<class>: <message>"; the client parses the message part
    assertThat(moved.getMessage())
        .isEqualTo(
            "org.apache.hadoop.hbase.exceptions.RegionMovedException: Region moved to:"
                + " hostname=rs9.example port=16099 startCode=99. As of locationSeqNum="
                + closed.getOpenSeqNum()
                + ".");
  }

  @Test
  void followsANewMaster() throws Exception {
    startBoth();
    FakeMaster old = master;
    old.close(); // gone: its znode with it
    master = new FakeMaster(zooKeeper.connectString(), parent, clusterId);
    assertThat(master.epoch).isGreaterThan(old.epoch);
    // the new master's command and the report of its outcome
    assertThat(open(a, 1).getInitiatingMasterActiveTime()).isEqualTo(master.epoch);
    assertThat(master.loads.poll(30, TimeUnit.SECONDS)).as("load reports follow").isNotNull();
    RemoteCallException fenced =
        catchThrowableOfType(
            () ->
                master.call(
                    rs.serverName(),
                    AdminService.getDescriptor(),
                    "CloseRegion",
                    CloseRegionRequest.newBuilder()
                        .setRegion(FakeMaster.spec(a))
                        .setInitiatingMasterActiveTime(old.epoch)
                        .build(),
                    CloseRegionResponse.getDefaultInstance()),
            RemoteCallException.class);
    assertThat(fenced.getMessage()).contains("a newer master (epoch " + master.epoch + ")");
    assertThat(get(FakeMaster.spec(a), "k")).as("still open").isNull();
  }

  @Test
  void bindingEverywhereItTakesTheHostNameTheMasterSaw() throws Exception {
    master = new FakeMaster(zooKeeper.connectString(), parent, clusterId);
    rs =
        RegionServer.start(
            config().toBuilder().set("hbase.regionserver.ipc.address", "0.0.0.0").build());
    assertThat(master.startups.poll().hasUseThisHostnameInstead()).isFalse();
    assertThat(rs.serverName().host()).isEqualTo("127.0.0.1"); // the fake master's answer
    assertThat(observer.getData(rsZnode())).isNotNull();
  }

  @Test
  void answersNotServingForRegionsNotHereAndForMeta() throws Exception {
    startBoth();
    RemoteCallException notHere = getFails(FakeMaster.spec(b));
    assertThat(notHere.exceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");
    assertThat(notHere.getMessage())
        .isEqualTo(
            "org.apache.hadoop.hbase.NotServingRegionException: "
                + Bytes.toStringBinary(b.getRegionName())
                + " is not online on "
                + rs.serverName());
    RegionSpecifier meta =
        RegionSpecifier.newBuilder()
            .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
            .setValue(ByteString.copyFrom(MetaTable.REGION_NAME))
            .build();
    assertThat(getFails(meta).exceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");
  }

  @Test
  void commandsAreFencedAndIdempotent() throws Exception {
    startBoth();
    ServerName stale =
        new ServerName(
            rs.serverName().host(), rs.serverName().port(), rs.serverName().startCode() - 1);
    RemoteCallException wrongLife =
        catchThrowableOfType(() -> master.open(stale, a, 1), RemoteCallException.class);
    assertThat(wrongLife.exceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.DoNotRetryIOException");
    assertThat(wrongLife.doNotRetry()).isTrue();
    assertThat(wrongLife.getMessage())
        .endsWith("this is " + rs.serverName() + ", not startcode " + stale.startCode());

    RemoteCallException oldMaster =
        catchThrowableOfType(
            () ->
                master.call(
                    rs.serverName(),
                    AdminService.getDescriptor(),
                    "OpenRegion",
                    org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionRequest
                        .newBuilder()
                        .setServerStartCode(rs.serverName().startCode())
                        .setInitiatingMasterActiveTime(master.epoch - 1)
                        .build(),
                    org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionResponse
                        .getDefaultInstance()),
            RemoteCallException.class);
    assertThat(oldMaster.getMessage())
        .endsWith(
            "a newer master (epoch "
                + master.epoch
                + ") is active; this command came from epoch "
                + (master.epoch - 1));

    long openSeq = open(a, 1).getOpenSeqNum();
    assertThat(master.open(rs.serverName(), a, 2).getOpeningStateList())
        .containsExactly(RegionOpeningState.ALREADY_OPENED);
    RegionStateTransition again = master.nextTransition();
    assertThat(again.getTransitionCode()).isEqualTo(TransitionCode.OPENED);
    assertThat(again.getOpenSeqNum()).isEqualTo(openSeq);

    assertThat(master.close(rs.serverName(), a, null, 3).getClosed()).isTrue();
    long last = master.nextTransition().getOpenSeqNum();
    assertThat(master.close(rs.serverName(), a, null, 4).getClosed()).isTrue();
    RegionStateTransition closedAgain = master.nextTransition();
    assertThat(closedAgain.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
    assertThat(closedAgain.getOpenSeqNum()).isEqualTo(last);
    assertThat(closedAgain.getProcIdList()).containsExactly(4L);
  }

  @Test
  void refusesARootDirectoryOfAnotherCluster() throws Exception {
    master = new FakeMaster(zooKeeper.connectString(), parent, UUID.randomUUID().toString());
    assertThatThrownBy(() -> RegionServer.start(config()))
        .isInstanceOf(MasterLink.Refused.class)
        .hasMessageContaining("region server pointed at a root directory that is not the cluster's")
        .hasMessageContaining(clusterId)
        .hasMessageContaining(master.clusterId);
    assertThat(observer.children(parent + "/rs", null)).isEmpty();
  }

  @Test
  void refusedByTheMasterItDoesNotStart() throws Exception {
    master = new FakeMaster(zooKeeper.connectString(), parent, clusterId);
    master.refuseStartupWith = "org.apache.hadoop.hbase.ClockOutOfSyncException";
    assertThatThrownBy(() -> RegionServer.start(config()))
        .isInstanceOf(MasterLink.Refused.class)
        .hasMessageContaining("refused this region server")
        .hasMessageContaining("ClockOutOfSyncException");
  }

  @Test
  void waitsForAMasterThatIsReadyToRegister() throws Exception {
    CompletableFuture<RegionServer> starting =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return RegionServer.start(config());
              } catch (IOException e) {
                throw new RuntimeException(e);
              }
            });
    // started before any master: it finds the one that appears, which is still starting
    master = new FakeMaster(zooKeeper.connectString(), parent, clusterId);
    master.refuseStartupWith = "org.apache.hadoop.hbase.ipc.ServerNotRunningYetException";
    assertThat(master.startups.poll(30, TimeUnit.SECONDS)).as("a first attempt").isNotNull();
    assertThat(starting).isNotDone();
    master.refuseStartupWith = null;
    rs = starting.get(30, TimeUnit.SECONDS);
    assertThat(observer.getData(rsZnode())).isNotNull();
  }

  @Test
  void abortsWhenItsZooKeeperSessionExpires() throws Exception {
    startBoth();
    open(a, 1);
    ZooKeeperSession session = rs.zooKeeper();
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper thief =
        new ZooKeeper(
            zooKeeper.connectString(),
            10_000,
            e -> {
              if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
              }
            },
            session.sessionId(),
            session.sessionPassword());
    assertThat(connected.await(30, TimeUnit.SECONDS)).isTrue();
    thief.close(); // closes the session: the region server's client finds it expired
    assertThat(rs.terminated().get(30, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(rs.regions().isAborted()).isTrue();
    assertThat(observer.exists(parent + "/rs/" + rs.serverName(), null)).isNull();
  }

  @Test
  void abortsWhenTheMasterDeclaresItDead() throws Exception {
    startBoth();
    master.deadOnReport = true;
    assertThat(rs.terminated().get(30, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(rs.regions().isAborted()).isTrue();
  }

  @Test
  void stopsGracefullyAfterTheMasterMovedItsRegionsAway() throws Exception {
    startBoth();
    open(a, 1);
    open(b, 2);
    put(a, "k", "va");
    put(b, "x", "vb");
    master.onDecommission =
        req -> {
          try {
            master.close(rs.serverName(), a, ELSEWHERE, 3);
            master.close(rs.serverName(), b, ELSEWHERE, 4);
          } catch (IOException e) {
            throw new RuntimeException(e);
          }
        };
    String znode = rsZnode();
    ServerName name = rs.serverName();
    rs.stop();
    assertThat(rs.terminated().join()).isZero();

    assertThat(master.decommissions).hasSize(1);
    assertThat(master.decommissions.peek().getServerNameList()).containsExactly(name.toProto());
    assertThat(master.decommissions.peek().getOffload()).isTrue();
    long lastOfA = -1;
    for (int i = 0; i < 2; i++) {
      RegionStateTransition closed = master.nextTransition();
      assertThat(closed.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
      assertThat(closed.getProcIdList()).containsAnyOf(3L, 4L);
      if (closed.getProcId(0) == 3L) {
        lastOfA = closed.getOpenSeqNum();
      }
    }
    assertThat(observer.exists(znode, null)).isNull();
    rs = null;

    // the close flushed: another server finds the data in the region's files
    LocalStorage storage = new LocalStorage(root);
    try (RegionHost next =
        RegionHost.start(storage, "next,1,1", Config.defaults(), Clock.system())) {
      var region = next.open(a, ClusterCatalog.readDescriptor(storage, T), lastOfA);
      assertThat(Bytes.toString(region.get(new Get(Bytes.toBytes("k"))).getValue(F, Q)))
          .isEqualTo("va");
    }
  }

  @Test
  void whenTheMasterCannotTakeTheRegionsTheyAreClosedHereAndReported() throws Exception {
    startBoth();
    long openSeq = open(a, 1).getOpenSeqNum();
    master.refuseDecommission = "no other region server";
    rs.stop();
    assertThat(rs.terminated().join()).isZero();
    assertThat(master.decommissions).hasSize(1);
    RegionStateTransition closed = master.nextTransition();
    assertThat(closed.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
    assertThat(closed.getProcIdCount()).as("closed by the server itself").isZero();
    assertThat(closed.getOpenSeqNum()).as("last sequence id, no edit").isEqualTo(openSeq - 1);
    rs = null;
  }

  @Test
  void withoutAMasterAStopClosesTheRegionsItself() throws Exception {
    startBoth();
    open(a, 1);
    put(a, "k", "va");
    master.close();
    master = null;
    rs.stop();
    assertThat(rs.terminated().join()).isZero();
    assertThat(rs.regions().isEmpty()).isTrue();
    rs = null;
    LocalStorage storage = new LocalStorage(root);
    try (RegionHost next =
        RegionHost.start(storage, "next,1,1", Config.defaults(), Clock.system())) {
      var region = next.open(a, ClusterCatalog.readDescriptor(storage, T), 0);
      assertThat(Bytes.toString(region.get(new Get(Bytes.toBytes("k"))).getValue(F, Q)))
          .isEqualTo("va");
    }
  }

  @Test
  void stopServerStopsIt() throws Exception {
    startBoth();
    master.call(
        rs.serverName(),
        AdminService.getDescriptor(),
        "StopServer",
        StopServerRequest.newBuilder().setReason("test").build(),
        StopServerResponse.getDefaultInstance());
    assertThat(rs.terminated().get(30, TimeUnit.SECONDS)).isZero();
    rs = null;
  }

  @Test
  void servesTheRpcRegistryWithTheMasterAsMetaLocation() throws Exception {
    startBoth();
    GetClusterIdResponse id =
        master.call(
            rs.serverName(),
            ClientMetaService.getDescriptor(),
            "GetClusterId",
            GetClusterIdRequest.getDefaultInstance(),
            GetClusterIdResponse.getDefaultInstance());
    assertThat(id.getClusterId()).isEqualTo(clusterId);
    GetActiveMasterResponse active =
        master.call(
            rs.serverName(),
            ClientMetaService.getDescriptor(),
            "GetActiveMaster",
            GetActiveMasterRequest.getDefaultInstance(),
            GetActiveMasterResponse.getDefaultInstance());
    assertThat(active.getServerName()).isEqualTo(master.name.toProto());
    GetMetaRegionLocationsResponse meta =
        master.call(
            rs.serverName(),
            ClientMetaService.getDescriptor(),
            "GetMetaRegionLocations",
            GetMetaRegionLocationsRequest.getDefaultInstance(),
            GetMetaRegionLocationsResponse.getDefaultInstance());
    assertThat(meta.getMetaLocations(0).getServerName()).isEqualTo(master.name.toProto());
    GetBootstrapNodesResponse nodes =
        master.call(
            rs.serverName(),
            ClientMetaService.getDescriptor(),
            "GetBootstrapNodes",
            GetBootstrapNodesRequest.getDefaultInstance(),
            GetBootstrapNodesResponse.getDefaultInstance());
    assertThat(nodes.getServerNameList())
        .containsExactly(rs.serverName().toProto(), master.name.toProto());
  }
}
