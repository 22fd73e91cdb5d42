package dev.basalt.region;

import dev.basalt.ops.Result;
import java.io.Closeable;
import java.io.IOException;

/**
 * Results of a scan over one region, row by row (or in slices of a row when the scan has a batch
 * size). Sees one snapshot: the region's state when the scanner opened. Not thread-safe.
 */
public interface RegionScanner extends Closeable {

  /**
   * What {@link #next(long)} returns when its deadline passed before it found a row: the scan is
   * not finished, and the next call continues where this one stopped. Compare by identity.
   */
  Result NO_ROW_YET = Result.create(java.util.List.of(), true);

  /** The next result, or null when the scan is finished. */
  Result next() throws IOException;

  /**
   * Like {@link #next()}, but gives up between rows once {@link System#nanoTime()} passes {@code
   * deadlineNanos}, returning {@link #NO_ROW_YET}. A server uses it to answer a scan whose filter
   * rejects row after row with a heartbeat instead of letting the client's call time out. A row
   * already started is always finished, so the deadline may be overrun by one row's work.
   */
  default Result next(long deadlineNanos) throws IOException {
    return next();
  }

  /**
   * Like {@link #next(long)} ({@code deadlineNanos} 0: no deadline), and also returns a row in
   * parts once its cells reach {@code maxBytes} ({@link dev.basalt.cell.CellUtil#serializedSize}):
   * a part has {@link Result#mayHaveMoreCellsInRow()} set and the next call goes on with the row.
   * This is HBase's size limit between cells, for clients that put partial results back together: a
   * row wider than a client's {@code max_result_size} no longer travels in one response. A part
   * holds at least one cell, so it may pass {@code maxBytes} by that cell. Rows a scan's filter
   * judges whole ({@code hasFilterRow}) are never cut.
   */
  default Result next(long deadlineNanos, long maxBytes) throws IOException {
    return deadlineNanos == 0 ? next() : next(deadlineNanos);
  }

  /** The MVCC read point this scanner reads at. */
  long getMvccReadPoint();

  @Override
  void close();
}
