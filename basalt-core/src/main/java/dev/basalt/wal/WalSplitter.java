package dev.basalt.wal;

import dev.basalt.cell.KeyValue;
import dev.basalt.fs.Storage;
import dev.basalt.util.FaultPoints;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits a dead server's log into one recovered-edits file per region, which the region's next
 * server replays when it opens it (HBase's WAL splitting), and archives the log afterwards.
 *
 * <p>Files: a region's edits go to {@code <region dir>/recovered.edits/<server>}, where {@code
 * <server>} is the log directory's name without {@code -splitting}: splitting the same log again
 * (after a crash of the splitter) rewrites the same files, and logs of different servers never
 * share one. Each file is a WAL segment (docs/formats/wal.md) whose header names the dead server,
 * read by the same reader as the log ({@link WalReplay#replayFile}); it is written as {@code
 * <name>.tmp}, forced, and renamed into place, so a file of the final name is whole. Edits keep
 * everything they were logged with: sequence ids, write time, cluster ids, nonce, per-cell TTLs.
 *
 * <p>Memory: the log is streamed, never held. One writer is open per region being written (its
 * buffer is all it holds); at most {@link #MAX_OPEN_WRITERS} at a time. A log with edits of more
 * regions than that is read again, once per further batch of regions (a server has rarely more).
 *
 * <p>Thread-safe (stateless); one split of a given log at a time.
 */
public final class WalSplitter {
  private static final Logger LOG = LoggerFactory.getLogger(WalSplitter.class);

  /** The directory of a region's recovered edits, inside its region directory. */
  public static final String RECOVERED_EDITS_DIR = "recovered.edits";

  /** Suffix of a recovered-edits file being written (never replayed). */
  public static final String TMP_SUFFIX = ".tmp";

  /** Suffix of a log directory renamed for recovery. */
  public static final String SPLITTING_SUFFIX = "-splitting";

  /** Fault point: some regions' files are in place, the others not yet. */
  public static final String FAULT_SOME_WRITTEN = "walsplitter.someFilesWritten";

  /** Fault point: a region's file is whole under its temporary name, not yet renamed. */
  public static final String FAULT_BEFORE_RENAME = "walsplitter.beforeRename";

  /** Regions written per pass over the log. */
  static final int MAX_OPEN_WRITERS = 512;

  /** Where one region's recovered edits go. */
  public record Target(String regionDir, long sequenceFloor) {}

  /**
   * What a split wrote.
   *
   * @param maxSequenceByRegion for every region written to, the highest sequence id written
   * @param editsWritten edits written (an edit partly at or below its region's floor counts once)
   * @param editsDropped edits of regions the targets dropped, or wholly at or below their floor
   * @param filesWritten the recovered-edits files written, by path
   */
  public record Result(
      Map<String, Long> maxSequenceByRegion,
      long editsWritten,
      long editsDropped,
      List<String> filesWritten) {}

  private WalSplitter() {}

  /**
   * Splits every segment of {@code walDir} (e.g. {@code WALs/<sn>-splitting}) into one
   * recovered-edits file per region (see the class comment). {@code
   * targets.apply(encodedRegionName)} gives the region's Target, or null to drop its edits (a
   * region no longer in the catalog). Edits whose cells all have sequence ids at or below the
   * target's floor are dropped (cells at or below it are dropped from an edit). Torn tails are
   * handled as {@link WalReplay} does (skipped; the log file is not changed); {@code skipErrors} as
   * WalReplay's.
   *
   * <p>Run it before {@link #archive}, never after archiving began: the segments already archived
   * would be missing from the rewritten files.
   *
   * @throws WalCorruptionException for damage that is not a torn tail, unless {@code skipErrors}
   */
  public static Result split(
      Storage storage, String walDir, Function<String, Target> targets, boolean skipErrors)
      throws IOException {
    return split(storage, walDir, targets, skipErrors, MAX_OPEN_WRITERS);
  }

  static Result split(
      Storage storage,
      String walDir,
      Function<String, Target> targets,
      boolean skipErrors,
      int maxOpenWriters)
      throws IOException {
    String server = serverOf(walDir);
    long now = System.currentTimeMillis();
    Map<String, Target> known = new HashMap<>();
    Set<String> finished = new HashSet<>();
    Map<String, Long> maxSeq = new LinkedHashMap<>();
    List<String> files = new ArrayList<>();
    long[] written = {0};
    long[] dropped = {0};
    for (int pass = 0; ; pass++) {
      boolean firstPass = pass == 0;
      Map<String, RecoveredEditsWriter> writers = new LinkedHashMap<>();
      Set<String> deferred = new HashSet<>();
      try {
        WalReplay.replayDirectory(
            storage,
            walDir,
            skipErrors,
            e -> {
              String region = e.region();
              if (finished.contains(region)) {
                return;
              }
              Target t;
              if (known.containsKey(region)) {
                t = known.get(region);
              } else {
                t = targets.apply(region);
                known.put(region, t); // null too: asked once per region
              }
              WalEntry kept = t == null ? null : above(e, t.sequenceFloor());
              if (kept == null) {
                if (firstPass) {
                  dropped[0]++; // every edit is seen by the first pass
                }
                return;
              }
              if (deferred.contains(region)) {
                return;
              }
              RecoveredEditsWriter w = writers.get(region);
              if (w == null) {
                if (writers.size() >= maxOpenWriters) {
                  deferred.add(region);
                  return;
                }
                w =
                    new RecoveredEditsWriter(
                        storage, editsPath(t.regionDir(), server), region, server, now);
                writers.put(region, w);
              }
              w.append(kept);
              written[0]++;
            });
        int committed = 0;
        for (Map.Entry<String, RecoveredEditsWriter> w : writers.entrySet()) {
          if (committed > 0) {
            FaultPoints.hit(FAULT_SOME_WRITTEN);
          }
          w.getValue().commit();
          committed++;
          maxSeq.put(w.getKey(), w.getValue().maxSequenceId());
          files.add(w.getValue().path());
        }
      } finally {
        for (RecoveredEditsWriter w : writers.values()) {
          w.abandon(); // only those not committed: a failure leaves no temporary file
        }
      }
      finished.addAll(writers.keySet());
      if (deferred.isEmpty()) {
        break;
      }
      LOG.info(
          "split of {}: {} more regions than writers ({}), reading the log again",
          storage.describe(walDir),
          deferred.size(),
          maxOpenWriters);
    }
    LOG.info(
        "split {} into {} recovered-edits files: {} edits written, {} dropped",
        storage.describe(walDir),
        files.size(),
        written[0],
        dropped[0]);
    return new Result(Map.copyOf(maxSeq), written[0], dropped[0], List.copyOf(files));
  }

  /** The edit without its cells at or below {@code floor}, or null when none is left. */
  private static WalEntry above(WalEntry e, long floor) {
    List<KeyValue> cells = e.cells();
    int keep = 0;
    for (KeyValue kv : cells) {
      if (kv.getSequenceId() > floor) {
        keep++;
      }
    }
    if (keep == cells.size()) {
      return e;
    }
    if (keep == 0) {
      return null;
    }
    List<KeyValue> out = new ArrayList<>(keep);
    for (KeyValue kv : cells) {
      if (kv.getSequenceId() > floor) {
        out.add(kv);
      }
    }
    return new WalEntry(
        e.region(), e.writeTime(), e.clusterIds(), out, e.nonceGroup(), e.nonce(), e.table());
  }

  /**
   * Moves {@code walDir}'s segments to {@code oldWALs/} (named as the {@link Wal} archives its own,
   * {@code <server>.<segment>}) and deletes {@code walDir} with its lock file. Idempotent: a second
   * call after a partial one finishes it, and one on a directory already gone does nothing.
   */
  public static void archive(Storage storage, String walDir) throws IOException {
    String server = serverOf(walDir);
    for (String n : storage.list(walDir)) {
      if (Wal.isSegment(n)) {
        storage.rename(walDir + "/" + n, Wal.archivedPath(server, n));
      }
    }
    storage.delete(walDir);
  }

  /**
   * The recovered-edits files of a region directory that a split completed, in name order (files
   * still being written, {@code *.tmp}, are not among them).
   */
  public static List<String> recoveredEdits(Storage storage, String regionDir) throws IOException {
    String dir = regionDir + "/" + RECOVERED_EDITS_DIR;
    List<String> out = new ArrayList<>();
    for (String n : storage.list(dir)) {
      if (!n.endsWith(TMP_SUFFIX) && !n.startsWith(".")) {
        out.add(dir + "/" + n);
      }
    }
    return out;
  }

  /** The server whose log {@code walDir} is: its last path element without {@code -splitting}. */
  static String serverOf(String walDir) {
    String d = walDir;
    while (d.endsWith("/")) {
      d = d.substring(0, d.length() - 1);
    }
    String name = d.substring(d.lastIndexOf('/') + 1);
    if (name.endsWith(SPLITTING_SUFFIX)) {
      name = name.substring(0, name.length() - SPLITTING_SUFFIX.length());
    }
    if (name.isEmpty()) {
      throw new IllegalArgumentException("not a log directory: '" + walDir + "'");
    }
    return name;
  }

  static String editsPath(String regionDir, String server) {
    return regionDir + "/" + RECOVERED_EDITS_DIR + "/" + server;
  }
}
