package dev.basalt.server.coordination;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.zookeeper.server.ZKDatabase;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standalone Apache ZooKeeper 3.8 server running inside this JVM, as standalone Basalt (and
 * tests) use it for HBase's ZooKeeper registry. It keeps its snapshots and transaction log in one
 * data directory, so the persistent znodes (the cluster id) survive a restart on the same
 * directory.
 *
 * <p>Lifecycle: {@link #start}, then {@link #close}, which stops the connection threads and the
 * request pipeline and closes the data files. Thread-safe.
 *
 * <p>Run-time needs: ZooKeeper declares {@code io.dropwizard.metrics:metrics-core} and {@code
 * org.xerial.snappy:snappy-java} as "provided"; the server cannot start without them, so
 * basalt-server depends on both.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedZooKeeper.class);

  /**
   * Session timeouts the server grants (ms): a client's request is clamped into this range. These
   * are a default ZooKeeper's bounds (2 and 20 ticks of 2 s), so HBase's 90 s request becomes 40 s:
   * ephemeral nodes of a crashed process vanish after at most 40 s.
   */
  public static final int MIN_SESSION_TIMEOUT_MILLIS = 4_000;

  public static final int MAX_SESSION_TIMEOUT_MILLIS = 40_000;

  /**
   * ZooKeeper's tick (ms): how often the server looks for expired sessions. Shorter than a default
   * server's 2 s (the session bounds above are set explicitly, so they do not depend on it) because
   * stopping waits for the session tracker's current tick.
   */
  static final int TICK_TIME_MILLIS = 250;

  /**
   * Connections one client address may hold: HBase's default {@code
   * hbase.zookeeper.property.maxClientCnxns}; in standalone mode every client is on this host.
   */
  public static final int MAX_CLIENT_CONNECTIONS = 300;

  private final Path dataDir;
  private final FileTxnSnapLog files;
  private final ZooKeeperServer server;
  private final NIOServerCnxnFactory connections;
  private final InetSocketAddress address;
  private boolean closed;

  private EmbeddedZooKeeper(
      Path dataDir,
      FileTxnSnapLog files,
      ZooKeeperServer server,
      NIOServerCnxnFactory connections) {
    this.dataDir = dataDir;
    this.files = files;
    this.server = server;
    this.connections = connections;
    this.address = connections.getLocalAddress();
  }

  /**
   * Starts a server keeping its data in {@code dataDir} (created if missing) and listening on
   * {@code host:port}.
   *
   * @param host the address to bind, e.g. "127.0.0.1" or "0.0.0.0"
   * @param port the client port; 0 picks a free one (see {@link #port()})
   * @throws IOException naming the address or directory when the server cannot start
   */
  public static EmbeddedZooKeeper start(Path dataDir, String host, int port) throws IOException {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(host, "host");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is outside 0..65535");
    }
    Files.createDirectories(dataDir);
    FileTxnSnapLog files = new FileTxnSnapLog(dataDir.toFile(), dataDir.toFile());
    NIOServerCnxnFactory connections = null;
    ZooKeeperServer server = null;
    try {
      server =
          new ZooKeeperServer(
              files,
              TICK_TIME_MILLIS,
              MIN_SESSION_TIMEOUT_MILLIS,
              MAX_SESSION_TIMEOUT_MILLIS,
              -1,
              new ZKDatabase(files),
              "");
      connections = new NIOServerCnxnFactory();
      connections.configure(new InetSocketAddress(host, port), MAX_CLIENT_CONNECTIONS, -1, false);
      connections.startup(server); // loads the data, then serves
      if (!server.isRunning()) {
        throw new IOException("the ZooKeeper server did not reach its running state");
      }
      EmbeddedZooKeeper zk = new EmbeddedZooKeeper(dataDir, files, server, connections);
      LOG.info("embedded ZooKeeper serving {} from {}", zk.connectString(), dataDir);
      return zk;
    } catch (IOException | RuntimeException | LinkageError e) {
      stopQuietly(connections, server, files);
      throw new IOException(
          "cannot start the embedded ZooKeeper on "
              + host
              + ":"
              + port
              + " with data in "
              + dataDir
              + ": "
              + e,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopQuietly(connections, server, files);
      throw new IOException("interrupted while starting the embedded ZooKeeper", e);
    }
  }

  /** The address the server listens on (with the chosen port when started with port 0). */
  public InetSocketAddress address() {
    return address;
  }

  /** The bound client port. */
  public int port() {
    return address.getPort();
  }

  /**
   * {@code host:port} for clients ({@code hbase.zookeeper.quorum} plus the client port). A server
   * bound to the wildcard address is reached through the loopback address.
   */
  public String connectString() {
    String host =
        address.getAddress() == null || address.getAddress().isAnyLocalAddress()
            ? "127.0.0.1"
            : address.getAddress().getHostAddress();
    if (host.indexOf(':') >= 0) {
      host = "[" + host + "]"; // an IPv6 literal
    }
    return host + ":" + port();
  }

  public Path dataDir() {
    return dataDir;
  }

  /**
   * Closes every client connection (their sessions stay in the data files and expire later, as
   * after a crash of a real server), stops the server's threads and closes its data files.
   * Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    stopQuietly(connections, server, files);
    LOG.info("embedded ZooKeeper on port {} stopped", port());
  }

  private static void stopQuietly(
      NIOServerCnxnFactory connections, ZooKeeperServer server, FileTxnSnapLog files) {
    // the session tracker only sees that it should stop at its next tick (at most TICK_TIME_MILLIS
    // away): wait for it, so that no server thread outlives close
    Object tracker = server == null ? null : server.getSessionTracker();
    if (connections != null) {
      connections.shutdown(); // also shuts the server down
      try {
        connections.join(); // the accept and selector threads
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (server != null && server.isRunning()) {
      server.shutdown();
    }
    if (tracker instanceof Thread t) {
      try {
        t.join(10L * TICK_TIME_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      files.close();
    } catch (IOException e) {
      LOG.warn("closing the ZooKeeper data files failed", e);
    }
  }
}
