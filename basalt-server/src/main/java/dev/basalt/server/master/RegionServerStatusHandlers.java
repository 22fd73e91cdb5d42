package dev.basalt.server.master;

import dev.basalt.schema.RegionInfo;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameStringPair;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.GetLiveRegionServersRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.GetLiveRegionServersResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerReportRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerReportResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStartupResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionServerStatusService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.ReportRSFatalErrorRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.ReportRSFatalErrorResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.ReportRegionStateTransitionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.ReportRegionStateTransitionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RegionServerStatusService on the active master: what region servers tell it (docs/formats/
 * cluster.md): their startup (the master checks and registers them, and answers with the host it
 * saw, the cluster id and the root directory, which the region server compares with its own), their
 * periodic load reports, the outcome of the opens, closes, splits and merges it asked for, and
 * their requests to split a region that outgrew its maximum size (READY_TO_SPLIT). Stateless.
 */
final class RegionServerStatusHandlers {
  private static final Logger LOG = LoggerFactory.getLogger(RegionServerStatusHandlers.class);

  /** The reply entries of a startup call. */
  static final String HOSTNAME_SEEN = "hbase.regionserver.hostname.seen.by.master";

  static final String CLUSTER_ID = "basalt.cluster.id";
  static final String ROOT_DIR = "hbase.rootdir";

  /** Where a region server's request to split a region goes. */
  interface SplitRequests {
    /**
     * Starts the split of {@code parent} at {@code row} that {@code server} asked for, without
     * waiting for it.
     *
     * @throws IOException when it is refused (why: the message goes back to the region server)
     */
    void splitRequested(ServerName server, RegionInfo parent, byte[] row) throws IOException;
  }

  private final ServerManager servers;
  private final AssignmentManager assignment;
  private final SplitRequests splits;
  private final String clusterId;
  private final String rootDir;

  RegionServerStatusHandlers(
      ServerManager servers,
      AssignmentManager assignment,
      SplitRequests splits,
      String clusterId,
      String rootDir) {
    this.servers = servers;
    this.assignment = assignment;
    this.splits = splits;
    this.clusterId = clusterId;
    this.rootDir = rootDir;
  }

  RpcService service() {
    return RpcService.builder(RegionServerStatusService.getDescriptor())
        .method(
            "RegionServerStartup",
            RegionServerStartupRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(startup(q, c.remoteAddress())))
        .method(
            "RegionServerReport",
            RegionServerReportRequest.getDefaultInstance(),
            (q, c) -> {
              servers.report(PlacementRpcs.fromProto(q.getServer()), q.getLoad());
              return RpcReply.of(RegionServerReportResponse.getDefaultInstance());
            })
        .method(
            "ReportRegionStateTransition",
            ReportRegionStateTransitionRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(transitions(q)))
        .method(
            "ReportRSFatalError",
            ReportRSFatalErrorRequest.getDefaultInstance(),
            (q, c) -> {
              LOG.error(
                  "region server {} reports a fatal error: {}",
                  PlacementRpcs.fromProto(q.getServer()),
                  q.getErrorMessage());
              return RpcReply.of(ReportRSFatalErrorResponse.getDefaultInstance());
            })
        .method(
            "GetLiveRegionServers",
            GetLiveRegionServersRequest.getDefaultInstance(),
            (q, c) -> {
              GetLiveRegionServersResponse.Builder b = GetLiveRegionServersResponse.newBuilder();
              Map<ServerName, ?> live = servers.liveServers();
              int n = 0;
              for (ServerName s : live.keySet()) {
                if (n++ < q.getCount()) {
                  b.addServer(s.toProto());
                }
              }
              return RpcReply.of(b.setTotal(live.size()).build());
            })
        .build();
  }

  RegionServerStartupResponse startup(RegionServerStartupRequest q, SocketAddress from)
      throws BasaltIOException {
    String host =
        q.hasUseThisHostnameInstead() && !q.getUseThisHostnameInstead().isEmpty()
            ? q.getUseThisHostnameInstead()
            : from instanceof InetSocketAddress a ? a.getHostString() : null;
    if (host == null) {
      throw BasaltIOException.doNotRetry("cannot tell the region server's host name");
    }
    ServerName server = new ServerName(host, q.getPort(), q.getServerStartCode());
    servers.startup(server, q.getServerCurrentTime());
    return RegionServerStartupResponse.newBuilder()
        .addMapEntries(entry(HOSTNAME_SEEN, host))
        .addMapEntries(entry(CLUSTER_ID, clusterId))
        .addMapEntries(entry(ROOT_DIR, rootDir))
        .build();
  }

  private static NameStringPair entry(String name, String value) {
    return NameStringPair.newBuilder().setName(name).setValue(value).build();
  }

  ReportRegionStateTransitionResponse transitions(ReportRegionStateTransitionRequest q)
      throws IOException {
    ServerName server = PlacementRpcs.fromProto(q.getServer());
    if (!servers.isLive(server)) {
      throw new BasaltIOException(
          "Server " + server + " is not a live region server of this master",
          ServerManager.YOU_ARE_DEAD,
          true);
    }
    for (RegionStateTransition t : q.getTransitionList()) {
      List<RegionInfo> regions = new ArrayList<>();
      for (HBaseProtos.RegionInfo r : t.getRegionInfoList()) {
        regions.add(SchemaCodec.toRegionInfo(r));
      }
      switch (t.getTransitionCode()) {
        case SPLIT, MERGED -> {
          if (regions.size() < 2) {
            return error(t.getTransitionCode() + " names " + regions.size() + " regions");
          }
          assignment.handedOver(server, t.getTransitionCode(), regions, t.getOpenSeqNum());
          continue;
        }
        case READY_TO_SPLIT -> {
          // a region server's automatic split request: [parent, daughter a, daughter b]
          if (regions.size() != 3) {
            return error("READY_TO_SPLIT names " + regions.size() + " regions, not 3");
          }
          try {
            splits.splitRequested(server, regions.get(0), regions.get(1).getEndKey());
          } catch (IOException e) {
            LOG.info(
                "not splitting {} as {} asked: {}",
                regions.get(0).getEncodedName(),
                server,
                e.getMessage());
            return error(e.getMessage());
          }
          continue;
        }
        case SPLIT_REVERTED, MERGE_REVERTED -> {
          boolean split =
              t.getTransitionCode() == RegionStateTransition.TransitionCode.SPLIT_REVERTED;
          assignment.handOverReverted(
              server, split ? regions.subList(0, 1) : regions.subList(1, regions.size()));
          continue;
        }
        default -> {}
      }
      if (regions.size() != 1) {
        return error(
            "Basalt's master takes "
                + t.getTransitionCode()
                + " transitions of one region each, not "
                + regions.size());
      }
      RegionInfo region = regions.get(0);
      switch (t.getTransitionCode()) {
        case OPENED -> assignment.opened(server, region, t.getOpenSeqNum());
        case CLOSED ->
            assignment.closed(server, region, t.hasOpenSeqNum() ? t.getOpenSeqNum() : -1);
        case FAILED_OPEN -> assignment.failedOpen(server, region);
        default -> {
          return error(
              "transition " + t.getTransitionCode() + " is not supported by Basalt's master");
        }
      }
    }
    return ReportRegionStateTransitionResponse.getDefaultInstance();
  }

  private static ReportRegionStateTransitionResponse error(String message) {
    return ReportRegionStateTransitionResponse.newBuilder().setErrorMessage(message).build();
  }
}
