package dev.basalt.hdfs;

import dev.basalt.util.config.Config;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop client's configuration for a Basalt process: Hadoop's defaults and any {@code
 * core-site.xml}/{@code hdfs-site.xml} on the class path ({@code HADOOP_CONF_DIR} in bin/basalt),
 * then the Hadoop keys ({@code fs.*}, {@code dfs.*}, {@code hadoop.*}, {@code ipc.*}) of Basalt's
 * own settings: the site file and {@code -D}.
 */
final class HadoopConfigurations {
  private HadoopConfigurations() {}

  static Configuration of(Config config) {
    Configuration conf = new Configuration();
    conf.addResource("hdfs-site.xml"); // loaded with HDFS's classes anyway; here so -D wins
    for (Map.Entry<String, String> e : config.passedThrough().entrySet()) {
      conf.set(e.getKey(), e.getValue(), "Basalt settings");
    }
    // Each storage closes its own instance (newInstance): no JVM-wide cache to outlive it. And
    // Hadoop's own JVM shutdown hook must leave it open: that hook runs beside the server's, which
    // flushes every region through this file system before it closes the storage (with it, a
    // SIGTERM stop failed with "Filesystem closed"). HBase's region server holds that hook back for
    // the same reason (ShutdownHook.suppressHdfsShutdownHook) and runs it after its own.
    conf.setBoolean("fs.automatic.close", false);
    return conf;
  }

  /**
   * A copy for the first call at start, which must fail fast when the NameNode cannot be reached:
   * one connection attempt of at most {@code timeoutMillis}, no retries, no failover round.
   */
  static Configuration probe(Configuration conf, long timeoutMillis) {
    Configuration p = new Configuration(conf);
    int t = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
    p.setInt("ipc.client.connect.timeout", t);
    p.setInt("ipc.client.connect.max.retries", 0);
    p.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    p.setInt("ipc.client.rpc-timeout.ms", t);
    p.setInt("dfs.client.failover.max.attempts", 1);
    p.setInt("dfs.client.retry.max.attempts", 1);
    p.setBoolean("dfs.client.retry.policy.enabled", false);
    return p;
  }
}
