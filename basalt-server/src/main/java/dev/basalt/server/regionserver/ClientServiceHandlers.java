package dev.basalt.server.regionserver;

import dev.basalt.cell.Cell;
import dev.basalt.db.Database;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.server.rpc.RpcCall;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MultiRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;

/**
 * The region server's ClientService: Get, Mutate, Scan and Multi over the regions a {@link
 * RegionLookup} serves. Bulk loads and coprocessor endpoints are not offered; the RPC layer answers
 * them with a do-not-retry error naming the method.
 */
public final class ClientServiceHandlers implements AutoCloseable {
  private final ScannerRegistry scanners;
  private final ScanService scan;
  private final ClientOperations single;
  private final MultiOperations multi;
  private final ServerNonces nonces;
  private final InlineRules inline;

  /**
   * @param meta serves reads of hbase:meta (the server that hosts it); null elsewhere
   * @param leaseMillis how long an idle scanner lives (HBase's {@code
   *     hbase.client.scanner.timeout.period})
   * @param maxResultSize most cell bytes one scan call answers with (HBase's {@code
   *     hbase.server.scanner.max.result.size})
   */
  public ClientServiceHandlers(
      RegionLookup regions, MetaTable meta, Clock clock, long leaseMillis, long maxResultSize) {
    this.scanners = new ScannerRegistry(clock, leaseMillis, clock.currentTimeMillis() << 16);
    this.scan = new ScanService(scanners, regions, meta, -1, maxResultSize);
    this.nonces = new ServerNonces(clock, ServerNonces.GRACE_MILLIS);
    this.single = new ClientOperations(regions, meta, nonces);
    this.multi = new MultiOperations(regions, nonces);
    this.inline = new InlineRules(regions);
  }

  /**
   * Tells the server which operations its clients tagged with nonces were applied (from the edit
   * log a restart replayed, {@link Database#recoveredNonces()}), so a retry of one is not applied
   * again.
   */
  public void recoveredNonces(Collection<Database.RecoveredNonce> applied) {
    nonces.recovered(applied);
  }

  public RpcService service() {
    return RpcService.builder(ClientService.getDescriptor())
        .method(
            "Get",
            GetRequest.getDefaultInstance(),
            (req, call) -> {
              List<Cell> out = cellBlock(call);
              return RpcReply.of(single.get(req, out), orEmpty(out));
            },
            req -> true)
        .method(
            "Mutate",
            MutateRequest.getDefaultInstance(),
            (req, call) -> {
              List<Cell> out = cellBlock(call);
              return RpcReply.of(single.mutate(req, call.cells().iterator(), out), orEmpty(out));
            },
            inline::mutate)
        .method(
            "Multi",
            MultiRequest.getDefaultInstance(),
            (req, call) -> {
              List<Cell> out = cellBlock(call);
              return RpcReply.of(
                  multi.multi(req, call.cells().iterator(), out, call), orEmpty(out));
            })
        .method(
            "Scan",
            ScanRequest.getDefaultInstance(),
            (req, call) -> {
              ScanService.Outcome o =
                  scan.scan(req, call.cellBlocksSupported(), call.timeoutMillis());
              return RpcReply.of(o.response(), o.cellBlock());
            },
            InlineRules::scan)
        .build();
  }

  /**
   * Closes scanners idle past their lease and forgets client nonces past their grace period; the
   * server calls it periodically.
   *
   * @return how many scanners were closed
   */
  public int expireIdleScanners() {
    nonces.expire();
    return scanners.expireIdle();
  }

  private static List<Cell> cellBlock(RpcCall call) {
    return call.cellBlocksSupported() ? new ArrayList<>() : null;
  }

  private static List<Cell> orEmpty(List<Cell> cells) {
    return cells == null ? List.of() : cells;
  }

  @Override
  public void close() {
    scanners.closeAll();
  }
}
