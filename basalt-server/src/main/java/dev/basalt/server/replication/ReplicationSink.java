package dev.basalt.server.replication;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Mutation;
import dev.basalt.ops.Put;
import dev.basalt.schema.TableName;
import dev.basalt.server.rpc.RpcCall;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.ReplicateWALEntryRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.ReplicateWALEntryResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.WALEntry;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.WALProtos.WALKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of replication, {@code AdminService.ReplicateWALEntry}, as HBase's sink behaves
 * (ReplicationSink): each entry's cells arrive in the call's cell block, {@code
 * associated_cell_count} per entry in order; consecutive cells of one row and kind become one Put
 * or Delete holding the original cells (timestamps and delete types kept) and the entry's cluster
 * ids, so that the edit's log entry here keeps the list and replication never ships it back to a
 * cluster it came from. Mutations are applied per table through the normal write path ({@link
 * SinkTarget}), at most {@code hbase.rpc.rows.warning.threshold} at a time, and the call returns
 * only when all are durable. Any failure fails the call and the source ships the whole batch again:
 * duplicates at most, never loss.
 *
 * <p>Thread-safe.
 */
public final class ReplicationSink {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationSink.class);

  private final SinkTarget target;
  private final int rowsPerBatch;
  private final AtomicLong appliedBatches = new AtomicLong();
  private final AtomicLong appliedOps = new AtomicLong();
  private final long startedAt = System.currentTimeMillis();
  private volatile long lastAppliedWriteTime;
  private volatile long lastAppliedAt;

  public ReplicationSink(SinkTarget target, int rowsPerBatch) {
    this.target = target;
    this.rowsPerBatch = rowsPerBatch;
  }

  /** Adds {@code ReplicateWALEntry} to an AdminService being built. */
  public RpcService.Builder register(RpcService.Builder b) {
    return b.method(
        "ReplicateWALEntry",
        ReplicateWALEntryRequest.getDefaultInstance(),
        (q, c) -> RpcReply.of(replicate(q, c)));
  }

  ReplicateWALEntryResponse replicate(ReplicateWALEntryRequest q, RpcCall call) throws IOException {
    Iterator<Cell> cells = call.cells().iterator();
    // (table, cluster ids) -> mutations, in arrival order
    Map<Group, List<Mutation>> groups = new LinkedHashMap<>();
    long newestWriteTime = 0;
    int total = 0;
    for (WALEntry e : q.getEntryList()) {
      WALKey key = e.getKey();
      TableName table;
      try {
        table = TableName.valueOf(key.getTableName().toByteArray());
      } catch (IllegalArgumentException bad) {
        throw BasaltIOException.doNotRetry(
            "a replicated entry names a bad table: " + bad.getMessage());
      }
      List<UUID> clusters = new ArrayList<>(key.getClusterIdsCount());
      for (HBaseProtos.UUID u : key.getClusterIdsList()) {
        clusters.add(new UUID(u.getMostSigBits(), u.getLeastSigBits()));
      }
      List<Mutation> into =
          groups.computeIfAbsent(new Group(table, clusters), g -> new ArrayList<>());
      int n = e.getAssociatedCellCount();
      Mutation current = null;
      for (int i = 0; i < n; i++) {
        if (!cells.hasNext()) {
          throw BasaltIOException.doNotRetry(
              "a replicated entry announces " + n + " cells but the cell block ends after " + i);
        }
        Cell cell = cells.next();
        boolean delete = CellType.isDelete(cell.getTypeByte());
        long ttl = CellTtlTag.ttlOf(cell);
        cell = CellTtlTag.withoutTags(cell);
        if (current == null
            || (current instanceof Delete) != delete
            || current.getTTL() != ttl
            || !CellUtil.matchingRow(cell, current.getRow())) {
          current = delete ? new Delete(CellUtil.cloneRow(cell)) : new Put(CellUtil.cloneRow(cell));
          current.setClusterIds(clusters);
          if (ttl != KeyValue.NO_TTL && !delete) {
            current.setTTL(ttl); // the cell's per-cell TTL (HBase's TTL tag)
          }
          into.add(current);
          total++;
        }
        if (current instanceof Put p) {
          p.add(cell);
        } else {
          ((Delete) current).add(cell);
        }
      }
      newestWriteTime = Math.max(newestWriteTime, key.getWriteTime());
    }
    for (Map.Entry<Group, List<Mutation>> g : groups.entrySet()) {
      List<Mutation> ms = g.getValue();
      for (int from = 0; from < ms.size(); from += rowsPerBatch) {
        target.apply(
            g.getKey().table(), ms.subList(from, Math.min(ms.size(), from + rowsPerBatch)));
      }
    }
    appliedBatches.incrementAndGet();
    appliedOps.addAndGet(total);
    if (newestWriteTime > 0) {
      lastAppliedWriteTime = newestWriteTime;
    }
    lastAppliedAt = System.currentTimeMillis();
    if (LOG.isDebugEnabled()) {
      LOG.debug("applied {} replicated mutations from {}", total, call.remoteAddress());
    }
    return ReplicateWALEntryResponse.getDefaultInstance();
  }

  private record Group(TableName table, List<UUID> clusters) {}

  /** What the sink has applied, for load reports and metrics. */
  public SinkStats stats() {
    long last = lastAppliedWriteTime;
    return new SinkStats(
        last == 0 ? 0 : Math.max(0, System.currentTimeMillis() - last),
        lastAppliedAt,
        startedAt,
        appliedBatches.get(),
        appliedOps.get());
  }

  /**
   * @param ageOfLastAppliedOp ms between the newest applied edit's write and now
   * @param lastAppliedAt when the last batch was applied (ms since the epoch, 0: never)
   */
  public record SinkStats(
      long ageOfLastAppliedOp,
      long lastAppliedAt,
      long startedAt,
      long appliedBatches,
      long appliedOps) {}
}
