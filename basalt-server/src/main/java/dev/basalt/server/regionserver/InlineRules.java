package dev.basalt.server.regionserver;

import dev.basalt.ops.Durability;
import dev.basalt.region.Region;
import dev.basalt.server.meta.MetaTable;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;

/**
 * Which ClientService calls the network thread runs itself (see {@link
 * dev.basalt.server.rpc.InlineRule}): the short ones, whose hand-over to a handler thread would
 * cost about as much as the call.
 *
 * <ul>
 *   <li>Get: always (reads take no row locks; a get that would wait for a closing region is handed
 *       over by {@link dev.basalt.util.NoWait}).
 *   <li>Mutate: unless the edit is forced to the device (FSYNC_WAL, by the mutation or its table's
 *       default), which waits for the disk by design. Row locks, memory and store-file limits are
 *       left to NoWait.
 *   <li>Scan: a call that asks for at most {@link #MAX_INLINE_SCAN_ROWS} rows (closing a scanner
 *       asks for none). Longer scan calls go to handlers, so that long scans of one connection run
 *       in parallel and do not hold up its gets.
 *   <li>Multi: never (batches grow with the client's write buffer).
 * </ul>
 */
final class InlineRules {
  /**
   * Most rows a scan call may ask for and still run on the network thread: about the work of a
   * small multi-get (and HBase 0.96-1.x's default scanner caching). The stock 2.x client asks for
   * as many rows as fit in 2 MB unless the application sets the caching, so full scans go to
   * handlers. Measured on workload E (scans of 1-100 rows): 15-20% less server CPU per scan than
   * handing every scan call over.
   */
  static final int MAX_INLINE_SCAN_ROWS = 100;

  private final RegionLookup regions;

  InlineRules(RegionLookup regions) {
    this.regions = regions;
  }

  boolean mutate(MutateRequest req) {
    if (MetaTable.isMeta(req.getRegion())) {
      return true; // refused at once
    }
    MutationProto.Durability d = req.getMutation().getDurability();
    if (d == MutationProto.Durability.FSYNC_WAL) {
      return false;
    }
    if (d != MutationProto.Durability.USE_DEFAULT) {
      return true;
    }
    Region region;
    try {
      region = regions.region(req.getRegion());
    } catch (IOException e) {
      return true; // answered with the error at once
    }
    return region.getTableDescriptor().getDurability() != Durability.FSYNC_WAL;
  }

  static boolean scan(ScanRequest req) {
    return req.getNumberOfRows() <= MAX_INLINE_SCAN_ROWS;
  }
}
