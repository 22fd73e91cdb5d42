package dev.basalt.server.master;

import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.BasaltIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.AssignRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.AssignRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DecommissionRegionServersRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.DecommissionRegionServersResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListDecommissionedRegionServersRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.ListDecommissionedRegionServersResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MoveRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MoveRegionResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.RecommissionRegionServerRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.RecommissionRegionServerResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.UnassignRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.UnassignRegionResponse;

/**
 * The MasterService calls that steer where regions are served ({@code Admin.move}, {@code assign},
 * {@code unassign}, {@code decommissionRegionServers}, {@code recommissionRegionServer}, {@code
 * listDecommissionedRegionServers}), over a {@link RegionPlacement}. Stateless.
 */
final class PlacementRpcs {
  private final RegionPlacement placement;

  PlacementRpcs(RegionPlacement placement) {
    this.placement = placement;
  }

  RpcService.Builder register(RpcService.Builder b) {
    return b.method(
            "MoveRegion",
            MoveRegionRequest.getDefaultInstance(),
            (q, c) -> {
              placement.move(
                  encodedName(q.getRegion()),
                  q.hasDestServerName() ? fromProto(q.getDestServerName()) : null);
              return RpcReply.of(MoveRegionResponse.getDefaultInstance());
            })
        .method(
            "AssignRegion",
            AssignRegionRequest.getDefaultInstance(),
            (q, c) -> {
              placement.assign(q.getRegion().getValue().toByteArray());
              return RpcReply.of(AssignRegionResponse.getDefaultInstance());
            })
        .method(
            "UnassignRegion",
            UnassignRegionRequest.getDefaultInstance(),
            (q, c) -> {
              placement.unassign(q.getRegion().getValue().toByteArray());
              return RpcReply.of(UnassignRegionResponse.getDefaultInstance());
            })
        .method(
            "DecommissionRegionServers",
            DecommissionRegionServersRequest.getDefaultInstance(),
            (q, c) -> {
              List<ServerName> servers = new ArrayList<>();
              for (HBaseProtos.ServerName s : q.getServerNameList()) {
                servers.add(fromProto(s));
              }
              placement.decommission(servers, q.getOffload());
              return RpcReply.of(DecommissionRegionServersResponse.getDefaultInstance());
            })
        .method(
            "ListDecommissionedRegionServers",
            ListDecommissionedRegionServersRequest.getDefaultInstance(),
            (q, c) -> {
              ListDecommissionedRegionServersResponse.Builder r =
                  ListDecommissionedRegionServersResponse.newBuilder();
              for (ServerName s : placement.decommissioned()) {
                r.addServerName(s.toProto());
              }
              return RpcReply.of(r.build());
            })
        .method(
            "RecommissionRegionServer",
            RecommissionRegionServerRequest.getDefaultInstance(),
            (q, c) -> {
              List<byte[]> regions = new ArrayList<>();
              for (HBaseProtos.RegionSpecifier r : q.getRegionList()) {
                regions.add(r.getValue().toByteArray());
              }
              placement.recommission(fromProto(q.getServerName()), regions);
              return RpcReply.of(RecommissionRegionServerResponse.getDefaultInstance());
            });
  }

  /** The encoded name a MoveRegion request names (the client sends ENCODED_REGION_NAME). */
  private static String encodedName(RegionSpecifier spec) throws BasaltIOException {
    return switch (spec.getType()) {
      case ENCODED_REGION_NAME -> spec.getValue().toStringUtf8();
      case REGION_NAME -> encodedOf(spec.getValue().toStringUtf8());
    };
  }

  /** The encoded name at the end of a full region name ("table,start,id.ENCODED."). */
  private static String encodedOf(String regionName) throws BasaltIOException {
    if (regionName.endsWith(".")) {
      int dot = regionName.lastIndexOf('.', regionName.length() - 2);
      if (dot >= 0) {
        return regionName.substring(dot + 1, regionName.length() - 1);
      }
    }
    throw BasaltIOException.doNotRetry("'" + regionName + "' is not a region name");
  }

  static ServerName fromProto(HBaseProtos.ServerName s) throws BasaltIOException {
    try {
      return new ServerName(s.getHostName(), s.getPort(), s.getStartCode());
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry("bad server name " + s + ": " + e.getMessage());
    }
  }
}
