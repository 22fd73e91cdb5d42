package dev.basalt.db;

import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Durability;
import dev.basalt.region.EditLog;
import dev.basalt.schema.RegionInfo;
import dev.basalt.util.Clock;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalEntry;
import java.io.IOException;
import java.util.List;
import java.util.UUID;

/** Connects regions to the shared WAL: one entry per row edit, stamped with this cluster's id. */
final class WalEditLog implements EditLog {
  private final Wal wal;
  private final List<UUID> origin;
  private final Clock clock;

  WalEditLog(Wal wal, UUID clusterId, Clock clock) {
    this.wal = wal;
    this.origin = List.of(clusterId);
    this.clock = clock;
  }

  @Override
  public long append(
      RegionInfo region, List<KeyValue> cells, Durability durability, long nonceGroup, long nonce)
      throws IOException {
    return wal.append(
        new WalEntry(
            region.getEncodedName(), clock.currentTimeMillis(), origin, cells, nonceGroup, nonce));
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
