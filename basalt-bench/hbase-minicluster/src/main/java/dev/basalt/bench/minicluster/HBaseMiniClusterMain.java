package dev.basalt.bench.minicluster;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;

/**
 * Starts a real Apache HBase 2.6 mini cluster (hbase-testing-util) in this JVM for the workload
 * comparison (issue 9, basalt-bench/scripts/compare-hbase.sh): ZooKeeper, one master and N region
 * servers, on loopback with the web UIs off, on the local filesystem by default (what HBase's own
 * standalone mode does, and what Basalt standalone does) or on a mini HDFS with {@code --hdfs}.
 * When the cluster answers it writes a properties file (ZooKeeper address, start-up time, pid),
 * renamed into place so a waiting script never reads half of it, and then serves until killed
 * (SIGTERM shuts the cluster down).
 *
 * <pre>
 * java [add-opens from shared/docs/reference-hbase.md] -cp CLASSPATH \
 *     dev.basalt.bench.minicluster.HBaseMiniClusterMain --dir DIR --ready-file FILE [--hdfs]
 *     [--regionservers N]
 * </pre>
 *
 * Built by its own Maven project (basalt-bench/hbase-minicluster/pom.xml), outside the reactor:
 * the default build never compiles it or downloads HBase.
 */
public final class HBaseMiniClusterMain {
  private HBaseMiniClusterMain() {}

  public static void main(String[] args) throws Exception {
    long startNanos = System.nanoTime();
    Path dir = null;
    Path readyFile = null;
    boolean hdfs = false;
    int regionServers = 1;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--dir" -> dir = Path.of(args[++i]);
        case "--ready-file" -> readyFile = Path.of(args[++i]);
        case "--hdfs" -> hdfs = true;
        case "--regionservers" -> regionServers = Integer.parseInt(args[++i]);
        default -> {
          System.err.println("unknown argument " + args[i]);
          System.err.println(
              "usage: HBaseMiniClusterMain --dir DIR --ready-file FILE [--hdfs] [--regionservers"
                  + " N]");
          System.exit(2);
        }
      }
    }
    if (dir == null || readyFile == null) {
      System.err.println("--dir and --ready-file are required");
      System.exit(2);
    }
    Files.createDirectories(dir);
    // Where HBaseTestingUtility puts everything (its data, ZooKeeper's, HDFS's); read as a
    // system property when the utility is created.
    System.setProperty("test.build.data.basedirectory", dir.toAbsolutePath().toString());

    Configuration conf = HBaseConfiguration.create();
    conf.setInt("hbase.master.info.port", -1); // no web UIs
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.set("hbase.master.ipc.address", "127.0.0.1"); // loopback only
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    if (!hdfs) {
      // The local filesystem's streams do not declare hflush/hsync; HBase's standalone mode
      // turns this check off the same way. A WAL sync is then a flush to the OS.
      conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    }

    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    StartMiniClusterOption option =
        StartMiniClusterOption.builder()
            .numMasters(1)
            .numRegionServers(regionServers)
            .numDataNodes(1)
            .build();
    if (hdfs) {
      util.startMiniCluster(option);
    } else {
      util.startMiniZKCluster();
      util.startMiniHBaseCluster(option); // returns once hbase:meta can be scanned
    }
    long startupMillis = (System.nanoTime() - startNanos) / 1_000_000;
    int zkPort = util.getZkCluster().getClientPort();
    // The master's RPC address, for clients that use the RPC connection registry
    // (--bootstrap) instead of ZooKeeper.
    String master = util.getMiniHBaseCluster().getMaster().getServerName().getAddress().toString();

    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    util.shutdownMiniCluster();
                  } catch (Exception e) {
                    System.err.println("shutdown: " + e);
                  }
                  stopped.countDown();
                },
                "minicluster-shutdown"));

    String ready =
        "zookeeper=127.0.0.1:"
            + zkPort
            + "\nmaster="
            + master
            + "\nstartupMillis="
            + startupMillis
            + "\npid="
            + ProcessHandle.current().pid()
            + "\nfilesystem="
            + (hdfs ? "hdfs (mini cluster, 1 datanode)" : "local")
            + "\nregionServers="
            + regionServers
            + "\n";
    Path tmp = readyFile.resolveSibling(readyFile.getFileName() + ".tmp");
    Files.writeString(tmp, ready, StandardCharsets.UTF_8);
    Files.move(tmp, readyFile, StandardCopyOption.ATOMIC_MOVE);
    System.out.println("HBase mini cluster ready: " + ready.replace('\n', ' '));
    System.out.println("data under " + new File(dir.toString()).getAbsolutePath());
    stopped.await();
  }
}
