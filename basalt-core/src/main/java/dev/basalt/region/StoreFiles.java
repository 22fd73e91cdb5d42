package dev.basalt.region;

import dev.basalt.cell.Cell;
import dev.basalt.compaction.Throttle;
import dev.basalt.fs.Storage;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.sstable.BlockCache;
import dev.basalt.sstable.StoreFileOptions;
import dev.basalt.sstable.StoreFileReader;
import dev.basalt.sstable.StoreFileWriter;
import dev.basalt.util.Clock;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of one store on storage: {@code data/<ns>/<table>/<region>/<family>/<name>}. Writes new
 * files (the writer uses a temporary name and renames into place), opens readers (a reference file
 * left by a split or merge opens its parent's file: {@link StoreFileReference}), and on open
 * repairs what a crash can leave: temporary files are deleted, and the inputs of a compaction whose
 * output exists (its file info names them) are archived. Archived files go to the same path under
 * {@code archive/}. Thread-safe.
 */
final class StoreFiles {
  private static final Logger LOG = LoggerFactory.getLogger(StoreFiles.class);

  private final Storage storage;
  private final String dir;
  private final String archiveDir;
  private final BlockCache cache;
  private final ColumnFamilyDescriptor family;
  private final Clock clock;

  StoreFiles(
      Storage storage,
      String dir,
      String archiveDir,
      BlockCache cache,
      ColumnFamilyDescriptor family,
      Clock clock) {
    this.storage = storage;
    this.dir = dir;
    this.archiveDir = archiveDir;
    this.cache = cache;
    this.family = family;
    this.clock = clock;
  }

  String dir() {
    return dir;
  }

  private StoreFileOptions options() {
    return new StoreFileOptions(
        family.getBlocksize(), family.getCompressionType(), family.getBloomFilterType());
  }

  private StoreFile open(String name) throws IOException {
    String path = dir + "/" + name;
    if (StoreFileReference.isReference(name)) {
      StoreFileReference ref = StoreFileReference.read(storage, path);
      String parentPath = ref.parentPath(dir);
      StoreFileReader reader =
          StoreFileReader.open(
              storage, parentPath, cache, family.isBlockCacheEnabled(), family.isInMemory());
      return new StoreFile(storage, path, archiveDir + "/" + name, reader, ref);
    }
    StoreFileReader reader =
        StoreFileReader.open(
            storage, path, cache, family.isBlockCacheEnabled(), family.isInMemory());
    return new StoreFile(storage, path, archiveDir + "/" + name, reader);
  }

  /**
   * Opens a listed file, or returns null when it moved to the archive after the listing. That
   * happens when the region opens again while a scan of its previous opening still reads a file a
   * compaction replaced: the scan's end archives the file (see {@link StoreFile#retire}). Only
   * replaced files move that way, and the file that replaced them is already in the directory.
   */
  private StoreFile openUnlessArchived(String name) throws IOException {
    try {
      return open(name);
    } catch (FileNotFoundException e) {
      String path = dir + "/" + name;
      if (!StoreFile.movedToArchive(storage, path, archiveDir + "/" + name)) {
        throw e; // not that case: a reference whose parent is missing, or a file lost
      }
      LOG.info(
          "{} was archived while the store opened: a compaction had replaced it",
          storage.describe(path));
      return null;
    }
  }

  /**
   * Writes cells (in store order) to a new file and opens it. The file is complete on storage when
   * this returns, but not yet part of the store: the caller commits it.
   *
   * @param compactedFrom names of the files this one replaces, recorded so that a crash before they
   *     are removed can be finished on the next open
   * @param throttle limits the write rate, or null
   * @return the new file; it may hold no cell (a compaction that dropped everything still records
   *     the sequence id its store has persisted up to, or a restart would replay older edits)
   */
  StoreFile write(
      Iterable<? extends Cell> cells,
      long maxSequenceId,
      boolean majorCompacted,
      List<String> compactedFrom,
      Throttle throttle)
      throws IOException {
    String name = UUID.randomUUID().toString().replace("-", "");
    StoreFileWriter w = StoreFileWriter.create(storage, dir + "/" + name, options(), clock);
    try {
      long reported = 0;
      for (Cell c : cells) {
        w.append(c);
        if (throttle != null && w.bytesWritten() - reported >= 64 * 1024) {
          throttle.wrote(w.bytesWritten() - reported);
          reported = w.bytesWritten();
        }
      }
      w.finish(maxSequenceId, majorCompacted, compactedFrom);
    } catch (IOException | RuntimeException e) {
      w.abort();
      throw e;
    }
    return open(name);
  }

  /**
   * Opens the store's files, finishing or undoing what a crash interrupted.
   *
   * @return the live files, in no particular order
   */
  List<StoreFile> openAll() throws IOException {
    List<String> names = new ArrayList<>();
    for (String n : storage.list(dir)) {
      String path = dir + "/" + n;
      if (storage.isDirectory(path)) {
        continue;
      }
      if (StoreFileWriter.isTemporary(n)) {
        storage.delete(path); // a write that never finished
        continue;
      }
      names.add(n);
    }
    List<StoreFile> opened = new ArrayList<>();
    try {
      for (String n : names) {
        StoreFile f = openUnlessArchived(n);
        if (f != null) {
          opened.add(f);
        }
      }
    } catch (IOException | RuntimeException e) {
      opened.forEach(StoreFile::close);
      throw e;
    }
    // A compaction's output names its inputs; inputs still here were not yet archived.
    Set<String> replaced = new HashSet<>();
    for (StoreFile f : opened) {
      replaced.addAll(f.info().compactedFrom());
    }
    List<StoreFile> live = new ArrayList<>();
    for (StoreFile f : opened) {
      if (replaced.contains(f.name())) {
        LOG.info(
            "archiving {}: a compaction replaced it before the last stop",
            storage.describe(f.path()));
        f.retire();
      } else {
        live.add(f);
      }
    }
    return live;
  }
}
