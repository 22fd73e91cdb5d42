package dev.basalt.region;

import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Mutation;
import dev.basalt.schema.RegionInfo;
import java.io.IOException;
import java.util.List;
import java.util.UUID;

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
   * @param nonceGroup with {@code nonce}: the client's tag on an increment or append it may retry
   *     ({@link Mutation#NO_NONCE} for none), kept with the edit so that a server replaying the log
   *     after a crash still knows the operation was applied
   * @param clusterIds the clusters the edit has already passed through, origin first (empty for a
   *     client's own write; a replication sink passes the source's list), which the log keeps
   * @return a ticket to pass to {@link #sync}
   */
  long append(
      RegionInfo region,
      List<KeyValue> cells,
      Durability durability,
      long nonceGroup,
      long nonce,
      List<UUID> clusterIds)
      throws IOException;

  /** Returns once every edit up to {@code ticket} is as durable as {@code durability} demands. */
  void sync(long ticket, Durability durability) throws IOException;

  /** The region has persisted (flushed) every edit up to {@code seq}; the log may drop them. */
  default void markPersisted(RegionInfo region, long seq) throws IOException {}

  EditLog NONE =
      new EditLog() {
        @Override
        public long append(
            RegionInfo region,
            List<KeyValue> cells,
            Durability durability,
            long nonceGroup,
            long nonce,
            List<UUID> clusterIds) {
          return 0;
        }

        @Override
        public void sync(long ticket, Durability durability) {}
      };
}
