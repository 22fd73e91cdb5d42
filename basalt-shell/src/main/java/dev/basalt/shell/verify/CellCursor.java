package dev.basalt.shell.verify;

import java.io.IOException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The cells of one side's scan, one at a time in scan order, across the results the client hands
 * over (whole rows, batches of a row, or partial rows: the cursor does not care where a result
 * ends). Holds one result at a time. Not thread-safe.
 */
final class CellCursor implements AutoCloseable {
  private static final Cell[] NONE = new Cell[0];

  private final ResultScanner scanner;
  private Cell[] cells = NONE;
  private int index;
  private boolean exhausted;

  CellCursor(ResultScanner scanner) throws IOException {
    this.scanner = scanner;
    fill();
  }

  /** Whether there is a current cell. */
  boolean hasCell() {
    return !exhausted;
  }

  /** The current cell; only while {@link #hasCell()}. */
  Cell cell() {
    return cells[index];
  }

  /** Moves to the next cell, fetching the next result when this one is used up. */
  void advance() throws IOException {
    if (++index >= cells.length) {
      fill();
    }
  }

  /** Whether the current cell belongs to the row {@code row[off, off+len)}. */
  boolean onRow(byte[] row, int off, int len) {
    if (exhausted) {
      return false;
    }
    Cell c = cells[index];
    return Bytes.equals(c.getRowArray(), c.getRowOffset(), c.getRowLength(), row, off, len);
  }

  private void fill() throws IOException {
    index = 0;
    while (true) {
      Result r = scanner.next();
      if (r == null) {
        exhausted = true;
        cells = NONE;
        return;
      }
      Cell[] raw = r.rawCells();
      if (raw != null && raw.length > 0) {
        cells = raw;
        return;
      }
    }
  }

  @Override
  public void close() {
    scanner.close();
  }
}
