package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.ClientMetaService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetMastersRequest;
import org.junit.jupiter.api.Test;

class RpcServiceTest {
  private static final MethodHandler<GetClusterIdRequest> NOTHING = (r, c) -> null;

  @Test
  void methodMustBeDeclaredByTheService() {
    assertThatThrownBy(
            () ->
                RpcService.builder(ClientMetaService.getDescriptor())
                    .method("getClusterId", GetClusterIdRequest.getDefaultInstance(), NOTHING))
        .hasMessage("service ClientMetaService declares no method getClusterId");
  }

  @Test
  void prototypeMustBeTheRequestType() {
    assertThatThrownBy(
            () ->
                RpcService.builder(ClientMetaService.getDescriptor())
                    .method("GetMasters", GetMastersRequest.getDefaultInstance(), (r, c) -> null)
                    .method("GetActiveMaster", GetClusterIdRequest.getDefaultInstance(), NOTHING))
        .hasMessageContaining("GetActiveMaster takes hbase.pb.GetActiveMasterRequest")
        .hasMessageContaining("not hbase.pb.GetClusterIdRequest");
  }

  @Test
  void methodOnlyOnce() {
    assertThatThrownBy(
            () ->
                RpcService.builder(ClientMetaService.getDescriptor())
                    .method("GetClusterId", GetClusterIdRequest.getDefaultInstance(), NOTHING)
                    .method("GetClusterId", GetClusterIdRequest.getDefaultInstance(), NOTHING))
        .hasMessageContaining("registered twice");
  }

  @Test
  void serviceOnlyOncePerServer() {
    RpcService meta = TestServices.meta("c");
    assertThatThrownBy(
            () ->
                new RpcServer(
                    RpcServerConfig.defaults("127.0.0.1", 0), List.of(meta, meta), () -> "c"))
        .hasMessageContaining("offered twice");
  }
}
