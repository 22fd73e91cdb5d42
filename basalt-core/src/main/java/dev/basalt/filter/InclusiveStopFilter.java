package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;

/**
 * Ends the scan after the stop row, including the stop row itself; in a reversed scan, after the
 * rows down to it.
 */
public class InclusiveStopFilter extends Filter {
  private final byte[] stopRowKey;
  private boolean done;

  public InclusiveStopFilter(byte[] stopRowKey) {
    if (stopRowKey == null) {
      throw new IllegalArgumentException("InclusiveStopFilter: stop row must not be null");
    }
    this.stopRowKey = stopRowKey;
  }

  public byte[] getStopRowKey() {
    return stopRowKey;
  }

  @Override
  public boolean filterRowKey(Cell firstRowCell) {
    if (done) {
      return true;
    }
    int cmp = Cells.compareRow(firstRowCell, stopRowKey);
    done = isReversed() ? cmp < 0 : cmp > 0;
    return done;
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    return done ? ReturnCode.NEXT_ROW : ReturnCode.INCLUDE;
  }

  @Override
  public boolean filterAllRemaining() {
    return done;
  }

  @Override
  public String toString() {
    return "InclusiveStopFilter " + Bytes.toStringBinary(stopRowKey);
  }
}
