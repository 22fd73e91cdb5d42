package dev.basalt.scan;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellComparator;
import dev.basalt.cell.KeyValue;
import java.io.IOException;

/**
 * Shows only the rows {@code [startRow, stopRow)} of another scanner (an empty bound is open).
 * After a split, each daughter reads its half of the parent's store files through one of these, so
 * that a split takes no rewriting. Every operation of {@link KeyValueScanner} keeps its meaning
 * within the range. Not thread-safe.
 */
public final class RowRangeScanner implements KeyValueScanner {
  private final KeyValueScanner inner;
  private final byte[] startRow;
  private final byte[] stopRow;
  private final KeyValue firstKey;
  private final KeyValue stopKey;
  private boolean exhausted;

  public RowRangeScanner(KeyValueScanner inner, byte[] startRow, byte[] stopRow) {
    this.inner = inner;
    this.startRow = startRow;
    this.stopRow = stopRow;
    this.firstKey = KeyValue.firstOnRow(startRow);
    this.stopKey = stopRow.length == 0 ? null : KeyValue.firstOnRow(stopRow);
  }

  private boolean beforeStart(Cell c) {
    return startRow.length > 0
        && Bytes.compareTo(
                c.getRowArray(), c.getRowOffset(), c.getRowLength(), startRow, 0, startRow.length)
            < 0;
  }

  private boolean atOrAfterStop(Cell c) {
    return stopRow.length > 0
        && Bytes.compareTo(
                c.getRowArray(), c.getRowOffset(), c.getRowLength(), stopRow, 0, stopRow.length)
            >= 0;
  }

  @Override
  public Cell peek() {
    if (exhausted) {
      return null;
    }
    Cell c = inner.peek();
    return c == null || atOrAfterStop(c) || beforeStart(c) ? null : c;
  }

  @Override
  public Cell next() throws IOException {
    Cell c = peek();
    if (c != null) {
      inner.next();
    }
    return c;
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    exhausted = false;
    inner.seek(CellComparator.INSTANCE.compare(key, firstKey) < 0 ? firstKey : key);
    return peek() != null;
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    exhausted = false;
    inner.reseek(CellComparator.INSTANCE.compare(key, firstKey) < 0 ? firstKey : key);
    return peek() != null;
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    exhausted = false;
    Cell bound =
        stopKey != null && CellComparator.INSTANCE.compareRows(key, stopKey) > 0 ? stopKey : key;
    inner.seekToPreviousRow(bound);
    return peek() != null;
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    exhausted = false;
    if (stopKey != null && CellComparator.INSTANCE.compareRows(key, stopKey) >= 0) {
      inner.seekToPreviousRow(stopKey);
    } else if (CellComparator.INSTANCE.compare(key, firstKey) < 0) {
      exhausted = true; // before the range: nothing at or before it here
      return false;
    } else {
      inner.backwardSeek(key);
    }
    return peek() != null;
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    exhausted = false;
    if (stopKey == null) {
      inner.seekToLastRow();
    } else {
      inner.seekToPreviousRow(stopKey);
    }
    return peek() != null;
  }

  @Override
  public long getScannerOrder() {
    return inner.getScannerOrder();
  }

  @Override
  public void close() {
    inner.close();
  }
}
