package dev.basalt.wal;

import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Mutation;
import java.util.List;
import java.util.UUID;

/**
 * One logged row edit: the cells of one row mutation of one region, each carrying its sequence id
 * (a RowMutations spans consecutive ids), when it was written, and the clusters it has passed
 * through (for replication, so that cyclic setups do not loop), and the client's nonce when the
 * edit is an increment or append the client may retry. Immutable.
 *
 * @param region the region's encoded name
 * @param writeTime wall-clock milliseconds when the edit was logged
 * @param clusterIds clusters the edit has passed through, origin first
 * @param cells the edit's cells in KeyValue layout, each with its sequence id
 * @param nonceGroup the client's nonce group (with {@code nonce})
 * @param nonce the client's nonce for the operation, or {@link #NO_NONCE}: a server that replays
 *     the edit remembers it, so that a retry after a crash is not applied a second time
 * @param table the region's table (namespace:qualifier, or the qualifier alone in the default
 *     namespace), or null where the log did not record it (segments written before it did)
 */
public record WalEntry(
    String region,
    long writeTime,
    List<UUID> clusterIds,
    List<KeyValue> cells,
    long nonceGroup,
    long nonce,
    String table) {
  /** No nonce (HBase's HConstants.NO_NONCE). */
  public static final long NO_NONCE = Mutation.NO_NONCE;

  public WalEntry {
    if (cells.isEmpty()) {
      throw new IllegalArgumentException("a WAL entry needs at least one cell");
    }
    clusterIds = List.copyOf(clusterIds);
    cells = List.copyOf(cells);
  }

  /** An edit without a nonce or table. */
  public WalEntry(String region, long writeTime, List<UUID> clusterIds, List<KeyValue> cells) {
    this(region, writeTime, clusterIds, cells, 0, NO_NONCE, null);
  }

  /** An edit without a table. */
  public WalEntry(
      String region,
      long writeTime,
      List<UUID> clusterIds,
      List<KeyValue> cells,
      long nonceGroup,
      long nonce) {
    this(region, writeTime, clusterIds, cells, nonceGroup, nonce, null);
  }

  /** The lowest sequence id of the entry's cells. */
  public long firstSequenceId() {
    long min = Long.MAX_VALUE;
    for (KeyValue kv : cells) {
      min = Math.min(min, kv.getSequenceId());
    }
    return min;
  }

  /** The highest sequence id of the entry's cells. */
  public long lastSequenceId() {
    long max = Long.MIN_VALUE;
    for (KeyValue kv : cells) {
      max = Math.max(max, kv.getSequenceId());
    }
    return max;
  }
}
