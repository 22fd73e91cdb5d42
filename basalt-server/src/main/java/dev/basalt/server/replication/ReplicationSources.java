package dev.basalt.server.replication;

import dev.basalt.fs.Storage;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.server.rpc.CellBlockCodec;
import dev.basalt.server.rpc.RpcClient;
import dev.basalt.util.config.Config;
import dev.basalt.wal.ReplicationQueues;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalSplitter;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replication sources of one server (a standalone server, or a region server of a cluster): one
 * {@link ReplicationSource} per peer for the server's own log, and one per queue it has taken over
 * from a server that died. It follows the peer list the master keeps ({@link PeerStore}), rereading
 * it every {@link ReplicationSettings#PEER_REFRESH} and at once when told ({@link #refresh}): a new
 * peer gets a queue starting at the oldest segment of the live log, a removed peer's sources stop
 * and their queues are deleted, a changed one's sources take the new configuration.
 *
 * <p>Taking over (cluster mode): a queue belongs to the last server named in its id. When that
 * server is dead and its log recovered (the master has split it: neither {@code WALs/<server>} nor
 * {@code WALs/<server>-splitting} exists any more), any live server may claim the queue with an
 * atomic rename; the winner reads the dead server's log to its end from the queue's position, then
 * deletes the queue. Thread-safe.
 */
public final class ReplicationSources implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationSources.class);
  private static final long STOP_WAIT_MILLIS = 10_000;

  private final Storage storage;
  private final PeerStore store;
  private final ReplicationQueues queues;
  private final String self;
  private final boolean takeOverQueues;
  private final ReplicationSource.Context context;
  private final long refreshMillis;
  private final Duration peerTimeout;
  private final RpcClient rpc;
  private final ScheduledExecutorService chore;

  // Guarded by this:
  private final Map<String, Map<String, ReplicationSource>> sources = new HashMap<>();
  private final Map<String, PeerCluster> peerClusters = new HashMap<>();
  private boolean closed;

  /**
   * @param self this server's log name (its directory under {@code WALs/}): {@code local} for a
   *     standalone server, {@code host,port,startcode} for a region server
   * @param takeOverQueues whether to claim the queues of dead servers (a cluster's region servers)
   * @param descriptors a table's current descriptor, or null when it does not exist
   */
  public ReplicationSources(
      Storage storage,
      Config config,
      UUID localCluster,
      String self,
      boolean takeOverQueues,
      Function<TableName, TableDescriptor> descriptors) {
    this.storage = storage;
    this.store = new PeerStore(storage);
    this.queues = new ReplicationQueues(storage);
    this.self = self;
    this.takeOverQueues = takeOverQueues;
    long shipTimeout = config.get(ReplicationSettings.SHIP_TIMEOUT);
    this.rpc =
        new RpcClient(
            System.getProperty("user.name", "basalt"),
            Duration.ofMillis(Math.min(shipTimeout, 10_000)),
            CellBlockCodec.KEY_VALUE_WITH_TAGS);
    this.context =
        new ReplicationSource.Context(
            storage,
            queues,
            localCluster,
            descriptors,
            rpc,
            config.get(ReplicationSettings.BATCH_SIZE),
            config.get(ReplicationSettings.BATCH_ENTRIES),
            config.get(ReplicationSettings.IDLE_POLL),
            config.get(ReplicationSettings.RETRY_MIN),
            config.get(ReplicationSettings.RETRY_MAX),
            shipTimeout,
            config.get(ReplicationSettings.BANDWIDTH));
    this.refreshMillis = config.get(ReplicationSettings.PEER_REFRESH);
    this.peerTimeout = Duration.ofMillis(Math.min(shipTimeout, 10_000));
    this.chore =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "replication-peers");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts following the peer list (a first refresh runs at once). */
  public void start() {
    chore.scheduleWithFixedDelay(this::refreshQuietly, 0, refreshMillis, TimeUnit.MILLISECONDS);
  }

  /** Refreshes on the sources' own thread soon (a peer changed); never blocks the caller. */
  public void refreshSoon() {
    try {
      chore.execute(this::refreshQuietly);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed
    }
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not refresh the replication peers; trying again in {} ms", refreshMillis, e);
    }
  }

  /** Brings the sources in line with the stored peer list now. */
  public synchronized void refresh() throws IOException {
    if (closed) {
      return;
    }
    Map<String, Peer> peers = new HashMap<>();
    for (Peer p : store.load()) {
      peers.put(p.id(), p);
    }
    for (String gone : new ArrayList<>(sources.keySet())) {
      if (!peers.containsKey(gone)) {
        stopPeer(gone);
      }
    }
    for (String leftover : queues.peers()) {
      if (!peers.containsKey(leftover) && !leftover.startsWith(".")) {
        deleteQueuesOfRemovedPeer(leftover);
      }
    }
    for (Peer p : peers.values()) {
      PeerCluster pc = peerCluster(p);
      if (pc == null) {
        continue;
      }
      Map<String, ReplicationSource> running =
          sources.computeIfAbsent(p.id(), k -> new HashMap<>());
      List<String> known = queues.queues(p.id());
      if (!known.contains(self)) {
        // A peer added before this server started (the master started queues on the logs there
        // were then).
        queues.startOnOwnLog(p.id(), self);
        known = queues.queues(p.id());
        LOG.info(
            "replication to peer {} starts at {} of this server's log",
            p.id(),
            queues.read(p.id(), self));
      }
      for (String q : known) {
        String owner = ReplicationQueues.owner(q);
        if (!owner.equals(self)) {
          if (!takeOverQueues || !isDead(owner)) {
            continue;
          }
          String claimed = queues.claim(p.id(), q, self);
          if (claimed == null) {
            continue; // another server won it
          }
          LOG.info(
              "took over replication queue {} of peer {} from dead server {} as {}",
              q,
              p.id(),
              owner,
              claimed);
          q = claimed;
        }
        ReplicationSource s = running.get(q);
        if (s == null || !s.isRunning()) {
          if (s != null && !ReplicationQueues.isRecovered(q) && queues.read(p.id(), q) == null) {
            running.remove(q);
            continue;
          }
          s = new ReplicationSource(context, p, q, pc);
          running.put(q, s);
          s.start();
        } else {
          s.update(p);
        }
      }
      running.values().removeIf(s -> !s.isRunning() && ReplicationQueues.isRecovered(s.queue()));
    }
  }

  private PeerCluster peerCluster(Peer p) {
    PeerCluster pc = peerClusters.get(p.id());
    if (pc == null) {
      try {
        pc = new PeerCluster(p.id(), ClusterKey.parse(p.config().getClusterkey()), peerTimeout);
      } catch (IllegalArgumentException e) {
        LOG.error(
            "peer {} has a bad cluster key; nothing is shipped to it: {}", p.id(), e.getMessage());
        return null;
      }
      peerClusters.put(p.id(), pc);
    }
    return pc;
  }

  /** Stops a removed peer's sources and deletes the queues this server owns. */
  private void stopPeer(String peerId) throws IOException {
    Map<String, ReplicationSource> running = sources.remove(peerId);
    if (running != null) {
      for (ReplicationSource s : running.values()) {
        s.stop(STOP_WAIT_MILLIS);
      }
    }
    PeerCluster pc = peerClusters.remove(peerId);
    if (pc != null) {
      pc.close();
    }
    for (String q : queues.queues(peerId)) {
      if (ReplicationQueues.owner(q).equals(self)) {
        queues.delete(peerId, q);
      }
    }
    if (queues.queues(peerId).isEmpty()) {
      queues.deletePeer(peerId);
    }
    LOG.info("replication peer {} removed; its sources on this server stopped", peerId);
  }

  /**
   * Deletes what a removed peer left: queues this server owns (a source that stored its position
   * once more as it stopped) and queues of dead servers.
   */
  private void deleteQueuesOfRemovedPeer(String peerId) throws IOException {
    for (String q : queues.queues(peerId)) {
      String owner = ReplicationQueues.owner(q);
      if (owner.equals(self) || (takeOverQueues && isDead(owner))) {
        queues.delete(peerId, q);
      }
    }
    if (queues.queues(peerId).isEmpty()) {
      queues.deletePeer(peerId);
    }
  }

  /** A server is dead once its log is recovered: neither its live nor its splitting directory. */
  private boolean isDead(String server) throws IOException {
    return !storage.exists(Wal.DIR + "/" + server)
        && !storage.exists(Wal.DIR + "/" + server + WalSplitter.SPLITTING_SUFFIX);
  }

  /** The figures of every source, for load reports and metrics. */
  public synchronized List<SourceStats> stats() {
    List<SourceStats> out = new ArrayList<>();
    for (Map<String, ReplicationSource> m : sources.values()) {
      for (ReplicationSource s : m.values()) {
        out.add(s.stats());
      }
    }
    return out;
  }

  @Override
  public void close() {
    chore.shutdownNow();
    List<ReplicationSource> all = new ArrayList<>();
    synchronized (this) {
      closed = true;
      for (Map<String, ReplicationSource> m : sources.values()) {
        all.addAll(m.values());
      }
      sources.clear();
      for (PeerCluster pc : peerClusters.values()) {
        pc.close();
      }
      peerClusters.clear();
    }
    for (ReplicationSource s : all) {
      s.stop(STOP_WAIT_MILLIS);
    }
    rpc.close();
  }
}
