package dev.basalt.server.regionserver;

import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.ops.Append;
import dev.basalt.ops.CheckAndMutateResult;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Mutation;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.region.Region;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.server.protocol.CellEncoder;
import dev.basalt.server.protocol.ConditionDecoder;
import dev.basalt.server.protocol.MutationDecoder;
import dev.basalt.server.protocol.QueryDecoder;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;

/**
 * ClientService.Get and ClientService.Mutate: one row of one region. Mutate applies a Put, Delete,
 * Increment or Append, with a condition when the client called checkAndMutate ({@code processed}
 * then says whether it held). Increments and appends answer their new cells unless the client
 * turned results off. Cells go into the response cell block when the connection has a codec ({@code
 * cellBlock} not null), else inside the message.
 */
final class ClientOperations {
  private final RegionLookup regions;
  private final MetaTable meta;
  private final ServerNonces nonces;

  /**
   * @param meta serves gets on hbase:meta; null on a server that does not host it
   * @param nonces the operations already applied under a client nonce (shared with Multi)
   */
  ClientOperations(RegionLookup regions, MetaTable meta, ServerNonces nonces) {
    this.regions = regions;
    this.meta = meta;
    this.nonces = nonces;
  }

  GetResponse get(GetRequest req, List<Cell> cellBlock) throws IOException {
    Get get = QueryDecoder.toGet(req.getGet());
    Result r =
        meta != null && MetaTable.isMeta(req.getRegion())
            ? meta.get(get)
            : regions.region(req.getRegion()).get(get);
    return GetResponse.newBuilder().setResult(CellEncoder.toResult(r, cellBlock)).build();
  }

  MutateResponse mutate(MutateRequest req, Iterator<Cell> requestCells, List<Cell> cellBlock)
      throws IOException {
    Region region = regions.region(req.getRegion());
    Mutation m = MutationDecoder.toMutation(req.getMutation(), requestCells);
    MutateResponse.Builder b = MutateResponse.newBuilder();
    if (req.hasCondition()) {
      CheckAndMutateResult r =
          region.checkAndMutate(ConditionDecoder.toCheckAndMutate(req.getCondition(), m));
      b.setProcessed(r.isSuccess());
      if (r.getResult() != null) {
        b.setResult(CellEncoder.toResult(r.getResult(), cellBlock));
      }
      return b.build();
    }
    Result r = applyOnce(region, m, nonces, req.getNonceGroup(), req.getMutation().getNonce());
    b.setProcessed(true);
    if (r != null) {
      b.setResult(CellEncoder.toResult(r, cellBlock));
    }
    return b.build();
  }

  /**
   * Applies an increment or append unless it already succeeded under the same client nonce (a retry
   * whose first answer was lost); then, as HBase does, answers with the current values of its
   * columns instead of applying it again. Other mutations are simply applied.
   */
  static Result applyOnce(Region region, Mutation m, ServerNonces nonces, long group, long nonce)
      throws IOException {
    if (!(m instanceof Increment || m instanceof Append) || nonce == ServerNonces.NO_NONCE) {
      return apply(region, m);
    }
    if (!nonces.start(group, nonce)) {
      return region.get(currentValues(m));
    }
    boolean ok = false;
    try {
      m.setNonce(group, nonce); // logged with the edit (see ServerNonces)
      Result r = apply(region, m);
      ok = true;
      return r;
    } finally {
      nonces.end(group, nonce, ok);
    }
  }

  /** A get of the columns a mutation changes. */
  static Get currentValues(Mutation m) {
    Get g = new Get(m.getRow());
    for (List<Cell> cells : m.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        g.addColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c));
      }
    }
    return g;
  }

  /** Applies one mutation; the result of an increment or append, else null. */
  static Result apply(Region region, Mutation m) throws IOException {
    if (m instanceof Put p) {
      region.put(p);
      return null;
    } else if (m instanceof Delete d) {
      region.delete(d);
      return null;
    } else if (m instanceof Increment i) {
      return region.increment(i);
    }
    return region.append((Append) m);
  }

  static ClientProtos.Result emptyResult() {
    return ClientProtos.Result.getDefaultInstance();
  }
}
