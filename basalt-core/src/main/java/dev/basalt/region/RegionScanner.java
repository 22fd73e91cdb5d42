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

  /** The MVCC read point this scanner reads at. */
  long getMvccReadPoint();

  @Override
  void close();
}
