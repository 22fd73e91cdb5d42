package dev.basalt.server.replication;

import dev.basalt.cell.Cell;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.Storage;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.rpc.CellBlockCodec;
import dev.basalt.server.rpc.RemoteCallException;
import dev.basalt.server.rpc.RpcClient;
import dev.basalt.wal.ReplicationBarriers;
import dev.basalt.wal.ReplicationQueues;
import dev.basalt.wal.WalEntry;
import dev.basalt.wal.WalPosition;
import dev.basalt.wal.WalTail;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.ReplicateWALEntryRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.ReplicateWALEntryResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.WALEntry;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.WALProtos.WALKey;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replication queue at work: reads one server's log from the queue's position ({@link
 * WalTail}), keeps what the peer should get ({@link PeerFilter}), ships it to one of the peer's
 * region servers with {@code AdminService.ReplicateWALEntry}, and stores the new position only once
 * the peer has acknowledged: a crash between shipping and storing ships the batch again (duplicates
 * at most, never loss).
 *
 * <p>While the peer is down a failed batch is shipped again, whole, after a pause that starts at
 * {@link ReplicationSettings#RETRY_MIN} and doubles up to {@link ReplicationSettings#RETRY_MAX}
 * (seconds, where HBase's grows to 5 minutes), so a peer that returns is caught up at once. A
 * disabled peer's source stops shipping and keeps its position; its log segments are kept by the
 * log cleaner meanwhile. A peer bandwidth limits the bytes shipped per second.
 *
 * <p>A queue of the server's own, live log follows it forever; a recovered queue (the log of a
 * server that died, taken over) ends when that log is read to its end, and is then deleted.
 *
 * <p>One thread per source; {@link #stop} ends it. The figures ({@link #stats}) are read by other
 * threads.
 */
final class ReplicationSource implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationSource.class);

  /** Edits older than their peer by more than this are not shipped (clock skew margin). */
  static final long CREATION_MARGIN_MILLIS = 60_000;

  /** A failure is logged at once, then at most this often while it lasts. */
  private static final long FAILURE_LOG_MILLIS = 30_000;

  /** Where a source works and what it may use. */
  record Context(
      Storage storage,
      ReplicationQueues queues,
      UUID localCluster,
      Function<TableName, TableDescriptor> descriptors,
      RpcClient rpc,
      long batchBytes,
      int batchEntries,
      long idlePollMillis,
      long retryMinMillis,
      long retryMaxMillis,
      long shipTimeoutMillis,
      long defaultBandwidth) {}

  private final Context ctx;
  private final String peerId;
  private final String queue;
  private final boolean recovered;
  private final PeerCluster peerCluster;
  private final SourceStats stats;
  private final SerialGate serialGate;
  private volatile Peer peer;
  private volatile PeerFilter filter;
  private volatile boolean stopped;
  private volatile Thread thread;

  ReplicationSource(Context ctx, Peer peer, String queue, PeerCluster peerCluster) {
    this.ctx = ctx;
    this.peerId = peer.id();
    this.queue = queue;
    this.recovered = ReplicationQueues.isRecovered(queue);
    this.peerCluster = peerCluster;
    this.stats = new SourceStats(peerId, queue, recovered);
    this.serialGate =
        new SerialGate(new ReplicationBarriers(ctx.storage()), ctx.queues(), peer.id());
    update(peer);
  }

  String queue() {
    return queue;
  }

  SourceStats stats() {
    return stats;
  }

  /** Takes a changed peer (enabled or not, its configuration). */
  void update(Peer p) {
    this.peer = p;
    this.filter = new PeerFilter(p.config());
  }

  /** Starts the source's thread. */
  void start() {
    Thread t = new Thread(this, "replication-" + peerId + "-" + queue);
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  /** Stops the source; returns once its thread has ended (or after {@code waitMillis}). */
  void stop(long waitMillis) {
    stopped = true;
    Thread t = thread;
    if (t != null) {
      t.interrupt();
      try {
        t.join(waitMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  boolean isRunning() {
    Thread t = thread;
    return t != null && t.isAlive();
  }

  @Override
  public void run() {
    stats.running = true;
    try {
      while (!stopped) {
        try {
          if (!work()) {
            return; // a recovered queue read to its end
          }
        } catch (InterruptedException e) {
          return;
        } catch (IOException | RuntimeException e) {
          if (stopped) {
            return;
          }
          LOG.warn(
              "replication source {} of peer {} failed; starting again from its stored position",
              queue,
              peerId,
              e);
          sleep(ctx.retryMaxMillis());
        }
      }
    } catch (InterruptedException e) {
      // stopped
    } finally {
      stats.running = false;
    }
  }

  /**
   * Reads and ships until stopped; false when a recovered queue is done. Any failure leaves the
   * stored position where the last acknowledged batch ended, and the caller starts again there.
   */
  private boolean work() throws IOException, InterruptedException {
    WalPosition start = ctx.queues().read(peerId, queue);
    if (start == null) {
      LOG.info(
          "replication queue {} of peer {} is gone (removed or taken over); its source stops",
          queue,
          peerId);
      stopped = true;
      return false;
    }
    String logServer = ReplicationQueues.logServer(queue);
    try (WalTail tail = new WalTail(ctx.storage(), logServer, start)) {
      WalPosition stored = start;
      long lastStoreAt = 0;
      while (!stopped) {
        if (!peer.enabled()) {
          sleep(ctx.idlePollMillis());
          continue;
        }
        WalTail.Batch batch = tail.read(ctx.batchEntries(), ctx.batchBytes(), recovered);
        List<WalEntry> entries = batch.entries();
        WalPosition end = batch.end();
        boolean held = false;
        if (peer.config().getSerial() && !entries.isEmpty()) {
          int allowed = serialGate.allowed(entries, logServer);
          if (allowed < entries.size()) {
            // An edit of a region whose earlier life on another server has not shipped yet: ship
            // what comes before it and wait there (the other queues see where this one is).
            held = true;
            end = allowed == 0 ? stored : batch.entryEnds().get(allowed - 1);
            entries = entries.subList(0, allowed);
          }
        }
        stats.editsRead += entries.size();
        stats.logReadBytes += batch.bytes();
        if (!entries.isEmpty()) {
          stats.reading(entries.get(0).writeTime());
          UUID peerClusterId = peerClusterId();
          if (peerClusterId == null) {
            return true; // disabled or stopped meanwhile
          }
          Shipment s = prepare(entries, peerClusterId);
          if (!s.entries.isEmpty()) {
            if (!ship(s)) {
              return true; // disabled or stopped while retrying: reread from the stored position
            }
          }
          stats.read(entries.get(entries.size() - 1).writeTime());
        }
        stats.position = end;
        boolean moved = end.compareTo(stored) > 0;
        long now = System.currentTimeMillis();
        // A listing of the log directory: when the source reaches another segment, or each second.
        if (end.segment() != countedSegment || now - countedAt >= 1_000) {
          stats.sizeOfLogQueue = queueLength(logServer, end);
          countedSegment = end.segment();
          countedAt = now;
        }
        // An idle source stores where it is only now and then: the position of a batch that
        // shipped nothing costs a write per poll otherwise.
        if (moved
            && (held
                || end.segment() != stored.segment()
                || now - lastStoreAt >= 1_000
                || !batch.logEnded())) {
          ctx.queues().write(peerId, queue, end);
          stored = end;
          lastStoreAt = now;
        }
        if (held) {
          stats.heldForOrder = true;
          sleep(ctx.idlePollMillis());
          return true; // read again from where this stopped
        }
        stats.heldForOrder = false;
        if (batch.logEnded()) {
          if (recovered) {
            if (moved) {
              ctx.queues().write(peerId, queue, batch.end());
            }
            ctx.queues().delete(peerId, queue);
            LOG.info(
                "replication queue {} of peer {} read to the end of its log; deleted",
                queue,
                peerId);
            return false;
          }
          if (entries.isEmpty()) {
            stats.caughtUp();
            sleep(ctx.idlePollMillis());
          } // else more may have come while this batch shipped: look at once
        }
      }
      return true;
    }
  }

  /** The edits of a batch the peer is to get, as HBase's WALEntry messages and their cells. */
  private static final class Shipment {
    final List<WALEntry> entries = new ArrayList<>();
    final List<Cell> cells = new ArrayList<>();
    long newestWriteTime;
    long bytes;
  }

  private Shipment prepare(List<WalEntry> entries, UUID peerClusterId) {
    Shipment s = new Shipment();
    PeerFilter f = filter;
    long floor = peer.createdAt() - CREATION_MARGIN_MILLIS;
    for (WalEntry e : entries) {
      if (e.writeTime() < floor) {
        continue;
      }
      List<KeyValue> cells =
          f.select(e.table(), e.clusterIds(), peerClusterId, e.cells(), ctx.descriptors());
      if (cells.isEmpty()) {
        stats.editsFiltered++;
        continue;
      }
      WALKey.Builder key =
          WALKey.newBuilder()
              .setEncodedRegionName(ByteString.copyFromUtf8(e.region()))
              .setTableName(ByteString.copyFromUtf8(e.table()))
              .setLogSequenceNumber(e.firstSequenceId())
              .setWriteTime(e.writeTime());
      for (UUID id : e.clusterIds()) {
        key.addClusterIds(uuid(id));
      }
      if (!e.clusterIds().contains(ctx.localCluster())) {
        key.addClusterIds(uuid(ctx.localCluster())); // HBase's ClusterMarkingEntryFilter
      }
      if (e.nonce() != WalEntry.NO_NONCE) {
        key.setNonceGroup(e.nonceGroup()).setNonce(e.nonce());
      }
      s.entries.add(WALEntry.newBuilder().setKey(key).setAssociatedCellCount(cells.size()).build());
      for (KeyValue kv : cells) {
        s.cells.add(CellTtlTag.withTag(kv));
        s.bytes += kv.getLength();
      }
      s.newestWriteTime = Math.max(s.newestWriteTime, e.writeTime());
    }
    return s;
  }

  /**
   * The peer's cluster id, asked of its ZooKeeper until it answers; null when the source stopped or
   * the peer was disabled meanwhile.
   */
  private UUID peerClusterId() throws InterruptedException {
    long pause = ctx.retryMinMillis();
    long lastLogged = 0;
    while (!stopped && peer.enabled()) {
      try {
        return peerCluster.clusterId();
      } catch (IOException | RuntimeException e) {
        peerCluster.reset();
        long now = System.currentTimeMillis();
        if (now - lastLogged >= FAILURE_LOG_MILLIS) {
          lastLogged = now;
          LOG.warn(
              "replication to peer {} waits: its cluster ({}) cannot be reached: {}",
              peerId,
              peerCluster.key().connectString() + peerCluster.key().parent(),
              e.toString());
        }
        sleep(pause);
        pause = Math.min(ctx.retryMaxMillis(), pause * 2);
      }
    }
    return null;
  }

  private static HBaseProtos.UUID uuid(UUID id) {
    return HBaseProtos.UUID
        .newBuilder()
        .setMostSigBits(id.getMostSignificantBits())
        .setLeastSigBits(id.getLeastSignificantBits())
        .build();
  }

  /**
   * Ships until the peer acknowledges; false when the source stopped or the peer was disabled
   * meanwhile (the batch then ships again later, from the stored position).
   */
  private boolean ship(Shipment s) throws InterruptedException {
    ReplicateWALEntryRequest request =
        ReplicateWALEntryRequest.newBuilder()
            .addAllEntry(s.entries)
            .setReplicationClusterId(ctx.localCluster().toString())
            .build();
    byte[] block = CellBlockCodec.KEY_VALUE_WITH_TAGS.encode(s.cells);
    long pause = ctx.retryMinMillis();
    long lastLogged = 0;
    int failures = 0;
    while (!stopped && peer.enabled()) {
      throttle(block.length);
      ServerName sink = null;
      try {
        sink = peerCluster.pickSink();
        ctx.rpc()
            .callWithCells(
                new InetSocketAddress(sink.host(), sink.port()),
                AdminService.getDescriptor(),
                "ReplicateWALEntry",
                request,
                block,
                ReplicateWALEntryResponse.getDefaultInstance(),
                Duration.ofMillis(ctx.shipTimeoutMillis()))
            .get();
        stats.shipped(s.entries.size(), block.length, s.newestWriteTime);
        if (failures > 0) {
          LOG.info("replication to peer {} works again after {} failed attempts", peerId, failures);
        }
        return true;
      } catch (ExecutionException | IOException | RuntimeException e) {
        Throwable cause =
            e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        failures++;
        stats.failedBatches++;
        peerCluster.shipmentFailed();
        if (!(cause instanceof RemoteCallException)) {
          peerCluster.reset(); // maybe the peer's ZooKeeper session is bad: a new one next time
        }
        long now = System.currentTimeMillis();
        if (now - lastLogged >= FAILURE_LOG_MILLIS) {
          lastLogged = now;
          LOG.warn(
              "replication to peer {} ({}) failed {} time(s) in a row, retrying every {} ms or less"
                  + " (sink {}): {}",
              peerId,
              peerCluster.key().connectString() + peerCluster.key().parent(),
              failures,
              ctx.retryMaxMillis(),
              sink,
              describe(cause));
        }
        sleep(pause);
        pause = Math.min(ctx.retryMaxMillis(), pause * 2);
      }
    }
    return false;
  }

  private static String describe(Throwable t) {
    if (t instanceof RemoteCallException r
        && r.getMessage() != null
        && r.getMessage().contains("TableNotFoundException")) {
      return t.getMessage()
          + " -- the table must exist on the peer (create it there, or"
          + " enable_table_replication creates it); other peers go on meanwhile";
    }
    return t.toString();
  }

  private final ShipThrottle throttle = new ShipThrottle();
  private long countedSegment = -1;
  private long countedAt;

  /** Keeps the average rate at or under the peer's bandwidth, when it has one. */
  private void throttle(int bytes) throws InterruptedException {
    long bandwidth = peer.config().getBandwidth();
    if (bandwidth <= 0) {
      bandwidth = ctx.defaultBandwidth();
    }
    long wait = throttle.delayBefore(bytes, bandwidth, System.currentTimeMillis());
    if (wait > 0) {
      sleep(wait);
    }
  }

  /** Segments from the position's to the newest of the log (HBase's sizeOfLogQueue). */
  private int queueLength(String logServer, WalPosition at) {
    try {
      long newest = WalTail.newestLiveSegment(ctx.storage(), logServer);
      return newest < 0 ? 1 : (int) Math.max(1, newest - at.segment() + 1);
    } catch (IOException e) {
      return stats.sizeOfLogQueue;
    }
  }

  private static void sleep(long millis) throws InterruptedException {
    Thread.sleep(millis);
  }
}
