package dev.basalt.scan;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.ops.Scan;
import dev.basalt.ops.TimeRange;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.KeepDeletedCells;
import java.util.NavigableSet;

/**
 * Everything that decides which cells of one family a read returns: the family's version rules and
 * the read's options, resolved once per store scanner. Immutable.
 */
public final class ScanPolicy {
  final int familyMaxVersions;
  final int minVersions;
  final KeepDeletedCells keepDeletedCells;
  final boolean deterministic;
  final boolean raw;
  final TimeRange timeRange;

  /** Versions returned per column: min(read, family), or the read's for raw scans. */
  final int resultMaxVersions;

  /** Cells with a timestamp below this are expired (Long.MIN_VALUE: no TTL). */
  final long oldestUnexpiredTs;

  /** Requested qualifiers, or null for the whole family. */
  final NavigableSet<byte[]> columns;

  /** The family read, or null where it does not matter (compactions). */
  final byte[] family;

  /** The clock of the read or compaction, for per-cell TTLs (Long.MIN_VALUE: none expires). */
  final long now;

  ScanPolicy(
      int familyMaxVersions,
      int minVersions,
      KeepDeletedCells keepDeletedCells,
      boolean deterministic,
      boolean raw,
      TimeRange timeRange,
      int resultMaxVersions,
      long oldestUnexpiredTs,
      NavigableSet<byte[]> columns,
      long now) {
    this(
        familyMaxVersions,
        minVersions,
        keepDeletedCells,
        deterministic,
        raw,
        timeRange,
        resultMaxVersions,
        oldestUnexpiredTs,
        columns,
        null,
        now);
  }

  private ScanPolicy(
      int familyMaxVersions,
      int minVersions,
      KeepDeletedCells keepDeletedCells,
      boolean deterministic,
      boolean raw,
      TimeRange timeRange,
      int resultMaxVersions,
      long oldestUnexpiredTs,
      NavigableSet<byte[]> columns,
      byte[] family,
      long now) {
    this.family = family;
    this.now = now;
    this.familyMaxVersions = familyMaxVersions;
    this.minVersions = minVersions;
    this.keepDeletedCells = keepDeletedCells;
    this.deterministic = deterministic;
    this.raw = raw;
    this.timeRange = timeRange;
    this.resultMaxVersions = resultMaxVersions;
    this.oldestUnexpiredTs = oldestUnexpiredTs;
    this.columns = columns;
  }

  /**
   * The policy for reading {@code family} with {@code scan} at wall-clock time {@code now}.
   *
   * @param columns the requested qualifiers of this family, or null for all
   */
  public static ScanPolicy forRead(
      ColumnFamilyDescriptor family, Scan scan, NavigableSet<byte[]> columns, long now) {
    long ttl = family.getTimeToLiveMillis();
    long oldest = ttl == Long.MAX_VALUE || now - ttl > now ? Long.MIN_VALUE : now - ttl;
    int resultMax =
        scan.isRaw()
            ? scan.getMaxVersions()
            : Math.min(scan.getMaxVersions(), family.getMaxVersions());
    return new ScanPolicy(
        family.getMaxVersions(),
        family.getMinVersions(),
        family.getKeepDeletedCells(),
        family.isNewVersionBehavior(),
        scan.isRaw(),
        scan.getTimeRange(family.getName()),
        resultMax,
        oldest,
        columns == null || columns.isEmpty() ? null : columns,
        family.getName(),
        now);
  }

  boolean isExpired(long ts) {
    return ts < oldestUnexpiredTs;
  }

  /**
   * Whether a put's own TTL ran out (HBase's TTL tag): no read shows it, whatever MIN_VERSIONS
   * says, but it keeps its place among the column's versions (docs/SEMANTICS.md section 3).
   */
  boolean isCellExpired(Cell c) {
    return c.getTtl() != KeyValue.NO_TTL && CellUtil.isTtlExpired(c, now);
  }

  /** Whether a delete marker with this timestamp masks cells for this read. */
  boolean isMarkerEffective(long markerTs) {
    if (keepDeletedCells == KeepDeletedCells.FALSE) {
      // Classic HBase applies markers in or after the range; deterministic mode applies all.
      // The two agree on every returned cell; only deterministic version counting can tell.
      return deterministic || timeRange.withinOrAfterTimeRange(markerTs);
    }
    return timeRange.withinTimeRange(markerTs);
  }
}
