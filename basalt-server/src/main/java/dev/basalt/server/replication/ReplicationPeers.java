package dev.basalt.server.replication;

import dev.basalt.fs.Storage;
import dev.basalt.server.coordination.ZooKeeperSession;
import dev.basalt.util.BasaltIOException;
import dev.basalt.wal.ReplicationQueues;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ReplicationPeer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's replication peers: added, removed, enabled, disabled and reconfigured through the
 * stock Admin API, checked as HBase's ReplicationPeerManager checks them, and stored durably
 * ({@link PeerStore}) before a call returns, so that they survive restarts and master take-overs.
 * The region servers follow the stored list ({@link ReplicationSources}); listeners (a standalone
 * server's own sources) hear of each change at once.
 *
 * <p>Refusals are DoNotRetryIOExceptions with HBase's messages: a peer id with {@code -}, a cluster
 * key that does not parse, a peer whose ZooKeeper holds this cluster's own id ("should not
 * replicate to itself"), namespaces or table-families with {@code replicate_all}, exclusions
 * without it, an id in use or unknown, enabling an enabled peer, changing a peer's cluster key, and
 * a peer whose ZooKeeper cannot be reached when it is added (HBase 2.6.1 refuses it too; once
 * added, a peer that goes down only delays its edits).
 *
 * <p>Thread-safe (changes are serialized).
 */
public final class ReplicationPeers {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationPeers.class);
  private static final String NOT_FOUND =
      "org.apache.hadoop.hbase.ReplicationPeerNotFoundException";

  private final PeerStore store;
  private final ReplicationQueues queues;
  private final Supplier<UUID> clusterId;
  private final Duration probeTimeout;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private List<Peer> peers;
  private boolean modificationEnabled = true;

  /**
   * @param clusterId this cluster's id, to refuse a peer that is this cluster
   * @param probeTimeout how long to try reaching a new peer's ZooKeeper for that check
   */
  public ReplicationPeers(Storage storage, Supplier<UUID> clusterId, Duration probeTimeout)
      throws IOException {
    this.store = new PeerStore(storage);
    this.queues = new ReplicationQueues(storage);
    this.clusterId = clusterId;
    this.probeTimeout = probeTimeout;
    this.peers = new ArrayList<>(store.load());
  }

  /** Runs {@code r} after every change (on the changing thread). */
  public void onChange(Runnable r) {
    listeners.add(r);
  }

  public synchronized List<Peer> list(String regex) throws IOException {
    if (regex == null || regex.isEmpty()) {
      return List.copyOf(peers);
    }
    Pattern p;
    try {
      p = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw BasaltIOException.doNotRetry("bad peer id pattern: " + e.getMessage());
    }
    return peers.stream().filter(d -> p.matcher(d.id()).matches()).toList();
  }

  public synchronized Peer get(String id) throws IOException {
    for (Peer p : peers) {
      if (p.id().equals(id)) {
        return p;
      }
    }
    throw new BasaltIOException("Replication peer " + id + " does not exist", NOT_FOUND, true);
  }

  public void add(String id, ReplicationPeer config, boolean enabled) throws IOException {
    if (id == null || id.isEmpty()) {
      throw BasaltIOException.doNotRetry("a replication peer needs an id");
    }
    if (id.contains("-")) {
      throw BasaltIOException.doNotRetry("Found invalid peer name: " + id);
    }
    if (id.contains("/") || id.startsWith(".")) {
      throw BasaltIOException.doNotRetry(
          "Found invalid peer name: " + id + " (it may not contain '/' or start with '.')");
    }
    checkConfig(config);
    checkNotSelf(config.getClusterkey());
    synchronized (this) {
      checkModifiable();
      for (Peer p : peers) {
        if (p.id().equals(id)) {
          throw BasaltIOException.doNotRetry("Replication peer " + id + " already exists");
        }
      }
      List<String> left = queues.queues(id);
      if (!left.isEmpty()) {
        throw BasaltIOException.doNotRetry(
            "There are still "
                + left.size()
                + " undeleted queue(s) for peerId: "
                + id
                + ", first is "
                + left.get(0)
                + " (a peer of this id was removed moments ago; try again shortly)");
      }
      // The queues first (HBase refreshes every region server before the call returns): a server
      // that stops or dies before it rereads the peer list still has its queue, which is then
      // taken over and shipped.
      queues.startOnEveryLog(id);
      List<Peer> next = new ArrayList<>(peers);
      next.add(new Peer(id, enabled, config, System.currentTimeMillis()));
      save(next);
    }
    LOG.info(
        "added replication peer {} ({}, {})",
        id,
        config.getClusterkey(),
        enabled ? "enabled" : "disabled");
    changed();
  }

  public void remove(String id) throws IOException {
    synchronized (this) {
      checkModifiable();
      Peer p = get(id);
      List<Peer> next = new ArrayList<>(peers);
      next.remove(p);
      save(next);
    }
    // The servers stop their sources and delete their own queues when they see the peer gone; this
    // deletes the rest (queues of dead servers nobody will take over now).
    try {
      queues.deletePeer(id);
    } catch (IOException e) {
      LOG.warn("could not delete the queues of removed peer {}; the servers will", id, e);
    }
    LOG.info("removed replication peer {}", id);
    changed();
  }

  public void setEnabled(String id, boolean on) throws IOException {
    synchronized (this) {
      checkModifiable();
      Peer p = get(id);
      if (p.enabled() == on) {
        throw BasaltIOException.doNotRetry(
            "Replication peer " + id + " has already been " + (on ? "enabled" : "disabled"));
      }
      replace(p, p.withEnabled(on));
    }
    LOG.info("{} replication peer {}", on ? "enabled" : "disabled", id);
    changed();
  }

  public void update(String id, ReplicationPeer config) throws IOException {
    checkConfig(config);
    synchronized (this) {
      checkModifiable();
      Peer p = get(id);
      String before = p.config().getClusterkey();
      if (!before.equals(config.getClusterkey())) {
        throw BasaltIOException.doNotRetry(
            "Changing the cluster key on an existing peer is not allowed. Existing key '"
                + before
                + "' for peer "
                + id
                + " does not match new key '"
                + config.getClusterkey()
                + "'");
      }
      if (!p.config().getReplicationEndpointImpl().equals(config.getReplicationEndpointImpl())) {
        throw BasaltIOException.doNotRetry(
            "Changing the replication endpoint implementation class on an existing peer is not"
                + " allowed");
      }
      replace(p, p.withConfig(config));
    }
    LOG.info("updated the configuration of replication peer {}", id);
    changed();
  }

  /** HBase 2.6's peer modification switch; returns the previous state. */
  public synchronized boolean switchModification(boolean on) {
    boolean before = modificationEnabled;
    modificationEnabled = on;
    return before;
  }

  public synchronized boolean isModificationEnabled() {
    return modificationEnabled;
  }

  private void checkModifiable() throws BasaltIOException {
    if (!modificationEnabled) {
      throw BasaltIOException.doNotRetry("Replication peer modification disabled");
    }
  }

  private void replace(Peer old, Peer fresh) throws IOException {
    List<Peer> next = new ArrayList<>(peers);
    next.set(next.indexOf(old), fresh);
    save(next);
  }

  private void save(List<Peer> next) throws IOException {
    store.save(next);
    peers = next;
  }

  private void changed() {
    for (Runnable r : listeners) {
      try {
        r.run();
      } catch (RuntimeException e) {
        LOG.warn("a replication peer listener failed", e);
      }
    }
  }

  /** HBase's checkPeerConfig, less the endpoint class (Basalt ships to HBase-protocol peers). */
  static void checkConfig(ReplicationPeer c) throws BasaltIOException {
    try {
      ClusterKey.parse(c.getClusterkey());
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry(
          "Invalid cluster key: " + c.getClusterkey() + " (" + e.getMessage() + ")");
    }
    if (!c.getReplicationEndpointImpl().isEmpty()) {
      throw BasaltIOException.doNotRetry(
          "Can not instantiate configured replication endpoint class="
              + c.getReplicationEndpointImpl()
              + ": Basalt ships to HBase-protocol peers only (no custom endpoints)");
    }
    boolean all = !c.hasReplicateAll() || c.getReplicateAll();
    if (all) {
      if (c.getNamespacesCount() > 0 || c.getTableCfsCount() > 0) {
        throw BasaltIOException.doNotRetry(
            "Need clean namespaces or table-cfs config firstly when you want replicate all cluster");
      }
    } else if (c.getExcludeNamespacesCount() > 0 || c.getExcludeTableCfsCount() > 0) {
      throw BasaltIOException.doNotRetry(
          "Need clean exclude-namespaces or exclude-table-cfs config firstly when replicate_all"
              + " flag is false");
    }
    if (c.getBandwidth() < 0) {
      throw BasaltIOException.doNotRetry(
          "a peer's bandwidth cannot be negative: " + c.getBandwidth());
    }
  }

  /** Refuses a peer that is this cluster; an unreachable peer is only a warning. */
  private void checkNotSelf(String clusterKey) throws IOException {
    ClusterKey key = ClusterKey.parse(clusterKey);
    UUID peerId;
    try (ZooKeeperSession zk =
        ZooKeeperSession.connect(key.connectString(), probeTimeout, Duration.ofSeconds(10))) {
      peerId = PeerCluster.readClusterId(zk, key);
    } catch (IOException e) {
      // HBase 2.6 refuses too (checked against 2.6.1): a peer is added while it can be reached,
      // so that a typo in the key fails at once instead of stalling the peer for good.
      throw BasaltIOException.doNotRetry(
          "Can't get peerClusterId for clusterKey=" + clusterKey + ": " + e.getMessage());
    }
    if (peerId.equals(clusterId.get())) {
      throw BasaltIOException.doNotRetry(
          "Invalid cluster key: "
              + clusterKey
              + ", should not replicate to itself for HBaseInterClusterReplicationEndpoint");
    }
  }
}
