package dev.basalt.fs;

import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/**
 * Settings of the storage under the root directory. Declared here, beside the {@link Storage}
 * interface, though only the HDFS implementation (basalt-hdfs) reads them, so that they are
 * documented with the others. The Hadoop client's own settings ({@code fs.defaultFS}, {@code
 * dfs.*}, {@code hadoop.*}, {@code ipc.*}) are passed to it unchanged.
 */
public final class StorageSettings implements ConfigKeySet {
  public static final ConfigKey<Long> LEASE_RECOVERY_TIMEOUT =
      ConfigKey.ofLong(
              "hbase.lease.recovery.timeout",
              900_000L,
              "ms",
              "HDFS: how long an open gives the lease recovery of the files a previous holder left"
                  + " open (its log) before it fails.")
          .atLeast(1L);

  public static final ConfigKey<Long> LEASE_RECOVERY_RETRY =
      ConfigKey.ofLong(
              "hbase.lease.recovery.dfs.timeout",
              64_000L,
              "ms",
              "HDFS: a file whose lease recovery has not finished after this long gets it started"
                  + " again (each start makes the DataNodes begin the block recovery anew, so it"
                  + " is not asked for more often).")
          .atLeast(1L);

  public static final ConfigKey<Long> LEASE_RECOVERY_PAUSE =
      ConfigKey.ofLong(
              "hbase.lease.recovery.pause",
              100L,
              "ms",
              "HDFS: how often an open that waits for the lease recovery of files checks whether"
                  + " they are closed (HBase: 1000 after a first pause of 4000; the DataNode"
                  + " finishes the recovery at its next heartbeat).")
          .atLeast(1L);

  public static final ConfigKey<Long> SAFE_MODE_WAIT =
      ConfigKey.ofLong(
              "basalt.fs.safemode.wait",
              600_000L,
              "ms",
              "HDFS: a server that finds the NameNode in safe mode at start waits this long for it"
                  + " to leave (logging every 10 s), then fails; 0 fails at once.")
          .atLeast(0L);

  public static final ConfigKey<Long> CONNECT_TIMEOUT =
      ConfigKey.ofLong(
              "basalt.fs.connect.timeout",
              10_000L,
              "ms",
              "HDFS: a server's first call to the NameNode at start fails after about this long"
                  + " when the NameNode cannot be reached (later calls retry as the Hadoop client's"
                  + " ipc.client.connect.* settings say).")
          .atLeast(1L);

  /** Prefixes of the keys handed to the Hadoop client as they are. */
  public static final List<String> HADOOP_PREFIXES = List.of("fs.", "dfs.", "hadoop.", "ipc.");

  @Override
  public String section() {
    return "Storage";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        LEASE_RECOVERY_TIMEOUT,
        LEASE_RECOVERY_RETRY,
        LEASE_RECOVERY_PAUSE,
        SAFE_MODE_WAIT,
        CONNECT_TIMEOUT);
  }

  @Override
  public List<String> passThroughPrefixes() {
    return HADOOP_PREFIXES;
  }
}
