package dev.basalt.server.coordination;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ZooKeeper session of a Basalt process, with the few znode operations Basalt needs, each
 * turning ZooKeeper's checked exceptions into an {@link IOException} naming the path and quorum.
 * Ephemeral nodes created here live as long as the session: when ZooKeeper expires it (the process
 * paused or lost the network for longer than the session timeout) they are gone, and the owner is
 * told through {@link #onExpired}: a master or region server must then stop acting as one.
 *
 * <p>Thread-safe.
 */
public final class ZooKeeperSession implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperSession.class);

  private final ZooKeeper zk;
  private final String quorum;
  private final long requestTimeoutMillis;
  private final State state;
  private boolean closed;

  private ZooKeeperSession(ZooKeeper zk, String quorum, long requestTimeoutMillis, State state) {
    this.zk = zk;
    this.quorum = quorum;
    this.requestTimeoutMillis = requestTimeoutMillis;
    this.state = state;
  }

  /**
   * Opens a session and waits until it is connected.
   *
   * @param quorum ZooKeeper's {@code host:port[,host:port...]}
   * @param timeout how long connecting, and then each request, may take
   * @param sessionTimeout the session timeout asked for (the server may negotiate it)
   * @throws IOException naming the quorum when it cannot be reached in time
   */
  public static ZooKeeperSession connect(String quorum, Duration timeout, Duration sessionTimeout)
      throws IOException {
    Objects.requireNonNull(quorum, "quorum");
    long timeoutMillis = positiveMillis(timeout, "timeout");
    int sessionMillis =
        (int) Math.min(Integer.MAX_VALUE, positiveMillis(sessionTimeout, "session timeout"));
    ZKClientConfig config = new ZKClientConfig();
    // every request, including closing the session, waits at most this long
    config.setProperty(ZKClientConfig.ZOOKEEPER_REQUEST_TIMEOUT, Long.toString(timeoutMillis));
    config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
    State state = new State(quorum);
    ZooKeeper zk;
    try {
      zk = new ZooKeeper(quorum, sessionMillis, state, config);
    } catch (IOException | IllegalArgumentException e) {
      throw new IOException("cannot connect to ZooKeeper quorum " + quorum + ": " + e, e);
    }
    ZooKeeperSession session = new ZooKeeperSession(zk, quorum, timeoutMillis, state);
    try {
      if (!state.connected.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
        session.close();
        throw new IOException(
            "cannot reach ZooKeeper quorum "
                + quorum
                + " within "
                + timeoutMillis
                + " ms (is ZooKeeper running there?)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      session.close();
      throw new IOException("interrupted while connecting to ZooKeeper " + quorum, e);
    }
    return session;
  }

  /** The quorum as given, for messages. */
  public String quorum() {
    return quorum;
  }

  public long sessionId() {
    return zk.getSessionId();
  }

  /**
   * The session's password: with {@link #sessionId()}, another client can take the session over and
   * close it, which expires it for this one (how tests expire a session).
   */
  public byte[] sessionPassword() {
    return zk.getSessionPasswd();
  }

  /** The session timeout ZooKeeper granted. */
  public int sessionTimeoutMillis() {
    return zk.getSessionTimeout();
  }

  /** Runs {@code action} (once) when ZooKeeper expires this session. */
  public void onExpired(Runnable action) {
    state.onExpired.add(action);
    if (state.expired) {
      action.run();
    }
  }

  /** True once ZooKeeper expired this session (its ephemeral nodes are gone). */
  public boolean isExpired() {
    return state.expired;
  }

  /**
   * Asks ZooKeeper now whether the session is alive (a request on it). After this process was
   * paused the expiry event arrives only once the client has reconnected, so a process that must
   * not act on an expired session asks rather than waits for the event.
   *
   * @return false when ZooKeeper expired the session (or it was closed)
   * @throws IOException when ZooKeeper does not answer within {@code timeout}
   */
  public boolean confirmAlive(Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!state.expired) {
      // asynchronous, so that the wait is this call's timeout rather than every request's
      CompletableFuture<KeeperException.Code> answer = new CompletableFuture<>();
      zk.exists(
          "/", false, (rc, path, ctx, stat) -> answer.complete(KeeperException.Code.get(rc)), null);
      KeeperException.Code code;
      try {
        code = answer.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        break;
      } catch (ExecutionException e) {
        throw new IOException("ZooKeeper " + quorum + " failed a session check: " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while asking ZooKeeper about the session", e);
      }
      switch (code) {
        case OK:
          return !state.expired;
        case SESSIONEXPIRED:
          return false;
        case CONNECTIONLOSS:
          if (System.nanoTime() > deadline) {
            break;
          }
          try {
            Thread.sleep(50); // the client is reconnecting
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking ZooKeeper about the session", e);
          }
          continue;
        default:
          throw new IOException("ZooKeeper " + quorum + " failed a session check: " + code);
      }
      break;
    }
    if (state.expired) {
      return false;
    }
    throw new IOException(
        "ZooKeeper "
            + quorum
            + " did not say within "
            + timeout.toMillis()
            + " ms whether this"
            + " session is alive");
  }

  // ---- znodes -------------------------------------------------------------------------------

  /** Creates {@code path} and every missing ancestor as persistent, empty nodes. */
  public void createPersistentPath(String path) throws IOException {
    run(
        path,
        () -> {
          if (path.equals("/")) {
            return null;
          }
          int from = 1;
          while (true) {
            int slash = path.indexOf('/', from);
            String prefix = slash < 0 ? path : path.substring(0, slash);
            if (zk.exists(prefix, false) == null) {
              try {
                zk.create(prefix, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
              } catch (KeeperException.NodeExistsException e) {
                // another writer made it first
              }
            }
            if (slash < 0) {
              return null;
            }
            from = slash + 1;
          }
        });
  }

  /** Creates or overwrites a persistent node (its parent must exist). */
  public void writePersistent(String path, byte[] data) throws IOException {
    run(
        path,
        () -> {
          try {
            zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
          } catch (KeeperException.NodeExistsException e) {
            zk.setData(path, data, -1);
          }
          return null;
        });
  }

  /**
   * Creates an ephemeral node of this session.
   *
   * @return its stat, or null when the node exists already (another session holds it)
   */
  public Stat createEphemeral(String path, byte[] data) throws IOException {
    return run(
        path,
        () -> {
          try {
            zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
          } catch (KeeperException.NodeExistsException e) {
            Stat stat = zk.exists(path, false);
            // A retried create of ours (after a connection loss) finds our own node.
            return stat != null && stat.getEphemeralOwner() == zk.getSessionId() ? stat : null;
          }
          return zk.exists(path, false);
        });
  }

  /**
   * Deletes whatever is at {@code path} (a stale ephemeral node of an earlier session, say) and
   * creates it as an ephemeral node of this session.
   */
  public void replaceEphemeral(String path, byte[] data) throws IOException {
    run(
        path,
        () -> {
          for (int attempt = 1; ; attempt++) {
            Stat stat = zk.exists(path, false);
            if (stat != null) {
              if (stat.getEphemeralOwner() != zk.getSessionId()) {
                LOG.info(
                    "replacing {} left by session 0x{}",
                    path,
                    Long.toHexString(stat.getEphemeralOwner()));
              }
              try {
                zk.delete(path, -1);
              } catch (KeeperException.NoNodeException e) {
                // gone meanwhile (its session expired)
              }
            }
            try {
              zk.create(path, data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
              return null;
            } catch (KeeperException.NodeExistsException e) {
              if (attempt >= 3) {
                throw e; // someone else keeps writing it
              }
            }
          }
        });
  }

  /** Deletes a node; a missing one is not an error. */
  public void delete(String path) throws IOException {
    run(
        path,
        () -> {
          try {
            zk.delete(path, -1);
          } catch (KeeperException.NoNodeException e) {
            // already gone
          }
          return null;
        });
  }

  /**
   * The node's stat, or null when it does not exist; with a watcher, which fires once on its next
   * change (creation, data change or deletion).
   */
  public Stat exists(String path, Watcher watcher) throws IOException {
    return run(path, () -> watcher == null ? zk.exists(path, false) : zk.exists(path, watcher));
  }

  /** The node's data, or null when it does not exist. */
  public byte[] getData(String path) throws IOException {
    return run(
        path,
        () -> {
          try {
            return zk.getData(path, false, null);
          } catch (KeeperException.NoNodeException e) {
            return null;
          }
        });
  }

  /**
   * The node's children (empty when it does not exist); with a watcher, which fires once when they
   * change.
   */
  public List<String> children(String path, Watcher watcher) throws IOException {
    return run(
        path,
        () -> {
          try {
            return watcher == null ? zk.getChildren(path, false) : zk.getChildren(path, watcher);
          } catch (KeeperException.NoNodeException e) {
            return List.of();
          }
        });
  }

  @FunctionalInterface
  private interface Request<T> {
    T run() throws KeeperException, InterruptedException;
  }

  private <T> T run(String path, Request<T> request) throws IOException {
    try {
      return request.run();
    } catch (KeeperException e) {
      throw new IOException(
          "ZooKeeper " + quorum + " failed a request on " + path + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted during a ZooKeeper request on " + path, e);
    }
  }

  /** Closes the session; ZooKeeper removes its ephemeral nodes. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    state.closing = true;
    try {
      // waits for the session to close (at most the request timeout), then for the client's
      // threads to end
      if (!zk.close((int) Math.min(Integer.MAX_VALUE, requestTimeoutMillis))) {
        LOG.warn(
            "the ZooKeeper client of {} did not stop within {} ms", quorum, requestTimeoutMillis);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static long positiveMillis(Duration d, String what) {
    Objects.requireNonNull(d, what);
    long ms = d.toMillis();
    if (ms <= 0) {
      throw new IllegalArgumentException(what + " must be positive, not " + d);
    }
    return ms;
  }

  /** Connection-state events of the session. */
  private static final class State implements Watcher {
    private final String quorum;
    final CountDownLatch connected = new CountDownLatch(1);
    final List<Runnable> onExpired = new CopyOnWriteArrayList<>();
    volatile boolean expired;
    volatile boolean closing;

    State(String quorum) {
      this.quorum = quorum;
    }

    @Override
    public void process(WatchedEvent event) {
      if (event.getType() != Event.EventType.None) {
        return;
      }
      switch (event.getState()) {
        case SyncConnected -> connected.countDown();
        case Expired -> {
          expired = true;
          LOG.error("ZooKeeper {} expired this process's session", quorum);
          for (Runnable r : onExpired) {
            try {
              r.run();
            } catch (RuntimeException e) {
              LOG.error("a session-expiry action failed", e);
            }
          }
        }
        case Disconnected -> {
          if (!closing) {
            LOG.warn("disconnected from ZooKeeper {}; reconnecting", quorum);
          }
        }
        default -> {}
      }
    }
  }
}
