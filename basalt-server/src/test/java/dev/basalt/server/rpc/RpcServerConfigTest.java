package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.util.config.Config;
import dev.basalt.util.config.ConfigRegistry;
import org.junit.jupiter.api.Test;

class RpcServerConfigTest {

  @Test
  void defaultsFollowTheCoreCount() {
    RpcServerConfig c = RpcServerConfig.defaults("127.0.0.1", 0);
    int cores = Runtime.getRuntime().availableProcessors();
    assertThat(c.maxFrameSize()).isEqualTo(256 * 1024 * 1024);
    assertThat(c.handlerThreads()).isEqualTo(Math.max(8, 4 * cores));
    assertThat(c.callQueueLength()).isEqualTo(10 * c.handlerThreads());
    assertThat(c.eventLoopThreads()).isZero();
  }

  @Test
  void readsHBaseKeys() {
    Config config =
        Config.builder()
            .set("hbase.ipc.max.request.size", "1m")
            .set("hbase.regionserver.handler.count", "3")
            .set("hbase.ipc.server.max.callqueue.length", "7")
            .set("hbase.netty.worker.count", "2")
            .build();
    RpcServerConfig c = RpcServerConfig.from(config, "0.0.0.0", 16020);
    assertThat(c).isEqualTo(new RpcServerConfig("0.0.0.0", 16020, 1 << 20, 3, 7, 2, true));
  }

  @Test
  void badValuesNameTheirKey() {
    assertThatThrownBy(() -> Config.builder().set("hbase.regionserver.handler.count", "-1").build())
        .hasMessage(
            "setting hbase.regionserver.handler.count: -1 is out of range; it must be at least 0"
                + " (threads)");
    assertThatThrownBy(() -> Config.builder().set("hbase.ipc.max.request.size", "8g").build())
        .hasMessage(
            "setting hbase.ipc.max.request.size: 8g is out of range; it must be from 64 to"
                + " 2147483631 (bytes)");
    assertThatThrownBy(() -> RpcServerConfig.defaults("h", 70000))
        .hasMessageContaining("port 70000");
  }

  @Test
  void settingsAreRegistered() {
    assertThat(ConfigRegistry.get().isDeclared(RpcSettings.MAX_REQUEST_SIZE)).isTrue();
    assertThat(ConfigRegistry.get().toMarkdown()).contains("## RPC server");
  }
}
