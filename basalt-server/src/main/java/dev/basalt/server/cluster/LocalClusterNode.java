package dev.basalt.server.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One process of a {@link LocalCluster}: its ZooKeeper, a master or a region server, running in
 * this JVM or as a child process. The cluster controls it ({@link LocalCluster#stop}, {@link
 * LocalCluster#kill}, ...); this says what it is. Thread-safe.
 */
public abstract class LocalClusterNode {
  /** What the process is. */
  public enum Role {
    ZOOKEEPER,
    MASTER,
    REGION_SERVER
  }

  private final String id;
  private final Role role;

  LocalClusterNode(String id, Role role) {
    this.id = id;
    this.role = role;
  }

  /** The cluster's name for it: {@code zookeeper}, {@code master-1}, {@code regionserver-2}... */
  public final String id() {
    return id;
  }

  public final Role role() {
    return role;
  }

  /** {@code host,port,startcode} of a master or region server; null for ZooKeeper. */
  public abstract ServerName serverName();

  /** {@code host:port} it listens on. */
  public abstract String address();

  /** The child's process id, or -1 when it runs in this JVM. */
  public abstract long pid();

  /**
   * The file its console output goes to ({@code <root>/logs/<id>.out}), or null in this JVM. With a
   * Logback configuration that writes files, its log is {@code <root>/logs/basalt-<id>.log}.
   */
  public abstract Path logFile();

  /** Whether it is still running (a suspended child is). */
  public abstract boolean isAlive();

  /** Whether it is a master that became active (it may have stopped since). */
  public abstract boolean isActiveMaster();

  /** Its exit status once it ended (0 for a clean stop in this JVM); -1 while it runs. */
  public abstract int exitCode();

  // ---- control, through LocalCluster -------------------------------------------------------

  /**
   * Stops it gracefully (SIGTERM for a child) and waits for the end; a child still running after
   * {@code timeout} is killed. Returns the exit status.
   */
  abstract int stop(Duration timeout) throws IOException, InterruptedException;

  /** Ends it at once (SIGKILL for a child), without any clean-up, and waits for the end. */
  abstract int kill(Duration timeout) throws IOException, InterruptedException;

  /** SIGSTOP: the process stops running but keeps its sockets and ZooKeeper session. */
  abstract void suspend() throws IOException, InterruptedException;

  /** SIGCONT after {@link #suspend}. */
  abstract void resume() throws IOException, InterruptedException;

  /** Waits up to {@code timeout} for it to end; returns its exit status, or -1 if it still runs. */
  public abstract int awaitExit(Duration timeout) throws InterruptedException;

  @Override
  public String toString() {
    ServerName n = serverName();
    return id + (n != null ? " (" + n + ")" : " (" + address() + ")");
  }
}
