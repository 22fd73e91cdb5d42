package dev.basalt.server.replication;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellType;
import dev.basalt.cell.CellUtil;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Mutation;
import dev.basalt.region.OperationStatus;
import dev.basalt.region.Region;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableName;
import dev.basalt.server.coordination.HBaseZnodes;
import dev.basalt.server.protocol.MutationDecoder;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.server.rpc.RpcClient;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.CellProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * A cluster region server's sink target: a peer ships to any region server, so the rows of a
 * received batch may live in regions served elsewhere. Each mutation goes to its region: applied
 * here when this server serves it, otherwise sent to its server with {@code ClientService.Multi},
 * as the stock client would (HBase's sink uses a client connection to its own cluster). Region
 * locations come from {@code hbase:meta} on the active master and are cached per table; a batch
 * that meets a moved or closed region rereads them and tries again, a few times, before failing
 * (the source then ships the whole batch again). Thread-safe.
 */
public final class ClusterSinkTarget implements SinkTarget {
  private static final int ATTEMPTS = 5;
  private static final long PAUSE_MILLIS = 200;
  private static final byte[] META_REGION = Bytes.toBytes("hbase:meta,,1");
  private static final byte[] INFO = Bytes.toBytes("info");
  private static final byte[] REGIONINFO = Bytes.toBytes("regioninfo");
  private static final byte[] SERVER = Bytes.toBytes("server");

  /** One region of a table and where it is served (null: not open anywhere now). */
  private record Location(RegionInfo region, InetSocketAddress server) {}

  private final Function<byte[], Region> localRegions;
  private final Supplier<InetSocketAddress> metaServer;
  private final RpcClient rpc;
  private final Duration timeout;
  private final Map<TableName, List<Location>> cache = new ConcurrentHashMap<>();

  /**
   * @param localRegions the region this server serves under a full region name, or null
   * @param metaServer where {@code hbase:meta} is served (the active master)
   * @param rpc a client without cell blocks (answers carry their cells inline)
   */
  public ClusterSinkTarget(
      Function<byte[], Region> localRegions,
      Supplier<InetSocketAddress> metaServer,
      RpcClient rpc,
      Duration timeout) {
    this.localRegions = localRegions;
    this.metaServer = metaServer;
    this.rpc = rpc;
    this.timeout = timeout;
  }

  @Override
  public void apply(TableName table, List<Mutation> mutations) throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (attempt > 0) {
        cache.remove(table);
        try {
          Thread.sleep(PAUSE_MILLIS * attempt);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while applying replicated edits");
        }
      }
      try {
        applyOnce(table, mutations);
        return;
      } catch (BasaltIOException e) {
        if (e.isDoNotRetry()) {
          throw e;
        }
        last = e;
      } catch (IOException e) {
        last = e;
      }
    }
    throw last;
  }

  private void applyOnce(TableName table, List<Mutation> mutations) throws IOException {
    List<Location> locations = cache.get(table);
    if (locations == null) {
      locations = locate(table);
      cache.put(table, locations);
    }
    Map<Location, List<Mutation>> byRegion = new LinkedHashMap<>();
    for (Mutation m : mutations) {
      byRegion.computeIfAbsent(find(locations, m.getRow(), table), l -> new ArrayList<>()).add(m);
    }
    for (Map.Entry<Location, List<Mutation>> e : byRegion.entrySet()) {
      RegionInfo region = e.getKey().region();
      Region here = localRegions.apply(region.getRegionName());
      if (here != null) {
        for (OperationStatus s : here.batchMutate(e.getValue())) {
          if (!s.isSuccess()) {
            throw s.getException();
          }
        }
      } else if (e.getKey().server() == null) {
        throw new IOException(
            "region " + region.getRegionNameAsString() + " is not open anywhere yet");
      } else {
        send(e.getKey(), e.getValue());
      }
    }
  }

  private static Location find(List<Location> locations, byte[] row, TableName table)
      throws IOException {
    for (Location l : locations) {
      if (l.region().containsRow(row)) {
        return l;
      }
    }
    throw new IOException(
        "no region of "
            + table
            + " holds row "
            + Bytes.toStringBinary(row)
            + " (a split in progress?)");
  }

  /** The table's regions and their servers, from hbase:meta. */
  private List<Location> locate(TableName table) throws IOException {
    byte[] name = table.getName();
    ClientProtos.ScanRequest req =
        ClientProtos.ScanRequest.newBuilder()
            .setRegion(regionSpec(META_REGION))
            .setScan(
                ClientProtos.Scan.newBuilder()
                    .setStartRow(ByteString.copyFrom(Bytes.concat(name, Bytes.toBytes(","))))
                    .setStopRow(ByteString.copyFrom(Bytes.concat(name, Bytes.toBytes(";"))))
                    .addColumn(
                        ClientProtos.Column.newBuilder().setFamily(ByteString.copyFrom(INFO))))
            .setNumberOfRows(Integer.MAX_VALUE)
            .setCloseScanner(true)
            .build();
    ClientProtos.ScanResponse resp =
        rpc.call(
            metaServer.get(),
            ClientService.getDescriptor(),
            "Scan",
            req,
            ClientProtos.ScanResponse.getDefaultInstance(),
            timeout);
    List<Location> out = new ArrayList<>();
    for (ClientProtos.Result r : resp.getResultsList()) {
      HBaseProtos.RegionInfo info = null;
      InetSocketAddress server = null;
      for (CellProtos.Cell c : r.getCellList()) {
        if (!Bytes.equals(c.getFamily().toByteArray(), INFO)) {
          continue;
        }
        byte[] q = c.getQualifier().toByteArray();
        if (Bytes.equals(q, REGIONINFO)) {
          info =
              HBaseProtos.RegionInfo.parseFrom(HBaseZnodes.stripMagic(c.getValue().toByteArray()));
        } else if (Bytes.equals(q, SERVER)) {
          String hp = c.getValue().toStringUtf8();
          int colon = hp.lastIndexOf(':');
          server =
              new InetSocketAddress(
                  hp.substring(0, colon), Integer.parseInt(hp.substring(colon + 1)));
        }
      }
      // A split or merged-away parent stays in meta until the janitor removes it; it takes no
      // writes.
      if (info != null && !info.getOffline() && !info.getSplit()) {
        out.add(new Location(SchemaCodec.toRegionInfo(info), server));
      }
    }
    if (out.isEmpty()) {
      throw new dev.basalt.db.TableNotFoundException(table.getNameAsString());
    }
    return out;
  }

  private void send(Location where, List<Mutation> ms) throws IOException {
    ClientProtos.RegionAction.Builder ra =
        ClientProtos.RegionAction.newBuilder()
            .setRegion(regionSpec(where.region().getRegionName()));
    for (int i = 0; i < ms.size(); i++) {
      ra.addAction(ClientProtos.Action.newBuilder().setIndex(i).setMutation(encode(ms.get(i))));
    }
    ClientProtos.MultiResponse resp =
        rpc.call(
            where.server(),
            ClientService.getDescriptor(),
            "Multi",
            ClientProtos.MultiRequest.newBuilder().addRegionAction(ra).build(),
            ClientProtos.MultiResponse.getDefaultInstance(),
            timeout);
    for (ClientProtos.RegionActionResult r : resp.getRegionActionResultList()) {
      if (r.hasException()) {
        throw remote(r.getException());
      }
      for (ClientProtos.ResultOrException roe : r.getResultOrExceptionList()) {
        if (roe.hasException()) {
          throw remote(roe.getException());
        }
      }
    }
  }

  private static IOException remote(HBaseProtos.NameBytesPair e) {
    String cls = e.getName();
    String msg = e.hasValue() ? e.getValue().toStringUtf8() : cls;
    boolean doNotRetry =
        cls.endsWith("TableNotFoundException") || cls.endsWith("NoSuchColumnFamilyException");
    return new BasaltIOException(msg, cls, doNotRetry);
  }

  private static HBaseProtos.RegionSpecifier regionSpec(byte[] name) {
    return HBaseProtos.RegionSpecifier.newBuilder()
        .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
        .setValue(UnsafeByteOperations.unsafeWrap(name))
        .build();
  }

  /**
   * A Put or Delete as HBase's MutationProto, its cells inline, its cluster ids as {@code _cs.id}.
   */
  static MutationProto encode(Mutation m) {
    MutationProto.Builder b =
        MutationProto.newBuilder()
            .setRow(ByteString.copyFrom(m.getRow()))
            .setMutateType(
                m instanceof Delete
                    ? MutationProto.MutationType.DELETE
                    : MutationProto.MutationType.PUT);
    for (Map.Entry<byte[], List<Cell>> f : m.getFamilyCellMap().entrySet()) {
      MutationProto.ColumnValue.Builder cv =
          MutationProto.ColumnValue.newBuilder().setFamily(ByteString.copyFrom(f.getKey()));
      for (Cell c : f.getValue()) {
        MutationProto.ColumnValue.QualifierValue.Builder qv =
            MutationProto.ColumnValue.QualifierValue.newBuilder()
                .setQualifier(ByteString.copyFrom(CellUtil.cloneQualifier(c)))
                .setTimestamp(c.getTimestamp());
        if (m instanceof Delete) {
          qv.setDeleteType(deleteType(c.getTypeByte()));
        } else {
          qv.setValue(ByteString.copyFrom(CellUtil.cloneValue(c)));
        }
        cv.addQualifierValue(qv);
      }
      b.addColumnValue(cv);
    }
    if (m.getTTL() != dev.basalt.cell.KeyValue.NO_TTL) {
      b.addAttribute(
          HBaseProtos.NameBytesPair.newBuilder()
              .setName("_ttl")
              .setValue(ByteString.copyFrom(Bytes.toBytes(m.getTTL()))));
    }
    if (!m.getClusterIds().isEmpty()) {
      b.addAttribute(
          HBaseProtos.NameBytesPair.newBuilder()
              .setName(MutationDecoder.CLUSTER_IDS)
              .setValue(
                  ByteString.copyFrom(MutationDecoder.clusterIdsAttribute(m.getClusterIds()))));
    }
    return b.build();
  }

  private static MutationProto.DeleteType deleteType(byte type) {
    CellType t = CellType.fromCode(type);
    return switch (t) {
      case DELETE_COLUMN -> MutationProto.DeleteType.DELETE_MULTIPLE_VERSIONS;
      case DELETE_FAMILY -> MutationProto.DeleteType.DELETE_FAMILY;
      case DELETE_FAMILY_VERSION -> MutationProto.DeleteType.DELETE_FAMILY_VERSION;
      default -> MutationProto.DeleteType.DELETE_ONE_VERSION;
    };
  }
}
