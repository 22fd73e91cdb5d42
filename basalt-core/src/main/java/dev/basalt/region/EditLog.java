package dev.basalt.region;

import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Durability;
import dev.basalt.schema.RegionInfo;
import java.io.IOException;
import java.util.List;

/**
 * Where a region's committed edits are made durable before they are acknowledged: the write-ahead
 * log. The region calls {@link #append} once for each row edit (a RowMutations is one edit with
 * several sequence ids) while holding the row's lock, and {@link #sync} before the edit becomes
 * visible and is acknowledged. Appends need not arrive in sequence-id order. {@link #NONE} keeps
 * nothing (an in-memory region). Implementations are thread-safe.
 */
public interface EditLog {

  /**
   * Records an edit.
   *
   * @param cells the edit's cells, each carrying its sequence id
   * @return a ticket to pass to {@link #sync}
   */
  long append(RegionInfo region, List<KeyValue> cells, Durability durability) throws IOException;

  /**
   * Records an edit made by an operation the client tagged with a nonce (an increment or append it
   * may retry), so that after a crash the server still knows the operation was applied. A log that
   * keeps no nonces records the edit alone.
   */
  default long append(
      RegionInfo region, List<KeyValue> cells, Durability durability, long nonceGroup, long nonce)
      throws IOException {
    return append(region, cells, durability);
  }

  /** Returns once every edit up to {@code ticket} is as durable as {@code durability} demands. */
  void sync(long ticket, Durability durability) throws IOException;

  /** The region has persisted (flushed) every edit up to {@code seq}; the log may drop them. */
  default void markPersisted(RegionInfo region, long seq) throws IOException {}

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
