package dev.basalt.ops;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.cell.KeyValue;
import java.util.List;

/**
 * Atomically adds to 8-byte big-endian counters in one row and returns their new values. A missing
 * counter counts as 0. Adding a column twice keeps the last amount.
 */
public class Increment extends Mutation {
  private TimeRange timeRange = TimeRange.allTime();
  private boolean returnResults = true;

  public Increment(byte[] row) {
    super(row, KeyValue.LATEST_TIMESTAMP);
  }

  public Increment addColumn(byte[] family, byte[] qualifier, long amount) {
    checkFamily(family);
    byte[] q = qualifier == null ? Bytes.EMPTY : qualifier;
    List<Cell> cells = familyMap.get(family);
    if (cells != null) {
      cells.removeIf(c -> CellUtil.matchingQualifier(c, q));
    }
    addCell(family, newCell(family, q, ts, CellType.PUT, Bytes.toBytes(amount)));
    return this;
  }

  /** Only versions in this range count as the current value. */
  public Increment setTimeRange(long min, long max) {
    this.timeRange = TimeRange.between(min, max);
    return this;
  }

  public TimeRange getTimeRange() {
    return timeRange;
  }

  /** Whether the new values are returned (default true). */
  public Increment setReturnResults(boolean returnResults) {
    this.returnResults = returnResults;
    return this;
  }

  public boolean isReturnResults() {
    return returnResults;
  }

  @Override
  public Increment setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }

  @Override
  public Increment setTTL(long ttl) {
    super.setTTL(ttl);
    return this;
  }
}
