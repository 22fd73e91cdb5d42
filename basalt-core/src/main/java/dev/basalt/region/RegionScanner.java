package dev.basalt.region;

import dev.basalt.ops.Result;
import java.io.Closeable;
import java.io.IOException;

/**
 * Results of a scan over one region, row by row (or in slices of a row when the scan has a batch
 * size). Sees one snapshot: the region's state when the scanner opened. Not thread-safe.
 */
public interface RegionScanner extends Closeable {

  /** The next result, or null when the scan is finished. */
  Result next() throws IOException;

  /** The MVCC read point this scanner reads at. */
  long getMvccReadPoint();

  @Override
  void close();
}
