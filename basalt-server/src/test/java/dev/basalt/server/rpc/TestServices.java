package dev.basalt.server.rpc;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.util.BasaltIOException;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Get;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Result;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.ClientMetaService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMetaRegionLocationsRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMetaRegionLocationsResponse;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/** Small services for transport tests. */
final class TestServices {
  private TestServices() {}

  /**
   * ClientMetaService with GetClusterId; GetMetaRegionLocations answers with a deliberately broken
   * reply (a required field missing) so tests see the server refuse to send it. The other methods
   * are declared by the service but have no handler.
   */
  static RpcService meta(String clusterId) {
    return RpcService.builder(ClientMetaService.getDescriptor())
        .method(
            "GetClusterId",
            GetClusterIdRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(GetClusterIdResponse.newBuilder().setClusterId(clusterId).build()))
        .method(
            "GetMetaRegionLocations",
            GetMetaRegionLocationsRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    GetMetaRegionLocationsResponse.newBuilder()
                        .addMetaLocations(
                            org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos
                                .RegionLocation.newBuilder()
                                .buildPartial())
                        .buildPartial()))
        .build();
  }

  /**
   * ClientService: Mutate echoes the request cells back in the response cell block; Get answers
   * with an empty GetResponse, with two cells in the cell block for row "cells", or fails with
   * TableNotFoundException for row "missing", or throws a bug (IllegalStateException) for row
   * "bug".
   */
  static RpcService client() {
    return RpcService.builder(ClientService.getDescriptor())
        .method(
            "Mutate",
            MutateRequest.getDefaultInstance(),
            (req, call) ->
                RpcReply.of(
                    MutateResponse.newBuilder()
                        .setProcessed(true)
                        .setResult(Result.newBuilder().setAssociatedCellCount(call.cells().size()))
                        .build(),
                    call.cells()))
        .method(
            "Get",
            GetRequest.getDefaultInstance(),
            (req, call) -> {
              String row = req.getGet().getRow().toStringUtf8();
              if (row.equals("missing")) {
                throw new BasaltIOException(
                    "table 't' does not exist",
                    "org.apache.hadoop.hbase.TableNotFoundException",
                    true);
              }
              if (row.equals("cells")) {
                return RpcReply.of(
                    GetResponse.newBuilder()
                        .setResult(Result.newBuilder().setAssociatedCellCount(2))
                        .build(),
                    cells(2));
              }
              if (row.equals("bug")) {
                throw new IllegalStateException("handler bug");
              }
              return RpcReply.of(GetResponse.getDefaultInstance());
            })
        .build();
  }

  static RegionSpecifier region() {
    return RegionSpecifier.newBuilder()
        .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFromUtf8("t,,1.abc."))
        .build();
  }

  static MutateRequest put(int cells) {
    return MutateRequest.newBuilder()
        .setRegion(region())
        .setMutation(
            MutationProto.newBuilder()
                .setRow(ByteString.copyFromUtf8("r"))
                .setMutateType(MutationProto.MutationType.PUT)
                .setAssociatedCellCount(cells))
        .build();
  }

  static GetRequest get(String row) {
    return GetRequest.newBuilder()
        .setRegion(region())
        .setGet(Get.newBuilder().setRow(ByteString.copyFromUtf8(row)))
        .build();
  }

  static KeyValue cell(String row, String qualifier, long ts, String value) {
    return KeyValue.of(
        Bytes.toBytes(row),
        Bytes.toBytes("f"),
        Bytes.toBytes(qualifier),
        ts,
        CellType.PUT,
        Bytes.toBytes(value));
  }

  static List<KeyValue> cells(int n) {
    return java.util.stream.IntStream.range(0, n)
        .mapToObj(i -> cell("r", "q" + i, 100 + i, "v" + i))
        .toList();
  }
}
