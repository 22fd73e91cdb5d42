package dev.basalt.wal;

import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import dev.basalt.util.FaultPoints;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one region's recovered-edits file ({@link WalSplitter}): a segment in the WAL format
 * (header with the dead server's id, the region's dictionary frame, cluster frames as edits need
 * them, edit frames, trailer) under a temporary name, renamed into place once it is whole and
 * forced, so that a file of the final name is always complete. Not thread-safe.
 */
final class RecoveredEditsWriter {
  private static final Logger LOG = LoggerFactory.getLogger(RecoveredEditsWriter.class);
  private static final int REGION_ID = 0;

  private final Storage storage;
  private final String path;
  private final String tmpPath;
  private final WritableFile out;
  private final Map<UUID, Integer> clusterIds = new HashMap<>();
  private long edits;
  private long maxSequenceId = Long.MIN_VALUE;
  private boolean done;

  /** Starts {@code path}'s temporary file, replacing one a failed or killed split left behind. */
  RecoveredEditsWriter(Storage storage, String path, String region, String serverId, long now)
      throws IOException {
    this.storage = storage;
    this.path = path;
    this.tmpPath = path + WalSplitter.TMP_SUFFIX;
    storage.delete(tmpPath);
    this.out = storage.create(tmpPath);
    out.write(WalFormat.header(serverId, now));
    out.write(WalFormat.regionFrame(REGION_ID, region));
  }

  String path() {
    return path;
  }

  long maxSequenceId() {
    return maxSequenceId;
  }

  void append(WalEntry e) throws IOException {
    List<UUID> clusters = e.clusterIds();
    int[] ids = new int[clusters.size()];
    for (int i = 0; i < ids.length; i++) {
      UUID c = clusters.get(i);
      Integer id = clusterIds.get(c);
      if (id == null) {
        id = clusterIds.size();
        clusterIds.put(c, id);
        out.write(WalFormat.clusterFrame(id, c));
      }
      ids[i] = id;
    }
    out.write(WalFormat.editFrame(e, REGION_ID, ids));
    edits++;
    maxSequenceId = Math.max(maxSequenceId, e.lastSequenceId());
  }

  /** Writes the trailer, forces and closes the file, and renames it into place. */
  void commit() throws IOException {
    done = true;
    try {
      out.write(WalFormat.trailerFrame(edits));
      out.sync();
    } finally {
      out.close();
    }
    FaultPoints.hit(WalSplitter.FAULT_BEFORE_RENAME);
    storage.rename(tmpPath, path);
  }

  /** Drops the temporary file (after a failure elsewhere); never throws. */
  void abandon() {
    if (done) {
      return;
    }
    done = true;
    try {
      out.close();
    } catch (IOException e) {
      LOG.debug("closing {} after a failed split", tmpPath, e);
    }
    try {
      storage.delete(tmpPath);
    } catch (IOException e) {
      LOG.warn("could not remove {}; the next split of the log replaces it", tmpPath, e);
    }
  }
}
