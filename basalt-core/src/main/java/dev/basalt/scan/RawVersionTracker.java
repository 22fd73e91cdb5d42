package dev.basalt.scan;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;

/**
 * Raw scans: every stored cell, markers included, with no masking; only duplicates, the version
 * count (puts only), TTL and the time range limit what comes back. docs/SEMANTICS.md section 6.
 */
final class RawVersionTracker {
  private final ScanPolicy policy;
  private final int limit;
  private boolean hasLast;
  private long lastTs;
  private byte lastType;
  private int count;

  RawVersionTracker(ScanPolicy policy, int limit) {
    this.policy = policy;
    this.limit = limit;
  }

  MatchCode check(Cell c, boolean newColumn) {
    if (newColumn) {
      hasLast = false;
      count = 0;
    }
    long ts = c.getTimestamp();
    byte type = c.getTypeByte();
    if (policy.minVersions == 0 && policy.isExpired(ts)) {
      return MatchCode.SEEK_NEXT_COL;
    }
    int trc = policy.timeRange.compare(ts);
    if (trc > 0) {
      return MatchCode.SKIP;
    }
    if (trc < 0) {
      return MatchCode.SEEK_NEXT_COL;
    }
    if (hasLast && ts == lastTs && type == lastType) {
      return MatchCode.SKIP;
    }
    if (!CellType.isDelete(type)) {
      count++;
    }
    if (count > limit) {
      return MatchCode.SEEK_NEXT_COL;
    }
    if (count <= policy.minVersions || !policy.isExpired(ts)) {
      hasLast = true;
      lastTs = ts;
      lastType = type;
      return MatchCode.INCLUDE;
    }
    return MatchCode.SEEK_NEXT_COL;
  }
}
