package dev.basalt.server.cluster;

import dev.basalt.server.coordination.EmbeddedZooKeeper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The processes of an in-process {@link LocalCluster}: the same server classes the child processes
 * run, started in this JVM. Signals have no in-process equivalent: suspending any of them, and
 * killing a master (which has no abort without a session expiry), are refused with a message saying
 * to use child processes.
 */
final class LocalInProcessNodes {
  private LocalInProcessNodes() {}

  private static UnsupportedOperationException needsChild(String what, LocalClusterNode n) {
    return new UnsupportedOperationException(
        "cannot "
            + what
            + " "
            + n.id()
            + ": it runs in this JVM; start the cluster with Mode.CHILD_PROCESSES for that");
  }

  /**
   * What every process in this JVM answers alike: no pid or log file of its own, no signals, and an
   * exit once stopped.
   */
  private abstract static class InProcess extends LocalClusterNode {
    InProcess(String id, Role role) {
      super(id, role);
    }

    @Override
    public long pid() {
      return -1;
    }

    @Override
    public Path logFile() {
      return null;
    }

    @Override
    public boolean isActiveMaster() {
      return false;
    }

    @Override
    void suspend() {
      throw needsChild("suspend", this);
    }

    @Override
    void resume() {
      throw needsChild("resume", this);
    }

    @Override
    public int awaitExit(Duration timeout) throws InterruptedException {
      return exitCode();
    }
  }

  /** The cluster's ZooKeeper server. */
  static final class ZooKeeper extends InProcess {
    private final EmbeddedZooKeeper server;
    private volatile boolean closed;

    ZooKeeper(String id, EmbeddedZooKeeper server) {
      super(id, Role.ZOOKEEPER);
      this.server = server;
    }

    @Override
    public ServerName serverName() {
      return null;
    }

    @Override
    public String address() {
      return server.connectString();
    }

    @Override
    public boolean isAlive() {
      return !closed;
    }

    @Override
    public int exitCode() {
      return closed ? 0 : -1;
    }

    @Override
    int stop(Duration timeout) {
      closed = true;
      server.close();
      return 0;
    }

    @Override
    int kill(Duration timeout) {
      return stop(timeout);
    }
  }

  /** A master. */
  static final class Master extends InProcess {
    private final ClusterMaster master;
    private volatile boolean closed;

    Master(String id, ClusterMaster master) {
      super(id, Role.MASTER);
      this.master = master;
      master.onAbort(() -> closed = true);
    }

    ClusterMaster master() {
      return master;
    }

    @Override
    public ServerName serverName() {
      return master.name();
    }

    @Override
    public String address() {
      return master.name().hostAndPort();
    }

    @Override
    public boolean isAlive() {
      return !closed;
    }

    @Override
    public boolean isActiveMaster() {
      return !closed && master.isActive();
    }

    @Override
    public int exitCode() {
      return closed ? 0 : -1;
    }

    @Override
    int stop(Duration timeout) {
      closed = true;
      master.close();
      return 0;
    }

    @Override
    int kill(Duration timeout) {
      throw needsChild("kill", this);
    }
  }

  /** A region server. */
  static final class RegionServerNode extends InProcess {
    private final RegionServer server;

    RegionServerNode(String id, RegionServer server) {
      super(id, Role.REGION_SERVER);
      this.server = server;
    }

    RegionServer server() {
      return server;
    }

    @Override
    public ServerName serverName() {
      return server.serverName();
    }

    @Override
    public String address() {
      return server.serverName().hostAndPort();
    }

    @Override
    public boolean isAlive() {
      return !server.terminated().isDone();
    }

    @Override
    public int exitCode() {
      return server.terminated().getNow(-1);
    }

    /** A graceful stop returns once the server stopped (its own bound: the offload wait). */
    @Override
    int stop(Duration timeout) throws InterruptedException {
      server.stop();
      return awaitExit(timeout);
    }

    /** An abort: the server stops serving at once, without flushing, as after a lost session. */
    @Override
    int kill(Duration timeout) throws InterruptedException {
      server.abort("killed by LocalCluster");
      return awaitExit(timeout);
    }

    @Override
    public int awaitExit(Duration timeout) throws InterruptedException {
      try {
        return server.terminated().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        return -1;
      } catch (ExecutionException e) {
        return 1;
      }
    }
  }
}
