package dev.basalt.server.replication;

import dev.basalt.wal.ReplicationBarriers;
import dev.basalt.wal.ReplicationQueues;
import dev.basalt.wal.WalEntry;
import dev.basalt.wal.WalPosition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Serial replication's rule (HBase's SerialReplicationChecker, over Basalt's barriers): an edit of
 * a region ships only once the edits of the region's earlier lives on other servers' logs have
 * shipped to the same peer, that is once every queue of the peer reading such a log has passed
 * where that life ended (or, for a server that died, has read its log to the end and is gone). A
 * region's edits within one log are read in order anyway. Without recorded lives (a standalone
 * server, one log) everything may ship.
 *
 * <p>Used by one source thread; each call reads the barriers and queues afresh.
 */
final class SerialGate {
  private final ReplicationBarriers barriers;
  private final ReplicationQueues queues;
  private final String peerId;

  SerialGate(ReplicationBarriers barriers, ReplicationQueues queues, String peerId) {
    this.barriers = barriers;
    this.queues = queues;
    this.peerId = peerId;
  }

  /** How many of the leading {@code entries}, read from {@code logServer}'s log, may ship now. */
  int allowed(List<WalEntry> entries, String logServer) throws IOException {
    Map<String, List<ReplicationBarriers.Life>> lives = new HashMap<>();
    Map<ReplicationBarriers.Life, Boolean> done = new HashMap<>();
    List<String> peerQueues = null;
    for (int i = 0; i < entries.size(); i++) {
      WalEntry e = entries.get(i);
      List<ReplicationBarriers.Life> of = lives.get(e.region());
      if (of == null) {
        of = barriers.read(e.region());
        lives.put(e.region(), of);
      }
      int life = -1;
      long seq = e.firstSequenceId();
      for (int j = 0; j < of.size(); j++) {
        if (of.get(j).firstSequenceId() <= seq) {
          life = j;
        }
      }
      for (int j = 0; j < life; j++) {
        ReplicationBarriers.Life earlier = of.get(j);
        if (earlier.server().equals(logServer)) {
          continue; // the same log, read in order
        }
        if (peerQueues == null) {
          peerQueues = queues.queues(peerId);
        }
        Boolean d = done.get(earlier);
        if (d == null) {
          d = isShipped(earlier, peerQueues);
          done.put(earlier, d);
        }
        if (!d) {
          return i;
        }
      }
    }
    return entries.size();
  }

  /** Whether every queue of the peer on the life's log has passed the life's end. */
  private boolean isShipped(ReplicationBarriers.Life life, List<String> peerQueues)
      throws IOException {
    List<String> reading = new ArrayList<>();
    for (String q : peerQueues) {
      if (ReplicationQueues.logServer(q).equals(life.server())) {
        reading.add(q);
      }
    }
    for (String q : reading) {
      WalPosition at = queues.read(peerId, q);
      if (at == null) {
        continue; // read to its end and deleted meanwhile
      }
      if (life.end() == null || at.compareTo(life.end()) < 0) {
        return false;
      }
    }
    return true;
  }
}
