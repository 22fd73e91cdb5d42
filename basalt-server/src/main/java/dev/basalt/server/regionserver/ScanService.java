package dev.basalt.server.regionserver;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.filter.Filter;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.Region;
import dev.basalt.region.RegionScanner;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.server.protocol.CellEncoder;
import dev.basalt.server.protocol.QueryDecoder;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.NoWait;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanResponse;

/**
 * ClientService.Scan: HBase's scanner protocol over the region scanners of basalt-core.
 *
 * <p>A call either opens a scanner ({@code scan} and {@code region} set) or continues one ({@code
 * scanner_id}); both may then fetch up to {@code number_of_rows} results, stopping early once the
 * cells fetched reach {@code max_result_size} bytes (capped by the server's own limit, HBase's
 * {@code hbase.server.scanner.max.result.size}, also when the client sets none). For a client that
 * puts partial results together ({@code client_handles_partials}, every 2.x client), a row is cut
 * where the call's cells reach that size, as HBase cuts between cells: the last result is then a
 * part of its row ({@code partial_flag_per_result}) and the next call goes on with the row, so a
 * row wider than the limit never travels in one answer. Rows a filter judges whole stay whole. The
 * answer always says whether the region has more ({@code more_results_in_region}; false closes the
 * scanner here, and the client moves to the next region) and whether the whole scan has more
 * ({@code more_results}; false when the scan's row limit is reached, or when its filter is done and
 * the call returned nothing). As in HBase, a filter that is done ends its region's scanner at once,
 * and the client goes on in the next region with the filter anew, so a PageFilter pages each
 * region. A scanner never reads outside its region, because the client takes region boundaries from
 * hbase:meta.
 *
 * <p>Continuations carry {@code next_call_seq}; a mismatch means the client retried a call whose
 * answer it lost, and gets {@code OutOfOrderScannerNextException} (it then reopens). Unknown ids
 * get {@code UnknownScannerException}, except a close for a scanner the server closed itself, which
 * succeeds quietly. A read error closes the scanner and becomes {@code ScannerResetException}, so
 * the client reopens at its last row; errors that must not be retried pass through.
 *
 * <p>Heartbeats: when the client handles them, a call stops looking for rows after half of the
 * shorter of its own timeout and the scanner lease (HBase's rule), and answers with what it has,
 * perhaps nothing, flagged {@code heartbeat_message}; the client then simply calls again. Without
 * them a filter that rejects millions of rows would hold the call until the client times out.
 *
 * <p>Not done yet: cutting a single huge row by size (rows are cut by the scan's batch size only).
 */
public final class ScanService {
  static final String UNKNOWN_SCANNER = "org.apache.hadoop.hbase.UnknownScannerException";
  static final String OUT_OF_ORDER =
      "org.apache.hadoop.hbase.exceptions.OutOfOrderScannerNextException";
  static final String SCANNER_RESET = "org.apache.hadoop.hbase.exceptions.ScannerResetException";

  /** An answer and the cells that go into the response's cell block (empty without a codec). */
  public record Outcome(ScanResponse response, List<Cell> cellBlock) {}

  private final ScannerRegistry scanners;
  private final RegionLookup regions;
  private final MetaTable meta;
  private final long heartbeatMillis;
  private final long maxResultSize;

  /** HBase's default {@code hbase.server.scanner.max.result.size}: 100 MiB. */
  public static final long DEFAULT_MAX_RESULT_SIZE = 100L * 1024 * 1024;

  /**
   * @param meta serves scans of hbase:meta; null on a server that does not host it
   */
  ScanService(ScannerRegistry scanners, RegionLookup regions, MetaTable meta) {
    this(scanners, regions, meta, -1);
  }

  /**
   * @param heartbeatMillis how long a call may look for rows before it answers with a heartbeat;
   *     negative means HBase's rule (half the shorter of the call timeout and the lease)
   */
  ScanService(
      ScannerRegistry scanners, RegionLookup regions, MetaTable meta, long heartbeatMillis) {
    this(scanners, regions, meta, heartbeatMillis, DEFAULT_MAX_RESULT_SIZE);
  }

  /**
   * @param maxResultSize most cell bytes one call answers with, whatever the client asks for
   *     (HBase's {@code hbase.server.scanner.max.result.size})
   */
  ScanService(
      ScannerRegistry scanners,
      RegionLookup regions,
      MetaTable meta,
      long heartbeatMillis,
      long maxResultSize) {
    if (maxResultSize < 1) {
      throw new IllegalArgumentException("max result size " + maxResultSize + " is below 1 byte");
    }
    this.scanners = scanners;
    this.regions = regions;
    this.meta = meta;
    this.heartbeatMillis = heartbeatMillis;
    this.maxResultSize = maxResultSize;
  }

  /**
   * @param codec whether the connection carries cells in cell blocks
   * @param callTimeoutMillis the client's timeout for this call, 0 when it sent none
   */
  public Outcome scan(ScanRequest req, boolean codec, int callTimeoutMillis) throws IOException {
    long started = System.nanoTime();
    OpenScanner s;
    if (req.hasScan()) {
      s = open(req);
    } else {
      if (!req.hasScannerId()) {
        throw BasaltIOException.doNotRetry(
            "a scan call needs either a scan to open or a scanner id");
      }
      regions.checkServing(); // a scanner's region was found when it opened
      s = scanners.get(req.getScannerId());
      if (s == null) {
        if (scanners.wasClosed(req.getScannerId()) && !req.hasNextCallSeq()) {
          return new Outcome(
              ScanResponse.newBuilder().setMoreResults(false).setMoreResultsInRegion(false).build(),
              List.of());
        }
        throw new BasaltIOException(
            "scanner " + req.getScannerId() + " is unknown (closed, or idle past its lease)",
            UNKNOWN_SCANNER,
            true);
      }
    }
    if (s.inUse()) {
      NoWait.beforeWaiting("scanner " + s.id() + ", busy with another call");
    }
    synchronized (s) {
      s.begin();
      try {
        return continueScan(s, req, codec, heartbeatDeadline(req, started, callTimeoutMillis));
      } finally {
        s.end();
      }
    }
  }

  private OpenScanner open(ScanRequest req) throws IOException {
    Scan scan = QueryDecoder.toScan(req.getScan());
    int limit = req.hasLimitOfRows() && req.getLimitOfRows() > 0 ? req.getLimitOfRows() : -1;
    if (meta != null && MetaTable.isMeta(req.getRegion())) {
      return scanners.register(meta.getScanner(scan), scan, MetaTable.REGION_NAME, limit);
    }
    Region region = regions.region(req.getRegion());
    RegionScanner rs = region.getScanner(scan);
    return scanners.register(rs, scan, region.getRegionInfo().getRegionName(), limit);
  }

  /** When a call gives up looking with a heartbeat (System.nanoTime), or 0 for never. */
  private long heartbeatDeadline(ScanRequest req, long started, int callTimeoutMillis) {
    if (!req.getClientHandlesHeartbeats()) {
      return 0;
    }
    long limit = heartbeatMillis;
    if (limit < 0) {
      long timeout = callTimeoutMillis > 0 ? callTimeoutMillis : scanners.leaseMillis();
      limit = Math.min(timeout, scanners.leaseMillis()) / 2;
    }
    long deadline = started + TimeUnit.MILLISECONDS.toNanos(limit);
    return deadline == 0 ? 1 : deadline;
  }

  private Outcome continueScan(OpenScanner s, ScanRequest req, boolean codec, long deadline)
      throws IOException {
    ScanResponse.Builder b =
        ScanResponse.newBuilder()
            .setScannerId(s.id())
            .setTtl((int) Math.min(scanners.leaseMillis(), Integer.MAX_VALUE))
            .setMvccReadPoint(s.scanner().getMvccReadPoint());
    if (!req.hasScan() && req.hasNextCallSeq()) {
      if (req.getNextCallSeq() != s.nextCallSeq()) {
        throw new BasaltIOException(
            "expected next_call_seq "
                + s.nextCallSeq()
                + " for scanner "
                + s.id()
                + " but got "
                + req.getNextCallSeq()
                + " (a retried call?)",
            OUT_OF_ORDER,
            true);
      }
      s.advanceCallSeq();
    }
    // Sized for up to 16 cells per row asked for, at most 64 rows' worth: the stock client asks
    // for Integer.MAX_VALUE rows (its default caching), and a zeroed list of 16,384 slots per call
    // cost a short scan more than growing a small one.
    List<Cell> cells =
        new ArrayList<>(req.hasNumberOfRows() ? Math.min(req.getNumberOfRows(), 64) * 16 : 64);
    boolean regionDone = false;
    boolean scanDone = false;
    boolean heartbeat = false;
    if (!req.getRenew()) {
      int rows = req.hasNumberOfRows() ? req.getNumberOfRows() : Integer.MAX_VALUE;
      long asked = s.scan().getMaxResultSize();
      long maxSize = asked > 0 ? Math.min(asked, maxResultSize) : maxResultSize;
      long size = 0;
      int n = 0;
      boolean partials = req.getClientHandlesPartials();
      Filter f = s.scan().getFilter();
      try {
        while (n < rows && size < maxSize && s.rowsLeft() != 0) {
          // A client that puts partial results together gets wide rows in parts, cut where the
          // call's cells reach max_result_size (HBase's size limit between cells).
          Result r = s.scanner().next(deadline, partials ? maxSize - size : Long.MAX_VALUE);
          if (r == RegionScanner.NO_ROW_YET) {
            heartbeat = true;
            break;
          }
          if (r == null) {
            regionDone = true;
            // As HBase: a filter that is done ends the whole scan only when this call returned
            // nothing; otherwise the client goes on to the next region, whose scanner starts the
            // filter anew (PageFilter and WhileMatchFilter work per region).
            scanDone = n == 0 && f != null && f.filterAllRemaining();
            break;
          }
          n++;
          size += sizeOf(r);
          if (!r.mayHaveMoreCellsInRow() && s.rowsLeft() > 0) {
            s.rowReturned();
          }
          add(b, r, codec ? cells : null);
          if (f != null && !r.mayHaveMoreCellsInRow() && f.filterAllRemaining()) {
            // As HBase's region scanner: a filter done after this row ends the region now.
            regionDone = true;
            break;
          }
          if (deadline != 0 && System.nanoTime() - deadline > 0) {
            heartbeat = true;
            break;
          }
        }
      } catch (IOException | RuntimeException e) {
        scanners.close(s);
        if (e instanceof BasaltIOException bad && bad.isDoNotRetry()) {
          throw bad;
        }
        throw reset(s, e);
      }
      if (s.rowsLeft() == 0) {
        regionDone = true;
        scanDone = true;
      }
    }
    if (heartbeat && !regionDone) {
      b.setHeartbeatMessage(true);
    }
    b.setMoreResultsInRegion(!regionDone);
    b.setMoreResults(!scanDone);
    if (regionDone || (req.hasCloseScanner() && req.getCloseScanner())) {
      scanners.close(s);
    }
    return new Outcome(b.build(), cells);
  }

  private static BasaltIOException reset(OpenScanner s, Exception cause) {
    return new BasaltIOException(
        "scanner " + s.id() + " failed and was closed (" + cause.getMessage() + "); reopen it",
        SCANNER_RESET,
        true);
  }

  private static void add(ScanResponse.Builder b, Result r, List<Cell> cellBlock) {
    if (cellBlock != null) {
      b.addCellsPerResult(r.size());
      b.addPartialFlagPerResult(r.mayHaveMoreCellsInRow());
      r.addCellsTo(cellBlock);
    } else {
      b.addResults(CellEncoder.toResult(r, null));
    }
  }

  /** What a result costs against {@code max_result_size}: its cells' serialized bytes. */
  private static long sizeOf(Result r) {
    long size = 0;
    for (int i = 0, n = r.size(); i < n; i++) {
      size += CellUtil.serializedSize(r.cellAt(i));
    }
    return size;
  }

  /** Keeps the client's view of closed scanners consistent when the server stops. */
  void closeAll() {
    scanners.closeAll();
  }
}
