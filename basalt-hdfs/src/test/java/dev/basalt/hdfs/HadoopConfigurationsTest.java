package dev.basalt.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.util.config.Config;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The Hadoop client's settings a Basalt process hands it. */
class HadoopConfigurationsTest {
  @Test
  void hadoopKeysOfBasaltsSettingsReachTheClient() {
    Configuration conf =
        HadoopConfigurations.of(
            Config.builder()
                .set("dfs.replication", "2")
                .set("fs.defaultFS", "hdfs://nn:8020")
                .set("ipc.client.connect.timeout", "1234")
                .build());
    assertThat(conf.get("dfs.replication")).isEqualTo("2");
    assertThat(conf.get("fs.defaultFS")).isEqualTo("hdfs://nn:8020");
    assertThat(conf.getInt("ipc.client.connect.timeout", 0)).isEqualTo(1234);
  }

  @Test
  void hadoopsShutdownHookLeavesTheFileSystemToTheServer() {
    // Else Hadoop's JVM shutdown hook closes it while the server's hook flushes through it.
    Configuration conf =
        HadoopConfigurations.of(Config.builder().set("fs.automatic.close", "true").build());
    assertThat(conf.getBoolean("fs.automatic.close", true)).isFalse();
  }

  @Test
  void theFirstCallAtStartGivesUpFast() {
    Configuration probe = HadoopConfigurations.probe(new Configuration(false), 1500);
    assertThat(probe.getInt("ipc.client.connect.timeout", 0)).isEqualTo(1500);
    assertThat(probe.getInt("ipc.client.connect.max.retries", -1)).isZero();
    assertThat(probe.getInt("ipc.client.connect.max.retries.on.timeouts", -1)).isZero();
    assertThat(probe.getInt("dfs.client.failover.max.attempts", -1)).isEqualTo(1);
  }
}
