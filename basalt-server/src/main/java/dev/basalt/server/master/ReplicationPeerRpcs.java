package dev.basalt.server.master;

import dev.basalt.ops.Mutation;
import dev.basalt.server.replication.Peer;
import dev.basalt.server.replication.ReplicationPeers;
import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.AddReplicationPeerRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.AddReplicationPeerResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.DisableReplicationPeerRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.DisableReplicationPeerResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.EnableReplicationPeerRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.EnableReplicationPeerResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.GetReplicationPeerConfigRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.GetReplicationPeerConfigResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.GetReplicationPeerModificationProceduresRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.GetReplicationPeerModificationProceduresResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.GetReplicationPeerStateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.GetReplicationPeerStateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.IsReplicationPeerModificationEnabledRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.IsReplicationPeerModificationEnabledResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ListReplicationPeersRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ListReplicationPeersResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.RemoveReplicationPeerRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.RemoveReplicationPeerResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ReplicationPeerDescription;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ReplicationPeerModificationSwitchRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ReplicationPeerModificationSwitchResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.ReplicationState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.UpdateReplicationPeerConfigRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ReplicationProtos.UpdateReplicationPeerConfigResponse;

/**
 * The master's replication peer RPCs as the stock client's Admin calls them. Peer changes are
 * procedures in HBase: the answer carries a procedure id the client polls; here the change is done
 * (stored, the local sources told) before the answer goes out, so the id is already finished
 * ({@link Procedures}). Refusals come straight from the call, as HBase's pre-checks do.
 */
final class ReplicationPeerRpcs {
  private final ReplicationPeers peers;
  private final Procedures procedures;

  ReplicationPeerRpcs(ReplicationPeers peers, Procedures procedures) {
    this.peers = peers;
    this.procedures = procedures;
  }

  private long run(String name, Procedures.Work work) throws IOException {
    return procedures.run(name, 0, Mutation.NO_NONCE, work);
  }

  RpcService.Builder register(RpcService.Builder b) {
    return b.method(
            "AddReplicationPeer",
            AddReplicationPeerRequest.getDefaultInstance(),
            (q, c) -> {
              boolean enabled = q.getPeerState().getState() == ReplicationState.State.ENABLED;
              long id =
                  run(
                      "AddReplicationPeer",
                      () -> peers.add(q.getPeerId(), q.getPeerConfig(), enabled));
              return RpcReply.of(AddReplicationPeerResponse.newBuilder().setProcId(id).build());
            })
        .method(
            "RemoveReplicationPeer",
            RemoveReplicationPeerRequest.getDefaultInstance(),
            (q, c) -> {
              long id = run("RemoveReplicationPeer", () -> peers.remove(q.getPeerId()));
              return RpcReply.of(RemoveReplicationPeerResponse.newBuilder().setProcId(id).build());
            })
        .method(
            "EnableReplicationPeer",
            EnableReplicationPeerRequest.getDefaultInstance(),
            (q, c) -> {
              long id = run("EnableReplicationPeer", () -> peers.setEnabled(q.getPeerId(), true));
              return RpcReply.of(EnableReplicationPeerResponse.newBuilder().setProcId(id).build());
            })
        .method(
            "DisableReplicationPeer",
            DisableReplicationPeerRequest.getDefaultInstance(),
            (q, c) -> {
              long id = run("DisableReplicationPeer", () -> peers.setEnabled(q.getPeerId(), false));
              return RpcReply.of(DisableReplicationPeerResponse.newBuilder().setProcId(id).build());
            })
        .method(
            "UpdateReplicationPeerConfig",
            UpdateReplicationPeerConfigRequest.getDefaultInstance(),
            (q, c) -> {
              long id =
                  run(
                      "UpdateReplicationPeerConfig",
                      () -> peers.update(q.getPeerId(), q.getPeerConfig()));
              return RpcReply.of(
                  UpdateReplicationPeerConfigResponse.newBuilder().setProcId(id).build());
            })
        .method(
            "GetReplicationPeerConfig",
            GetReplicationPeerConfigRequest.getDefaultInstance(),
            (q, c) -> {
              Peer p = peers.get(q.getPeerId());
              return RpcReply.of(
                  GetReplicationPeerConfigResponse.newBuilder()
                      .setPeerId(p.id())
                      .setPeerConfig(p.config())
                      .build());
            })
        .method(
            "ListReplicationPeers",
            ListReplicationPeersRequest.getDefaultInstance(),
            (q, c) -> {
              ListReplicationPeersResponse.Builder r = ListReplicationPeersResponse.newBuilder();
              for (Peer p : peers.list(q.hasRegex() ? q.getRegex() : null)) {
                r.addPeerDesc(describe(p));
              }
              return RpcReply.of(r.build());
            })
        .method(
            "IsReplicationPeerEnabled",
            GetReplicationPeerStateRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    GetReplicationPeerStateResponse.newBuilder()
                        .setIsEnabled(peers.get(q.getPeerId()).enabled())
                        .build()))
        .method(
            "ReplicationPeerModificationSwitch",
            ReplicationPeerModificationSwitchRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    ReplicationPeerModificationSwitchResponse.newBuilder()
                        .setPreviousValue(peers.switchModification(q.getOn()))
                        .build()))
        .method(
            "IsReplicationPeerModificationEnabled",
            IsReplicationPeerModificationEnabledRequest.getDefaultInstance(),
            (q, c) ->
                RpcReply.of(
                    IsReplicationPeerModificationEnabledResponse.newBuilder()
                        .setEnabled(peers.isModificationEnabled())
                        .build()))
        .method(
            "GetReplicationPeerModificationProcedures",
            GetReplicationPeerModificationProceduresRequest.getDefaultInstance(),
            // Peer changes finish inside their calls: none is ever running.
            (q, c) ->
                RpcReply.of(GetReplicationPeerModificationProceduresResponse.getDefaultInstance()));
  }

  static ReplicationPeerDescription describe(Peer p) {
    return ReplicationPeerDescription.newBuilder()
        .setId(p.id())
        .setState(
            ReplicationState.newBuilder()
                .setState(
                    p.enabled() ? ReplicationState.State.ENABLED : ReplicationState.State.DISABLED))
        .setConfig(p.config())
        .build();
  }
}
