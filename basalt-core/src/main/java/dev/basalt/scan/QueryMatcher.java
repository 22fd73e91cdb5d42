package dev.basalt.scan;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import dev.basalt.filter.Filter;
import java.io.IOException;

/**
 * Decides, cell by cell within one row of one family, what a read returns and where the scanner
 * should move: the column selection, the family's version and delete rules (through a {@link
 * VersionTracker}), and the filter, merged the way HBase merges them.
 *
 * <p>Family delete markers share the empty qualifier with the empty-qualifier column and sort among
 * its cells by timestamp. Seeking out of that column could therefore skip markers that mask other
 * columns, so there a seek is turned into a plain step.
 *
 * <p>With a filter, versions are counted before it, as HBase does (docs/SEMANTICS.md section 3):
 * under deterministic history the filter sees the versions the read would return without it, the
 * newest {@code min(maxVersions, VERSIONS)}; under classic rules it sees the newest VERSIONS and
 * the read returns the first {@code maxVersions} it accepts. A filter's hint to an older version of
 * the same column is a shortcut, not a verdict on what counts: the versions it passes over are
 * still given to the version tracker (and not to the filter), so the answer is the one without the
 * hint. HBase seeks there and never counts them, so a hinting TimestampsFilter can return versions
 * beyond the read's or the family's limit.
 *
 * <p>Not thread-safe; one per store scanner.
 */
public final class QueryMatcher {
  private final ScanPolicy policy;
  private final Filter filter;
  private final ColumnSelection columns;
  private final VersionTracker tracker;
  private final RawVersionTracker rawTracker;
  private final int versionsAfterFilter;

  private Cell currentRow;
  private Cell previous;
  private Cell filterColumn;
  private int filterCount;

  /**
   * Inside the empty-qualifier column, where a seek could skip family markers: set once the column
   * is finished (a column seek turned into steps), so its remaining puts are passed over.
   */
  private boolean emptyColumnDone;

  /**
   * A filter hint followed by stepping: one out of the empty-qualifier column (deferred until the
   * column's family markers have been seen), or one to an older version of the current column
   * (whose versions still count).
   */
  private Cell pendingHint;

  /** The hint of the last SEEK_NEXT_USING_HINT, for {@link #nextKeyHint}. */
  private Cell hint;

  /** A column began with cells skipped as expired: its first cell shown must say so. */
  private boolean columnUnannounced;

  public QueryMatcher(ScanPolicy policy, Filter filter) {
    this.policy = policy;
    this.filter = filter;
    this.columns = policy.columns == null ? null : new ColumnSelection(policy.columns);
    // With a filter, classic and raw reads limit versions again after it has chosen (as in HBase).
    if (policy.raw) {
      this.rawTracker =
          new RawVersionTracker(
              policy, filter != null ? Integer.MAX_VALUE : policy.resultMaxVersions);
      this.tracker = null;
    } else {
      int limit =
          filter != null && !policy.deterministic
              ? policy.familyMaxVersions
              : policy.resultMaxVersions;
      this.tracker =
          policy.deterministic
              ? new DeterministicVersionTracker(policy, limit)
              : new ClassicVersionTracker(policy, limit);
      this.rawTracker = null;
    }
    this.versionsAfterFilter = policy.resultMaxVersions;
  }

  public Filter getFilter() {
    return filter;
  }

  /** Prepares for the row of {@code first}. */
  public void startRow(Cell first) {
    currentRow = first;
    previous = null;
    filterColumn = null;
    filterCount = 0;
    emptyColumnDone = false;
    pendingHint = null;
    hint = null;
    columnUnannounced = false;
    if (tracker != null) {
      tracker.startRow();
    }
    if (columns != null) {
      columns.reset();
    }
  }

  public MatchCode match(Cell c) throws IOException {
    if (filterDone()) {
      return MatchCode.DONE_SCAN;
    }
    boolean newColumn;
    if (previous != null) {
      // previous is in the current row: one comparison tells both the row and the column.
      int relation = CellUtil.keyRelation(previous, c);
      if (relation == CellUtil.DIFFERENT_ROW) {
        return MatchCode.DONE;
      }
      newColumn = relation != CellUtil.SAME_COLUMN;
    } else {
      if (currentRow == null || !CellUtil.matchingRows(currentRow, c)) {
        return MatchCode.DONE;
      }
      newColumn = true;
    }
    return matchInRow(c, newColumn);
  }

  /**
   * {@link #match} for a cell the caller has already compared with the cell matched last: in the
   * same row and a different column. Scanners that stepped to the next column know it.
   */
  public MatchCode matchNextColumn(Cell c) throws IOException {
    return filterDone() ? MatchCode.DONE_SCAN : matchInRow(c, true);
  }

  /**
   * {@link #match} for a cell the caller knows to be past the current row: the row is done (or the
   * whole scan, when the filter says so).
   */
  public MatchCode matchPastRow() throws IOException {
    return filterDone() ? MatchCode.DONE_SCAN : MatchCode.DONE;
  }

  /** Whether the filter says no further row can match (the whole scan is done). */
  private boolean filterDone() throws IOException {
    return filter != null && filter.filterAllRemaining();
  }

  private MatchCode matchInRow(Cell c, boolean newColumn) throws IOException {
    previous = c;
    if (policy.raw && policy.isCellExpired(c)) {
      // Raw scans do not show a put whose own TTL ran out, nor count it (HBase skips it first).
      // The tracker has not seen the column start if this was its first cell; the next cell tells
      // it. (Other reads leave it to the version trackers: it still keeps its place there.)
      columnUnannounced |= newColumn;
      return MatchCode.SKIP;
    }
    newColumn |= columnUnannounced;
    columnUnannounced = false;
    boolean emptyQualifier = c.getQualifierLength() == 0;
    if (pendingHint != null) {
      if (CellComparator.INSTANCE.compare(c, pendingHint) >= 0) {
        pendingHint = null; // reached by stepping
      } else if (newColumn) {
        hint = pendingHint; // out of the empty column: follow the hint now
        pendingHint = null;
        return MatchCode.SEEK_NEXT_USING_HINT;
      } else if (!c.isDelete()) {
        return passOver(c); // a put the hint skips; markers are still applied below
      }
    }
    if (emptyQualifier && emptyColumnDone && !c.isDelete()) {
      return MatchCode.SKIP;
    }
    return matchCell(c, newColumn);
  }

  private MatchCode matchCell(Cell c, boolean newColumn) throws IOException {
    boolean requested = columns == null || columns.isRequested(c);
    MatchCode code;
    if (policy.raw) {
      if (!requested) {
        return skipColumn(c);
      }
      code = rawTracker.check(c, newColumn);
    } else if (c.isDelete()) {
      byte type = c.getTypeByte();
      boolean familyMarker =
          type == CellType.DELETE_FAMILY.code() || type == CellType.DELETE_FAMILY_VERSION.code();
      if (familyMarker || requested) {
        tracker.addMarker(c, newColumn);
        return MatchCode.SKIP;
      }
      return skipColumn(c);
    } else {
      if (!requested) {
        return skipColumn(c);
      }
      code = tracker.checkPut(c, newColumn);
    }
    code = adjustSeek(c, code);
    if (filter != null && code.isInclude()) {
      MatchCode versions = code;
      code = adjustSeek(c, mergeFilterResponse(c, code, filter.filterCell(c)));
      if (code == MatchCode.SEEK_NEXT_USING_HINT) {
        return followHint(c, versions, filter.getNextCellHint(c));
      }
    }
    return code;
  }

  /**
   * Where to go for a filter's hint given at {@code c}, whose version verdict was {@code versions}.
   * A hint to an older version of the same column is followed by stepping, so that the versions in
   * between still count ({@link #passOver}); when the column has no version left to give, it is
   * left at once. A hint out of the empty-qualifier column waits until its family markers are seen.
   */
  private MatchCode followHint(Cell c, MatchCode versions, Cell h) {
    boolean sameRow = h != null && CellUtil.matchingRows(h, c);
    boolean sameColumn =
        sameRow && CellUtil.matchingFamilies(h, c) && CellUtil.matchingQualifiers(h, c);
    if (sameColumn && !policy.raw) {
      if (versions == MatchCode.INCLUDE_AND_SEEK_NEXT_COL) {
        return adjustSeek(c, MatchCode.SEEK_NEXT_COL);
      }
      if (versions == MatchCode.INCLUDE_AND_SEEK_NEXT_ROW) {
        return MatchCode.SEEK_NEXT_ROW;
      }
      pendingHint = h;
      return MatchCode.SKIP;
    }
    if (sameRow && c.getQualifierLength() == 0) {
      // Family markers with older timestamps still follow in this column: step through it and
      // follow the hint afterwards.
      pendingHint = h;
      return MatchCode.SKIP;
    }
    hint = h;
    return MatchCode.SEEK_NEXT_USING_HINT;
  }

  /**
   * A put that a pending hint steps over: never returned and never shown to the filter, but a
   * version all the same, so the tracker counts it (reads with and without the hint agree).
   */
  private MatchCode passOver(Cell c) {
    if (policy.raw) {
      return MatchCode.SKIP;
    }
    MatchCode code = tracker.checkPut(c, false);
    if (code == MatchCode.SEEK_NEXT_COL || code == MatchCode.INCLUDE_AND_SEEK_NEXT_COL) {
      MatchCode leave = adjustSeek(c, MatchCode.SEEK_NEXT_COL);
      if (leave != MatchCode.SKIP) {
        pendingHint = null; // leaving the column passes the hint, which lies within it
      }
      return leave;
    }
    return MatchCode.SKIP;
  }

  /** The move past an unrequested column. */
  private MatchCode skipColumn(Cell c) {
    return adjustSeek(c, MatchCode.SEEK_NEXT_COL);
  }

  /**
   * Column seeks become row seeks when no requested column is left, and plain steps inside the
   * empty-qualifier column (where family markers live).
   */
  private MatchCode adjustSeek(Cell c, MatchCode code) {
    if (code != MatchCode.SEEK_NEXT_COL && code != MatchCode.INCLUDE_AND_SEEK_NEXT_COL) {
      return code;
    }
    boolean include = code == MatchCode.INCLUDE_AND_SEEK_NEXT_COL;
    if (columns != null && columns.nextAfter(c) == null) {
      return include ? MatchCode.INCLUDE_AND_SEEK_NEXT_ROW : MatchCode.SEEK_NEXT_ROW;
    }
    if (c.getQualifierLength() == 0) {
      emptyColumnDone = true;
      return include ? MatchCode.INCLUDE : MatchCode.SKIP;
    }
    return code;
  }

  private MatchCode mergeFilterResponse(Cell c, MatchCode code, Filter.ReturnCode response) {
    switch (response) {
      case SKIP:
        if (code == MatchCode.INCLUDE) {
          return MatchCode.SKIP;
        }
        return code == MatchCode.INCLUDE_AND_SEEK_NEXT_COL
            ? MatchCode.SEEK_NEXT_COL
            : MatchCode.SEEK_NEXT_ROW;
      case NEXT_COL:
        return code == MatchCode.INCLUDE_AND_SEEK_NEXT_ROW
            ? MatchCode.SEEK_NEXT_ROW
            : MatchCode.SEEK_NEXT_COL;
      case NEXT_ROW:
        return MatchCode.SEEK_NEXT_ROW;
      case SEEK_NEXT_USING_HINT:
        return MatchCode.SEEK_NEXT_USING_HINT;
      case INCLUDE:
        break;
      case INCLUDE_AND_NEXT_COL:
        if (code == MatchCode.INCLUDE) {
          code = MatchCode.INCLUDE_AND_SEEK_NEXT_COL;
        }
        break;
      case INCLUDE_AND_SEEK_NEXT_ROW:
        code = MatchCode.INCLUDE_AND_SEEK_NEXT_ROW;
        break;
      default:
        throw new IllegalStateException("unknown filter return code " + response);
    }
    // The filter may have rejected versions: count the ones it let through (HBase 2.6 does too).
    if (filterColumn == null || !CellUtil.matchingQualifiers(c, filterColumn)) {
      filterColumn = c;
      filterCount = 0;
    }
    filterCount++;
    if (filterCount <= versionsAfterFilter) {
      return code;
    }
    return code == MatchCode.INCLUDE_AND_SEEK_NEXT_ROW
        ? MatchCode.SEEK_NEXT_ROW
        : MatchCode.SEEK_NEXT_COL;
  }

  /**
   * True when leaving a column means going to the very next one (every column is wanted), so a
   * scanner can tell it has arrived by the column changing, without a seek key.
   */
  public boolean nextColumnIsAdjacent() {
    return columns == null;
  }

  /**
   * Where a source without delete markers may start reading {@code row}: the first requested
   * column, since before it there is nothing this read wants but family markers. Null when the read
   * wants whole families (or is raw), so every source starts at the row.
   */
  Cell firstColumnKey(byte[] row) {
    if (columns == null || policy.raw || policy.family == null) {
      return null;
    }
    return KeyValue.firstOnColumn(row, policy.family, policy.columns.first());
  }

  /** Where to seek to leave the column of {@code c}. */
  public Cell keyForNextColumn(Cell c) {
    if (columns != null) {
      byte[] next = columns.nextAfter(c);
      if (next != null) {
        return KeyValue.firstOnColumn(CellUtil.cloneRow(c), CellUtil.cloneFamily(c), next);
      }
    }
    return KeyValue.lastOnColumn(c);
  }

  /**
   * The seek key for the SEEK_NEXT_USING_HINT just returned for {@code c}: the filter's hint (asked
   * once, when the matcher decided), or one deferred out of the empty column; null for none.
   */
  public Cell nextKeyHint(Cell c) {
    Cell h = hint;
    hint = null;
    return h;
  }
}
