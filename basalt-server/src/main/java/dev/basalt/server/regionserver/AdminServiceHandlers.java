package dev.basalt.server.regionserver;

import dev.basalt.cell.Bytes;
import dev.basalt.db.RegionMetrics;
import dev.basalt.region.NoSuchColumnFamilyException;
import dev.basalt.region.Region;
import dev.basalt.region.RegionSplitPoint;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.AdminService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactionSwitchRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CompactionSwitchResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.FlushRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.FlushRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetOnlineRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetOnlineRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionInfoResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionLoadRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetRegionLoadResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetServerInfoRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.GetServerInfoResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.RollWALWriterRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.RollWALWriterResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.ServerInfo;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClusterStatusProtos.RegionLoad;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The region server's AdminService over the regions it serves ({@link ServedRegions}): region
 * information, online regions, server information, flushes, compactions and their switch,
 * per-region load, WAL roll.
 *
 * <p>Not offered (the RPC layer answers them with a do-not-retry error naming the method): opening,
 * closing and warming up regions (assignment belongs to the master), GetStoreFile (the engine does
 * not list store files to callers), StopServer (this service does not own the server's lifecycle),
 * replication and WAL replay, favored nodes, configuration reload, clearing compaction queues or a
 * region's block cache, space quotas, procedures, slow/large logs, cached file lists.
 *
 * <p>What Basalt cannot tell or do, and how it answers:
 *
 * <ul>
 *   <li>Compaction state (GetRegionInfo, RegionLoad) covers only the compactions requested through
 *       CompactRegion (queued or running); the database's own background compactions are not
 *       visible, so a region they compact reports NONE.
 *   <li>CompactionSwitch: switching off stops the database from queueing or starting background
 *       compactions and makes this service ignore CompactRegion requests, as HBase does; a
 *       compaction already running (or a requested one already queued) finishes instead of being
 *       interrupted as in HBase. Switching on queues the compactions regions need.
 *   <li>FlushRegion and CompactRegion with a family: the engine flushes and compacts whole regions,
 *       so every family of the region is flushed or compacted (the family is still checked).
 * </ul>
 *
 * <p>Thread-safe. {@link #close} stops the thread that runs requested compactions.
 */
public final class AdminServiceHandlers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AdminServiceHandlers.class);

  private final ServedRegions regions;
  private final Supplier<ServerName> self;
  private final RequestedCompactions compactions;

  /**
   * @param self this region server's name (host, RPC port, start code), asked for on each
   *     GetServerInfo so that it may be known only once the server listens
   */
  public AdminServiceHandlers(ServedRegions regions, Supplier<ServerName> self) {
    this(regions, self, new RequestedCompactions());
  }

  AdminServiceHandlers(
      ServedRegions regions, Supplier<ServerName> self, RequestedCompactions compactions) {
    this.regions = Objects.requireNonNull(regions, "regions");
    this.self = Objects.requireNonNull(self, "self");
    this.compactions = compactions;
  }

  /** The service with the methods every region server offers. */
  public RpcService service() {
    return register(RpcService.builder(AdminService.getDescriptor())).build();
  }

  /**
   * Adds the methods every region server offers to an AdminService being built (a cluster region
   * server adds opening and closing regions).
   */
  public RpcService.Builder register(RpcService.Builder builder) {
    return builder
        .method(
            "GetRegionInfo",
            GetRegionInfoRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(getRegionInfo(req)))
        .method(
            "GetOnlineRegion",
            GetOnlineRegionRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(getOnlineRegion()))
        .method(
            "GetServerInfo",
            GetServerInfoRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(getServerInfo()))
        .method(
            "FlushRegion",
            FlushRegionRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(flushRegion(req)))
        .method(
            "CompactRegion",
            CompactRegionRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(compactRegion(req)))
        .method(
            "CompactionSwitch",
            CompactionSwitchRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(compactionSwitch(req)))
        .method(
            "GetRegionLoad",
            GetRegionLoadRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(getRegionLoad(req)))
        .method(
            "RollWALWriter",
            RollWALWriterRequest.getDefaultInstance(),
            (req, call) -> RpcReply.of(rollWalWriter()));
  }

  GetRegionInfoResponse getRegionInfo(GetRegionInfoRequest req) throws IOException {
    Region r = regions.region(req.getRegion());
    GetRegionInfoResponse.Builder b =
        GetRegionInfoResponse.newBuilder().setRegionInfo(SchemaCodec.toProto(r.getRegionInfo()));
    if (req.getCompactionState()) {
      b.setCompactionState(compactions.state(r));
    }
    // A region still reading its parent's files (a split's or merge's references) cannot split or
    // merge again until compacted.
    boolean handOverable = !r.hasReferences();
    b.setSplittable(handOverable).setMergeable(handOverable);
    if (req.getBestSplitRow() && handOverable) {
      byte[] at = RegionSplitPoint.of(r);
      if (at != null) {
        b.setBestSplitRow(ByteString.copyFrom(at));
      }
    }
    return b.build();
  }

  GetOnlineRegionResponse getOnlineRegion() {
    GetOnlineRegionResponse.Builder b = GetOnlineRegionResponse.newBuilder();
    for (RegionMetrics m : regions.regionMetrics()) {
      b.addRegionInfo(SchemaCodec.toProto(m.getRegionInfo()));
    }
    return b.build();
  }

  GetServerInfoResponse getServerInfo() {
    return GetServerInfoResponse.newBuilder()
        .setServerInfo(ServerInfo.newBuilder().setServerName(self.get().toProto()).setWebuiPort(0))
        .build();
  }

  /**
   * Flushes the region now (whole region, whatever family is named), unless {@code
   * if_older_than_ts} is set and the last flush is not older than it. Answers the time of the last
   * flush and whether this request wrote anything.
   */
  FlushRegionResponse flushRegion(FlushRegionRequest req) throws IOException {
    Region r = regions.region(req.getRegion());
    if (req.hasFamily()) {
      requireFamily(r, req.getFamily());
    }
    boolean flushed = false;
    if (!req.hasIfOlderThanTs() || r.getLastFlushTime() < req.getIfOlderThanTs()) {
      flushed = r.flush();
    }
    return FlushRegionResponse.newBuilder()
        .setLastFlushTime(r.getLastFlushTime())
        .setFlushed(flushed)
        .build();
  }

  /**
   * Queues a minor or major compaction of the whole region and answers at once, as HBase does; the
   * client follows it through GetRegionInfo's compaction state. Ignored while compactions are
   * switched off.
   */
  CompactRegionResponse compactRegion(CompactRegionRequest req) throws IOException {
    Region r = regions.region(req.getRegion());
    if (req.hasFamily()) {
      requireFamily(r, req.getFamily());
    }
    if (!regions.compactionsEnabled()) {
      LOG.info(
          "ignoring the requested compaction of {}: compactions are switched off",
          r.getRegionInfo().getEncodedName());
    } else {
      compactions.request(r, req.getMajor());
    }
    return CompactRegionResponse.getDefaultInstance();
  }

  CompactionSwitchResponse compactionSwitch(CompactionSwitchRequest req) {
    boolean prev = regions.switchCompactions(req.getEnabled());
    if (prev != req.getEnabled()) {
      LOG.info("compactions switched {}", req.getEnabled() ? "on" : "off");
    }
    return CompactionSwitchResponse.newBuilder().setPrevState(prev).build();
  }

  /** Load of every open region, or of one table's (none for a table that does not exist). */
  GetRegionLoadResponse getRegionLoad(GetRegionLoadRequest req) throws IOException {
    List<RegionMetrics> metrics;
    if (req.hasTableName()) {
      metrics = regions.regionMetrics(SchemaCodec.toTableName(req.getTableName()));
    } else {
      metrics = regions.regionMetrics();
    }
    GetRegionLoadResponse.Builder b = GetRegionLoadResponse.newBuilder();
    for (RegionMetrics m : metrics) {
      b.addRegionLoads(regionLoad(m));
    }
    return b.build();
  }

  private RegionLoad regionLoad(RegionMetrics m) {
    RegionLoad.Builder b = RegionLoads.of(m);
    Region region = regions.online(m.getRegionInfo().getRegionName());
    if (region != null) { // else closed since the figures were taken: no more to report
      b.setStores(region.getTableDescriptor().getColumnFamilyCount());
      b.setCompactionState(RegionLoad.CompactionState.valueOf(compactions.state(region).name()));
    }
    return b.build();
  }

  /**
   * Asks the write-ahead log to start a new segment and answers at once (HBase's region server also
   * only requests the roll). No region needs flushing for it.
   */
  RollWALWriterResponse rollWalWriter() {
    regions.rollWal();
    return RollWALWriterResponse.getDefaultInstance();
  }

  private static void requireFamily(Region r, ByteString family) throws IOException {
    byte[] f = family.toByteArray();
    if (!r.getTableDescriptor().hasColumnFamily(f)) {
      throw new NoSuchColumnFamilyException(
          "column family "
              + Bytes.toStringBinary(f)
              + " does not exist in region "
              + r.getRegionInfo().getRegionNameAsString()
              + " of table "
              + r.getTableDescriptor().getTableName());
    }
  }

  /** Stops the thread that runs requested compactions (a running one finishes first). */
  @Override
  public void close() {
    compactions.close();
  }
}
