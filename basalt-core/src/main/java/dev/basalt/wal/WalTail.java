package dev.basalt.wal;

import dev.basalt.fs.Storage;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one server's log from a {@link WalPosition} onward, segment after segment, wherever each
 * segment is at the moment: live ({@code WALs/<server>/wal-N}), being split after the server died
 * ({@code WALs/<server>-splitting/wal-N}) or archived ({@code oldWALs/<server>.wal-N}). This is the
 * reading half of a replication source.
 *
 * <p>The last segment of a live log is still being written: a frame cut short by the end of the
 * file is one the writer has not finished, so reading stops there and the next call tries again. A
 * segment is finished when its trailer has been read, or when a later segment exists (a server that
 * crashed leaves a segment without one): then what remains is read once more to its end and a torn
 * or damaged tail is skipped with a warning, as replay would.
 *
 * <p>Positions are byte offsets, so a reader that resumes in the middle of a segment first reads
 * the segment's dictionary frames before that offset (region and cluster ids are defined once per
 * segment). Not thread-safe: one source thread owns it.
 */
public final class WalTail implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(WalTail.class);

  /**
   * What one {@link #read} returned.
   *
   * @param entries the edits read, in log order
   * @param entryEnds the position after each entry (where a reader resumes to read the next one)
   * @param end the position after the last frame read (the next read starts there)
   * @param bytes the size of the frames read
   * @param logEnded the log has no more to give now and, for a log that is closed, never will
   */
  public record Batch(
      List<WalEntry> entries,
      List<WalPosition> entryEnds,
      WalPosition end,
      long bytes,
      boolean logEnded) {}

  private final Storage storage;
  private final String server;
  private WalPosition position;

  // The segment at position.segment(): where it was found, and its dictionary so far.
  private String path;
  private short version;
  private boolean dictionaryRead;
  private boolean trailerRead;
  private final Map<Integer, String> regions = new HashMap<>();
  private final Map<Integer, UUID> clusters = new HashMap<>();
  private final Map<Integer, String> tables = new HashMap<>();
  private List<WalPosition> ends; // of the read in progress

  /**
   * @param server the server id whose log to read (the name of its directory under {@code WALs/})
   * @param start where to start; a segment that no longer exists is passed over to the next one
   *     that does
   */
  public WalTail(Storage storage, String server, WalPosition start) {
    this.storage = storage;
    this.server = server;
    this.position = start;
  }

  /** Where the next read starts. */
  public WalPosition position() {
    return position;
  }

  /**
   * Reads the edits available now after the position, stopping after {@code maxEntries} edits or
   * once {@code maxBytes} have been read (at least one edit is returned when one is available).
   *
   * @param logClosed the log's server is gone (its log will not grow), so a segment without a
   *     trailer that has no successor is finished
   */
  public Batch read(int maxEntries, long maxBytes, boolean logClosed) throws IOException {
    List<WalEntry> out = new ArrayList<>();
    ends = new ArrayList<>();
    long bytes = 0;
    while (out.size() < maxEntries && bytes < maxBytes) {
      if (path == null && !locate()) {
        return new Batch(out, ends, position, bytes, true);
      }
      Segment seg;
      try {
        seg = readSegment(out, maxEntries, maxBytes - bytes);
      } catch (FileNotFoundException e) {
        path = null; // archived or moved for splitting while we read: find it again
        continue;
      }
      bytes += seg.bytes;
      if (seg.stoppedForLimit) {
        break;
      }
      if (trailerRead) {
        advance();
        continue;
      }
      // The end of what the file holds now, without a trailer: finished only if a later segment
      // exists (or the server is gone); then one more pass picks up anything written before it.
      boolean finished = logClosed || laterSegmentExists();
      if (!finished) {
        return new Batch(out, ends, position, bytes, true);
      }
      Segment last;
      try {
        last = readSegment(out, Integer.MAX_VALUE, Long.MAX_VALUE);
      } catch (FileNotFoundException e) {
        path = null;
        continue;
      }
      bytes += last.bytes;
      if (last.damage != null) {
        LOG.warn(
            "WAL segment {} ends in damage at offset {} ({}); replication skips the rest of it",
            storage.describe(path),
            position.offset(),
            last.damage);
      }
      if (!laterSegmentExists()) {
        // A closed log's last segment: nothing follows; stay here (the caller drops the queue).
        return new Batch(out, ends, position, bytes, true);
      }
      advance();
    }
    return new Batch(out, ends, position, bytes, false);
  }

  /** What one pass over the current segment did. */
  private record Segment(long bytes, boolean stoppedForLimit, String damage) {}

  /**
   * Reads the current segment from the position to the end of what the file holds, or until a
   * limit; a torn or damaged frame ends the pass (its description returned).
   */
  private Segment readSegment(List<WalEntry> out, int maxEntries, long maxBytes)
      throws IOException {
    long bytes = 0;
    try (SegmentReader r = new SegmentReader(storage, path)) {
      try {
        r.readHeader();
      } catch (SegmentReader.BadFrame bad) {
        return new Segment(0, false, bad.getMessage());
      }
      version = r.version();
      if (!dictionaryRead) {
        String damage = readDictionaryUpTo(r, position.offset());
        if (damage != null) {
          return new Segment(0, false, damage);
        }
        dictionaryRead = true;
      } else {
        r.seek(position.offset());
      }
      if (position.offset() < r.position()) {
        position = new WalPosition(position.segment(), r.position()); // past the header
      }
      int taken = 0;
      while (true) {
        if (taken >= maxEntries || bytes >= maxBytes) {
          return new Segment(bytes, true, null);
        }
        byte[] payload;
        try {
          payload = r.next();
        } catch (SegmentReader.BadFrame bad) {
          return new Segment(bytes, false, bad.getMessage());
        }
        if (payload == null) {
          return new Segment(bytes, false, null);
        }
        position = new WalPosition(position.segment(), r.position());
        if (trailerRead) {
          continue; // nothing may follow a trailer; replay refuses it, replication ignores it
        }
        if (payload[0] == WalFormat.TYPE_TRAILER) {
          trailerRead = true;
          continue;
        }
        WalEntry e;
        try {
          e = WalReplay.decode(payload, version, regions, clusters, tables);
        } catch (IllegalArgumentException bad) {
          LOG.error(
              "replication skips an undecodable entry of {} at offset {}: {}",
              storage.describe(path),
              r.position(),
              bad.getMessage());
          continue;
        }
        bytes += payload.length;
        if (e != null) {
          out.add(e);
          ends.add(position);
          taken++;
        }
      }
    }
  }

  /** Reads the dictionary frames before {@code offset}, leaving the reader at {@code offset}. */
  private String readDictionaryUpTo(SegmentReader r, long offset) throws IOException {
    while (r.position() < offset) {
      byte[] payload;
      try {
        payload = r.next();
      } catch (SegmentReader.BadFrame bad) {
        return bad.getMessage();
      }
      if (payload == null) {
        return "the segment ends at " + r.position() + ", before the queue's offset " + offset;
      }
      byte type = payload[0];
      if (type == WalFormat.TYPE_TRAILER) {
        trailerRead = true;
      } else if (type == WalFormat.TYPE_REGION
          || type == WalFormat.TYPE_REGION_TABLE
          || type == WalFormat.TYPE_CLUSTER) {
        WalReplay.decode(payload, r.version(), regions, clusters, tables);
      }
    }
    return null;
  }

  /** Moves to the start of the next segment. */
  private void advance() {
    position = WalPosition.startOf(position.segment() + 1);
    forgetSegment();
  }

  private void forgetSegment() {
    path = null;
    dictionaryRead = false;
    trailerRead = false;
    regions.clear();
    clusters.clear();
    tables.clear();
  }

  /**
   * Finds the file of the position's segment; when it no longer exists, moves to the first later
   * segment that does. False when there is none yet.
   */
  private boolean locate() throws IOException {
    long seg = position.segment();
    for (String candidate : candidates(seg)) {
      if (storage.exists(candidate)) {
        path = candidate;
        return true;
      }
    }
    long next = firstSegmentAfter(seg);
    if (next < 0) {
      return false;
    }
    if (position.offset() > 0 || next > seg + 1) {
      LOG.warn(
          "WAL segments {} to {} of {} are gone before replication read them; reading on from {}",
          Wal.segmentName(seg),
          Wal.segmentName(next - 1),
          server,
          Wal.segmentName(next));
    }
    position = WalPosition.startOf(next);
    forgetSegment();
    return locate();
  }

  private List<String> candidates(long seg) {
    String name = Wal.segmentName(seg);
    return List.of(
        Wal.DIR + "/" + server + "/" + name,
        Wal.DIR + "/" + server + WalSplitter.SPLITTING_SUFFIX + "/" + name,
        Wal.archivedPath(server, name));
  }

  private boolean laterSegmentExists() throws IOException {
    long seg = position.segment();
    // The usual case, cheap: the live log rolled on.
    if (storage.exists(candidates(seg + 1).get(0))) {
      return true;
    }
    return firstSegmentAfter(seg) >= 0;
  }

  /** The lowest segment number above {@code seg} in any of the log's places, or -1. */
  private long firstSegmentAfter(long seg) throws IOException {
    long best = Long.MAX_VALUE;
    for (String dir :
        List.of(Wal.DIR + "/" + server, Wal.DIR + "/" + server + WalSplitter.SPLITTING_SUFFIX)) {
      for (String name : storage.list(dir)) {
        long n = Wal.segmentNumber(name);
        if (n > seg) {
          best = Math.min(best, n);
        }
      }
    }
    for (String name : storage.list(Wal.OLD_DIR)) {
      long n = Wal.archivedSegmentNumber(name, server);
      if (n > seg) {
        best = Math.min(best, n);
      }
    }
    return best == Long.MAX_VALUE ? -1 : best;
  }

  /**
   * The lowest segment number of {@code server}'s log that still exists anywhere, or -1 when it has
   * none: where a new queue starts.
   */
  public static long firstSegment(Storage storage, String server) throws IOException {
    return new WalTail(storage, server, WalPosition.startOf(0)).firstSegmentAfter(-1);
  }

  /** The number of the newest segment of {@code server}'s live log, or -1 when it has none. */
  public static long newestLiveSegment(Storage storage, String server) throws IOException {
    long best = -1;
    for (String name : storage.list(Wal.DIR + "/" + server)) {
      best = Math.max(best, Wal.segmentNumber(name));
    }
    return best;
  }

  @Override
  public void close() {
    forgetSegment();
  }
}
