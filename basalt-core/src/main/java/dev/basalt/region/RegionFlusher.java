package dev.basalt.region;

import dev.basalt.fs.Storage;
import dev.basalt.memstore.Memstore;
import dev.basalt.util.FaultPoints;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Flushes a region: under the region's exclusive lock (no write in flight), every store sets its
 * memstore aside at one flush sequence id; then each snapshot is written to a store file carrying
 * that id, the files join their stores, and the edit log learns that everything up to the id is
 * persisted.
 *
 * <p>A crash in between is safe store by store: a store whose file made it skips replaying edits up
 * to the flush id (its file's max sequence id); one whose file did not replays them. Thread-safe:
 * flushes of one region run one at a time.
 */
public final class RegionFlusher {
  /** Fault point: flush files are written but not yet part of their stores. */
  public static final String FAULT_FILES_WRITTEN = "flush.filesWritten";

  private final Region region;
  private final Object flushLock = new Object();
  private volatile long lastFlushTime;

  RegionFlusher(Region region) {
    this.region = region;
  }

  /** Held while a flush runs; closing the region takes it to wait for one. */
  Object lock() {
    return flushLock;
  }

  long lastFlushTime() {
    return lastFlushTime;
  }

  void resetLastFlushTime(long now) {
    lastFlushTime = now;
  }

  /** Flushes every store; true when anything was written. */
  boolean flush() throws IOException {
    synchronized (flushLock) {
      if (region.isClosed()) {
        return false;
      }
      // Snapshots a failed flush left behind go first, at the sequence id they were taken at.
      boolean leftovers = false;
      for (Store s : region.storeList()) {
        leftovers |= s.view().snapshot() != null;
      }
      boolean any = leftovers && writeAndCommit(pendingSnapshots(), pendingSeq());
      List<Store> stores = region.storeList();
      List<Memstore> snapshots = new ArrayList<>(stores.size());
      long flushSeq;
      region.lockForFlush();
      try {
        flushSeq = region.mvcc().writePoint();
        for (Store s : stores) {
          snapshots.add(s.snapshotForFlush(flushSeq));
        }
        region.memstoresSetAside();
      } finally {
        region.unlockForFlush();
      }
      return writeAndCommit(snapshots, flushSeq) | any;
    }
  }

  private List<Memstore> pendingSnapshots() {
    List<Memstore> out = new ArrayList<>();
    for (Store s : region.storeList()) {
      out.add(s.view().snapshot());
    }
    return out;
  }

  private long pendingSeq() {
    long seq = 0;
    for (Store s : region.storeList()) {
      if (s.view().snapshot() != null) {
        seq = Math.max(seq, s.view().snapshotSeq());
      }
    }
    return seq;
  }

  /** Writes the snapshots (null entries are skipped) and commits them; true if any. */
  private boolean writeAndCommit(List<Memstore> snapshots, long flushSeq) throws IOException {
    List<Store> stores = region.storeList();
    List<StoreFile> written = new ArrayList<>(stores.size());
    boolean any = false;
    try {
      for (int i = 0; i < stores.size(); i++) {
        Memstore snap = snapshots.get(i);
        written.add(snap == null ? null : stores.get(i).writeFlush(snap, flushSeq));
        any |= snap != null;
      }
      FaultPoints.hit(FAULT_FILES_WRITTEN);
    } catch (IOException | RuntimeException e) {
      // The snapshots stay in memory (and readable); the next flush writes them first.
      for (StoreFile f : written) {
        discard(f);
      }
      throw e;
    }
    for (int i = 0; i < stores.size(); i++) {
      if (written.get(i) != null) {
        stores.get(i).commitFlush(snapshots.get(i), written.get(i));
      }
    }
    region.services().editLog().markPersisted(region.getRegionInfo(), flushSeq);
    lastFlushTime = region.services().clock().currentTimeMillis();
    if (any) {
      region.services().maintenance().requestCompaction(region);
    }
    return any;
  }

  private static void discard(StoreFile f) {
    if (f == null) {
      return;
    }
    f.close();
    try {
      Storage s = f.storage();
      s.delete(f.path());
    } catch (IOException ignored) {
      // an orphan file only costs space: its cells are still in the snapshot and the WAL
    }
  }
}
