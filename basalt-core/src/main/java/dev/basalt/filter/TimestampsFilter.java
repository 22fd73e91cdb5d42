package dev.basalt.filter;

import dev.basalt.cell.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Returns only the versions whose timestamp is in the list. A column's versions below the smallest
 * listed timestamp are skipped at once.
 *
 * <p>With {@code canHint}, versions between listed timestamps are skipped by seeking to the next
 * listed one. As HBase warns, such a seek can step over delete markers and newer versions that the
 * read needed to see, so deleted or pushed-out versions may appear: use it only for data without
 * deletes and with no more versions than the family keeps.
 */
public class TimestampsFilter extends Filter implements HintingFilter {
  private final TreeSet<Long> timestamps;
  private final boolean canHint;
  private final long minTimestamp;

  public TimestampsFilter(List<Long> timestamps) {
    this(timestamps, false);
  }

  public TimestampsFilter(List<Long> timestamps, boolean canHint) {
    if (timestamps == null) {
      throw new IllegalArgumentException("TimestampsFilter: timestamps must not be null");
    }
    this.timestamps = new TreeSet<>();
    for (Long ts : timestamps) {
      if (ts == null || ts < 0) {
        throw new IllegalArgumentException(
            "TimestampsFilter: timestamps must be non-negative, got " + ts);
      }
      this.timestamps.add(ts);
    }
    this.canHint = canHint;
    this.minTimestamp = this.timestamps.isEmpty() ? Long.MAX_VALUE : this.timestamps.first();
  }

  /** The distinct timestamps, ascending. */
  public List<Long> getTimestamps() {
    return new ArrayList<>(timestamps);
  }

  /** The smallest timestamp asked for ({@code Long.MAX_VALUE} for an empty list). */
  public long getMin() {
    return minTimestamp;
  }

  public boolean getCanHint() {
    return canHint;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    long ts = c.getTimestamp();
    if (timestamps.contains(ts)) {
      return ReturnCode.INCLUDE;
    }
    if (ts < minTimestamp) {
      // Versions come newest first: the rest of the column is older still.
      return ReturnCode.NEXT_COL;
    }
    return canHint ? ReturnCode.SEEK_NEXT_USING_HINT : ReturnCode.SKIP;
  }

  @Override
  public Cell getNextCellHint(Cell c) {
    if (!canHint) {
      return null;
    }
    Long next = timestamps.lower(c.getTimestamp());
    return next == null ? Cells.lastOnColumn(c) : Cells.firstOnColumnAt(c, next);
  }

  @Override
  public String toString() {
    List<Long> shown = new ArrayList<>();
    for (Long ts : timestamps) {
      if (shown.size() == 5) {
        break;
      }
      shown.add(ts);
    }
    return "TimestampsFilter ("
        + shown.size()
        + "/"
        + timestamps.size()
        + "): "
        + shown
        + " canHint: "
        + canHint;
  }
}
