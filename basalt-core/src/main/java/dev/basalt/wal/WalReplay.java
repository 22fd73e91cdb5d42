package dev.basalt.wal;

import dev.basalt.fs.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the segments a previous run left behind, in order, and hands every edit to a consumer.
 *
 * <p>A crash leaves at most one torn frame at the very end of the last segment (or a segment cut
 * short inside its header, if the crash came while it was being created), and, after a crash of the
 * machine, possibly one at the end of a segment the log had rolled away from but not yet forced
 * ({@link Wal} forces rolled segments in the background; such a segment has no whole trailer, and
 * only unforced entries are lost with its tail: a writer that asked for FSYNC_WAL waited for the
 * force). That tail is logged with file and offset and skipped, and replay goes on. The file is
 * never changed: HDFS cannot truncate a file another writer may hold, and nothing needs it to, as
 * the log never appends to a segment it did not create in this run (it continues in a new one, and
 * the old segment, when read again, is a rolled-away segment without a trailer, whose torn tail is
 * skipped the same way). Anything else that does not read back (a bad checksum or length in the
 * middle of a segment, a torn frame before a trailer, bytes after a trailer) stops the open with a
 * {@link WalCorruptionException} naming file and offset, unless the operator chose to skip bad
 * entries.
 *
 * <p>A frame with a bad checksum at the end of the last segment counts as torn only when nothing
 * readable follows it: a machine crash can leave garbage after the last forced write, but a bad
 * frame followed by a good one is damage to data that was once written whole.
 */
public final class WalReplay {
  private static final Logger LOG = LoggerFactory.getLogger(WalReplay.class);

  /** Receives replayed edits. */
  @FunctionalInterface
  public interface EditConsumer {
    void accept(WalEntry entry) throws IOException;
  }

  private WalReplay() {}

  /**
   * Replays every segment of {@code serverId}.
   *
   * @return the segments read, with their highest sequence id per region, for {@link Wal}
   */
  public static List<Wal.Segment> replay(
      Storage storage, String serverId, boolean skipErrors, EditConsumer consumer)
      throws IOException {
    return replayDirectory(storage, Wal.DIR + "/" + serverId, skipErrors, consumer);
  }

  /**
   * Replays every segment of the log directory {@code dir} (a server's {@code WALs/<server>}, or
   * one being split, {@code WALs/<server>-splitting}) in order, with the torn-tail rules of the
   * class comment; files that are not segments (the lock file) are not read.
   *
   * @return the segments read, with their highest sequence id per region
   */
  public static List<Wal.Segment> replayDirectory(
      Storage storage, String dir, boolean skipErrors, EditConsumer consumer) throws IOException {
    List<String> names = new ArrayList<>();
    for (String n : storage.list(dir)) {
      if (Wal.isSegment(n)) {
        names.add(n);
      }
    }
    List<Wal.Segment> out = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      boolean last = i == names.size() - 1;
      String path = dir + "/" + names.get(i);
      Map<String, Long> regions =
          replaySegment(storage, path, last ? Tail.LAST : Tail.ROLLED, skipErrors, consumer);
      if (regions == null) {
        storage.delete(path); // created but never got a whole header: holds nothing
      } else {
        out.add(new Wal.Segment(names.get(i), regions));
      }
    }
    return out;
  }

  /**
   * Replays one file in the segment format that was written whole before it got its name (a
   * recovered-edits file, {@link WalSplitter}): nothing in it may be torn, so a bad frame anywhere,
   * or a missing trailer, is a {@link WalCorruptionException} naming file and offset (skipped and
   * lost with {@code skipErrors}). The file is never changed.
   *
   * @return the highest sequence id per region in the file
   */
  public static Map<String, Long> replayFile(
      Storage storage, String path, boolean skipErrors, EditConsumer consumer) throws IOException {
    return replaySegment(storage, path, Tail.COMPLETE, skipErrors, consumer);
  }

  /** What the end of a file may look like. */
  private enum Tail {
    /** The last segment of a log: a torn tail (or header) is what a crash leaves; cut it off. */
    LAST,
    /** A segment the log rolled away from: torn only when its trailer did not make it. */
    ROLLED,
    /** A file renamed into place once whole: any damage is corruption. */
    COMPLETE
  }

  /**
   * Returns the regions' highest sequence ids, or null when the segment has no whole header (only
   * for {@link Tail#LAST}).
   */
  private static Map<String, Long> replaySegment(
      Storage storage, String path, Tail tail, boolean skipErrors, EditConsumer consumer)
      throws IOException {
    String where = storage.describe(path);
    Map<String, Long> regions = new HashMap<>();
    // The segment's dictionary (version 2): region names and cluster ids by id.
    Map<Integer, String> regionNames = new HashMap<>();
    Map<Integer, UUID> clusters = new HashMap<>();
    Map<Integer, String> tables = new HashMap<>();
    try (SegmentReader r = new SegmentReader(storage, path)) {
      try {
        r.readHeader();
      } catch (SegmentReader.BadFrame bad) {
        if (tail == Tail.LAST && bad.problem == SegmentReader.Problem.TORN) {
          LOG.warn(
              "WAL segment {} ends inside its header ({}); it holds no edits",
              where,
              bad.getMessage());
          return null;
        }
        throw new WalCorruptionException(where, 0, bad.getMessage());
      }
      boolean trailer = false;
      boolean skippedRest = false;
      while (true) {
        long at = r.position();
        byte[] payload;
        try {
          payload = r.next();
        } catch (SegmentReader.BadFrame bad) {
          if ((tail == Tail.LAST || (tail == Tail.ROLLED && !trailer)) && isTornTail(r, bad)) {
            LOG.warn(
                "WAL segment {} has a torn entry at offset {} ({}); skipping the {} byte tail",
                where,
                bad.offset,
                bad.getMessage(),
                r.length() - bad.offset);
            break;
          }
          if (skipErrors && bad.next > 0) {
            LOG.error(
                "skipping corrupt WAL entry in {} at offset {}: {}",
                where,
                bad.offset,
                bad.getMessage());
            r.seek(bad.next);
            continue;
          }
          if (skipErrors) {
            LOG.error(
                "skipping the rest of WAL segment {} from offset {}: {}",
                where,
                bad.offset,
                bad.getMessage());
            skippedRest = true;
            break;
          }
          throw new WalCorruptionException(where, bad.offset, bad.getMessage());
        }
        if (payload == null) {
          break;
        }
        if (trailer) {
          throw new WalCorruptionException(where, at, "data after the segment's trailer");
        }
        if (payload[0] == WalFormat.TYPE_TRAILER) {
          trailer = true;
          continue;
        }
        WalEntry e;
        try {
          e = decode(payload, r.version(), regionNames, clusters, tables);
          if (e == null) {
            continue; // a dictionary entry
          }
        } catch (IllegalArgumentException bad) {
          if (skipErrors) {
            LOG.error(
                "skipping undecodable WAL entry in {} at offset {}: {}",
                where,
                at,
                bad.getMessage());
            continue;
          }
          throw new WalCorruptionException(where, at, bad.getMessage());
        }
        regions.merge(e.region(), e.lastSequenceId(), Math::max);
        consumer.accept(e);
      }
      if (tail == Tail.COMPLETE && !trailer && !skippedRest) {
        if (!skipErrors) {
          throw new WalCorruptionException(
              where, r.position(), "the file ends without its trailer (it was written whole)");
        }
        LOG.error("{} ends without its trailer at offset {}", where, r.position());
      }
    }
    return regions;
  }

  /**
   * Decodes an edit, or records a dictionary entry and returns null.
   *
   * @throws IllegalArgumentException for a payload that does not decode or belong here
   */
  static WalEntry decode(
      byte[] payload,
      short version,
      Map<Integer, String> regions,
      Map<Integer, UUID> clusters,
      Map<Integer, String> tables) {
    byte type = payload[0];
    if (version == WalFormatV1.VERSION) {
      if (type != WalFormat.TYPE_EDIT_V1) {
        throw new IllegalArgumentException(
            "unknown entry type " + type + " in a version 1 segment");
      }
      return WalFormatV1.decodeEdit(payload);
    }
    switch (type) {
      case WalFormat.TYPE_EDIT:
      case WalFormat.TYPE_EDIT_NONCE:
      case WalFormat.TYPE_EDIT_TTL:
      case WalFormat.TYPE_EDIT_TTL_NONCE:
        return WalFormat.decodeEdit(payload, regions::get, clusters::get, tables::get);
      case WalFormat.TYPE_REGION:
      case WalFormat.TYPE_REGION_TABLE:
        WalFormat.Definition<String> region = WalFormat.decodeRegion(payload);
        define(regions, region, "region");
        String table = WalFormat.decodeRegionTable(payload);
        if (table != null) {
          tables.put(region.id(), table);
        }
        return null;
      case WalFormat.TYPE_CLUSTER:
        define(clusters, WalFormat.decodeCluster(payload), "cluster");
        return null;
      default:
        throw new IllegalArgumentException("unknown entry type " + type);
    }
  }

  private static <T> void define(
      Map<Integer, T> dictionary, WalFormat.Definition<T> d, String what) {
    T before = dictionary.putIfAbsent(d.id(), d.value());
    if (before != null && !before.equals(d.value())) {
      throw new IllegalArgumentException(
          what + " id " + d.id() + " defined twice (" + before + ", " + d.value() + ")");
    }
  }

  /**
   * A bad frame is a torn tail when no whole, valid frame starts anywhere after its first byte:
   * then nothing written whole is lost by cutting there. A valid frame after it means data that was
   * once written whole is damaged (a flipped bit in a length or payload), which is corruption.
   */
  private static boolean isTornTail(SegmentReader r, SegmentReader.BadFrame bad)
      throws IOException {
    long from = bad.offset + 1;
    if (from >= r.length()) {
      return true;
    }
    byte[] tail = r.readRange(from, r.length() - from);
    for (int i = 0; i + WalFormat.FRAME_HEADER < tail.length; i++) {
      int n = dev.basalt.cell.Bytes.readInt(tail, i);
      if (n <= 0 || n > tail.length - i - WalFormat.FRAME_HEADER) {
        continue;
      }
      byte type = tail[i + WalFormat.FRAME_HEADER];
      if (WalFormat.isKnownType(type)
          && dev.basalt.cell.Bytes.readInt(tail, i + 4)
              == WalFormat.crc(tail, i + WalFormat.FRAME_HEADER, n)) {
        return false;
      }
    }
    return true;
  }
}
