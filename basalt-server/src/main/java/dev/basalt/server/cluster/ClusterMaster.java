package dev.basalt.server.cluster;

import dev.basalt.db.ClusterCatalog;
import dev.basalt.fs.Storage;
import dev.basalt.server.coordination.MasterElection;
import dev.basalt.server.coordination.ZooKeeperSession;
import dev.basalt.server.master.ActiveMaster;
import dev.basalt.server.rpc.RpcServer;
import dev.basalt.server.rpc.RpcServerConfig;
import dev.basalt.server.standalone.RootDirectory;
import dev.basalt.server.standalone.StandaloneSettings;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A master process of a cluster ({@code bin/basalt master}): it listens on its RPC port at once
 * (ClientMetaService, so the RPC registry can ask any master who is active), joins the election
 * ({@link MasterElection}) and stands by until it wins; then it takes the root directory's lock
 * ({@link RootLock}: a paused previous master that still holds it makes this one wait rather than
 * share the root), and becomes the {@link ActiveMaster}, whose services it offers from then on.
 *
 * <p>If its ZooKeeper session expires, another master may already be active: this one stops at once
 * ({@link #onAbort}), without touching the root again. Thread-safe.
 */
public final class ClusterMaster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterMaster.class);

  private final Config config;
  private final RootDirectory root;
  private final Storage storage; // the root's, local or HDFS
  private final RpcServer rpc;
  private final ServerName self;
  private final ZooKeeperSession zk;
  private final MasterElection election;
  private final String clusterIdOfRoot;
  private final CountDownLatch activated = new CountDownLatch(1);
  private final Thread electionThread;
  private volatile Runnable onAbort = () -> {};
  private volatile boolean closed;
  private volatile ActiveMaster active;
  private RootLock lock;

  private ClusterMaster(Config config, RootDirectory root, Storage storage) throws IOException {
    this.config = config;
    this.root = root;
    this.storage = storage;
    String bind = Addresses.bind(config);
    String host = Addresses.advertisedHost(config);
    long startCode = System.currentTimeMillis();
    storage.mkdirs("");
    this.clusterIdOfRoot = clusterIdOf(storage);
    this.rpc =
        new RpcServer(
            RpcServerConfig.from(
                config, bind, Addresses.port(config, StandaloneSettings.MASTER_PORT)),
            List.of(),
            () -> active != null ? active.clusterId() : clusterIdOfRoot);
    int port;
    try {
      port = rpc.start().getPort();
    } catch (IOException e) {
      rpc.close();
      throw e;
    }
    this.self = new ServerName(host, port, startCode);
    ZooKeeperSession session;
    try {
      session =
          ZooKeeperSession.connect(
              Addresses.zooKeeperQuorum(config),
              Duration.ofSeconds(30),
              Duration.ofMillis(config.get(ClusterSettings.ZOOKEEPER_SESSION_TIMEOUT)));
    } catch (IOException | RuntimeException e) {
      rpc.close();
      throw e;
    }
    this.zk = session;
    this.election = new MasterElection(zk, parent(), self);
    rpc.addService(new ClientMetaServiceHandlers(new Registry()).service());
    zk.onExpired(
        () -> {
          if (!closed) {
            LOG.error("master {}: its ZooKeeper session expired; stopping at once", self);
            abort();
          }
        });
    this.electionThread = new Thread(this::runElection, "basalt-master-election");
    this.electionThread.setDaemon(true);
  }

  /**
   * Starts a master: it listens and stands by (or becomes active when no master is).
   *
   * @throws IllegalArgumentException when {@code hbase.cluster.distributed} is false or a setting
   *     is wrong
   * @throws IOException when the port cannot be bound, ZooKeeper cannot be reached, or the root
   *     directory holds no cluster
   */
  public static ClusterMaster start(Config config) throws IOException {
    if (!config.get(ClusterSettings.DISTRIBUTED)) {
      throw new IllegalArgumentException(
          ClusterSettings.DISTRIBUTED.key()
              + " is false: set it to true to run a cluster master (bin/basalt standalone runs"
              + " everything in one process)");
    }
    RootDirectory root = RootDirectory.of(config);
    Storage storage = root.open(config);
    ClusterMaster m;
    try {
      m = new ClusterMaster(config, root, storage);
    } catch (IOException | RuntimeException e) {
      storage.close();
      throw e;
    }
    m.electionThread.start();
    return m;
  }

  /** The cluster id of the root, or null when it has none yet (the first master creates it). */
  private static String clusterIdOf(Storage root) throws IOException {
    try {
      return ClusterCatalog.clusterIdOf(root).toString();
    } catch (IOException none) {
      return null;
    }
  }

  private String parent() {
    return config.get(StandaloneSettings.ZNODE_PARENT);
  }

  private void runElection() {
    try {
      long epoch = election.awaitActive(() -> closed);
      if (epoch < 0) {
        return;
      }
      lock = RootLock.acquire(storage, () -> closed);
      if (closed) {
        return;
      }
      active = ActiveMaster.start(config, storage, root.toString(), self, epoch, zk, rpc, election);
      activated.countDown();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      if (!closed) {
        LOG.error("master {} could not become active; stopping", self, e);
        abort();
      }
    }
  }

  /**
   * What ClientMetaService answers on a master's port: the masters as the election has them (this
   * one while it is active, else the one ZooKeeper names), hbase:meta on the active master, and as
   * bootstrap nodes this master and the active one.
   */
  private final class Registry implements ClientMetaServiceHandlers.Source {
    @Override
    public String clusterId() {
      ActiveMaster a = active;
      String id = a != null ? a.clusterId() : clusterIdOfRoot;
      return id == null ? "" : id;
    }

    @Override
    public ServerName activeMaster() throws IOException {
      if (active != null) {
        return self;
      }
      ServerName a = election.activeMaster();
      if (a == null) {
        throw ClientMetaServiceHandlers.masterNotRunning("no active master");
      }
      return a;
    }

    @Override
    public List<ServerName> backupMasters() throws IOException {
      return election.backupMasters();
    }

    @Override
    public ServerName metaServer() throws IOException {
      return activeMaster();
    }

    @Override
    public List<ServerName> bootstrapNodes() {
      ServerName a = null;
      try {
        a = activeMaster();
      } catch (IOException e) {
        LOG.debug("no active master to name as a bootstrap node", e);
      }
      return a == null || a.equals(self) ? List.of(self) : List.of(self, a);
    }
  }

  public ServerName name() {
    return self;
  }

  public int port() {
    return self.port();
  }

  public boolean isActive() {
    return active != null;
  }

  /** Waits until this master is active; false when the time ran out. */
  public boolean awaitActive(Duration timeout) throws InterruptedException {
    return activated.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** What to do when the master must stop at once (its session expired): by default nothing. */
  public void onAbort(Runnable action) {
    this.onAbort = action;
  }

  private void abort() {
    closed = true;
    ActiveMaster a = active;
    if (a != null) {
      a.abort();
    }
    onAbort.run();
  }

  /** Stops cleanly: hands over mastership (the znode goes with the session) and stops serving. */
  @Override
  public synchronized void close() {
    if (closed && active == null && lock == null) {
      rpc.close();
      zk.close();
      closeStorage();
      return;
    }
    closed = true;
    electionThread.interrupt();
    ActiveMaster a = active;
    active = null;
    if (a != null) {
      a.close();
    }
    rpc.close();
    zk.close();
    if (lock != null) {
      lock.close();
      lock = null;
    }
    closeStorage();
    LOG.info("master {} stopped", self);
  }

  private void closeStorage() {
    try {
      storage.close();
    } catch (IOException e) {
      LOG.warn("the root's storage did not close cleanly", e);
    }
  }
}
