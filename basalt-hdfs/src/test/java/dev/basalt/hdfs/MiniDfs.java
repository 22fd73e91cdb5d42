package dev.basalt.hdfs;

import dev.basalt.fs.Storage;
import dev.basalt.fs.Storages;
import dev.basalt.util.config.Config;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A real HDFS in the test JVM: a NameNode and two DataNodes on 127.0.0.1 (replication 2), with
 * heartbeats every second so block recovery (the end of a lease recovery) takes about a second.
 * Tests use {@link #shared}.
 */
public final class MiniDfs implements AutoCloseable {
  private final MiniDFSCluster cluster;
  private final Path base;

  private MiniDfs(MiniDFSCluster cluster, Path base) {
    this.cluster = cluster;
    this.base = base;
  }

  private static MiniDfs shared;

  /**
   * The cluster the test classes of this JVM share (surefire runs them all in one), started by the
   * first: a start costs 5-10 s on a small machine. Each test works under a root of its own and
   * puts back what it changes in the cluster (a stopped DataNode, safe mode, lease limits). Shut
   * down when the JVM exits.
   */
  public static synchronized MiniDfs shared() throws IOException {
    if (shared == null) {
      MiniDfs dfs = start();
      Runtime.getRuntime().addShutdownHook(new Thread(dfs::close, "minidfs-shutdown"));
      shared = dfs;
    }
    return shared;
  }

  public static MiniDfs start() throws IOException {
    Path base = Files.createTempDirectory(Path.of("target"), "minidfs");
    Configuration conf = new Configuration();
    conf.setInt("dfs.replication", 2);
    conf.setLong("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 2_000);
    conf.setLong("dfs.blocksize", 1024 * 1024);
    conf.setInt("dfs.namenode.handler.count", 4);
    conf.setInt("dfs.datanode.handler.count", 3);
    conf.setBoolean("dfs.permissions.enabled", true);
    conf.set("hadoop.security.token.service.use_ip", "true");
    // A pipeline recovery after a lost DataNode makes the DataNode left stop the old writer of the
    // block first; it waits up to this long for it (60 s by default).
    conf.setLong("dfs.datanode.xceiver.stop.timeout.millis", 3_000);
    MiniDFSCluster c =
        new MiniDFSCluster.Builder(conf, base.toAbsolutePath().toFile())
            .numDataNodes(2)
            .format(true)
            .build();
    c.waitActive();
    return new MiniDfs(c, base);
  }

  /** The cluster's file system URI, {@code hdfs://127.0.0.1:PORT}. */
  public String uri() {
    return "hdfs://127.0.0.1:" + cluster.getNameNodePort();
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  /** A storage at {@code uri()/name} through the provider, as a server opens its root. */
  public Storage storage(String name, Config config) throws IOException {
    Storage s = Storages.open(uri() + "/" + name, config);
    s.mkdirs("");
    return s;
  }

  public Storage storage(String name) throws IOException {
    return storage(name, config().build());
  }

  /**
   * Settings for a client of this cluster: two replicas, as many as it has DataNodes (with the
   * default three, an append or a pipeline recovery finds no DataNode to add and fails), and a 10 s
   * socket timeout (a stuck DataNode is left sooner; an idle pipeline, such as a held lock file's,
   * gets a heartbeat packet every 5 s). The DataNodes keep the default 60 s: a DataNode drops a
   * pipeline that is idle for its timeout, so it must not be shorter than the clients'.
   */
  public static Config.Builder config() {
    Config.Builder b = Config.builder();
    clientSettings().forEach(b::set);
    return b;
  }

  /** {@link #config}'s settings, for a child process's {@code -D}. */
  public static Map<String, String> clientSettings() {
    return Map.of("dfs.replication", "2", "dfs.client.socket-timeout", "10000");
  }

  /**
   * A storage at {@code uri()/name} whose HDFS client has a lease renewer of its own (it is opened
   * as another UGI of the same user: HDFS shares one renewer per user and NameNode in a JVM), so
   * that {@link #stopRenewingLeases} pauses it alone, as SIGSTOP would pause a process.
   */
  public Storage storageOfItsOwn(String name) throws Exception {
    UserGroupInformation ugi =
        UserGroupInformation.createRemoteUser(UserGroupInformation.getCurrentUser().getUserName());
    return ugi.doAs((PrivilegedExceptionAction<Storage>) () -> storage(name));
  }

  /** Stops the lease renewal of a storage's client: its leases expire after the soft limit. */
  public static void stopRenewingLeases(Storage storage) throws InterruptedException {
    FileSystem fs = ((HdfsStorage) storage).fileSystem();
    ((DistributedFileSystem) fs).getClient().getLeaseRenewer().interruptAndJoin();
  }

  @Override
  public void close() {
    try {
      cluster.shutdown(true);
    } catch (RuntimeException e) {
      // In a JVM shutdown hook the NameNode and DataNodes cannot remove their own hooks
      // (IllegalStateException: shutdown in progress); the process ends anyway.
    } finally {
      deleteQuietly(base.toFile());
    }
  }

  private static void deleteQuietly(File f) {
    File[] children = f.listFiles();
    if (children != null) {
      for (File c : children) {
        deleteQuietly(c);
      }
    }
    f.delete();
  }
}
