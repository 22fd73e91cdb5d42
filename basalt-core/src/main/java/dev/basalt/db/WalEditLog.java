package dev.basalt.db;

import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Durability;
import dev.basalt.region.EditLog;
import dev.basalt.schema.RegionInfo;
import dev.basalt.util.Clock;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Connects regions to the shared WAL: one entry per row edit, with its table (replication filters
 * by table and family) and the clusters it has passed through: those a replication sink received it
 * with, then this cluster.
 */
final class WalEditLog implements EditLog {
  private final Wal wal;
  private final UUID self;
  private final List<UUID> origin;
  private final Clock clock;

  WalEditLog(Wal wal, UUID clusterId, Clock clock) {
    this.wal = wal;
    this.self = clusterId;
    this.origin = List.of(clusterId);
    this.clock = clock;
  }

  @Override
  public long append(
      RegionInfo region,
      List<KeyValue> cells,
      Durability durability,
      long nonceGroup,
      long nonce,
      List<UUID> clusterIds)
      throws IOException {
    return wal.append(
        new WalEntry(
            region.getEncodedName(),
            clock.currentTimeMillis(),
            passedThrough(clusterIds),
            cells,
            nonceGroup,
            nonce,
            region.getTable().getNameAsString()));
  }

  private List<UUID> passedThrough(List<UUID> received) {
    if (received.isEmpty()) {
      return origin; // the same list every time: the log encodes it once
    }
    if (received.contains(self)) {
      return received;
    }
    List<UUID> ids = new ArrayList<>(received.size() + 1);
    ids.addAll(received);
    ids.add(self);
    return ids;
  }

  @Override
  public void sync(long ticket, Durability durability) throws IOException {
    wal.sync(ticket, durability);
  }

  @Override
  public void markPersisted(RegionInfo region, long seq) throws IOException {
    wal.markPersisted(region.getEncodedName(), seq);
  }
}
