package dev.basalt.scan;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.schema.KeepDeletedCells;

/**
 * HBase's rules (NEW_VERSION_BEHAVIOR=false), as its ScanDeleteTracker and column trackers apply
 * them: markers mask by timestamp alone, whatever was committed first; versions are counted after
 * deletes and the time range. See docs/SEMANTICS.md section 5.
 *
 * <p>With KEEP_DELETED_CELLS=TRUE or TTL, a deleted version keeps its place among the family's
 * VERSIONS: HBase's flushes and compactions keep it and drop the versions it pushes beyond
 * VERSIONS. Basalt applies that limit at read time too, so the answer does not depend on when they
 * ran.
 */
final class ClassicVersionTracker implements VersionTracker {
  private final ScanPolicy policy;
  private final int limit;

  private boolean hasFamilyStamp;
  private long familyStamp;
  private final LongList familyVersionStamps = new LongList();

  private boolean hasColumnDelete;
  private long columnDeleteTs;
  private boolean hasVersionDelete;
  private long versionDeleteTs;
  private boolean hasLastPut;
  private long lastPutTs;
  private int count;
  private boolean lastDeleted;

  /** KEEP_DELETED_CELLS=TRUE or TTL: deleted versions count toward VERSIONS. */
  private final boolean deletedKeepTheirPlace;

  /** Distinct timestamps of the column's puts so far, deleted ones included. */
  private int stamps;

  /**
   * Versions counted toward VERSIONS so far: the counted ones and those whose per-cell TTL ran out
   * (never shown, but they keep their place, as they do in HBase until its flush drops the older).
   */
  private int places;

  private boolean lastHoldsPlace;

  /**
   * @param limit versions to let through per column (the family's limit when a filter will choose
   *     among them, else the read's)
   */
  ClassicVersionTracker(ScanPolicy policy, int limit) {
    this.policy = policy;
    this.limit = limit;
    this.deletedKeepTheirPlace = policy.keepDeletedCells != KeepDeletedCells.FALSE;
  }

  /**
   * Whether the last put given to {@link #checkPut} was one whose per-cell TTL ran out and that
   * keeps its place among VERSIONS: a compaction must keep it, or older versions would show.
   */
  boolean lastHoldsPlace() {
    return lastHoldsPlace;
  }

  /** Whether the last put given to {@link #checkPut} was masked by a delete marker. */
  boolean lastDeleted() {
    return lastDeleted;
  }

  @Override
  public void startRow() {
    hasFamilyStamp = false;
    familyVersionStamps.clear();
    startColumn();
  }

  private void startColumn() {
    hasColumnDelete = false;
    hasVersionDelete = false;
    hasLastPut = false;
    count = 0;
    stamps = 0;
    places = 0;
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
    byte type = m.getTypeByte();
    if (type == CellType.DELETE_FAMILY.code()) {
      if (!hasFamilyStamp || ts > familyStamp) {
        hasFamilyStamp = true;
        familyStamp = ts;
      }
    } else if (type == CellType.DELETE_FAMILY_VERSION.code()) {
      familyVersionStamps.add(ts);
    } else if (type == CellType.DELETE_COLUMN.code()) {
      if (!hasColumnDelete || ts > columnDeleteTs) {
        hasColumnDelete = true;
        columnDeleteTs = ts;
      }
    } else {
      // Version markers arrive just before the puts of their timestamp: keep the latest one.
      hasVersionDelete = true;
      versionDeleteTs = ts;
    }
  }

  @Override
  public MatchCode checkPut(Cell put, boolean newColumn) {
    if (newColumn) {
      startColumn();
    }
    long ts = put.getTimestamp();
    lastDeleted = false;
    lastHoldsPlace = false;
    if (hasLastPut && ts == lastPutTs) {
      return MatchCode.SKIP; // an older write of the version just decided
    }
    hasLastPut = true;
    lastPutTs = ts;
    if (deletedKeepTheirPlace && ++stamps > policy.familyMaxVersions) {
      return MatchCode.SEEK_NEXT_COL; // beyond the newest VERSIONS, as is every older version
    }
    if (policy.minVersions == 0 && policy.isExpired(ts)) {
      return MatchCode.SEEK_NEXT_COL;
    }
    if ((hasFamilyStamp && ts <= familyStamp) || (hasColumnDelete && ts <= columnDeleteTs)) {
      lastDeleted = true;
      return MatchCode.SEEK_NEXT_COL; // every older version is deleted too
    }
    if ((hasVersionDelete && versionDeleteTs == ts) || familyVersionStamps.contains(ts)) {
      lastDeleted = true;
      return MatchCode.SKIP;
    }
    int trc = policy.timeRange.compare(ts);
    if (trc > 0) {
      return MatchCode.SKIP;
    }
    if (trc < 0) {
      return MatchCode.SEEK_NEXT_COL;
    }
    if (++places > policy.familyMaxVersions) {
      return MatchCode
          .SEEK_NEXT_COL; // (only versions whose TTL ran out make this differ from count)
    }
    if (policy.isCellExpired(put)) {
      lastHoldsPlace = true;
      return MatchCode.SKIP;
    }
    count++;
    if (count > limit) {
      return MatchCode.SEEK_NEXT_COL;
    }
    if (count <= policy.minVersions || !policy.isExpired(ts)) {
      return count == limit ? MatchCode.INCLUDE_AND_SEEK_NEXT_COL : MatchCode.INCLUDE;
    }
    return MatchCode.SEEK_NEXT_COL;
  }
}
