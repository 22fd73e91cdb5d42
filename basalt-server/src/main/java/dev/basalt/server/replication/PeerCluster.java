package dev.basalt.server.replication;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.coordination.HBaseZnodes;
import dev.basalt.server.coordination.ZooKeeperSession;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterIdProtos;

/**
 * A peer cluster as its sources see it, found the way HBase's sources find it: through the peer's
 * ZooKeeper ({@link ClusterKey}), whose {@code <parent>/hbaseid} holds the cluster id and whose
 * {@code <parent>/rs} lists the region servers that take {@code ReplicateWALEntry} (the sinks).
 * This works with an Apache HBase peer as with a Basalt one.
 *
 * <p>The ZooKeeper session is opened on first use and dropped when a read fails, so a peer whose
 * ZooKeeper is down costs a failed connect per attempt, not a stuck thread. The sink list is cached
 * for a few seconds and reread at once after a shipment fails. Thread-safe.
 */
final class PeerCluster implements AutoCloseable {
  private static final long SINKS_TTL_MILLIS = 10_000;

  private final String peerId;
  private final ClusterKey key;
  private final Duration timeout;
  private ZooKeeperSession session;
  private UUID clusterId;
  private List<ServerName> sinks = List.of();
  private long sinksReadAt;

  PeerCluster(String peerId, ClusterKey key, Duration timeout) {
    this.peerId = peerId;
    this.key = key;
    this.timeout = timeout;
  }

  ClusterKey key() {
    return key;
  }

  /** The peer cluster's id (read once; a cluster's id never changes). */
  synchronized UUID clusterId() throws IOException {
    if (clusterId == null) {
      clusterId = readClusterId(zk(), key);
    }
    return clusterId;
  }

  /** Reads a cluster's id from its {@code hbaseid} znode. */
  static UUID readClusterId(ZooKeeperSession zk, ClusterKey key) throws IOException {
    String path = key.path(HBaseZnodes.CLUSTER_ID);
    byte[] data = zk.getData(path);
    if (data == null) {
      throw new IOException(
          "no cluster id at "
              + path
              + " in ZooKeeper "
              + key.connectString()
              + ": is a cluster there?");
    }
    String id = ClusterIdProtos.ClusterId.parseFrom(HBaseZnodes.stripMagic(data)).getClusterId();
    try {
      return UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new IOException("the cluster id '" + id + "' at " + path + " is not a UUID", e);
    }
  }

  /** A sink to ship the next batch to, chosen at random; fails when the peer lists none. */
  synchronized ServerName pickSink() throws IOException {
    long now = System.currentTimeMillis();
    if (sinks.isEmpty() || now - sinksReadAt > SINKS_TTL_MILLIS) {
      List<ServerName> found = new ArrayList<>();
      String dir = key.path(HBaseZnodes.REGION_SERVERS);
      for (String child : zk().children(dir, null)) {
        try {
          found.add(ServerName.parse(child));
        } catch (IllegalArgumentException e) {
          // not a region server's znode
        }
      }
      sinks = found;
      sinksReadAt = now;
    }
    if (sinks.isEmpty()) {
      throw new IOException(
          "peer "
              + peerId
              + " has no region servers registered at "
              + key.connectString()
              + key.parent()
              + "/rs");
    }
    return sinks.get(ThreadLocalRandom.current().nextInt(sinks.size()));
  }

  /** A shipment failed: reread the sinks (and reconnect to ZooKeeper) before the next one. */
  synchronized void shipmentFailed() {
    sinks = List.of();
  }

  private ZooKeeperSession zk() throws IOException {
    if (session != null && session.isExpired()) {
      session.close();
      session = null;
    }
    if (session == null) {
      session = ZooKeeperSession.connect(key.connectString(), timeout, Duration.ofSeconds(30));
    }
    return session;
  }

  /** Drops the ZooKeeper session after a failure; the next call opens a new one. */
  synchronized void reset() {
    if (session != null) {
      session.close();
      session = null;
    }
    sinks = List.of();
  }

  @Override
  public synchronized void close() {
    reset();
  }
}
