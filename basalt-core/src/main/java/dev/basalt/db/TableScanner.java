package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.ReadPointPin;
import dev.basalt.region.Region;
import dev.basalt.region.RegionClosedException;
import dev.basalt.region.RegionScanner;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scan over a whole table: walks its regions in key order (reversed: descending), one region
 * scanner at a time, so that the caller sees one stream of results as from a single region.
 *
 * <p><b>Snapshot.</b> When the scanner opens it pins every region its row range touches ({@link
 * dev.basalt.region.Region#pinReadPoint}: read point, clock reading, memstores and store files),
 * and opens each region's scanner on its pin when it gets there: the scan sees the table as it was
 * when it opened, whatever flushes and compactions happen meanwhile (a stronger promise than
 * HBase's, where each region is read as of when the scan reaches it). A region replaced meanwhile
 * (split, merge, or reopened by a schema change) is read as of when the scan reaches it.
 *
 * <p><b>Bounds and counts.</b> Each region scanner is given the scan's bounds, starting after the
 * last region read (so a region replaced by one that covers rows already read never repeats them),
 * and the rows still allowed by the scan's limit. Rows never straddle regions, so a row sent in
 * several partial results (batch) comes from one region. The filter object is shared by the regions
 * in turn, as its state belongs to the whole scan: a filter that is done ({@code
 * filterAllRemaining}) ends the scan.
 *
 * <p>Not thread-safe (as any scanner).
 */
final class TableScanner implements ResultScanner {
  private final LiveTables tables;
  private final TableName name;
  private final Scan scan;
  private final boolean reversed;
  private final byte[] stopRow;
  private final boolean includeStopRow;
  private final int limit;

  /** By region instance: a region reopened under the same name (schema change) is not pinned. */
  private final Map<Region, ReadPointPin> pins = new IdentityHashMap<>();

  /** Where the next region's scan starts: a row key, or empty for the scan's own start. */
  private byte[] cursor;

  private boolean cursorSet;
  private ServedRegion current;
  private RegionScanner scanner;
  private int rows;
  private boolean lastPartial;
  private boolean done;

  TableScanner(LiveTables tables, TableName name, Scan scan) throws IOException {
    this.tables = tables;
    this.name = name;
    this.scan = scan;
    this.reversed = scan.isReversed();
    this.stopRow = scan.getStopRow();
    this.includeStopRow = scan.includeStopRow();
    this.limit = scan.getLimit();
    pinRegionsInRange();
    try {
      // The first region opens now, so that a bad scan (an unknown family, ...) fails here.
      done = !openNextRegion();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Pins every region the scan's rows can be in (waiting out a table change in progress). */
  private void pinRegionsInRange() throws IOException {
    byte[] start = scan.getStartRow();
    byte[] low = reversed ? stopRow : start;
    byte[] high = reversed ? start : stopRow;
    long deadline = tables.deadline();
    while (true) {
      LiveTable t = tables.requireEnabled(name);
      List<ServedRegion> touched = t.regions().overlapping(low, high);
      ServedRegion failed = null;
      RegionClosedException closed = null;
      for (ServedRegion r : touched) {
        try {
          pins.put(r.region(), r.region().pinReadPoint());
        } catch (RegionClosedException e) {
          failed = r;
          closed = e;
          break;
        }
      }
      if (failed == null) {
        return;
      }
      releasePins();
      tables.awaitChange(t, failed, closed, deadline);
    }
  }

  @Override
  public Result next() throws IOException {
    while (!done) {
      if (limit > 0 && rows >= limit && !lastPartial) {
        break;
      }
      if (scanner == null && !openNextRegion()) {
        break;
      }
      Result r = scanner.next();
      if (r != null) {
        if (!lastPartial) {
          rows++;
        }
        lastPartial = r.mayHaveMoreCellsInRow();
        return r;
      }
      scanner.close();
      scanner = null;
      RegionInfo info = current.info();
      if (lastRegion(info) || (scan.getFilter() != null && scan.getFilter().filterAllRemaining())) {
        break;
      }
      cursor = reversed ? info.getStartKey() : info.getEndKey();
      cursorSet = true;
    }
    close();
    return null;
  }

  /** Whether no row after {@code info}'s (in scan order) can be in the scan. */
  private boolean lastRegion(RegionInfo info) {
    if (!reversed) {
      byte[] end = info.getEndKey();
      if (end.length == 0) {
        return true;
      }
      if (stopRow.length == 0) {
        return false;
      }
      int c = Bytes.compareTo(stopRow, end);
      return includeStopRow ? c < 0 : c <= 0;
    }
    byte[] start = info.getStartKey();
    return start.length == 0 || (stopRow.length > 0 && Bytes.compareTo(stopRow, start) >= 0);
  }

  /** Opens the scanner of the region at the cursor; false when there is none. */
  private boolean openNextRegion() throws IOException {
    long deadline = tables.deadline();
    while (true) {
      LiveTable t = tables.requireEnabled(name);
      ServedRegion r = locate(t.regions());
      if (r == null) {
        return false;
      }
      Scan s = regionScan();
      ReadPointPin pin = pins.remove(r.region());
      try {
        scanner = pin != null ? r.region().getScanner(s, pin) : r.region().getScanner(s);
        current = r;
        return true;
      } catch (RegionClosedException e) {
        tables.awaitChange(t, r, e, deadline);
      } finally {
        if (pin != null) {
          pin.close();
        }
      }
    }
  }

  private ServedRegion locate(RegionMap regions) {
    if (!cursorSet) {
      byte[] start = scan.getStartRow();
      if (reversed && start.length == 0) {
        return regions.last();
      }
      return regions.locate(start);
    }
    return reversed ? regions.locateBefore(cursor) : regions.locate(cursor);
  }

  /** The scan for the next region: after the regions read so far, with the rows still allowed. */
  private Scan regionScan() {
    Scan s = new Scan(scan);
    if (cursorSet) {
      // Forwards the cursor is the first row not read yet; reversed it is the last row read past.
      s.withStartRow(cursor, !reversed);
      s.withStopRow(stopRow, includeStopRow);
    }
    if (limit > 0) {
      s.setLimit(limit - rows);
    }
    return s;
  }

  private void releasePins() {
    for (ReadPointPin p : pins.values()) {
      p.close();
    }
    pins.clear();
  }

  @Override
  public void close() {
    done = true;
    if (scanner != null) {
      scanner.close();
      scanner = null;
    }
    releasePins();
  }
}
