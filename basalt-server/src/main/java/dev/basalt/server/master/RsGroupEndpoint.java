package dev.basalt.server.master;

import dev.basalt.server.rpc.RpcReply;
import dev.basalt.server.rpc.RpcService;
import dev.basalt.util.BasaltIOException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceCall;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.hbase.thirdparty.com.google.protobuf.UnknownFieldSet;

/**
 * The listing half of HBase 2.x's region server group endpoint, {@code
 * hbase.pb.RSGroupAdminService}, which 2.x clients and shells reach through {@code
 * MasterService.ExecMasterService} (the RSGroupAdminClient of hbase-rsgroup; {@code list_rsgroups},
 * {@code get_rsgroup}, {@code get_table_rsgroup}, {@code get_server_rsgroup}). Basalt has no region
 * server groups: every server and table is in HBase's {@code default} group, which is what these
 * answers say. Calls that would change groups (add, move, remove, balance, rename) are refused as
 * not supported, and any other coprocessor service gets HBase's {@code UnknownProtocolException}.
 *
 * <p>The endpoint's messages are not in hbase-protocol-shaded (they live in hbase-rsgroup), so they
 * are read and written here by field number (RSGroup.proto and RSGroupAdmin.proto of HBase 2.x):
 *
 * <pre>
 * RSGroupInfo                    name = 1 (string), tables = 3 (TableName), servers = 4 (ServerName)
 * GetRSGroupInfoRequest          r_s_group_name = 1      -> GetRSGroupInfoResponse r_s_group_info = 1
 * GetRSGroupInfoOfTableRequest   table_name = 1          -> ...Response r_s_group_info = 1
 * GetRSGroupInfoOfServerRequest  server = 2              -> ...Response r_s_group_info = 1
 * ListRSGroupInfosRequest        (empty)                 -> ...Response repeated r_s_group_info = 1
 * ListTablesOfRSGroupRequest     r_s_group_name = 1      -> ...Response repeated table_name = 1
 * </pre>
 *
 * Stateless; the suppliers are asked on each call.
 */
final class RsGroupEndpoint {
  static final String SERVICE = "hbase.pb.RSGroupAdminService";
  static final String DEFAULT_GROUP = "default";

  private final Supplier<List<HBaseProtos.ServerName>> servers;
  private final Supplier<List<HBaseProtos.TableName>> tables;

  RsGroupEndpoint(
      Supplier<List<HBaseProtos.ServerName>> servers,
      Supplier<List<HBaseProtos.TableName>> tables) {
    this.servers = servers;
    this.tables = tables;
  }

  RpcService.Builder register(RpcService.Builder b) {
    return b.method(
        "ExecMasterService",
        CoprocessorServiceRequest.getDefaultInstance(),
        (q, c) -> RpcReply.of(call(q.getCall())));
  }

  CoprocessorServiceResponse call(CoprocessorServiceCall call) throws IOException {
    if (!SERVICE.equals(call.getServiceName())) {
      throw new BasaltIOException(
          "No registered Master Coprocessor Endpoint found for "
              + call.getServiceName()
              + ". Basalt loads no coprocessors; it answers only the listing calls of "
              + SERVICE,
          "org.apache.hadoop.hbase.exceptions.UnknownProtocolException",
          true);
    }
    UnknownFieldSet request = parse(call);
    byte[] response =
        switch (call.getMethodName()) {
          case "ListRSGroupInfos" -> message(out -> out.writeByteArray(1, defaultGroup()));
          case "GetRSGroupInfo" ->
              DEFAULT_GROUP.equals(string(request, 1))
                  ? message(out -> out.writeByteArray(1, defaultGroup()))
                  : new byte[0]; // no such group: the response without a group
          case "GetRSGroupInfoOfTable", "GetRSGroupInfoOfServer" ->
              message(out -> out.writeByteArray(1, defaultGroup()));
          case "ListTablesOfRSGroup" ->
              DEFAULT_GROUP.equals(string(request, 1))
                  ? message(
                      out -> {
                        for (HBaseProtos.TableName t : tables.get()) {
                          out.writeMessage(1, t);
                        }
                      })
                  : new byte[0];
          default ->
              throw BasaltIOException.doNotRetry(
                  SERVICE
                      + "."
                      + call.getMethodName()
                      + " is not supported: Basalt has no region server groups (every server and"
                      + " table is in the '"
                      + DEFAULT_GROUP
                      + "' group)");
        };
    return CoprocessorServiceResponse.newBuilder()
        .setRegion(
            HBaseProtos.RegionSpecifier.newBuilder()
                .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.EMPTY))
        .setValue(
            HBaseProtos.NameBytesPair.newBuilder()
                .setName(call.getMethodName() + "Response")
                .setValue(ByteString.copyFrom(response)))
        .build();
  }

  /** The default group: every server (host and port, as groups name servers) and every table. */
  private byte[] defaultGroup() throws IOException {
    return message(
        out -> {
          out.writeString(1, DEFAULT_GROUP);
          for (HBaseProtos.TableName t : tables.get()) {
            out.writeMessage(3, t);
          }
          for (HBaseProtos.ServerName s : servers.get()) {
            out.writeMessage(4, s.toBuilder().clearStartCode().build());
          }
        });
  }

  private static UnknownFieldSet parse(CoprocessorServiceCall call) throws BasaltIOException {
    try {
      return UnknownFieldSet.parseFrom(call.getRequest());
    } catch (InvalidProtocolBufferException e) {
      throw BasaltIOException.doNotRetry(
          "the request of " + SERVICE + "." + call.getMethodName() + " is not valid: " + e);
    }
  }

  private static String string(UnknownFieldSet m, int field) {
    List<ByteString> values =
        m.hasField(field) ? m.getField(field).getLengthDelimitedList() : List.of();
    return values.isEmpty() ? null : values.get(0).toStringUtf8();
  }

  @FunctionalInterface
  private interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Fields fields) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    fields.write(out);
    out.flush();
    return bytes.toByteArray();
  }
}
