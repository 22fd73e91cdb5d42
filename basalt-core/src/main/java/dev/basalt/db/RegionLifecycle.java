package dev.basalt.db;

import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.wal.WalPosition;
import java.io.IOException;

/**
 * Hears a region host's regions open and close, with the sequence id the region's new edits start
 * at and where its last edit lies in the log: what serial replication needs to ship a region's
 * edits in order when it moves between servers ({@code ReplicationBarriers}).
 */
public interface RegionLifecycle {
  /**
   * A region is about to serve; its edits from here on have sequence ids of at least {@code
   * firstSequenceId}. A failure keeps the region from opening.
   */
  void opened(RegionInfo region, TableDescriptor table, long firstSequenceId) throws IOException;

  /** A region closed here; every edit it logged here lies before {@code logEnd}. */
  void closed(RegionInfo region, TableDescriptor table, WalPosition logEnd) throws IOException;

  RegionLifecycle NONE =
      new RegionLifecycle() {
        @Override
        public void opened(RegionInfo region, TableDescriptor table, long firstSequenceId) {}

        @Override
        public void closed(RegionInfo region, TableDescriptor table, WalPosition logEnd) {}
      };
}
