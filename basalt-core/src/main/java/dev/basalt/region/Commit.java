package dev.basalt.region;

import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Durability;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The edits one batch has staged: their sequence ranges and log tickets. {@link #finish} makes them
 * durable as demanded, then visible, then waits until readers see them; only then are the row locks
 * released and the batch acknowledged. Not thread-safe; one per batch.
 */
final class Commit {
  private final List<Mvcc.WriteEntry> entries = new ArrayList<>();
  private long maxTicket = -1;
  private Durability strongest = Durability.SKIP_WAL;
  private final List<KeyValue> written; // null unless asked for

  /**
   * @param keepCells whether to keep the memstore cells of the edits ({@link #written})
   */
  Commit(boolean keepCells) {
    this.written = keepCells ? new ArrayList<>() : null;
  }

  /** Joins an edit: its sequence range, log ticket (-1 when not logged) and memstore cells. */
  void add(Mvcc.WriteEntry entry, long ticket, Durability durability, List<KeyValue> cells) {
    entries.add(entry);
    if (written != null) {
      written.addAll(cells);
    }
    maxTicket = Math.max(maxTicket, ticket);
    if (durability.ordinal() > strongest.ordinal()) {
      strongest = durability;
    }
  }

  /**
   * The cells of the edits that joined, in the order they were written to the memstores; null
   * unless kept.
   */
  List<KeyValue> written() {
    return written;
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  /**
   * Syncs the log, completes the entries and waits for visibility.
   *
   * @throws IOException when the log cannot be synced; the entries then stay invisible
   */
  void finish(Mvcc mvcc, EditLog log) throws IOException {
    if (entries.isEmpty()) {
      return;
    }
    if (maxTicket >= 0 && (strongest == Durability.SYNC_WAL || strongest == Durability.FSYNC_WAL)) {
      log.sync(maxTicket, strongest);
    }
    for (Mvcc.WriteEntry e : entries) {
      mvcc.complete(e);
    }
    mvcc.await(entries.get(entries.size() - 1));
  }
}
