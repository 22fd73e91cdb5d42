package dev.basalt.shell;

import dev.basalt.server.cluster.ClusterMaster;
import dev.basalt.server.cluster.RegionServer;
import dev.basalt.server.coordination.EmbeddedZooKeeper;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * A real Basalt cluster in this JVM: an embedded ZooKeeper, one master ({@link ClusterMaster}) and
 * two region servers ({@link RegionServer}), on free loopback ports over one temporary root. Shared
 * by every test of the JVM that asks for it (started on first use, stopped when the JVM exits);
 * tests use their own table names and leave the balancer as they found it.
 */
final class ClusterFixture {
  static final int REGION_SERVERS = 2;
  private static ClusterFixture instance;

  private final Path dir;
  private final EmbeddedZooKeeper zooKeeper;
  private final ClusterMaster master;
  private final List<RegionServer> regionServers;

  private ClusterFixture(
      Path dir, EmbeddedZooKeeper zooKeeper, ClusterMaster master, List<RegionServer> servers) {
    this.dir = dir;
    this.zooKeeper = zooKeeper;
    this.master = master;
    this.regionServers = servers;
  }

  static synchronized ClusterFixture get() {
    if (instance == null) {
      try {
        instance = start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting the test cluster", e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "cluster-fixture-stop"));
    }
    return instance;
  }

  private static ClusterFixture start() throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("basalt-shell-cluster");
    EmbeddedZooKeeper zk = EmbeddedZooKeeper.start(dir.resolve("zookeeper"), "127.0.0.1", 0);
    Config config =
        Config.builder()
            .set("hbase.cluster.distributed", "true")
            .set("hbase.rootdir", dir.resolve("root").toString())
            .set("hbase.zookeeper.quorum", "127.0.0.1")
            .set("hbase.zookeeper.property.clientPort", Integer.toString(zk.port()))
            .set("hbase.regionserver.ipc.address", "127.0.0.1")
            .set("hbase.master.port", "0")
            .set("hbase.regionserver.port", "0")
            .set("zookeeper.session.timeout", "6000")
            .build();
    ClusterMaster master = ClusterMaster.start(config);
    if (!master.awaitActive(Duration.ofSeconds(60))) {
      master.close();
      zk.close();
      throw new IOException("the test cluster's master did not become active within 60 s");
    }
    List<RegionServer> servers = new ArrayList<>();
    for (int i = 0; i < REGION_SERVERS; i++) {
      servers.add(RegionServer.start(config));
    }
    return new ClusterFixture(dir, zk, master, servers);
  }

  /** host,port,startcode of the active master. */
  String masterName() {
    return master.name().toString();
  }

  /** host,port,startcode of each region server, in start order. */
  List<String> regionServerNames() {
    List<String> names = new ArrayList<>();
    for (RegionServer rs : regionServers) {
      names.add(rs.serverName().toString());
    }
    return names;
  }

  /** Client settings that reach the cluster, with retry budgets sized for tests. */
  Configuration clientConf() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zooKeeper.port());
    conf.setInt("hbase.rpc.timeout", 60_000);
    conf.setInt("hbase.client.operation.timeout", 120_000);
    conf.setInt("hbase.client.retries.number", 10);
    conf.setInt("hbase.client.pause", 100);
    return conf;
  }

  /**
   * At JVM exit: the master first, then the region servers stop at once (no offloading to each
   * other, no final flush: the root is deleted anyway), then ZooKeeper.
   */
  private void stop() {
    master.close();
    for (RegionServer rs : regionServers) {
      rs.abort("the test JVM is exiting");
    }
    for (RegionServer rs : regionServers) {
      try {
        rs.terminated().get(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception e) {
        // stopping at exit: nothing left to do about it
      }
    }
    zooKeeper.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temp directory left behind is harmless
    }
  }
}
