package dev.basalt.scan;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;

/**
 * Deterministic history (NEW_VERSION_BEHAVIOR=true): reads depend only on the order of commits.
 * docs/SEMANTICS.md section 4 defines the result by replaying a column's history; this class
 * computes the same answer in one pass over the column's cells (newest timestamp first).
 *
 * <p>Each put of the column is live over an interval of sequence ids: from its own commit until the
 * first of (a) a later write of the same version, (b) an effective covering delete marker committed
 * after it, (c) the moment VERSIONS newer versions are live at once (it is pushed out). Because
 * cells arrive newest timestamp first, when a put is reached every newer put's interval is already
 * final and every marker that can cover it has been seen, so its own interval follows: (c) is the
 * first point at or after its commit where the count of newer live intervals reaches VERSIONS. A
 * put is a candidate when its interval never ends. Intervals are kept as two sorted arrays of
 * starts and ends, so a column costs O(k) per put where k is the number of newer puts that are not
 * live; a column whose newest VERSIONS puts are all live is left with one seek.
 */
final class DeterministicVersionTracker implements VersionTracker {
  private static final long NEVER = Long.MAX_VALUE;

  private final ScanPolicy policy;
  private final int limit;
  private final int maxVersions;

  // Row state: effective family markers.
  private final LongList familyTs = new LongList();
  private final LongList familySeq = new LongList();
  private final LongList familyVersionTs = new LongList();
  private final LongList familyVersionSeq = new LongList();

  // Column state.
  private final LongList columnDeleteSeq = new LongList();
  private long versionDeleteTs;
  private final LongList versionDeleteSeq = new LongList();

  /** Live intervals of puts with a newer timestamp than the current one, as sorted arrays. */
  private final LongList starts = new LongList();

  private final LongList ends = new LongList();
  private int liveNewer;

  /** Intervals of puts with the current timestamp, folded in when the timestamp changes. */
  private long pendingTs;

  private final LongList pendingStarts = new LongList();
  private final LongList pendingEnds = new LongList();
  private boolean hasLastPut;
  private long lastPutSeq;
  private int candidates;
  private int returned;

  /** What became of the last put given to {@link #checkPut}. */
  enum Fate {
    /** Still live: a candidate for reads. */
    LIVE,
    /** Removed by an effective delete marker, and not otherwise dead. */
    DELETED,
    /** Overwritten or pushed out: dead whichever markers a read applies. */
    DEAD
  }

  private Fate lastFate = Fate.LIVE;

  DeterministicVersionTracker(ScanPolicy policy, int limit) {
    this.policy = policy;
    this.limit = limit;
    this.maxVersions = policy.familyMaxVersions;
  }

  @Override
  public void startRow() {
    familyTs.clear();
    familySeq.clear();
    familyVersionTs.clear();
    familyVersionSeq.clear();
    startColumn();
  }

  private void startColumn() {
    columnDeleteSeq.clear();
    versionDeleteSeq.clear();
    versionDeleteTs = NEVER;
    starts.clear();
    ends.clear();
    liveNewer = 0;
    pendingTs = NEVER;
    pendingStarts.clear();
    pendingEnds.clear();
    hasLastPut = false;
    candidates = 0;
    returned = 0;
  }

  @Override
  public void addMarker(Cell m, boolean newColumn) {
    if (newColumn) {
      startColumn();
    }
    long ts = m.getTimestamp();
    if (!policy.isMarkerEffective(ts)) {
      return;
    }
    long seq = m.getSequenceId();
    byte type = m.getTypeByte();
    if (type == CellType.DELETE_FAMILY.code()) {
      familyTs.add(ts);
      familySeq.add(seq);
    } else if (type == CellType.DELETE_FAMILY_VERSION.code()) {
      familyVersionTs.add(ts);
      familyVersionSeq.add(seq);
    } else if (type == CellType.DELETE_COLUMN.code()) {
      columnDeleteSeq.add(seq); // its timestamp is >= that of every put still to come
    } else {
      if (ts != versionDeleteTs) {
        versionDeleteSeq.clear();
        versionDeleteTs = ts;
      }
      versionDeleteSeq.add(seq);
    }
  }

  @Override
  public MatchCode checkPut(Cell put, boolean newColumn) {
    if (newColumn) {
      startColumn();
    }
    long ts = put.getTimestamp();
    long seq = put.getSequenceId();
    if (ts != pendingTs) {
      foldPending();
      pendingTs = ts;
      hasLastPut = false;
    }
    if (liveNewer >= maxVersions) {
      lastFate = Fate.DEAD;
      return MatchCode.SEEK_NEXT_COL; // pushed out for good, as is every older version
    }
    long overwritten = hasLastPut ? lastPutSeq : NEVER; // a later write of this same version
    hasLastPut = true;
    lastPutSeq = seq;
    long deleted = deletedAt(ts, seq);
    long pushed = pushedOutAt(seq);
    long end = Math.min(overwritten, Math.min(deleted, pushed));
    pendingStarts.add(seq);
    pendingEnds.add(end);
    if (end != NEVER) {
      lastFate = overwritten != NEVER || pushed != NEVER ? Fate.DEAD : Fate.DELETED;
      return MatchCode.SKIP;
    }
    lastFate = Fate.LIVE;
    if (policy.isCellExpired(put)) {
      // Its own TTL ran out: still live (it keeps its place among VERSIONS), never shown, and not
      // one of the candidates MIN_VERSIONS counts.
      return MatchCode.SKIP;
    }
    candidates++;
    if (candidates > policy.minVersions && policy.isExpired(ts)) {
      return MatchCode.SEEK_NEXT_COL; // older candidates are expired and beyond MIN_VERSIONS too
    }
    int trc = policy.timeRange.compare(ts);
    if (trc > 0) {
      return MatchCode.SKIP;
    }
    if (trc < 0) {
      return MatchCode.SEEK_NEXT_COL;
    }
    if (returned >= limit) {
      return MatchCode.SEEK_NEXT_COL;
    }
    returned++;
    return returned == limit ? MatchCode.INCLUDE_AND_SEEK_NEXT_COL : MatchCode.INCLUDE;
  }

  Fate lastFate() {
    return lastFate;
  }

  private void foldPending() {
    for (int i = 0; i < pendingStarts.size(); i++) {
      starts.insertSorted(pendingStarts.get(i));
      long e = pendingEnds.get(i);
      ends.insertSorted(e);
      if (e == NEVER) {
        liveNewer++;
      }
    }
    pendingStarts.clear();
    pendingEnds.clear();
  }

  /** The first sequence id after {@code seq} of an effective marker covering the put, or NEVER. */
  private long deletedAt(long ts, long seq) {
    long at = NEVER;
    for (int i = 0; i < familyTs.size(); i++) {
      long s = familySeq.get(i);
      if (familyTs.get(i) >= ts && s > seq && s < at) {
        at = s;
      }
    }
    for (int i = 0; i < familyVersionTs.size(); i++) {
      long s = familyVersionSeq.get(i);
      if (familyVersionTs.get(i) == ts && s > seq && s < at) {
        at = s;
      }
    }
    for (int i = 0; i < columnDeleteSeq.size(); i++) {
      long s = columnDeleteSeq.get(i);
      if (s > seq && s < at) {
        at = s;
      }
    }
    if (versionDeleteTs == ts) {
      for (int i = 0; i < versionDeleteSeq.size(); i++) {
        long s = versionDeleteSeq.get(i);
        if (s > seq && s < at) {
          at = s;
        }
      }
    }
    return at;
  }

  /**
   * The first sequence id at or after {@code from} at which at least VERSIONS newer versions are
   * live, or NEVER. The count only rises where an interval starts, so only {@code from} and later
   * starts need checking.
   */
  private long pushedOutAt(long from) {
    int i = starts.upperBound(from);
    int j = ends.upperBound(from);
    if (i - j >= maxVersions) {
      return from;
    }
    int n = starts.size();
    while (i < n) {
      long s = starts.get(i);
      while (i < n && starts.get(i) == s) {
        i++;
      }
      while (j < ends.size() && ends.get(j) <= s) {
        j++;
      }
      if (i - j >= maxVersions) {
        return s;
      }
    }
    return NEVER;
  }
}
