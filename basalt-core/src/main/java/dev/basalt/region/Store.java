package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import dev.basalt.memstore.Memstore;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.sstable.StoreFileInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One column family of one region: an active memstore that takes writes, at most one memstore
 * snapshot being flushed, and the store files, newest first. All three are held in one immutable
 * {@link View} that flushes and compactions replace atomically, so a reader always sees a
 * consistent set, and files it reads stay open (reference counts) until it is done.
 *
 * <p>Thread-safe. Writers add to the active memstore while holding their region's operation lock; a
 * flush swaps in a fresh memstore while holding it exclusively.
 */
final class Store {
  /**
   * What a reader sees: the memstores and the files, newest file first. {@code snapshotSeq} is the
   * flush sequence id the snapshot was taken at (every edit of it is at or below).
   */
  record View(Memstore active, Memstore snapshot, long snapshotSeq, List<StoreFile> files) {}

  private final ColumnFamilyDescriptor family;
  private final byte[] familyName;
  private final StoreFiles files;
  private final Object viewChange = new Object();
  private volatile View view;

  /** A store with files in {@code files}' directory (null for an in-memory store). */
  Store(ColumnFamilyDescriptor family, StoreFiles files, List<StoreFile> existing) {
    this.family = family;
    this.familyName = family.getName();
    this.files = files;
    List<StoreFile> sorted = new ArrayList<>(existing);
    sorted.sort((a, b) -> Long.compare(b.info().maxSequenceId(), a.info().maxSequenceId()));
    this.view = new View(new Memstore(), null, 0, Collections.unmodifiableList(sorted));
  }

  ColumnFamilyDescriptor family() {
    return family;
  }

  byte[] familyName() {
    return familyName;
  }

  View view() {
    return view;
  }

  /** Adds a cell carrying its sequence id; returns the memstore size change. */
  long add(KeyValue kv) {
    return view.active().add(kv);
  }

  /** Adds a copy of a cell with the given sequence id and timestamp; returns the copy as stored. */
  KeyValue add(KeyValue kv, long seq, long timestamp) {
    return view.active().insert(kv, seq, timestamp);
  }

  /** Removes cells of a mutation that failed before it committed; returns the size change. */
  long rollback(KeyValue kv) {
    return view.active().remove(kv);
  }

  /**
   * Fresh, unpositioned scanners over what a reader at {@code readPoint} may see, leaving out the
   * files {@code filter} rejects. The caller must close every scanner.
   */
  List<KeyValueScanner> scanners(long readPoint, FileFilter filter) {
    while (true) {
      List<KeyValueScanner> out = scanners(view, readPoint, filter);
      if (out != null) {
        return out;
      }
    }
  }

  /**
   * Takes a reference on every file of the current view, for a reader that opens its scanners later
   * ({@link #scanners(View, long, FileFilter)}) and must find what the store holds now; give it
   * back with {@link #unpin}.
   */
  View pin() {
    while (true) {
      View v = view;
      List<StoreFile> acquired = new ArrayList<>(v.files().size());
      for (StoreFile f : v.files()) {
        if (!f.acquire()) {
          break; // replaced and released since we read the view: read it again
        }
        acquired.add(f);
      }
      if (acquired.size() == v.files().size()) {
        return v;
      }
      acquired.forEach(StoreFile::release);
    }
  }

  void unpin(View pinned) {
    pinned.files().forEach(StoreFile::release);
  }

  /**
   * Scanners over {@code v} (the current view, or a pinned one), or null when a file of it was
   * released meanwhile (only possible for a view that is not pinned: read the current one again).
   */
  List<KeyValueScanner> scanners(View v, long readPoint, FileFilter filter) {
    List<StoreFile> acquired = new ArrayList<>(v.files().size());
    boolean ok = true;
    for (StoreFile f : v.files()) {
      if (!filter.mayMatter(f.info(), f.reader())) {
        continue;
      }
      if (!f.acquire()) {
        ok = false;
        break;
      }
      acquired.add(f);
    }
    if (!ok) {
      acquired.forEach(StoreFile::release);
      return null;
    }
    List<KeyValueScanner> out = new ArrayList<>(2 + acquired.size());
    // An empty memstore contributes nothing: whatever is added from now on has a sequence id
    // above every read point taken so far.
    if (!v.active().isEmpty()) {
      out.add(v.active().scanner(readPoint, Long.MAX_VALUE));
    }
    if (v.snapshot() != null) {
      out.add(v.snapshot().scanner(readPoint, Long.MAX_VALUE - 1));
    }
    for (StoreFile f : acquired) {
      try {
        out.add(f.scanner(readPoint));
      } catch (RuntimeException e) {
        f.release();
        throw e;
      }
    }
    return out;
  }

  /** Decides per file whether a read must open it. */
  @FunctionalInterface
  interface FileFilter {
    boolean mayMatter(StoreFileInfo info, dev.basalt.sstable.StoreFileReader reader);

    FileFilter ALL = (i, r) -> true;
  }

  long memstoreSize() {
    View v = view;
    return v.active().heapSize() + (v.snapshot() == null ? 0 : v.snapshot().heapSize());
  }

  int fileCount() {
    return view.files().size();
  }

  /** The highest sequence id whose edits of this store are all in its files. */
  long persistedSequenceId() {
    long max = 0;
    for (StoreFile f : view.files()) {
      max = Math.max(max, f.info().maxSequenceId());
    }
    return max;
  }

  boolean hasStorage() {
    return files != null;
  }

  StoreFiles storeFiles() {
    return files;
  }

  // ---- flush ------------------------------------------------------------------------------

  /**
   * Moves the active memstore aside for flushing at {@code flushSeq} (the region's writes are held
   * off meanwhile). Returns the snapshot to write, or null when there is nothing to flush.
   *
   * @throws IllegalStateException when a snapshot from a failed flush is still pending
   */
  Memstore snapshotForFlush(long flushSeq) {
    synchronized (viewChange) {
      View v = view;
      if (v.snapshot() != null) {
        throw new IllegalStateException("a snapshot is already being flushed");
      }
      if (v.active().isEmpty()) {
        return null;
      }
      view = new View(new Memstore(), v.active(), flushSeq, v.files());
      return v.active();
    }
  }

  /** Writes a snapshot to a new store file (not yet part of the store). */
  StoreFile writeFlush(Memstore snapshot, long flushSequenceId) throws IOException {
    return files.write(snapshot.cells(), flushSequenceId, false, List.of(), null);
  }

  /** Makes a flushed file part of the store and drops the snapshot it came from. */
  void commitFlush(Memstore snapshot, StoreFile file) {
    synchronized (viewChange) {
      View v = view;
      if (v.snapshot() != snapshot) {
        throw new IllegalStateException("flush committed for a snapshot the store no longer holds");
      }
      List<StoreFile> fs = new ArrayList<>(v.files().size() + 1);
      fs.add(file);
      fs.addAll(v.files());
      view = new View(v.active(), null, 0, Collections.unmodifiableList(fs));
    }
  }

  // ---- compaction -------------------------------------------------------------------------

  /**
   * Replaces {@code inputs} by {@code output}; the inputs are archived once no reader uses them.
   */
  void commitCompaction(List<StoreFile> inputs, StoreFile output) {
    synchronized (viewChange) {
      View v = view;
      List<StoreFile> fs = new ArrayList<>(v.files());
      if (!fs.containsAll(inputs)) {
        throw new IllegalStateException("compaction inputs are no longer in the store");
      }
      fs.removeAll(inputs);
      fs.add(output);
      fs.sort((a, b) -> Long.compare(b.info().maxSequenceId(), a.info().maxSequenceId()));
      view = new View(v.active(), v.snapshot(), v.snapshotSeq(), Collections.unmodifiableList(fs));
    }
    for (StoreFile f : inputs) {
      f.retire();
    }
  }

  /** Closes the store's file references (the region is closing). */
  void close() {
    synchronized (viewChange) {
      for (StoreFile f : view.files()) {
        f.close();
      }
      view = new View(view.active(), view.snapshot(), view.snapshotSeq(), List.of());
    }
  }

  @Override
  public String toString() {
    return "Store(" + Bytes.toStringBinary(familyName) + ", " + view.files().size() + " files)";
  }
}
