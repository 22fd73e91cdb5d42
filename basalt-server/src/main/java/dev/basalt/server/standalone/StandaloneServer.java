package dev.basalt.server.standalone;

import dev.basalt.db.Database;
import dev.basalt.fs.Storage;
import dev.basalt.server.cluster.Addresses;
import dev.basalt.server.cluster.BasaltVersion;
import dev.basalt.server.cluster.ClientMetaServiceHandlers;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.coordination.EmbeddedZooKeeper;
import dev.basalt.server.coordination.HBaseZnodes;
import dev.basalt.server.master.MasterServiceHandlers;
import dev.basalt.server.meta.DatabaseMetaSource;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.server.regionserver.AdminServiceHandlers;
import dev.basalt.server.regionserver.ClientServiceHandlers;
import dev.basalt.server.regionserver.DatabaseRegions;
import dev.basalt.server.replication.DatabaseSinkTarget;
import dev.basalt.server.replication.ReplicationLoad;
import dev.basalt.server.replication.ReplicationPeers;
import dev.basalt.server.replication.ReplicationSettings;
import dev.basalt.server.replication.ReplicationSink;
import dev.basalt.server.replication.ReplicationSources;
import dev.basalt.server.rpc.RpcServer;
import dev.basalt.server.rpc.RpcServerConfig;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Basalt in one JVM: the database over a local root directory, a region server (ClientService,
 * AdminService, hbase:meta), a master (MasterService), the RPC registry on both, and an embedded
 * ZooKeeper holding HBase's znodes, so the stock client connects with either registry.
 *
 * <p>Start-up order: database (replays the WAL), region server, master, then ZooKeeper: a client
 * can only find the servers once they are published, and then they already answer. Shutdown runs
 * the other way: the znodes go first so new clients stop finding the server, then the RPC servers
 * stop, then the database flushes its memstores and closes.
 */
public final class StandaloneServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StandaloneServer.class);
  private static final long SCANNER_CHORE_MILLIS = 10_000;

  private final Config config;
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private Database db;
  private ClientServiceHandlers client;
  private volatile ClusterInfo cluster;
  private EmbeddedZooKeeper zooKeeper;
  private ReplicationSources replication;
  private boolean closed;

  private StandaloneServer(Config config) {
    this.config = config;
  }

  /**
   * Opens the database and starts every service.
   *
   * @throws IOException when the root directory cannot be opened or a port cannot be bound (the
   *     message names it); whatever started is stopped again
   * @throws IllegalArgumentException when a setting is invalid (the message names the key)
   */
  public static StandaloneServer start(Config config) throws IOException {
    StandaloneServer s = new StandaloneServer(config);
    try {
      s.startAll();
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  private void startAll() throws IOException {
    String bind = config.get(StandaloneSettings.BIND_ADDRESS);
    String host = Addresses.advertisedHost(config);
    RootDirectory root = RootDirectory.of(config);
    long startCode = System.currentTimeMillis();

    Storage storage = root.open(config); // a local directory, or HDFS (basalt-hdfs)
    toClose.add(0, storage);
    storage.mkdirs("");
    db = Database.open(storage, config, Clock.system());
    toClose.add(0, db);
    String clusterId = db.getClusterId().toString();

    long lease = config.get(StandaloneSettings.SCANNER_LEASE);
    long maxResultSize = config.get(StandaloneSettings.SCANNER_MAX_RESULT_SIZE);
    DatabaseRegions regions = new DatabaseRegions(db);
    client =
        new ClientServiceHandlers(
            regions,
            new MetaTable(new DatabaseMetaSource(db, () -> cluster.regionServer())),
            Clock.system(),
            lease,
            maxResultSize);
    toClose.add(0, client);
    client.recoveredNonces(db.recoveredNonces());
    AdminServiceHandlers admin = new AdminServiceHandlers(regions, () -> cluster.regionServer());
    toClose.add(0, admin);
    ReplicationPeers peers = new ReplicationPeers(storage, db::getClusterId, Duration.ofSeconds(5));
    ReplicationSink sink =
        new ReplicationSink(
            new DatabaseSinkTarget(db), config.get(ReplicationSettings.SINK_ROWS_PER_BATCH));
    ClientMetaServiceHandlers registry = ClientMetaServiceHandlers.of(() -> cluster);
    RpcServer regionServer =
        new RpcServer(
            RpcServerConfig.from(
                config, bind, Addresses.port(config, StandaloneSettings.REGIONSERVER_PORT)),
            List.of(
                client.service(),
                sink.register(admin.register(RpcService.builder(AdminService.getDescriptor())))
                    .build(),
                registry.service()),
            () -> clusterId);
    toClose.add(0, regionServer);
    int rsPort = regionServer.start().getPort();
    RpcServer master =
        new RpcServer(
            RpcServerConfig.from(
                config, bind, Addresses.port(config, StandaloneSettings.MASTER_PORT)),
            List.of(
                MasterServiceHandlers.standalone(
                        db, () -> cluster, peers, new ReplicationLoad(() -> replication, sink))
                    .service(),
                registry.service()),
            () -> clusterId);
    toClose.add(0, master);
    int masterPort = master.start().getPort();
    cluster =
        new ClusterInfo(
            clusterId,
            new ServerName(host, masterPort, startCode),
            new ServerName(host, rsPort, startCode),
            BasaltVersion.reported());

    ScheduledExecutorService chores =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "basalt-scanner-leases");
              t.setDaemon(true);
              return t;
            });
    chores.scheduleWithFixedDelay(
        this::expireScanners, SCANNER_CHORE_MILLIS, SCANNER_CHORE_MILLIS, TimeUnit.MILLISECONDS);
    toClose.add(0, chores::shutdownNow);

    replication =
        new ReplicationSources(
            storage,
            config,
            db.getClusterId(),
            Database.LOG_NAME,
            false,
            name -> DatabaseSinkTarget.descriptorOrNull(db, name));
    toClose.add(0, replication);
    peers.onChange(replication::refreshSoon);
    replication.start();

    if (config.get(StandaloneSettings.EMBEDDED_ZOOKEEPER)) {
      String zkDir = config.get(StandaloneSettings.ZOOKEEPER_DATA_DIR);
      zooKeeper =
          EmbeddedZooKeeper.start(
              zkDir.isEmpty() ? root.localDirectory().resolve("zookeeper") : Path.of(zkDir),
              bind,
              Addresses.port(config, StandaloneSettings.ZOOKEEPER_PORT));
      toClose.add(0, zooKeeper);
      HBaseZnodes znodes =
          HBaseZnodes.publish(
              Addresses.connectHost(bind) + ":" + zooKeeper.port(),
              config.get(StandaloneSettings.ZNODE_PARENT),
              cluster,
              Duration.ofSeconds(30));
      toClose.add(0, znodes);
      znodes.registerRegionServer(cluster.regionServer());
    }
    LOG.info("Basalt standalone is up; data in {}", root);
    LOG.info("Connect with the stock HBase client using {}", clientSettings());
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

  /** The client configuration to give out, for the log and the launcher. */
  public String clientSettings() {
    String bootstrap =
        "hbase.client.registry.impl=org.apache.hadoop.hbase.client.RpcConnectionRegistry"
            + " hbase.client.bootstrap.servers="
            + cluster.master().hostAndPort();
    if (zooKeeper == null) {
      return bootstrap;
    }
    return "hbase.zookeeper.quorum="
        + cluster.master().host()
        + " hbase.zookeeper.property.clientPort="
        + zooKeeper.port()
        + " (or "
        + bootstrap
        + ")";
  }

  public ClusterInfo cluster() {
    return cluster;
  }

  /** The embedded ZooKeeper's client port, or -1 when it does not run. */
  public int zooKeeperPort() {
    return zooKeeper == null ? -1 : zooKeeper.port();
  }

  public Database database() {
    return db;
  }

  /** The replication sources of this server (figures for status and tests). */
  public ReplicationSources replication() {
    return replication;
  }

  /** Stops everything, flushing memstores; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (AutoCloseable c : toClose) {
      try {
        c.close();
      } catch (Exception e) {
        LOG.warn("error while stopping {}", c, e);
      }
    }
    LOG.info("Basalt standalone stopped");
  }
}
