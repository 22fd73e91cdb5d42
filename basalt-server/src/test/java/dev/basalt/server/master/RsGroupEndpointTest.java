package dev.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.util.BasaltIOException;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceCall;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.UnknownFieldSet;
import org.junit.jupiter.api.Test;

/** The region server group listings 2.x clients reach through ExecMasterService. */
class RsGroupEndpointTest {
  private static final HBaseProtos.ServerName SERVER =
      HBaseProtos.ServerName.newBuilder()
          .setHostName("127.0.0.1")
          .setPort(16020)
          .setStartCode(42)
          .build();
  private static final HBaseProtos.TableName TABLE =
      HBaseProtos.TableName.newBuilder()
          .setNamespace(ByteString.copyFromUtf8("default"))
          .setQualifier(ByteString.copyFromUtf8("t1"))
          .build();

  private final RsGroupEndpoint endpoint =
      new RsGroupEndpoint(() -> List.of(SERVER), () -> List.of(TABLE));

  private static CoprocessorServiceCall call(String method, ByteString request) {
    return CoprocessorServiceCall.newBuilder()
        .setRow(ByteString.EMPTY)
        .setServiceName(RsGroupEndpoint.SERVICE)
        .setMethodName(method)
        .setRequest(request)
        .build();
  }

  /** Field 1 of a response, parsed as an RSGroupInfo (name 1, tables 3, servers 4). */
  private static UnknownFieldSet group(CoprocessorServiceResponse r) throws Exception {
    UnknownFieldSet response = UnknownFieldSet.parseFrom(r.getValue().getValue());
    return UnknownFieldSet.parseFrom(response.getField(1).getLengthDelimitedList().get(0));
  }

  private static ByteString groupName(String name) {
    return UnknownFieldSet.newBuilder()
        .addField(
            1,
            UnknownFieldSet.Field.newBuilder()
                .addLengthDelimited(ByteString.copyFromUtf8(name))
                .build())
        .build()
        .toByteString();
  }

  @Test
  void everyServerAndTableIsInTheDefaultGroup() throws Exception {
    UnknownFieldSet g = group(endpoint.call(call("ListRSGroupInfos", ByteString.EMPTY)));
    assertThat(g.getField(1).getLengthDelimitedList().get(0).toStringUtf8()).isEqualTo("default");
    assertThat(HBaseProtos.TableName.parseFrom(g.getField(3).getLengthDelimitedList().get(0)))
        .isEqualTo(TABLE);
    HBaseProtos.ServerName server =
        HBaseProtos.ServerName.parseFrom(g.getField(4).getLengthDelimitedList().get(0));
    assertThat(server.getHostName()).isEqualTo("127.0.0.1");
    assertThat(server.getPort()).isEqualTo(16020);
    assertThat(server.hasStartCode()).as("groups name servers by address").isFalse();

    assertThat(group(endpoint.call(call("GetRSGroupInfo", groupName("default")))).hasField(1))
        .isTrue();
    assertThat(endpoint.call(call("GetRSGroupInfo", groupName("other"))).getValue().getValue())
        .as("no such group: a response without one")
        .isEmpty();
    assertThat(group(endpoint.call(call("GetRSGroupInfoOfTable", ByteString.EMPTY))).hasField(3))
        .isTrue();
  }

  @Test
  void changesAndOtherEndpointsAreRefused() {
    assertThatThrownBy(() -> endpoint.call(call("AddRSGroup", groupName("g1"))))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("no region server groups");
    assertThatThrownBy(
            () ->
                endpoint.call(
                    CoprocessorServiceCall.newBuilder()
                        .setRow(ByteString.EMPTY)
                        .setServiceName("hbase.pb.AccessControlService")
                        .setMethodName("Grant")
                        .setRequest(ByteString.EMPTY)
                        .build()))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e ->
                assertThat(e.hbaseExceptionClass())
                    .isEqualTo("org.apache.hadoop.hbase.exceptions.UnknownProtocolException"));
  }
}
