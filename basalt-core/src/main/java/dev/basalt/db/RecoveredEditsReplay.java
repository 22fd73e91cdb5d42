package dev.basalt.db;

import dev.basalt.cell.KeyValue;
import dev.basalt.fs.Storage;
import dev.basalt.region.Region;
import dev.basalt.util.FaultPoints;
import dev.basalt.wal.WalEntry;
import dev.basalt.wal.WalReplay;
import dev.basalt.wal.WalSplitter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays a region's recovered edits (what {@link WalSplitter} wrote from dead servers' logs) into
 * the region as it opens, before it serves: the cells above its floor of families its table still
 * has ({@link ReplayFilter}) and not yet in its store files; then flushes them and deletes the
 * files. The files go only once the flush is in store files: a crash before that replays them again
 * at the next open, which finds the flushed cells in the stores and skips them (harmless).
 */
final class RecoveredEditsReplay {
  private static final Logger LOG = LoggerFactory.getLogger(RecoveredEditsReplay.class);

  /** Fault point: the replayed edits are flushed, the recovered-edits files not yet deleted. */
  static final String FAULT_FLUSHED = RegionHost.FAULT_RECOVERED_EDITS_FLUSHED;

  /** What a replay found. */
  record Outcome(int files, long cellsApplied, List<Database.RecoveredNonce> nonces) {
    static final Outcome NONE = new Outcome(0, 0, List.of());
  }

  private RecoveredEditsReplay() {}

  /**
   * Replays the recovered edits under {@code regionDir} into the freshly opened {@code region}.
   *
   * @throws dev.basalt.wal.WalCorruptionException naming file and offset for a damaged file, unless
   *     {@code skipErrors}
   */
  static Outcome replay(
      Storage storage, Region region, String regionDir, long floor, boolean skipErrors)
      throws IOException {
    List<String> files = WalSplitter.recoveredEdits(storage, regionDir);
    if (files.isEmpty()) {
      return Outcome.NONE;
    }
    String name = region.getRegionInfo().getEncodedName();
    List<Database.RecoveredNonce> nonces = new ArrayList<>();
    long[] applied = {0};
    for (String f : files) {
      WalReplay.replayFile(
          storage,
          f,
          skipErrors,
          e -> {
            if (!e.region().equals(name)) {
              LOG.warn("{} holds an edit of region {}, not of {}; ignored", f, e.region(), name);
              return;
            }
            if (e.nonce() != WalEntry.NO_NONCE) {
              // Also for edits the stores already hold: the operation was applied either way.
              nonces.add(new Database.RecoveredNonce(e.nonceGroup(), e.nonce(), e.writeTime()));
            }
            List<KeyValue> cells =
                ReplayFilter.replayable(region.getTableDescriptor(), floor, e.cells());
            if (!cells.isEmpty()) {
              applied[0] += region.replay(cells);
            }
          });
    }
    if (applied[0] > 0) {
      region.flush(); // also tells the log what is persisted
    }
    FaultPoints.hit(FAULT_FLUSHED);
    for (String f : files) {
      storage.delete(f);
    }
    String dir = regionDir + "/" + WalSplitter.RECOVERED_EDITS_DIR;
    if (storage.list(dir).isEmpty()) {
      storage.delete(dir);
    }
    LOG.info(
        "region {}: replayed {} recovered-edits file(s), {} cells not yet in store files",
        name,
        files.size(),
        applied[0]);
    return new Outcome(files.size(), applied[0], List.copyOf(nonces));
  }
}
