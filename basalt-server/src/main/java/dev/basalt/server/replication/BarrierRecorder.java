package dev.basalt.server.replication;

import dev.basalt.db.RegionLifecycle;
import dev.basalt.fs.Storage;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.wal.ReplicationBarriers;
import dev.basalt.wal.WalPosition;
import java.io.IOException;

/**
 * A cluster region server's record of its regions' lives for serial replication ({@link
 * ReplicationBarriers}): written when a region of a replicated table (a family with
 * REPLICATION_SCOPE 1) opens here, before it serves, and when it closes here. Tables that replicate
 * nothing cost nothing.
 */
public final class BarrierRecorder implements RegionLifecycle {
  private final ReplicationBarriers barriers;
  private final String server;

  /**
   * @param server this server's log name ({@code host,port,startcode})
   */
  public BarrierRecorder(Storage storage, String server) {
    this.barriers = new ReplicationBarriers(storage);
    this.server = server;
  }

  static boolean replicated(TableDescriptor t) {
    for (ColumnFamilyDescriptor f : t.getColumnFamilies()) {
      if (f.getScope() == 1) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void opened(RegionInfo region, TableDescriptor table, long firstSequenceId)
      throws IOException {
    if (replicated(table)) {
      barriers.opened(region.getEncodedName(), server, firstSequenceId);
    }
  }

  @Override
  public void closed(RegionInfo region, TableDescriptor table, WalPosition logEnd)
      throws IOException {
    if (replicated(table)) {
      barriers.closed(region.getEncodedName(), server, logEnd);
    }
  }
}
