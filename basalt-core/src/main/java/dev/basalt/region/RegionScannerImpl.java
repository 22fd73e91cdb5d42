package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.filter.Filter;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.scan.QueryMatcher;
import dev.basalt.scan.ScanPolicy;
import dev.basalt.scan.StoreScanner;
import dev.basalt.schema.RegionInfo;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks a region's rows for one scan: picks the next row among the stores (lowest forwards, highest
 * reversed), applies the row bounds and the row-level filter steps, and gathers the row's cells
 * from each store in family order, slicing wide rows when the scan has a batch size. Not
 * thread-safe.
 */
final class RegionScannerImpl implements RegionScanner {
  private final List<StoreScanner> stores = new ArrayList<>();
  private final Runnable onClose;
  private final Filter filter;
  private final long readPoint;
  private final boolean reversed;
  private final byte[] stopRow;
  private final boolean includeStopRow;
  private final byte[] regionStart;
  private final byte[] regionEnd;
  private final int limit;
  private final int batch;

  private final List<Cell> carried = new ArrayList<>(1);

  /** Cells of the last row returned, the size to start the next row's list at (bounded). */
  private int lastRowCells = 10;

  private List<Cell> rowCells = new ArrayList<>(16);

  private static final int MAX_ROW_CELLS_HINT = 1024;

  /** A cell of the row being gathered (its row is compared, never copied); null between rows. */
  private Cell currentRow;

  private int storeIndex;
  private boolean rowCounted;
  private Region countedIn; // null: a scanner whose reads the region does not count
  private int rowsReturned;
  private boolean done;

  /** A deadline (System.nanoTime) set by {@link #next(long)} for the call in progress. */
  private long deadline;

  private boolean hasDeadline;

  /** Most bytes the result in progress may hold before the row is cut (see next(long, long)). */
  private long maxBytes = Long.MAX_VALUE;

  private boolean closed;

  /**
   * @param onClose run once when the scanner closes, or null
   */
  RegionScannerImpl(Region region, Scan scan, long readPoint, Runnable onClose) throws IOException {
    this(region, scan, readPoint, region.services().clock().currentTimeMillis(), null, onClose);
  }

  /**
   * A scanner of the region as {@code pin} holds it: its read point, clock and store contents.
   *
   * @param onClose run once when the scanner closes, or null
   */
  RegionScannerImpl(Region region, Scan scan, ReadPointPin pin, Runnable onClose)
      throws IOException {
    this(region, scan, pin.readPoint(), pin.now(), pin, onClose);
  }

  private RegionScannerImpl(
      Region region, Scan scan, long readPoint, long now, ReadPointPin pin, Runnable onClose)
      throws IOException {
    this.onClose = onClose;
    this.readPoint = readPoint;
    this.reversed = scan.isReversed();
    this.filter = scan.getFilter();
    this.limit = scan.getLimit();
    this.batch = scan.getBatch();
    this.stopRow = scan.getStopRow();
    this.includeStopRow = scan.includeStopRow();
    RegionInfo info = region.getRegionInfo();
    this.regionStart = info.getStartKey();
    this.regionEnd = info.getEndKey();
    if (filter != null) {
      filter.setReversed(reversed);
      if (batch > 0 && filter.hasFilterRow()) {
        // HBase's client refuses this combination itself (IncompatibleFilterException, a
        // RuntimeException that cannot travel back from a server), so the server says it with
        // the do-not-retry class, and the message names the cause.
        throw BasaltIOException.doNotRetry(
            "IncompatibleFilterException: a scan with a batch size cannot use a filter that"
                + " filters whole rows ("
                + filter.getClass().getSimpleName()
                + ")");
      }
    }
    byte[] start = scan.getStartRow();
    boolean includeStart = scan.includeStartRow();
    if (!reversed && Bytes.compareTo(start, regionStart) < 0) {
      start = regionStart;
      includeStart = true;
    }
    if (reversed
        && regionEnd.length > 0
        && (start.length == 0 || Bytes.compareTo(start, regionEnd) >= 0)) {
      start = regionEnd;
      includeStart = false;
    }
    try {
      for (Store store : region.storesFor(scan)) {
        ScanPolicy policy =
            ScanPolicy.forRead(
                store.family(), scan, scan.getFamilyMap().get(store.familyName()), now);
        stores.add(
            new StoreScanner(
                pin == null
                    ? store.scanners(readPoint, FileFilters.forRead(scan, store.family(), now))
                    : store.scanners(
                        pin.view(store), readPoint, FileFilters.forRead(scan, store.family(), now)),
                new QueryMatcher(policy, filter),
                start,
                includeStart,
                reversed,
                scan.getMaxResultsPerColumnFamily(),
                scan.getRowOffsetPerColumnFamily(),
                scan.isGetScan()));
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Counts each row this scanner returns (once, however many slices) and its cells in the region's
   * scan counters, and lets the region know when the scanner closes (see {@link
   * Region#scannerClosed}).
   */
  RegionScannerImpl countReadsIn(Region region) {
    this.countedIn = region;
    return this;
  }

  @Override
  public long getMvccReadPoint() {
    return readPoint;
  }

  @Override
  public Result next(long deadlineNanos) throws IOException {
    deadline = deadlineNanos;
    hasDeadline = true;
    try {
      return next();
    } finally {
      hasDeadline = false;
    }
  }

  @Override
  public Result next(long deadlineNanos, long maxBytes) throws IOException {
    // Rows a filter judges whole are not cut: filterRow must see every cell (as HBase).
    this.maxBytes =
        filter != null && filter.hasFilterRow() ? Long.MAX_VALUE : Math.max(1, maxBytes);
    try {
      return deadlineNanos == 0 ? next() : next(deadlineNanos);
    } finally {
      this.maxBytes = Long.MAX_VALUE;
    }
  }

  private boolean pastDeadline() {
    return hasDeadline && System.nanoTime() - deadline > 0;
  }

  @Override
  public Result next() throws IOException {
    // One list per scanner, cleared per row: a Result copies its cells out (Result.create), so the
    // list never escapes, and a short scan's rows cost no list each. A list that grew for a wide
    // row is dropped afterwards rather than kept for the scanner's life.
    List<Cell> out = rowCells;
    if (out.size() > MAX_ROW_CELLS_HINT) {
      out = new ArrayList<>(lastRowCells);
      rowCells = out;
    }
    out.clear();
    out.addAll(carried);
    carried.clear();
    // With a batch size, gather one cell more than a slice holds: if it exists, the slice is
    // partial and the extra cell starts the next one; if not, the slice ends the row. A batch of
    // Integer.MAX_VALUE (CopyTable's) is no limit: no row has that many cells in one Java list.
    int limit = batch > 0 && batch < Integer.MAX_VALUE ? batch + 1 : Integer.MAX_VALUE;
    while (!done) {
      if (currentRow == null && !startNextRow()) {
        if (!done) {
          return NO_ROW_YET; // past the deadline, between rows
        }
        break;
      }
      int keep = -1; // cells of a part to return; the rest start the next part
      long room = maxBytes - bytesOf(out); // a carried cell counts against the part
      if (room <= 0) {
        keep = partEnd(out); // the carried cell alone reached the size limit
      } else if (!collect(out, limit, room)) {
        keep = out.size() >= limit ? batch : partEnd(out);
      }
      if (keep >= 0) {
        carried.addAll(out.subList(keep, out.size()));
        return emit(new ArrayList<>(out.subList(0, keep)), true);
      }
      currentRow = null;
      // As in HBase, whole-row filtering sees only rows that still have cells (so rows emptied by
      // other filters do not count, e.g. for a PageFilter), and never rows already sent in parts.
      if (filter != null && !out.isEmpty() && !rowCounted) {
        if (filter.hasFilterRow()) {
          filter.filterRowCells(out);
        }
        if (!out.isEmpty() && filter.filterRow()) {
          out.clear();
        }
      }
      if (!out.isEmpty()) {
        return emit(out, false);
      }
      if (anyStoreDone()) {
        done = true;
      } else if (pastDeadline()) {
        return NO_ROW_YET;
      }
    }
    return null;
  }

  private Result emit(List<Cell> cells, boolean partial) {
    lastRowCells = Math.min(cells.size(), MAX_ROW_CELLS_HINT);
    boolean firstPart = !rowCounted;
    if (firstPart) {
      rowCounted = true;
      rowsReturned++;
    }
    if (countedIn != null) {
      countedIn.scanned(firstPart, cells.size());
    }
    return Result.create(cells, partial);
  }

  /**
   * Finds the next row, applies bounds, limit and row-key filtering; false at the end (then {@code
   * done}) or when the deadline passed while skipping rows (then not {@code done}).
   */
  private boolean startNextRow() throws IOException {
    for (boolean skipped = false; ; skipped = true) {
      if (skipped && pastDeadline()) {
        return false;
      }
      if (limit > 0 && rowsReturned >= limit) {
        done = true;
        return false;
      }
      if (anyStoreDone() || (filter != null && filter.filterAllRemaining())) {
        done = true;
        return false;
      }
      Cell first = nextRowCell();
      if (first == null || pastStop(first)) {
        done = true;
        return false;
      }
      if (filter != null) {
        filter.reset();
        if (filter.filterRowKey(first)) {
          for (StoreScanner s : stores) {
            Cell p = s.peek();
            if (p != null && CellUtil.matchingRows(p, first)) {
              s.skipRow(p);
            }
          }
          continue;
        }
      }
      currentRow = first;
      storeIndex = 0;
      rowCounted = false;
      return true;
    }
  }

  /**
   * At the size limit: {@code out}'s size when the row goes on past it, else -1. One cell more is
   * fetched to tell (it starts the next part), so that only parts followed by more of their row are
   * flagged partial.
   */
  private int partEnd(List<Cell> out) throws IOException {
    int n = out.size();
    boolean rowFinished = collect(out, n + 1, Long.MAX_VALUE);
    return rowFinished && out.size() == n ? -1 : n;
  }

  /**
   * The cells' bytes ({@link CellUtil#serializedSize}); {@code out} holds a carried cell at most.
   */
  private static long bytesOf(List<Cell> out) {
    long n = 0;
    for (int i = 0; i < out.size(); i++) {
      n += CellUtil.serializedSize(out.get(i));
    }
    return n;
  }

  /**
   * Gathers the current row's cells store by store; false when {@code out} reached {@code maxCells}
   * or the cells appended reached {@code maxBytes}, and the row may have more.
   */
  private boolean collect(List<Cell> out, int maxCells, long maxBytes) throws IOException {
    long collected = 0;
    for (; storeIndex < stores.size(); storeIndex++) {
      StoreScanner s = stores.get(storeIndex);
      Cell p = s.peek();
      if (p == null || !CellUtil.matchingRows(p, currentRow)) {
        continue;
      }
      boolean storeFinishedRow = s.nextInRow(out, maxCells, maxBytes - collected);
      collected += s.addedBytes();
      if (!storeFinishedRow || out.size() >= maxCells || collected >= maxBytes) {
        return false;
      }
    }
    return true;
  }

  private boolean anyStoreDone() {
    for (StoreScanner s : stores) {
      if (s.isScanDone()) {
        return true;
      }
    }
    return false;
  }

  /** The first cell of the next row in scan order, or null. */
  private Cell nextRowCell() {
    Cell best = null;
    for (StoreScanner s : stores) {
      Cell p = s.peek();
      if (p == null) {
        continue;
      }
      if (best == null) {
        best = p;
        continue;
      }
      int c =
          Bytes.compareTo(
              p.getRowArray(),
              p.getRowOffset(),
              p.getRowLength(),
              best.getRowArray(),
              best.getRowOffset(),
              best.getRowLength());
      if (reversed ? c > 0 : c < 0) {
        best = p;
      }
    }
    return best;
  }

  private boolean pastStop(Cell c) {
    if (!reversed) {
      if (regionEnd.length > 0 && compareRow(c, regionEnd) >= 0) {
        return true;
      }
      if (stopRow.length == 0) {
        return false;
      }
      int cmp = compareRow(c, stopRow);
      return includeStopRow ? cmp > 0 : cmp >= 0;
    }
    if (compareRow(c, regionStart) < 0) {
      return true;
    }
    if (stopRow.length == 0) {
      return false;
    }
    int cmp = compareRow(c, stopRow);
    return includeStopRow ? cmp < 0 : cmp <= 0;
  }

  private static int compareRow(Cell c, byte[] row) {
    return Bytes.compareTo(c.getRowArray(), c.getRowOffset(), c.getRowLength(), row, 0, row.length);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (StoreScanner s : stores) {
      s.close();
    }
    done = true;
    if (onClose != null) {
      onClose.run();
    }
    if (countedIn != null && rowsReturned > 0) {
      countedIn.scannerClosed();
    }
  }
}
