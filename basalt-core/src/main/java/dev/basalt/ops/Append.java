package dev.basalt.ops;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;

/** Atomically appends bytes to values in one row and returns the new values. */
public class Append extends Mutation {
  private TimeRange timeRange = TimeRange.allTime();
  private boolean returnResults = true;

  public Append(byte[] row) {
    super(row, KeyValue.LATEST_TIMESTAMP);
  }

  public Append addColumn(byte[] family, byte[] qualifier, byte[] value) {
    addCell(
        checkFamily(family),
        newCell(
            family,
            qualifier == null ? Bytes.EMPTY : qualifier,
            ts,
            CellType.PUT,
            value == null ? Bytes.EMPTY : value));
    return this;
  }

  /** Only versions in this range count as the current value. */
  public Append setTimeRange(long min, long max) {
    this.timeRange = TimeRange.between(min, max);
    return this;
  }

  public TimeRange getTimeRange() {
    return timeRange;
  }

  public Append setReturnResults(boolean returnResults) {
    this.returnResults = returnResults;
    return this;
  }

  public boolean isReturnResults() {
    return returnResults;
  }

  @Override
  public Append setDurability(Durability d) {
    super.setDurability(d);
    return this;
  }

  @Override
  public Append setTTL(long ttl) {
    super.setTTL(ttl);
    return this;
  }
}
