package dev.basalt.server.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a {@link LocalCluster} starts: where, how many masters and region servers, in this JVM or as
 * child processes, with which settings. Immutable; built with {@link #builder}.
 */
public final class LocalClusterOptions {
  /** Where the cluster's processes run. */
  public enum Mode {
    /** ZooKeeper, masters and region servers inside this JVM: fast, for tests of other modules. */
    IN_PROCESS,
    /**
     * Each in a child JVM of its own ({@code java} with the same main classes as bin/basalt), with
     * its own log file, stopped by PID: what {@code bin/basalt local-cluster} runs.
     */
    CHILD_PROCESSES
  }

  /** What happens to child processes still running when this JVM exits. */
  public enum OnExit {
    /** A shutdown hook kills every child still alive (SIGKILL): nothing is left behind. */
    KILL_CHILDREN,
    /**
     * A shutdown hook stops the children cleanly ({@link LocalCluster#close}), also when the JVM
     * exits during the start: what bin/basalt local-cluster does on Ctrl-C.
     */
    STOP_CLEANLY,
    /** Nothing: the caller stops the cluster itself. */
    LEAVE_TO_CALLER
  }

  /**
   * JVM options every child gets unless {@link Builder#childJvmOptions} replaces them: the serial
   * collector and the client compiler only, because on a small machine six JVMs starting at once
   * compete for the CPUs, and C2's compiler threads and G1's concurrent threads cost more start
   * time than they give back in a development cluster.
   */
  public static final List<String> DEFAULT_CHILD_JVM_OPTIONS =
      List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  final Mode mode;
  final Path root;
  final Path logDirectory;
  final int masters;
  final int regionServers;
  final Map<String, String> settings;
  final Path configFile;
  final int zooKeeperPort;
  final List<String> childJvmOptions;
  final String zooKeeperHeap;
  final String masterHeap;
  final String regionServerHeap;
  final String classPath;
  final Path logbackConfig;
  final Duration startTimeout;
  final Duration stopTimeout;
  final OnExit onExit;

  private LocalClusterOptions(Builder b) {
    this.mode = b.mode;
    this.root = b.root.toAbsolutePath().normalize();
    this.logDirectory =
        b.logDirectory != null ? b.logDirectory.toAbsolutePath() : root.resolve("logs");
    this.masters = b.masters;
    this.regionServers = b.regionServers;
    this.settings = Map.copyOf(b.settings);
    this.configFile = b.configFile;
    this.zooKeeperPort = b.zooKeeperPort;
    this.childJvmOptions = List.copyOf(b.childJvmOptions);
    this.zooKeeperHeap = b.zooKeeperHeap;
    this.masterHeap = b.masterHeap;
    this.regionServerHeap = b.regionServerHeap;
    this.classPath = b.classPath;
    this.logbackConfig = b.logbackConfig;
    this.startTimeout = b.startTimeout;
    this.stopTimeout = b.stopTimeout;
    this.onExit = b.onExit;
  }

  /**
   * Options for a cluster over {@code root} (created if missing): by default 1 master, 3 servers.
   */
  public static Builder builder(Path root) {
    return new Builder(root);
  }

  public Mode mode() {
    return mode;
  }

  public Path root() {
    return root;
  }

  public int masters() {
    return masters;
  }

  public int regionServers() {
    return regionServers;
  }

  /** Settings every master and region server gets (-D), after the launcher's own. */
  public Map<String, String> settings() {
    return settings;
  }

  /** Fills in the options; {@link #build} checks them. */
  public static final class Builder {
    private Mode mode = Mode.CHILD_PROCESSES;
    private final Path root;
    private Path logDirectory;
    private int masters = 1;
    private int regionServers = 3;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private Path configFile;
    private int zooKeeperPort = 0;
    private List<String> childJvmOptions = new ArrayList<>(DEFAULT_CHILD_JVM_OPTIONS);
    private String zooKeeperHeap = "128m";
    private String masterHeap = "256m";
    private String regionServerHeap = "384m";
    private String classPath = System.getProperty("java.class.path");
    private Path logbackConfig = logbackConfigOfThisJvm();
    private Duration startTimeout = Duration.ofSeconds(120);
    private Duration stopTimeout = Duration.ofSeconds(90);
    private OnExit onExit = OnExit.KILL_CHILDREN;

    private Builder(Path root) {
      this.root = Objects.requireNonNull(root, "root");
    }

    public Builder mode(Mode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** Where the children's output and log files go; by default {@code <root>/logs}. */
    public Builder logDirectory(Path dir) {
      this.logDirectory = dir;
      return this;
    }

    public Builder masters(int n) {
      this.masters = n;
      return this;
    }

    public Builder regionServers(int n) {
      this.regionServers = n;
      return this;
    }

    /** A setting for every master and region server (HBase's key names, as with -D). */
    public Builder set(String key, String value) {
      settings.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    public Builder settings(Map<String, String> all) {
      all.forEach(this::set);
      return this;
    }

    /**
     * A configuration file (basalt-site.xml) every master and region server reads ({@code -c}); the
     * launcher's settings and {@link #set} win over it.
     */
    public Builder configFile(Path file) {
      this.configFile = file == null ? null : file.toAbsolutePath();
      return this;
    }

    /** ZooKeeper's client port; 0 (the default) picks a free one. */
    public Builder zooKeeperPort(int port) {
      this.zooKeeperPort = port;
      return this;
    }

    /** Replaces {@link #DEFAULT_CHILD_JVM_OPTIONS} (heap sizes are set apart). */
    public Builder childJvmOptions(List<String> options) {
      this.childJvmOptions = new ArrayList<>(options);
      return this;
    }

    /** Heap limits (-Xmx) of the child JVMs: ZooKeeper, masters, region servers. */
    public Builder heaps(String zooKeeper, String master, String regionServer) {
      this.zooKeeperHeap = Objects.requireNonNull(zooKeeper);
      this.masterHeap = Objects.requireNonNull(master);
      this.regionServerHeap = Objects.requireNonNull(regionServer);
      return this;
    }

    /** The children's class path; by default this JVM's. */
    public Builder classPath(String classPath) {
      this.classPath = Objects.requireNonNull(classPath, "classPath");
      return this;
    }

    /**
     * The Logback configuration of the children (conf/logback.xml writes {@code
     * <root>/logs/basalt-<process>.log}); by default this JVM's {@code logback.configurationFile}.
     * Null: whatever the class path holds.
     */
    public Builder logbackConfig(Path file) {
      this.logbackConfig = file;
      return this;
    }

    /** How long a process may take to be ready (the whole start is bounded by it per phase). */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    /** How long a graceful stop (SIGTERM) may take before the child is killed (SIGKILL). */
    public Builder stopTimeout(Duration timeout) {
      this.stopTimeout = Objects.requireNonNull(timeout);
      return this;
    }

    public Builder onExit(OnExit onExit) {
      this.onExit = Objects.requireNonNull(onExit);
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the option that is out of range
     */
    public LocalClusterOptions build() {
      if (masters < 1 || masters > 9) {
        throw new IllegalArgumentException("masters = " + masters + ": a cluster runs 1 to 9");
      }
      if (regionServers < 0 || regionServers > 99) {
        throw new IllegalArgumentException(
            "region servers = " + regionServers + ": a local cluster runs 0 to 99");
      }
      if (zooKeeperPort < 0 || zooKeeperPort > 65535) {
        throw new IllegalArgumentException(
            "ZooKeeper port " + zooKeeperPort + " is outside 0..65535");
      }
      if (startTimeout.isNegative() || startTimeout.isZero()) {
        throw new IllegalArgumentException("the start timeout must be positive");
      }
      if (stopTimeout.isNegative()) {
        throw new IllegalArgumentException("the stop timeout must not be negative");
      }
      if (mode == Mode.CHILD_PROCESSES && (classPath == null || classPath.isBlank())) {
        throw new IllegalArgumentException("child processes need a class path");
      }
      return new LocalClusterOptions(this);
    }

    private static Path logbackConfigOfThisJvm() {
      String file = System.getProperty("logback.configurationFile");
      return file == null || file.isBlank() ? null : Path.of(file);
    }
  }
}
