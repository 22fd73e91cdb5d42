package dev.basalt.region;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.KeyValue;
import dev.basalt.compaction.CompactionPolicy;
import dev.basalt.compaction.CompactionSettings;
import dev.basalt.compaction.Throttle;
import dev.basalt.scan.CompactionMatcher;
import dev.basalt.scan.KeyValueHeap;
import dev.basalt.scan.KeyValueScanner;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Compacts a region's stores: picks files (all of them for a major compaction, a run chosen by
 * {@link CompactionPolicy} for a minor one), merges them through a {@link CompactionMatcher} that
 * drops only what docs/SEMANTICS.md section 7 allows, writes the result as one file (throttled),
 * and swaps it in for its inputs. The output records its inputs' names, so a crash after it is
 * written but before the inputs are archived is finished on the next open. A store that still has
 * reference files (a split or merge left them) compacts all its files, so that the references go.
 * Thread-safe: one compaction per region at a time.
 */
final class RegionCompactor {
  /** Fault point: the compaction's output is written but not yet part of the store. */
  static final String FAULT_OUTPUT_WRITTEN = "compaction.outputWritten";

  private final Region region;
  private final CompactionPolicy policy;
  private final int blockingFiles;
  private final long throughputLimit;
  private final Object compactionLock = new Object();

  RegionCompactor(Region region, Config config) {
    this.region = region;
    this.policy = CompactionSettings.policy(config);
    this.blockingFiles = config.get(CompactionSettings.BLOCKING_FILES);
    this.throughputLimit = config.get(CompactionSettings.THROUGHPUT_LIMIT);
  }

  /** Held while a compaction runs; closing the region takes it to wait for one. */
  Object lock() {
    return compactionLock;
  }

  /** Files of a store, oldest first. */
  private static List<StoreFile> oldestFirst(Store s) {
    List<StoreFile> files = new ArrayList<>(s.view().files());
    java.util.Collections.reverse(files);
    return files;
  }

  private CompactionPolicy.Selection select(List<StoreFile> files) {
    List<Long> sizes = new ArrayList<>(files.size());
    for (StoreFile f : files) {
      sizes.add(f.info().fileSize());
    }
    return policy.select(sizes);
  }

  /** Whether some store has a run of files worth compacting, too many files, or references. */
  boolean needsCompaction() {
    for (Store s : region.storeList()) {
      if (s.fileCount() > blockingFiles || hasReferences(s) || select(oldestFirst(s)) != null) {
        return true;
      }
    }
    return false;
  }

  /** Whether a store still reads a parent region's files (after a split or merge). */
  static boolean hasReferences(Store s) {
    for (StoreFile f : s.view().files()) {
      if (f.isReference()) {
        return true;
      }
    }
    return false;
  }

  /** Whether some store has more files than writes tolerate. */
  boolean tooManyFiles() {
    for (Store s : region.storeList()) {
      if (s.fileCount() > blockingFiles) {
        return true;
      }
    }
    return false;
  }

  /**
   * Compacts every store that needs it (or all files of every store, for a major compaction).
   *
   * @return true when any store was rewritten
   */
  boolean compact(boolean major) throws IOException {
    synchronized (compactionLock) {
      if (region.isClosed()) {
        return false;
      }
      boolean any = false;
      for (Store s : region.storeList()) {
        if (s.hasStorage()) {
          any |= compactStore(s, major);
        }
      }
      return any;
    }
  }

  private boolean compactStore(Store s, boolean major) throws IOException {
    List<StoreFile> files = oldestFirst(s);
    List<StoreFile> inputs;
    if (major || hasReferences(s)) {
      // References are rewritten together with every other file, so that the parent's files can
      // go: a minor compaction of all files (classic families keep everything, as minor ones do).
      if (files.isEmpty()) {
        return false;
      }
      inputs = files;
    } else {
      CompactionPolicy.Selection sel = select(files);
      if (sel == null && files.size() > blockingFiles) {
        sel = new CompactionPolicy.Selection(0, Math.min(files.size(), blockingFiles));
      }
      if (sel == null) {
        return false;
      }
      inputs = files.subList(sel.from(), sel.to());
    }
    boolean prefix = inputs.get(0) == files.get(0);
    ColumnFamilyDescriptor family = s.family();
    CompactionMatcher.Kind kind;
    if (family.isNewVersionBehavior()) {
      kind =
          prefix ? CompactionMatcher.Kind.DETERMINISTIC_PREFIX : CompactionMatcher.Kind.MERGE_ONLY;
    } else {
      kind = major ? CompactionMatcher.Kind.CLASSIC_MAJOR : CompactionMatcher.Kind.MERGE_ONLY;
    }
    long now = region.services().clock().currentTimeMillis();
    CompactionMatcher matcher =
        CompactionMatcher.create(family, kind, now).withDecisionHorizon(region.smallestReadPoint());
    long maxSeq = 0;
    List<String> names = new ArrayList<>(inputs.size());
    List<KeyValueScanner> scanners = new ArrayList<>(inputs.size());
    for (StoreFile f : inputs) {
      maxSeq = Math.max(maxSeq, f.info().maxSequenceId());
      names.add(f.name());
    }
    StoreFile out;
    try {
      for (StoreFile f : inputs) {
        if (!f.acquire()) {
          throw new IllegalStateException("compaction input " + f + " was released");
        }
        KeyValueScanner sc = f.scanner(Long.MAX_VALUE);
        scanners.add(sc);
        sc.seek(KeyValue.firstOnRow(dev.basalt.cell.Bytes.EMPTY));
      }
      KeyValueHeap heap = new KeyValueHeap(scanners, CellComparator.INSTANCE);
      Iterable<Cell> kept = () -> filtered(heap, matcher);
      try {
        out =
            s.storeFiles()
                .write(
                    kept,
                    maxSeq,
                    major,
                    names,
                    new Throttle(throughputLimit, region.services().clock()));
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      FaultPoints.hit(FAULT_OUTPUT_WRITTEN);
    } finally {
      for (KeyValueScanner sc : scanners) {
        sc.close();
      }
    }
    s.commitCompaction(inputs, out);
    if (kind == CompactionMatcher.Kind.CLASSIC_MAJOR) {
      // Dropped markers make the puts they masked visible (the only compaction that changes reads).
      region.readsChangedWithoutAWrite();
    }
    return true;
  }

  /** The merged cells the matcher keeps. */
  private static Iterator<Cell> filtered(KeyValueHeap heap, CompactionMatcher matcher) {
    return new Iterator<>() {
      private Cell next = advance();

      private Cell advance() {
        try {
          Cell c;
          while ((c = heap.next()) != null) {
            if (matcher.keep(c)) {
              return c;
            }
          }
          return null;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public Cell next() {
        if (next == null) {
          throw new NoSuchElementException();
        }
        Cell c = next;
        next = advance();
        return c;
      }
    };
  }
}
