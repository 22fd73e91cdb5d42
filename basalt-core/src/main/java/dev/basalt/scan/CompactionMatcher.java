package dev.basalt.scan;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellUtil;
import dev.basalt.ops.TimeRange;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.KeepDeletedCells;

/**
 * Decides which cells a flush or compaction writes, following docs/SEMANTICS.md section 7, so that
 * no read other than a raw scan can tell whether it ran. Cells must be given in store order (every
 * cell of the files being rewritten, markers included). The same version trackers as reads decide
 * what is dead, so reads and compactions cannot disagree.
 *
 * <p>Not thread-safe; one per compaction of one store.
 */
public final class CompactionMatcher {
  /** What a rewrite may drop. */
  public enum Kind {
    /** Keep everything (flushes; minor compactions that lack older files; classic minors). */
    MERGE_ONLY,
    /** Deterministic history, the files hold every older cell: drop what is dead. */
    DETERMINISTIC_PREFIX,
    /** Classic HBase rules of a major compaction. */
    CLASSIC_MAJOR
  }

  private final Kind kind;
  private final KeepDeletedCells keepDeleted;
  private final int minVersions;
  private final long oldestUnexpiredTs;
  private final DeterministicVersionTracker deterministic;
  private final ClassicVersionTracker classic;

  /** KEEP_DELETED_CELLS=TTL: sees only expired markers, to tell whether one masks a put. */
  private final ClassicVersionTracker expiredMarkers;

  private long decisionHorizon = Long.MAX_VALUE;
  private Cell previous;
  private Cell previousTracked;

  private CompactionMatcher(
      Kind kind,
      KeepDeletedCells keepDeleted,
      int minVersions,
      long oldestUnexpiredTs,
      DeterministicVersionTracker deterministic,
      ClassicVersionTracker classic,
      ClassicVersionTracker expiredMarkers) {
    this.kind = kind;
    this.keepDeleted = keepDeleted;
    this.minVersions = minVersions;
    this.oldestUnexpiredTs = oldestUnexpiredTs;
    this.deterministic = deterministic;
    this.classic = classic;
    this.expiredMarkers = expiredMarkers;
  }

  /**
   * The matcher for rewriting files of {@code family}.
   *
   * @param now the clock, for TTL
   */
  public static CompactionMatcher create(ColumnFamilyDescriptor family, Kind kind, long now) {
    long ttl = family.getTimeToLiveMillis();
    long oldest = ttl == Long.MAX_VALUE || now - ttl > now ? Long.MIN_VALUE : now - ttl;
    int versions = family.getMaxVersions();
    int min = family.getMinVersions();
    switch (kind) {
      case DETERMINISTIC_PREFIX:
        // Which puts are dead is decided with every marker applying and no expiry; expiry is
        // applied separately below.
        ScanPolicy dp =
            new ScanPolicy(
                versions,
                min,
                KeepDeletedCells.FALSE,
                true,
                false,
                TimeRange.allTime(),
                Integer.MAX_VALUE,
                Long.MIN_VALUE,
                null,
                now);
        return new CompactionMatcher(
            kind,
            family.getKeepDeletedCells(),
            min,
            oldest,
            new DeterministicVersionTracker(dp, Integer.MAX_VALUE),
            null,
            null);
      case CLASSIC_MAJOR:
        // Every marker applies (the whole time range); the family's KEEP_DELETED_CELLS decides
        // whether deleted versions count toward VERSIONS, as they do for reads.
        ScanPolicy cp =
            new ScanPolicy(
                versions,
                min,
                family.getKeepDeletedCells(),
                false,
                false,
                TimeRange.allTime(),
                versions,
                oldest,
                null,
                now);
        return new CompactionMatcher(
            kind,
            family.getKeepDeletedCells(),
            min,
            oldest,
            null,
            new ClassicVersionTracker(cp, versions),
            family.getKeepDeletedCells() == KeepDeletedCells.TTL && oldest > 0
                ? expiredMarkerTracker(oldest)
                : null);
      default:
        return new CompactionMatcher(
            kind, family.getKeepDeletedCells(), min, oldest, null, null, null);
    }
  }

  /**
   * A tracker to which only markers older than {@code oldest} apply (timestamps are never negative,
   * so nothing has expired while {@code oldest <= 0}). Only its {@link
   * ClassicVersionTracker#lastDeleted} is read: version counting and expiry do not matter, so it
   * has one minimum version (no expiry shortcut) and no version limit.
   */
  private static ClassicVersionTracker expiredMarkerTracker(long oldest) {
    ScanPolicy p =
        new ScanPolicy(
            Integer.MAX_VALUE,
            1,
            KeepDeletedCells.TTL,
            false,
            false,
            TimeRange.between(0, oldest),
            Integer.MAX_VALUE,
            Long.MIN_VALUE,
            null,
            Long.MIN_VALUE);
    return new ClassicVersionTracker(p, Integer.MAX_VALUE);
  }

  /**
   * Cells with a sequence id above {@code seq} are kept and take no part in the decisions: a reader
   * at that read point may still open the output, and must find everything it could see before.
   */
  public CompactionMatcher withDecisionHorizon(long seq) {
    this.decisionHorizon = seq;
    return this;
  }

  /** Whether {@code c}, the next cell in store order, is written out. */
  public boolean keep(Cell c) {
    Cell prev = previous;
    previous = c;
    if (prev != null && CellComparator.INSTANCE.compare(prev, c) == 0) {
      return false; // the same cell twice (a crash left the inputs of a finished compaction)
    }
    if (kind == Kind.MERGE_ONLY || c.getSequenceId() > decisionHorizon) {
      return true;
    }
    Cell prevTracked = previousTracked;
    previousTracked = c;
    boolean newRow = prevTracked == null || !CellUtil.matchingRows(prevTracked, c);
    boolean newColumn = newRow || !CellUtil.matchingQualifiers(prevTracked, c);
    VersionTracker tracker = kind == Kind.DETERMINISTIC_PREFIX ? deterministic : classic;
    if (newRow) {
      tracker.startRow();
      if (expiredMarkers != null) {
        expiredMarkers.startRow();
      }
    }
    boolean expired = c.getTimestamp() < oldestUnexpiredTs;
    if (c.isDelete()) {
      tracker.addMarker(c, newColumn);
      if (expiredMarkers != null) {
        expiredMarkers.addMarker(c, newColumn);
      }
      if (kind == Kind.DETERMINISTIC_PREFIX) {
        // A marker affects only older cells, all of which are here: once applied it is not needed,
        // unless time-range reads may still look past it.
        return keepDeleted != KeepDeletedCells.FALSE && !(minVersions == 0 && expired);
      }
      return keepDeleted == KeepDeletedCells.TRUE
          || (keepDeleted == KeepDeletedCells.TTL && !expired);
    }
    MatchCode code = tracker.checkPut(c, newColumn);
    if (expiredMarkers != null) {
      expiredMarkers.checkPut(c, newColumn);
    }
    if (kind == Kind.DETERMINISTIC_PREFIX) {
      if (minVersions == 0 && expired) {
        return false;
      }
      DeterministicVersionTracker.Fate fate = deterministic.lastFate();
      return keepDeleted == KeepDeletedCells.FALSE
          ? fate == DeterministicVersionTracker.Fate.LIVE
          : fate != DeterministicVersionTracker.Fate.DEAD;
    }
    if (code == MatchCode.INCLUDE
        || code == MatchCode.INCLUDE_AND_SEEK_NEXT_COL
        || classic.lastHoldsPlace()) {
      return true;
    }
    if (!classic.lastDeleted()) {
      return false;
    }
    switch (keepDeleted) {
      case TRUE:
        return true;
      case TTL:
        // Kept until a marker masking it expires (HBase stops tracking unexpired markers), even
        // when the put itself has expired: MIN_VERSIONS may still show it to time-range reads.
        return expiredMarkers == null || !expiredMarkers.lastDeleted();
      default:
        return false;
    }
  }
}
