package dev.basalt.region;

import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Durability;
import dev.basalt.schema.RegionInfo;
import java.io.IOException;
import java.util.List;

/**
 * Where a region's committed edits are made durable before they are acknowledged: the write-ahead
 * log. The region calls {@link #append} for each row edit, in sequence-id order, while holding the
 * row's lock and before the edit is applied to the memstore; it then calls {@link #sync} before the
 * edit becomes visible and is acknowledged. {@link #NONE} keeps nothing (an in-memory region).
 * Implementations are thread-safe.
 */
public interface EditLog {

  /**
   * Records an edit.
   *
   * @param cells the edit's cells, each carrying its sequence id
   * @return a ticket to pass to {@link #sync}
   */
  long append(RegionInfo region, List<KeyValue> cells, Durability durability) throws IOException;

  /** Returns once every edit up to {@code ticket} is as durable as {@code durability} demands. */
  void sync(long ticket, Durability durability) throws IOException;

  EditLog NONE =
      new EditLog() {
        @Override
        public long append(RegionInfo region, List<KeyValue> cells, Durability durability) {
          return 0;
        }

        @Override
        public void sync(long ticket, Durability durability) {}
      };
}
