package dev.basalt.server.master;

import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetCompletedSnapshotsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetCompletedSnapshotsResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetLocksRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetLocksResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetProceduresRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.GetProceduresResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsSnapshotCleanupEnabledRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.IsSnapshotCleanupEnabledResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.GetQuotaStatesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.GetQuotaStatesResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.GetSpaceQuotaRegionSizesRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.QuotaProtos.GetSpaceQuotaRegionSizesResponse;

/**
 * The listings that tools call on any cluster (the shell's {@code list_snapshots}, {@code
 * list_procedures}, {@code list_locks}, {@code list_quota_snapshots}, Canary, the REST gateway's
 * status), answered with what is true of Basalt today: it has no snapshots or space quotas yet, so
 * those lists are empty; the procedures are the recent DDL calls (finished, since DDL runs inside
 * its call), and no procedure holds a lock between calls. A call that would change one of the
 * missing features (take a snapshot, set a quota) stays unregistered, so the RPC layer answers it
 * with a clear "not implemented" error naming the method.
 *
 * <p>Registered on the master's MasterService by {@link MasterServiceHandlers}. Stateless apart
 * from the procedures it lists.
 */
final class AbsentFeatureListings {
  private final Procedures procedures;

  AbsentFeatureListings(Procedures procedures) {
    this.procedures = procedures;
  }

  /** Adds the listing methods to the MasterService being built. */
  RpcService.Builder register(RpcService.Builder b) {
    return b.method(
            "GetCompletedSnapshots",
            GetCompletedSnapshotsRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(GetCompletedSnapshotsResponse.getDefaultInstance()))
        .method(
            "IsSnapshotCleanupEnabled",
            IsSnapshotCleanupEnabledRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    IsSnapshotCleanupEnabledResponse.newBuilder().setEnabled(false).build()))
        .method(
            "GetProcedures",
            GetProceduresRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    GetProceduresResponse.newBuilder().addAllProcedure(procedures.list()).build()))
        .method(
            "GetLocks",
            GetLocksRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(GetLocksResponse.getDefaultInstance()))
        .method(
            "GetQuotaStates",
            GetQuotaStatesRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(GetQuotaStatesResponse.getDefaultInstance()))
        .method(
            "GetSpaceQuotaRegionSizes",
            GetSpaceQuotaRegionSizesRequest.getDefaultInstance(),
            (q, c) -> RpcReply.of(GetSpaceQuotaRegionSizesResponse.getDefaultInstance()));
  }
}
