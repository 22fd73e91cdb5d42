package dev.basalt.server.cluster;

import dev.basalt.cell.Bytes;
import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.RegionHost;
import dev.basalt.fs.Storage;
import dev.basalt.region.Region;
import dev.basalt.schema.RegionInfo;
import dev.basalt.server.coordination.ZooKeeperSession;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.server.regionserver.AdminServiceHandlers;
import dev.basalt.server.regionserver.ClientServiceHandlers;
import dev.basalt.server.regionserver.HostedRegions;
import dev.basalt.server.regionserver.MasterEpochs;
import dev.basalt.server.regionserver.MasterLink;
import dev.basalt.server.regionserver.PauseGuard;
import dev.basalt.server.regionserver.RegionAssignmentHandlers;
import dev.basalt.server.regionserver.ServerLoads;
import dev.basalt.server.replication.BarrierRecorder;
import dev.basalt.server.replication.ClusterSinkTarget;
import dev.basalt.server.replication.ReplicationLoad;
import dev.basalt.server.replication.ReplicationSettings;
import dev.basalt.server.replication.ReplicationSink;
import dev.basalt.server.replication.ReplicationSources;
import dev.basalt.server.replication.StoredDescriptors;
import dev.basalt.server.rpc.RpcClient;
import dev.basalt.server.rpc.RpcServer;
import dev.basalt.server.rpc.RpcServerConfig;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.server.standalone.RootDirectory;
import dev.basalt.server.standalone.StandaloneSettings;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster region server process ({@code bin/basalt regionserver}): serves the regions the active
 * master opens on it from the shared root directory (docs/formats/cluster.md).
 *
 * <p>Start: bind the RPC port ({@code hbase.regionserver.port}; ClientService, AdminService with
 * the master's commands, ClientMetaService), take the start code (now), open a ZooKeeper session,
 * register with the master (retried while there is none), check the master's cluster id against the
 * root's, start the {@link RegionHost} (its own log under {@code WALs/<host,port,startcode>/}),
 * create {@code <parent>/rs/<host,port,startcode>}, start the load reports.
 *
 * <p>Graceful stop ({@link #stop}: SIGTERM, or StopServer): opens are refused, the master is asked
 * to move this server's regions away (DecommissionRegionServers with offload) and the server keeps
 * serving until none is left here (at most {@link #OFFLOAD_WAIT}); then clients are told it stops
 * (RegionServerStoppedException), what remains is closed here (flushed, CLOSED reported), the
 * reports are delivered, the znode is deleted and everything stops. Without a master the regions
 * are closed here at once.
 *
 * <p>Abort ({@link #abort}: the ZooKeeper session expired, or the master declared the server dead):
 * the server stops serving at once without flushing (the log keeps every acknowledged edit), says
 * why in the log, and ends with status 1 ({@link #terminated}).
 *
 * <p>Thread-safe.
 */
public final class RegionServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionServer.class);

  /** How long a graceful stop waits for the master to move the regions away. */
  static final Duration OFFLOAD_WAIT = Duration.ofSeconds(60);

  /** How long a graceful stop waits for the master to take the last transition reports. */
  static final Duration REPORT_DRAIN_WAIT = Duration.ofSeconds(5);

  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration REPLICATION_APPLY_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration ZOOKEEPER_CONNECT_TIMEOUT = Duration.ofSeconds(30);

  /** How long a request after a pause waits for ZooKeeper to confirm the session. */
  private static final Duration PAUSE_CHECK_TIMEOUT = Duration.ofSeconds(3);

  private static final long PAUSE_TICK_MILLIS = 100;
  private static final long SCANNER_CHORE_MILLIS = 10_000;
  private static final long POLL_MILLIS = 50;

  private enum State {
    STARTING,
    RUNNING,
    STOPPING,
    ENDED
  }

  private final Config config;
  private final Clock clock = Clock.system();
  private final MasterEpochs epochs = new MasterEpochs();
  private final CompletableFuture<Integer> terminated = new CompletableFuture<>();
  private final Object lifecycle = new Object();
  private State state = State.STARTING; // guarded by lifecycle
  private volatile ServerName name;
  private volatile MasterLink link;
  private HostedRegions regions;
  private ClientServiceHandlers client;
  private AdminServiceHandlers admin;
  private RegionAssignmentHandlers assignment;
  private RpcServer rpc;
  private RpcClient rpcClient;
  private ZooKeeperSession zk;
  private PauseGuard pauseGuard;
  private volatile RegionHost host;
  private String rsZnode;
  private ScheduledExecutorService chores;
  private Storage storage; // the root's, local or HDFS; closed last
  private RpcClient sinkClient; // the replication sink's, to the regions served elsewhere
  private volatile ReplicationSources replication;
  private ReplicationSink sink;

  private RegionServer(Config config) {
    this.config = config;
  }

  /**
   * Starts a region server and returns once it serves (registered, znode created).
   *
   * @throws IllegalArgumentException a setting is invalid (the message names the key)
   * @throws MasterLink.Refused the master refused the server, or its cluster id is not the root's
   * @throws IOException the root directory, a port or ZooKeeper failed (the message names it);
   *     whatever started is stopped again
   */
  public static RegionServer start(Config config) throws IOException {
    RegionServer s = new RegionServer(config);
    try {
      s.startAll();
      return s;
    } catch (IOException | RuntimeException e) {
      s.shutDown();
      s.terminated.complete(1);
      throw e;
    }
  }

  private void startAll() throws IOException {
    if (!config.get(ClusterSettings.DISTRIBUTED)) {
      throw new IllegalArgumentException(
          ClusterSettings.DISTRIBUTED.key()
              + " is false: a region server runs only in a cluster (set it to true), and"
              + " bin/basalt standalone runs Basalt in one process");
    }
    // every setting first: a bad one is reported before anything is touched
    RootDirectory root = RootDirectory.of(config);
    String bind = config.get(StandaloneSettings.BIND_ADDRESS);
    String configuredHost = config.get(StandaloneSettings.HOSTNAME);
    int rpcPort = config.get(StandaloneSettings.REGIONSERVER_PORT);
    String quorum =
        connectString(
            config.get(ClusterSettings.ZOOKEEPER_QUORUM),
            config.get(StandaloneSettings.ZOOKEEPER_PORT));
    Duration sessionTimeout =
        Duration.ofMillis(config.get(ClusterSettings.ZOOKEEPER_SESSION_TIMEOUT));
    String parent = config.get(StandaloneSettings.ZNODE_PARENT);
    if (!parent.startsWith("/")
        || parent.contains("//")
        || parent.length() > 1 && parent.endsWith("/")) {
      throw new IllegalArgumentException(
          StandaloneSettings.ZNODE_PARENT.key()
              + " = "
              + parent
              + " is not an absolute znode path like /hbase");
    }
    long reportInterval = config.get(ClusterSettings.REPORT_INTERVAL);
    long scannerLease = config.get(StandaloneSettings.SCANNER_LEASE);
    long maxResultSize = config.get(StandaloneSettings.SCANNER_MAX_RESULT_SIZE);
    RpcServerConfig rpcConfig = RpcServerConfig.from(config, bind, rpcPort);

    if (root.isLocal() && !Files.isDirectory(root.localPath())) {
      throw rootMissing(root); // checked first: a local storage creates its root
    }
    storage = root.open(config);
    if (!storage.isDirectory("")) {
      throw rootMissing(root);
    }
    String rootClusterId = ClusterCatalog.clusterIdOf(storage).toString();
    String knownHost = !configuredHost.isEmpty() ? configuredHost : isWildcard(bind) ? null : bind;

    regions = new HostedRegions(() -> name, clock);
    client =
        new ClientServiceHandlers(
            regions,
            null, // hbase:meta lives on the master
            clock,
            scannerLease,
            maxResultSize);
    admin = new AdminServiceHandlers(regions, () -> name);
    assignment =
        new RegionAssignmentHandlers(
            regions, storage, epochs, this::report, this::stopInBackground);
    RpcService.Builder adminService = RpcService.builder(AdminService.getDescriptor());
    admin.register(adminService);
    assignment.register(adminService);
    sinkClient = new RpcClient(System.getProperty("user.name", "basalt"), CONNECT_TIMEOUT);
    sink =
        new ReplicationSink(
            new ClusterSinkTarget(
                regions::online, this::metaServer, sinkClient, REPLICATION_APPLY_TIMEOUT),
            config.get(ReplicationSettings.SINK_ROWS_PER_BATCH));
    sink.register(adminService);
    RegionServerRegistry registry = new RegionServerRegistry(rootClusterId, () -> name, () -> link);
    rpc =
        new RpcServer(
            rpcConfig,
            List.of(client.service(), adminService.build(), registry.service()),
            () -> rootClusterId);
    int port = rpc.start().getPort();
    long startCode = clock.currentTimeMillis();
    name = new ServerName(knownHost != null ? knownHost : bind, port, startCode); // until startup

    zk = ZooKeeperSession.connect(quorum, ZOOKEEPER_CONNECT_TIMEOUT, sessionTimeout);
    zk.onExpired(() -> abort("its ZooKeeper session expired"));
    ZooKeeperSession session = zk;
    long pauseThreshold =
        Math.max(
            PAUSE_TICK_MILLIS + 1,
            Math.min(
                config.get(ClusterSettings.PAUSE_THRESHOLD), session.sessionTimeoutMillis() / 3));
    pauseGuard =
        new PauseGuard(
                clock,
                PAUSE_TICK_MILLIS,
                pauseThreshold,
                () ->
                    session.confirmAlive(PAUSE_CHECK_TIMEOUT)
                        ? PauseGuard.Session.ALIVE
                        : PauseGuard.Session.EXPIRED,
                this::abort,
                () -> name)
            .start();
    regions.guardWith(pauseGuard);
    rpcClient = new RpcClient(System.getProperty("user.name", "basalt"), CONNECT_TIMEOUT);
    link = new MasterLink(zk, parent, rpcClient, epochs, () -> name, CALL_TIMEOUT, this::abort);

    Map<String, String> entries = link.startup(port, startCode, knownHost);
    String hostName = knownHost;
    if (hostName == null) {
      String seen = entries.get(MasterLink.SEEN_HOSTNAME);
      hostName =
          seen != null && !seen.isBlank()
              ? seen
              : InetAddress.getLocalHost().getCanonicalHostName();
    }
    name = new ServerName(hostName, port, startCode);
    checkClusterId(entries.get(MasterLink.CLUSTER_ID), rootClusterId, root);

    host = RegionHost.start(storage, name.toString(), config, clock);
    // A region that opens with a dead server's recovered edits brings that server's nonces: a
    // client's retry of an increment it made there must not apply twice here.
    host.onRecoveredNonces(client::recoveredNonces);
    host.onSplitWanted(this::requestSplit);
    host.onRegionLifecycle(new BarrierRecorder(storage, name.toString()));
    regions.attach(host);
    String rsDir = MasterLink.child(parent, "rs");
    zk.createPersistentPath(rsDir);
    rsZnode = MasterLink.child(rsDir, name.toString());
    if (zk.createEphemeral(rsZnode, rsZnodeData()) == null) {
      throw new IOException(
          rsZnode + " exists already: another region server named " + name + " is running");
    }
    replication =
        new ReplicationSources(
            storage,
            config,
            UUID.fromString(rootClusterId),
            name.toString(),
            true,
            new StoredDescriptors(storage));
    replication.start();
    link.startReports(
        new ServerLoads(regions, new ReplicationLoad(() -> replication, sink)), reportInterval);
    chores =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "basalt-scanner-leases");
              t.setDaemon(true);
              return t;
            });
    chores.scheduleWithFixedDelay(
        this::expireScanners, SCANNER_CHORE_MILLIS, SCANNER_CHORE_MILLIS, TimeUnit.MILLISECONDS);
    synchronized (lifecycle) {
      if (state != State.STARTING) {
        throw new IOException("region server " + name + " aborted while starting");
      }
      state = State.RUNNING;
    }
    LOG.info("region server {} is up, serving cluster {} from {}", name, rootClusterId, root);
  }

  private static IOException rootMissing(RootDirectory root) {
    return new IOException(
        "root directory "
            + root
            + " does not exist: a region server serves the root directory of a cluster, which"
            + " its master creates");
  }

  private static void checkClusterId(String mastersId, String rootId, RootDirectory root)
      throws MasterLink.Refused {
    if (mastersId == null) {
      throw new MasterLink.Refused(
          "the master did not say its cluster id ("
              + MasterLink.CLUSTER_ID
              + "), so this region server cannot check that "
              + root
              + " is the cluster's root directory",
          null);
    }
    if (!mastersId.equals(rootId)) {
      throw new MasterLink.Refused(
          "region server pointed at a root directory that is not the cluster's: "
              + root
              + " belongs to cluster "
              + rootId
              + ", the master serves cluster "
              + mastersId,
          null);
    }
  }

  /** "PBUF" + RegionServerInfo{info_port 0, version_info}. */
  private static byte[] rsZnodeData() {
    HBaseProtos.VersionInfo version =
        HBaseProtos.VersionInfo.newBuilder()
            .setVersion(BasaltVersion.reported())
            .setUrl("https://github.com/basalt-db/basalt")
            .setRevision(BasaltVersion.VERSION)
            .setUser(System.getProperty("user.name", "basalt"))
            .setDate("")
            .setSrcChecksum("")
            .setVersionMajor(2)
            .setVersionMinor(6)
            .build();
    HBaseProtos.RegionServerInfo info =
        HBaseProtos.RegionServerInfo.newBuilder().setInfoPort(0).setVersionInfo(version).build();
    return Bytes.concat(Bytes.toBytes("PBUF"), info.toByteArray());
  }

  /**
   * ZooKeeper's connect string from HBase's settings: each quorum host with the client port unless
   * it names its own.
   */
  static String connectString(String quorum, int clientPort) {
    StringJoiner out = new StringJoiner(",");
    for (String h : quorum.split(",")) {
      String host = h.trim();
      if (host.isEmpty()) {
        continue;
      }
      boolean hasPort =
          host.startsWith("[")
              ? host.contains("]:")
              : host.indexOf(':') > 0 && host.indexOf(':') == host.lastIndexOf(':');
      out.add(hasPort ? host : ServerName.hostAndPort(host, clientPort));
    }
    if (out.length() == 0) {
      throw new IllegalArgumentException(
          ClusterSettings.ZOOKEEPER_QUORUM.key() + " names no ZooKeeper server");
    }
    return out.toString();
  }

  private static boolean isWildcard(String bind) {
    return bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("*");
  }

  private void expireScanners() {
    try {
      int n = client.expireIdleScanners();
      if (n > 0) {
        LOG.info("closed {} scanners idle past their lease", n);
      }
    } catch (RuntimeException e) {
      LOG.warn("scanner lease check failed", e);
    }
  }

  /**
   * Asks the master to split a region that outgrew its maximum size, as HBase's region server does:
   * a READY_TO_SPLIT report naming the region and the two daughters it proposes; the master plans
   * the split (it may refuse: switch off, region moving) and sends it back as a hand-over.
   */
  private void requestSplit(Region region, byte[] row) {
    RegionInfo p = region.getRegionInfo();
    LOG.info("region {} outgrew its maximum size; asking the master to split it", p);
    report(
        RegionStateTransition.newBuilder()
            .setTransitionCode(RegionStateTransition.TransitionCode.READY_TO_SPLIT)
            .addRegionInfo(SchemaCodec.toProto(p))
            .addRegionInfo(
                SchemaCodec.toProto(
                    RegionInfo.of(p.getTable(), p.getStartKey(), row, p.getRegionId())))
            .addRegionInfo(
                SchemaCodec.toProto(
                    RegionInfo.of(p.getTable(), row, p.getEndKey(), p.getRegionId())))
            .build());
  }

  private void report(RegionStateTransition t) {
    MasterLink l = link;
    if (l != null) {
      l.report(t);
    } else {
      LOG.warn("not reporting {}: the server is stopping", t.getTransitionCode());
    }
  }

  // ---- what it is -----------------------------------------------------------------------------

  /** The server's name, {@code host,port,startcode}. */
  public ServerName serverName() {
    return name;
  }

  /** Its ZooKeeper session (tests expire it); null once the server ended. */
  ZooKeeperSession zooKeeper() {
    return zk;
  }

  /** The regions it serves. */
  public HostedRegions regions() {
    return regions;
  }

  /** Completes with the exit status once the server ended: 0 after a stop, 1 after an abort. */
  public CompletableFuture<Integer> terminated() {
    return terminated;
  }

  // ---- ending -------------------------------------------------------------------------------

  /** StopServer: a graceful stop on a thread of its own (the call is answered at once). */
  private void stopInBackground() {
    Thread t = new Thread(this::stop, "basalt-rs-stop");
    t.setDaemon(false);
    t.start();
  }

  /**
   * Stops gracefully (see the class comment) and returns once stopped; a stop already under way is
   * waited for; after an abort it returns at once. Called while the server starts, it ends the
   * start (which then fails).
   */
  public void stop() {
    State was;
    synchronized (lifecycle) {
      was = state;
      if (was == State.RUNNING) {
        state = State.STOPPING;
      } else if (was == State.STARTING) {
        state = State.ENDED;
      }
    }
    if (was == State.RUNNING) {
      stopNow();
    } else if (was == State.STARTING) {
      shutDown();
      terminated.complete(0);
    }
    terminated.join();
  }

  private void stopNow() {
    MasterLink l = link;
    RegionAssignmentHandlers a = assignment;
    try {
      LOG.info("region server {} stopping", name);
      a.refuseOpens();
      MasterLink.Offload offload = MasterLink.Offload.ACCEPTED;
      if (!regions.isEmpty()) {
        offload = l.decommissionSelf();
        if (offload == MasterLink.Offload.ACCEPTED) {
          if (!waitUntilEmpty(OFFLOAD_WAIT)) {
            LOG.warn(
                "regions still open here {} s after asking the master to move them; closing them"
                    + " here",
                OFFLOAD_WAIT.toSeconds());
          }
        } else {
          LOG.warn("the master cannot take this server's regions; closing them here");
        }
      }
      regions.stopping();
      a.closeAll();
      // without a master the reports cannot go anywhere: do not linger for them
      Duration drain =
          offload == MasterLink.Offload.UNREACHABLE ? Duration.ofSeconds(1) : REPORT_DRAIN_WAIT;
      if (!l.drain(drain)) {
        LOG.warn("the master did not take every transition report before the stop");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.error("error during the graceful stop of {}", name, e);
    }
    shutDown();
    LOG.info("region server {} stopped", name);
    terminated.complete(0);
  }

  private boolean waitUntilEmpty(Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!regions.isEmpty()) {
      if (System.nanoTime() - deadline >= 0 || regions.isAborted()) {
        return false;
      }
      Thread.sleep(POLL_MILLIS);
    }
    return true;
  }

  /**
   * Stops serving at once, without flushing (see the class comment), then ends with status 1.
   * Idempotent; does nothing after a stop completed.
   */
  public void abort(String why) {
    synchronized (lifecycle) {
      if (terminated.isDone() || state == State.ENDED) {
        return;
      }
      state = State.ENDED;
    }
    LOG.error("region server {} aborting: {}", name, why);
    if (regions != null) {
      regions.aborted();
    }
    RegionHost h = host;
    if (h != null) {
      h.abort();
    }
    // the rest on a thread of its own: the caller may be one of the threads shutDown stops
    Thread t =
        new Thread(
            () -> {
              shutDown();
              terminated.complete(1);
            },
            "basalt-rs-abort");
    t.setDaemon(false);
    t.start();
  }

  /**
   * Releases whatever started, each thing once (what a start still creates after a concurrent stop
   * or abort is released by the start's own failure, which calls this again).
   */
  private synchronized void shutDown() {
    if (replication != null) {
      replication.close();
      replication = null;
    }
    MasterLink l = link;
    link = null;
    if (l != null) {
      l.close();
    }
    if (chores != null) {
      chores.shutdownNow();
      chores = null;
    }
    if (assignment != null) {
      assignment.close();
      assignment = null;
    }
    RegionHost h = host;
    if (h != null) {
      try {
        h.close(); // flushes what is still open (nothing after a graceful stop); no-op after abort
      } catch (IOException | RuntimeException e) {
        LOG.error("the region host did not close cleanly; its log keeps the edits", e);
      }
    }
    if (pauseGuard != null) {
      pauseGuard.close();
      pauseGuard = null;
    }
    if (zk != null) {
      if (rsZnode != null && !zk.isExpired()) {
        try {
          zk.delete(rsZnode);
        } catch (IOException e) {
          LOG.warn("could not delete {}: it goes with the session", rsZnode, e);
        }
      }
      zk.close();
      zk = null;
    }
    if (rpc != null) {
      rpc.close();
      rpc = null;
    }
    if (rpcClient != null) {
      rpcClient.close();
      rpcClient = null;
    }
    if (sinkClient != null) {
      sinkClient.close();
      sinkClient = null;
    }
    if (client != null) {
      client.close();
      client = null;
    }
    if (admin != null) {
      admin.close();
      admin = null;
    }
    if (storage != null) {
      try {
        storage.close();
      } catch (IOException e) {
        LOG.warn("the root's storage did not close cleanly", e);
      }
      storage = null;
    }
  }

  /** Where hbase:meta is served: the active master. */
  private InetSocketAddress metaServer() {
    MasterLink l = link;
    if (l == null) {
      throw new IllegalStateException("region server " + name + " is not linked to a master");
    }
    try {
      ServerName m = l.activeMaster().name();
      return new InetSocketAddress(m.host(), m.port());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The replication sources of this server (figures for reports and tests); null until up. */
  public ReplicationSources replication() {
    return replication;
  }

  /** {@link #stop}. */
  @Override
  public void close() {
    stop();
  }
}
