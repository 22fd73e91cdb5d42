package dev.basalt.server.cluster;

import dev.basalt.server.coordination.EmbeddedZooKeeper;
import dev.basalt.server.standalone.SiteConfig;
import dev.basalt.server.standalone.StandaloneSettings;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole cluster on this machine: a ZooKeeper server, masters and region servers on 127.0.0.1 with
 * free ports over one root directory, either in this JVM or as child processes ({@link
 * LocalClusterOptions.Mode}). {@code bin/basalt local-cluster} ({@link LocalClusterMain}) and the
 * multi-process tests run it.
 *
 * <p>Start order: ZooKeeper; the masters, until one is active (it creates the root's cluster id,
 * which a region server checks when it starts); the region servers, until each registered. Child
 * processes of one phase start together and the phase waits for every ready file, at most the start
 * timeout. A child's console output goes to {@code <root>/logs/<id>.out} (or the options' log
 * directory); with conf/logback.xml its log also goes to {@code basalt-<id>.log} there; ready files
 * live in {@code <root>/run}.
 *
 * <p>{@link #close} stops everything cleanly so that the cluster can start again on the same root:
 * region servers one at a time (each hands its regions to the others; the last one closes its own
 * and reports them closed), then the standby masters, the active master, ZooKeeper. {@link
 * #killAll} ends every process at once. Every wait is bounded by the options' timeouts.
 * Thread-safe.
 */
public final class LocalCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);
  private static final String HOST = "127.0.0.1";
  private static final long POLL_MILLIS = 50;
  private static final Duration KILL_WAIT = Duration.ofSeconds(10);

  /** How long a second caller of {@link #close} waits for the first one's stop to finish. */
  private static final Duration CLOSE_WAIT = Duration.ofMinutes(15);

  private final LocalClusterOptions options;
  private final Path root;
  private final Path logs;
  private final Path run;
  private final AtomicInteger masterIds = new AtomicInteger();
  private final AtomicInteger regionServerIds = new AtomicInteger();
  private final List<LocalClusterNode> masters = new CopyOnWriteArrayList<>();
  private final List<LocalClusterNode> regionServers = new CopyOnWriteArrayList<>();
  private volatile LocalClusterNode zooKeeper;
  private volatile int zooKeeperPort;
  private final CountDownLatch ended = new CountDownLatch(1);
  private Thread exitHook;
  private boolean closed; // guarded by this: once true, no process starts

  private LocalCluster(LocalClusterOptions options) {
    this.options = options;
    this.root = options.root;
    this.logs = options.logDirectory;
    this.run = root.resolve("run");
  }

  /**
   * Starts a cluster and returns once every process is ready.
   *
   * @throws IOException when a process could not start (the message says which, with the end of its
   *     output); whatever started is killed again
   */
  public static LocalCluster start(LocalClusterOptions options)
      throws IOException, InterruptedException {
    LocalCluster c = new LocalCluster(options);
    try {
      c.startAll();
      return c;
    } catch (IOException | InterruptedException | RuntimeException e) {
      c.killAll();
      throw e;
    }
  }

  private void startAll() throws IOException, InterruptedException {
    Files.createDirectories(logs);
    Files.createDirectories(run);
    // registered before the first child: a JVM stopped during the start leaves nothing behind
    if (children() && options.onExit == LocalClusterOptions.OnExit.KILL_CHILDREN) {
      exitHook = new Thread(this::killAll, "basalt-local-cluster-kill");
    } else if (children() && options.onExit == LocalClusterOptions.OnExit.STOP_CLEANLY) {
      exitHook = new Thread(this::close, "basalt-local-cluster-stop");
    }
    if (exitHook != null) {
      Runtime.getRuntime().addShutdownHook(exitHook);
    }
    LocalClusterNode zooKeeper = startZooKeeper();
    String zk = zooKeeper.address();
    zooKeeperPort = Integer.parseInt(zk.substring(zk.lastIndexOf(':') + 1));
    LOG.info("local cluster: ZooKeeper at {}", zk);
    startMasters(options.masters, LocalNodeOptions.DEFAULT);
    awaitActiveMaster(options.startTimeout);
    startRegionServers(options.regionServers, LocalNodeOptions.DEFAULT);
  }

  // ---- starting processes ---------------------------------------------------------------------

  private boolean children() {
    return options.mode == LocalClusterOptions.Mode.CHILD_PROCESSES;
  }

  private LocalClusterNode startZooKeeper() throws IOException, InterruptedException {
    String id = "zookeeper";
    Path dataDir = root.resolve("zookeeper");
    if (!children()) {
      return register(
          id,
          () ->
              new LocalInProcessNodes.ZooKeeper(
                  id, EmbeddedZooKeeper.start(dataDir, HOST, options.zooKeeperPort)),
          n -> zooKeeper = n);
    }
    List<String> args =
        List.of(
            "--port",
            Integer.toString(options.zooKeeperPort),
            "--data-dir",
            dataDir.toString(),
            "--ready-file",
            readyFile(id).toString(),
            "-D",
            StandaloneSettings.ROOT_DIR.key() + "=" + root);
    LocalChildProcess p =
        (LocalChildProcess)
            register(
                id,
                () ->
                    launch(
                        id,
                        LocalClusterNode.Role.ZOOKEEPER,
                        options.zooKeeperHeap,
                        ZOOKEEPER_MAIN,
                        args),
                n -> zooKeeper = n);
    p.awaitReady(options.startTimeout);
    return p;
  }

  private static final String ZOOKEEPER_MAIN = "dev.basalt.server.standalone.ZooKeeperMain";

  /** Starts {@code n} masters together and waits until each listens (not until one is active). */
  private List<LocalClusterNode> startMasters(int n, LocalNodeOptions node)
      throws IOException, InterruptedException {
    checkNodeOptions(node);
    List<LocalClusterNode> started = new ArrayList<>();
    List<LocalChildProcess> launched = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = "master-" + masterIds.incrementAndGet();
      LocalClusterNode m =
          register(
              id,
              () ->
                  children()
                      ? launch(
                          id,
                          LocalClusterNode.Role.MASTER,
                          options.masterHeap,
                          node.jvmOptions(),
                          MasterMain.class.getName(),
                          serverArgs(id, StandaloneSettings.MASTER_PORT.key(), node))
                      : new LocalInProcessNodes.Master(
                          id,
                          ClusterMaster.start(config(StandaloneSettings.MASTER_PORT.key(), node))),
              masters::add);
      started.add(m);
      if (m instanceof LocalChildProcess p) {
        launched.add(p);
      }
    }
    for (LocalChildProcess p : launched) {
      p.awaitReady(options.startTimeout);
      LOG.info("local cluster: {} listens at {} (pid {})", p.id(), p.address(), p.pid());
    }
    return started;
  }

  /** Starts {@code n} region servers together and waits until each registered with the master. */
  private List<LocalClusterNode> startRegionServers(int n, LocalNodeOptions node)
      throws IOException, InterruptedException {
    checkNodeOptions(node);
    if (n > 1 && node.port() != 0) {
      throw new IllegalArgumentException(n + " region servers cannot share port " + node.port());
    }
    List<LocalClusterNode> started = new ArrayList<>();
    List<LocalChildProcess> launched = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = "regionserver-" + regionServerIds.incrementAndGet();
      LocalClusterNode rs =
          register(
              id,
              () ->
                  children()
                      ? launch(
                          id,
                          LocalClusterNode.Role.REGION_SERVER,
                          options.regionServerHeap,
                          node.jvmOptions(),
                          RegionServerMain.class.getName(),
                          serverArgs(id, StandaloneSettings.REGIONSERVER_PORT.key(), node))
                      : new LocalInProcessNodes.RegionServerNode(
                          id,
                          RegionServer.start(
                              config(StandaloneSettings.REGIONSERVER_PORT.key(), node))),
              regionServers::add);
      started.add(rs);
      if (rs instanceof LocalChildProcess p) {
        launched.add(p);
      }
    }
    for (LocalChildProcess p : launched) {
      p.awaitReady(options.startTimeout);
      LOG.info("local cluster: {} serves at {} (pid {})", p.id(), p.serverName(), p.pid());
    }
    return started;
  }

  /** Starts a process: launches a child, or starts the server in this JVM. */
  private interface Starter {
    LocalClusterNode start() throws IOException;
  }

  /**
   * Starts a process and adds it to the cluster's list in one step under the cluster's lock, so
   * that a stop that began before is not missed: once closing, nothing more starts.
   */
  private LocalClusterNode register(String id, Starter starter, Consumer<LocalClusterNode> into)
      throws IOException {
    synchronized (this) {
      if (closed) {
        throw new IOException("the local cluster is stopping: " + id + " not started");
      }
      LocalClusterNode n = starter.start();
      into.accept(n);
      return n;
    }
  }

  /** JVM options need a JVM of the node's own. */
  private void checkNodeOptions(LocalNodeOptions node) {
    if (!children() && !node.jvmOptions().isEmpty()) {
      throw new UnsupportedOperationException(
          "JVM options "
              + node.jvmOptions()
              + " need a process of their own: start the cluster with Mode.CHILD_PROCESSES");
    }
  }

  /**
   * The settings of a master or region server: its own port free ({@code portKey} = 0) unless the
   * node's options give one; the caller's settings, then the node's, win.
   */
  private Map<String, String> settings(String portKey, LocalNodeOptions node) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(ClusterSettings.DISTRIBUTED.key(), "true");
    s.put(StandaloneSettings.ROOT_DIR.key(), root.toString());
    s.put(ClusterSettings.ZOOKEEPER_QUORUM.key(), HOST);
    s.put(StandaloneSettings.ZOOKEEPER_PORT.key(), Integer.toString(zooKeeperPort));
    s.put(StandaloneSettings.BIND_ADDRESS.key(), HOST);
    s.put(portKey, "0");
    s.putAll(options.settings); // the caller's win
    if (node.port() != 0) {
      s.put(portKey, Integer.toString(node.port()));
    }
    s.putAll(node.settings());
    return s;
  }

  private Config config(String portKey, LocalNodeOptions node) throws IOException {
    return SiteConfig.load(options.configFile, settings(portKey, node));
  }

  private List<String> serverArgs(String id, String portKey, LocalNodeOptions node) {
    List<String> args = new ArrayList<>(List.of("--ready-file", readyFile(id).toString()));
    if (options.configFile != null) {
      args.add("-c");
      args.add(options.configFile.toString());
    }
    settings(portKey, node)
        .forEach(
            (k, v) -> {
              args.add("-D");
              args.add(k + "=" + v);
            });
    return args;
  }

  private Path readyFile(String id) {
    return run.resolve(id + ".ready");
  }

  private LocalChildProcess launch(
      String id, LocalClusterNode.Role role, String heap, String mainClass, List<String> args)
      throws IOException {
    return launch(id, role, heap, List.of(), mainClass, args);
  }

  private LocalChildProcess launch(
      String id,
      LocalClusterNode.Role role,
      String heap,
      List<String> jvmOptions,
      String mainClass,
      List<String> args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    // Its own session: Ctrl-C in a terminal reaches the whole foreground process group, and the
    // children must instead be stopped by the launcher, in order (see close)
    String setsid = setsid();
    if (setsid != null) {
      cmd.add(setsid);
    }
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + heap);
    cmd.addAll(options.childJvmOptions);
    cmd.addAll(jvmOptions);
    if (options.logbackConfig != null) {
      cmd.add("-Dlogback.configurationFile=" + options.logbackConfig);
    }
    cmd.add("-Dbasalt.log.dir=" + logs);
    cmd.add("-Dbasalt.log.name=basalt-" + id);
    cmd.add("-cp");
    cmd.add(options.classPath);
    cmd.add(mainClass);
    cmd.addAll(args);
    LocalChildProcess p =
        LocalChildProcess.launch(id, role, cmd, logs.resolve(id + ".out"), readyFile(id));
    return p;
  }

  /** setsid(1) where the system has it (util-linux); elsewhere children share our group. */
  private static String setsid() {
    for (String candidate : new String[] {"/usr/bin/setsid", "/bin/setsid"}) {
      if (Files.isExecutable(Path.of(candidate))) {
        return candidate;
      }
    }
    return null;
  }

  /** Starts one more region server and returns once it registered. */
  public LocalClusterNode addRegionServer() throws IOException, InterruptedException {
    return addRegionServers(1).get(0);
  }

  /**
   * Starts one more region server as {@code node} says (on the port of one that was killed, say:
   * the master then sees a newer start code on that address) and returns once it registered.
   *
   * @throws UnsupportedOperationException JVM options in a cluster in this JVM
   */
  public synchronized LocalClusterNode addRegionServer(LocalNodeOptions node)
      throws IOException, InterruptedException {
    checkOpen();
    return startRegionServers(1, node).get(0);
  }

  /** Starts {@code n} more region servers together and returns once each registered. */
  public synchronized List<LocalClusterNode> addRegionServers(int n)
      throws IOException, InterruptedException {
    checkOpen();
    return startRegionServers(n, LocalNodeOptions.DEFAULT);
  }

  /** Starts one more master (it stands by while another is active) and returns once it listens. */
  public LocalClusterNode addMaster() throws IOException, InterruptedException {
    return addMaster(LocalNodeOptions.DEFAULT);
  }

  /**
   * Starts one more master as {@code node} says (with a fault point armed, say) and returns once it
   * listens.
   *
   * @throws UnsupportedOperationException JVM options in a cluster in this JVM
   */
  public synchronized LocalClusterNode addMaster(LocalNodeOptions node)
      throws IOException, InterruptedException {
    checkOpen();
    return startMasters(1, node).get(0);
  }

  /** Whether a stop ({@link #close}, {@link #killAll}, the exit hook) has begun. */
  public synchronized boolean isStopping() {
    return closed;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the local cluster is closed");
    }
  }

  // ---- what it is -------------------------------------------------------------------------------

  public Path root() {
    return root;
  }

  /** Where the children's output and log files are (by default {@code <root>/logs}). */
  public Path logDirectory() {
    return logs;
  }

  public LocalClusterNode zooKeeper() {
    return zooKeeper;
  }

  /** The ZooKeeper quorum clients use: {@code 127.0.0.1}. */
  public String zooKeeperQuorum() {
    return HOST;
  }

  public int zooKeeperPort() {
    return zooKeeperPort;
  }

  /** Masters still running, in start order. */
  public List<LocalClusterNode> masters() {
    return alive(masters);
  }

  /** Region servers still running, in start order. */
  public List<LocalClusterNode> regionServers() {
    return alive(regionServers);
  }

  /** Every process started, running or not, in start order (ZooKeeper first). */
  public List<LocalClusterNode> allNodes() {
    List<LocalClusterNode> all = new ArrayList<>();
    if (zooKeeper != null) {
      all.add(zooKeeper);
    }
    all.addAll(masters);
    all.addAll(regionServers);
    return all;
  }

  private static List<LocalClusterNode> alive(List<LocalClusterNode> nodes) {
    List<LocalClusterNode> out = new ArrayList<>();
    for (LocalClusterNode n : nodes) {
      if (n.isAlive()) {
        out.add(n);
      }
    }
    return out;
  }

  /** The running master that is active, if one is now. */
  public Optional<LocalClusterNode> activeMaster() {
    for (LocalClusterNode m : masters) {
      if (m.isAlive() && m.isActiveMaster()) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /**
   * Waits until a running master is active.
   *
   * @throws IOException when none is within {@code timeout}
   */
  public LocalClusterNode awaitActiveMaster(Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<LocalClusterNode> a = activeMaster();
      if (a.isPresent()) {
        return a.get();
      }
      if (masters().isEmpty()) {
        throw new IOException("no master is running");
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new IOException("no master became active within " + timeout.toSeconds() + " s");
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** {@code hbase.client.bootstrap.servers} for the RPC registry: the running masters. */
  public String bootstrapServers() {
    StringJoiner j = new StringJoiner(",");
    for (LocalClusterNode m : masters()) {
      j.add(m.address());
    }
    return j.toString();
  }

  /** What a stock client sets to reach the cluster through ZooKeeper (HBase's keys). */
  public Map<String, String> clientSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(ClusterSettings.ZOOKEEPER_QUORUM.key(), HOST);
    s.put(StandaloneSettings.ZOOKEEPER_PORT.key(), Integer.toString(zooKeeperPort));
    String parent = options.settings.get(StandaloneSettings.ZNODE_PARENT.key());
    if (parent != null) {
      s.put(StandaloneSettings.ZNODE_PARENT.key(), parent);
    }
    return s;
  }

  // ---- control ----------------------------------------------------------------------------------

  /**
   * Stops one process gracefully (a child: SIGTERM, SIGKILL after the stop timeout) and returns its
   * exit status. A region server first hands its regions to the others; a master hands over to a
   * standby.
   */
  public int stop(LocalClusterNode node) throws IOException, InterruptedException {
    return node.stop(options.stopTimeout);
  }

  /** Kills one process (a child: SIGKILL) and returns its exit status. */
  public int kill(LocalClusterNode node) throws IOException, InterruptedException {
    return node.kill(KILL_WAIT);
  }

  /** Suspends a child process (SIGSTOP): it keeps its sockets and session but answers nothing. */
  public void suspend(LocalClusterNode node) throws IOException, InterruptedException {
    node.suspend();
  }

  /** Resumes a suspended child process (SIGCONT). */
  public void resume(LocalClusterNode node) throws IOException, InterruptedException {
    node.resume();
  }

  /**
   * Stops every process cleanly, in the order the class comment gives; a process that does not stop
   * within the stop timeout is killed. Idempotent.
   */
  @Override
  public void close() {
    boolean first;
    synchronized (this) {
      first = !closed;
      closed = true;
    }
    if (!first) {
      awaitEnded(); // another thread stops it (the exit hook, say): return once it is done
      return;
    }
    try {
      for (LocalClusterNode rs : regionServers()) {
        stopQuietly(rs);
      }
      List<LocalClusterNode> ms = masters();
      for (LocalClusterNode m : ms) {
        if (!m.isActiveMaster()) {
          stopQuietly(m);
        }
      }
      for (LocalClusterNode m : ms) {
        stopQuietly(m);
      }
      if (zooKeeper != null && zooKeeper.isAlive()) {
        stopQuietly(zooKeeper);
      }
    } finally {
      killAll(); // anything a failed stop left running
      removeExitHook();
    }
  }

  private void stopQuietly(LocalClusterNode n) {
    try {
      if (n.isAlive()) {
        int code = n.stop(options.stopTimeout);
        LOG.info("local cluster: {} stopped (exit status {})", n.id(), code);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("local cluster: could not stop {} cleanly: {}", n.id(), e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Ends every process at once: children are killed (SIGKILL), in-process region servers abort and
   * in-process masters and ZooKeeper close. Idempotent; also what the exit hook does.
   */
  public void killAll() {
    synchronized (this) {
      closed = true;
    }
    try {
      killEverything();
    } finally {
      ended.countDown();
    }
  }

  private void awaitEnded() {
    try {
      if (!ended.await(CLOSE_WAIT.toMinutes(), TimeUnit.MINUTES)) {
        LOG.warn("local cluster: still stopping after {} min", CLOSE_WAIT.toMinutes());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void killEverything() {
    List<LocalClusterNode> all = allNodes();
    // region servers first: in this JVM a master's close would otherwise move their regions
    for (LocalClusterNode n : reversed(all)) {
      if (!n.isAlive()) {
        continue;
      }
      try {
        if (n instanceof LocalInProcessNodes.Master || n instanceof LocalInProcessNodes.ZooKeeper) {
          n.stop(KILL_WAIT);
        } else {
          n.kill(KILL_WAIT);
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("local cluster: could not kill {}: {}", n.id(), e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static List<LocalClusterNode> reversed(List<LocalClusterNode> nodes) {
    List<LocalClusterNode> r = new ArrayList<>(nodes);
    java.util.Collections.reverse(r);
    return r;
  }

  private void removeExitHook() {
    Thread hook = exitHook;
    if (hook == null || Thread.currentThread() == hook) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is exiting: the hook runs anyway and finds nothing left to kill
    }
  }
}
