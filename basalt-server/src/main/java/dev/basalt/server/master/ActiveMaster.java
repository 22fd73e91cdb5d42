package dev.basalt.server.master;

import dev.basalt.db.ArchiveCleaner;
import dev.basalt.db.CleanerSettings;
import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.DatabaseSettings;
import dev.basalt.fs.Storage;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.BasaltVersion;
import dev.basalt.server.cluster.ClusterInfo;
import dev.basalt.server.cluster.ClusterSettings;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.coordination.HBaseZnodes;
import dev.basalt.server.coordination.MasterElection;
import dev.basalt.server.coordination.ZooKeeperSession;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.server.regionserver.ClientServiceHandlers;
import dev.basalt.server.regionserver.RegionLookup;
import dev.basalt.server.replication.ReplicationPeers;
import dev.basalt.server.rpc.RpcClient;
import dev.basalt.server.rpc.RpcServer;
import dev.basalt.server.standalone.StandaloneSettings;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalSettings;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active master's work, started when a master wins the election and holds the root's lock: the
 * catalog ({@link ClusterCatalog}), the master store, the region servers ({@link ServerManager},
 * fed by their startup calls, reports and ZooKeeper znodes), the assignment manager, and the
 * services it now offers on its RPC port: MasterService, RegionServerStatusService and
 * ClientService for {@code hbase:meta} (which this master serves; the {@code meta-region-server}
 * znode says so). It publishes the cluster id and {@code running}, and runs the chores: watching
 * {@code rs/} and probing the region servers' ports, balancing, expiring meta scanners; and the
 * recovery of dead region servers' logs ({@link CrashRecovery}).
 */
public final class ActiveMaster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ActiveMaster.class);

  /** How long a registered region server may take to create its znode before it counts as dead. */
  private static final long ZNODE_GRACE_MILLIS = 30_000;

  /** How long a command may go unanswered before the master sends it again. */
  private static final long RESEND_MILLIS = 10_000;

  /** How long adding a replication peer tries to reach its ZooKeeper (to refuse this cluster). */
  private static final java.time.Duration PEER_PROBE_TIMEOUT = java.time.Duration.ofSeconds(5);

  private final ServerName self;
  private final ZooKeeperSession zk;
  private final String parent;
  private final ClusterCatalog catalog;
  private final MasterStore store;
  private final ServerManager servers;

  /** Held while the region servers' znodes are listed and handed over (in listing order). */
  private final Object regionServerListing = new Object();

  private final AssignmentManager assignment;
  private final CrashRecovery recovery;
  private final ClusterMasterAdmin admin;
  private final ClusterPlacement placement;
  private final RpcClient client;
  private final ClientServiceHandlers meta;
  private final ScheduledExecutorService chores;
  private volatile boolean closed;

  private ActiveMaster(
      Config config,
      Storage storage,
      String root,
      ServerName self,
      long epoch,
      ZooKeeperSession zk,
      RpcServer rpc,
      MasterElection election)
      throws IOException {
    this.self = self;
    this.zk = zk;
    this.parent = config.get(StandaloneSettings.ZNODE_PARENT);
    Clock clock = Clock.system();
    refuseUnrecoveredStandaloneLog(storage);
    this.catalog =
        ClusterCatalog.open(
            storage, clock, config.get(DatabaseSettings.NEW_VERSION_BEHAVIOR_DEFAULT));
    this.store = MasterStore.open(storage);
    this.client = new RpcClient("basalt-master", Duration.ofSeconds(5));
    this.servers = new ServerManager(clock, config.get(ClusterSettings.MAX_CLOCK_SKEW));
    this.assignment =
        new AssignmentManager(
            catalog,
            store,
            servers,
            new RpcRegionCommands(client, epoch),
            clock,
            epoch,
            RESEND_MILLIS);
    this.recovery =
        new CrashRecovery(
            storage,
            catalog,
            store,
            assignment,
            servers,
            new WalFence(storage, config.get(ClusterSettings.FENCE_KILL)),
            config.get(WalSettings.SKIP_REPLAY_ERRORS));
    servers.setListener(
        new ServerManager.Listener() {
          @Override
          public void serverAdded(ServerName server) {
            assignment.kick();
          }

          @Override
          public void serverDied(ServerName server) {
            assignment.serverDied(server);
            recovery.serverDied(server);
          }
        });
    this.placement =
        new ClusterPlacement(assignment, servers, store, config.get(ClusterSettings.REGIONS_SLOP));
    String clusterId = catalog.clusterId().toString();
    ClusterInfo info = new ClusterInfo(clusterId, self, self, BasaltVersion.reported());
    SplitMergeSwitches switches = new SplitMergeSwitches();
    this.admin = new ClusterMasterAdmin(catalog, assignment, client, switches);
    MasterServiceHandlers master =
        new MasterServiceHandlers(
            admin,
            new MasterClusterView(
                () -> info,
                servers,
                assignment,
                catalog,
                () -> backupMasters(election),
                placement::balancerEnabled),
            placement,
            switches,
            clock,
            new ReplicationPeers(storage, catalog::clusterId, PEER_PROBE_TIMEOUT));
    this.meta =
        new ClientServiceHandlers(
            onlyMeta(self),
            new MetaTable(new AssignmentMetaSource(catalog, assignment)),
            clock,
            config.get(StandaloneSettings.SCANNER_LEASE),
            config.get(StandaloneSettings.SCANNER_MAX_RESULT_SIZE));
    this.chores =
        Executors.newScheduledThreadPool(
            3,
            r -> {
              Thread t = new Thread(r, "basalt-master-chores");
              t.setDaemon(true);
              return t;
            });

    // The stored assignment first: region servers' reports and the first pass must find it (a
    // pass over an empty one placed every region again, while it was open elsewhere).
    assignment.setServerWait(
        new RegionServerWait(
            config.get(ClusterSettings.WAIT_ON_SERVERS_TIMEOUT),
            config.get(ClusterSettings.WAIT_ON_SERVERS_INTERVAL),
            config.get(ClusterSettings.WAIT_ON_SERVERS_MIN)));
    assignment.load();
    // The services before the znodes that point clients and region servers here: one that found
    // this master through meta-region-server got "unknown service ClientService" (fatal for the
    // stock client) while the services were still being added.
    rpc.addService(
        new RegionServerStatusHandlers(servers, assignment, admin, clusterId, root.toString())
            .service());
    rpc.addService(master.service());
    rpc.addService(meta.service());
    zk.createPersistentPath(path(HBaseZnodes.REGION_SERVERS));
    zk.writePersistent(path(HBaseZnodes.CLUSTER_ID), HBaseZnodes.clusterIdData(clusterId));
    zk.writePersistent(
        path(HBaseZnodes.META_REGION_SERVER), HBaseZnodes.metaRegionServerData(self));
    watchRegionServers();
    assignment.start();
    recovery.start();
    zk.writePersistent(
        path(HBaseZnodes.RUNNING), HBaseZnodes.clusterUpData(Instant.now().toString()));
    chores.scheduleWithFixedDelay(this::checkRegionServers, 1, 1, TimeUnit.SECONDS);
    long probeInterval = config.get(ClusterSettings.SERVER_PROBE_INTERVAL);
    if (probeInterval > 0) {
      ServerProbe probe = new ServerProbe(servers, (int) Math.min(probeInterval, 1000));
      chores.scheduleWithFixedDelay(
          () -> {
            if (!closed) {
              probe.probeAll();
            }
          },
          probeInterval,
          probeInterval,
          TimeUnit.MILLISECONDS);
    }
    long balancerPeriod = config.get(ClusterSettings.BALANCER_PERIOD);
    chores.scheduleWithFixedDelay(
        placement::balanceIfOn, balancerPeriod, balancerPeriod, TimeUnit.MILLISECONDS);
    chores.scheduleWithFixedDelay(meta::expireIdleScanners, 10, 10, TimeUnit.SECONDS);
    ArchiveCleaner cleaner =
        ArchiveCleaner.forDatabase(
            storage,
            config.get(CleanerSettings.WAL_TTL),
            config.get(CleanerSettings.FILE_TTL),
            clock,
            config.get(CleanerSettings.REPLICATION_RETAINED_WARN));
    long janitorPeriod = config.get(DatabaseSettings.MAINTENANCE_INTERVAL);
    chores.scheduleWithFixedDelay(
        () -> cleanUp(cleaner), janitorPeriod, janitorPeriod, TimeUnit.MILLISECONDS);
    LOG.info("master {} is active (cluster {}, epoch {})", self, clusterId, epoch);
  }

  /**
   * Starts the active master's work on a master that won the election and holds the root's lock.
   *
   * @param storage the root's storage (local or HDFS), which the caller closes after this master
   * @param root the root as configured, for region servers and messages
   */
  public static ActiveMaster start(
      Config config,
      Storage storage,
      String root,
      ServerName self,
      long epoch,
      ZooKeeperSession zk,
      RpcServer rpc,
      MasterElection election)
      throws IOException {
    return new ActiveMaster(config, storage, root, self, epoch, zk, rpc, election);
  }

  public String clusterId() {
    return catalog.clusterId().toString();
  }

  private String path(String child) {
    return parent.equals("/") ? "/" + child : parent + "/" + child;
  }

  /**
   * A standalone server's log with segments left means it crashed with edits not yet in store
   * files; a cluster cannot recover them yet, so the master refuses rather than lose them.
   */
  private static void refuseUnrecoveredStandaloneLog(Storage root) throws IOException {
    String standaloneLog = Wal.DIR + "/local";
    for (String name : root.list(standaloneLog)) {
      if (Wal.isSegment(name)) { // not its lock file, which stays
        throw new IOException(
            root.describe(standaloneLog)
                + " holds the log of a standalone server that did not stop cleanly: start"
                + " bin/basalt standalone on this root once (it replays the log) and stop it with"
                + " Ctrl-C before running it as a cluster");
      }
    }
  }

  private List<ServerName> backupMasters(MasterElection election) {
    try {
      return election.backupMasters();
    } catch (IOException e) {
      LOG.debug("could not list the backup masters", e);
      return List.of();
    }
  }

  /** Every request for a region other than hbase:meta goes to a region server, not here. */
  private static RegionLookup onlyMeta(ServerName self) {
    return spec -> {
      throw new BasaltIOException(
          "Region "
              + spec.getValue().toStringUtf8()
              + " is not online on "
              + self
              + " (the master serves hbase:meta only)",
          RegionLookup.NOT_SERVING,
          false);
    };
  }

  // ---- region servers in ZooKeeper ----------------------------------------------------------

  /**
   * Lists the region servers' znodes and hands the list to the server manager, one listing at a
   * time: the 1 s chore and the watcher run this on different threads, and a listing taken before a
   * new server's znode appeared but handed over after one that saw it would declare that server
   * dead (gone from ZooKeeper) moments after it joined (found by ClusterOnHdfsTest).
   */
  private void watchRegionServers() throws IOException {
    Watcher w =
        event -> {
          if (!closed) {
            chores.execute(this::checkRegionServers);
          }
        };
    synchronized (regionServerListing) {
      servers.znodes(zk.children(path(HBaseZnodes.REGION_SERVERS), w), ZNODE_GRACE_MILLIS);
    }
  }

  private void checkRegionServers() {
    if (closed) {
      return;
    }
    try {
      watchRegionServers();
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not read the region servers from ZooKeeper", e);
    }
  }

  /**
   * HBase's catalog janitor and cleaners: archives the directories of regions no table lists and
   * none refers to (split and merge parents once their daughters are compacted), then deletes
   * archived store files and log segments past their times to live. The region servers keep none of
   * this: they share the root.
   */
  private void cleanUp(ArchiveCleaner cleaner) {
    if (closed) {
      return;
    }
    for (ClusterCatalog.TableEntry t : catalog.tables()) {
      TableName name = t.descriptor().getTableName();
      try {
        assignment.unlessHandingOver(name, () -> catalog.archiveUnusedRegions(name));
      } catch (IOException | RuntimeException e) {
        LOG.warn("could not archive the unused regions of {} yet", name, e);
      }
    }
    try {
      cleaner.run();
    } catch (IOException | RuntimeException e) {
      LOG.warn("archive cleaning failed; it runs again at the next chore", e);
    }
  }

  /** For tests: the regions a region server serves, as this master placed them. */
  List<String> regionsOf(ServerName server) {
    return new ArrayList<>(assignment.openByServer().getOrDefault(server, List.of()));
  }

  /** Stops at once, without cleaning anything (another master may already be active). */
  public void abort() {
    closed = true;
    chores.shutdown();
    recovery.close();
    assignment.close();
    client.close();
    try {
      store.close();
    } catch (IOException e) {
      LOG.warn("master store did not close cleanly", e);
    }
  }

  /** Stops cleanly; the regions stay open on their region servers for the next master. */
  @Override
  public void close() {
    closed = true;
    chores.shutdown();
    recovery.close();
    assignment.close();
    meta.close();
    client.close();
    try {
      store.close();
    } catch (IOException e) {
      LOG.warn("master store did not close cleanly", e);
    }
  }
}
