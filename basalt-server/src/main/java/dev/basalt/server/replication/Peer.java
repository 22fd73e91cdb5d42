package dev.basalt.server.replication;

import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ReplicationPeer;

/**
 * One replication peer as the master keeps it.
 *
 * @param id the peer's id (no {@code -}: queue ids use it as a separator in HBase)
 * @param enabled whether its sources ship; a disabled peer's queues keep their place
 * @param config HBase's peer configuration message, as the client sent it
 * @param createdAt when the peer was added (ms since the epoch): a new queue ships nothing written
 *     before it (less a margin for clock skew between servers)
 */
public record Peer(String id, boolean enabled, ReplicationPeer config, long createdAt) {
  Peer withEnabled(boolean on) {
    return new Peer(id, on, config, createdAt);
  }

  Peer withConfig(ReplicationPeer c) {
    return new Peer(id, enabled, c, createdAt);
  }
}
