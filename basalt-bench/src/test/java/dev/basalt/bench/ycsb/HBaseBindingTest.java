package dev.basalt.bench.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class HBaseBindingTest {
  @Test
  void passesEveryHbasePropertyToTheClientAndNothingElse() {
    Properties p = new Properties();
    p.setProperty("hbase.zookeeper.quorum", "127.0.0.1:2181");
    p.setProperty("hbase.client.operation.timeout", "5000");
    p.setProperty("recordcount", "1000");
    p.setProperty("columnfamily", "cf");
    Configuration conf = HBaseBinding.configuration(p);
    assertThat(conf.get("hbase.zookeeper.quorum")).isEqualTo("127.0.0.1:2181");
    assertThat(conf.get("hbase.client.operation.timeout")).isEqualTo("5000");
    assertThat(conf.get("recordcount")).isNull();
    assertThat(conf.get("columnfamily")).isNull();
  }
}
