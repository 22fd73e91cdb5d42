package dev.basalt.server.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How one more master or region server of a {@link LocalCluster} starts, beyond the cluster's
 * {@link LocalClusterOptions}: a given port (a region server restarted on the port of one that
 * died, as a supervisor restarts a crashed process), JVM options of its own (a fault point armed
 * with {@code -Dbasalt.faultpoints=...}), settings of its own. Immutable: each method returns a
 * copy.
 */
public final class LocalNodeOptions {
  /** A free port, the cluster's JVM options and settings: what {@code addRegionServer()} uses. */
  public static final LocalNodeOptions DEFAULT = new LocalNodeOptions(0, List.of(), Map.of());

  private final int port;
  private final List<String> jvmOptions;
  private final Map<String, String> settings;

  private LocalNodeOptions(int port, List<String> jvmOptions, Map<String, String> settings) {
    this.port = port;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.settings = Map.copyOf(settings);
  }

  /**
   * The port its RPC server binds; 0 picks a free one.
   *
   * @throws IllegalArgumentException outside 0..65535
   */
  public LocalNodeOptions port(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is outside 0..65535");
    }
    return new LocalNodeOptions(port, jvmOptions, settings);
  }

  /** One more JVM option of the child, after the cluster's (child processes only). */
  public LocalNodeOptions jvmOption(String option) {
    List<String> more = new ArrayList<>(jvmOptions);
    more.add(Objects.requireNonNull(option, "option"));
    return new LocalNodeOptions(port, more, settings);
  }

  /**
   * Fault points the child arms at start ({@code dev.basalt.util.FaultPoints}): {@code
   * name=halt,other=throw}. A halted child exits with status 137, as after {@code kill -9}.
   */
  public LocalNodeOptions faultPoints(String spec) {
    if (spec.isBlank() || spec.contains(" ")) {
      throw new IllegalArgumentException(
          "fault points '" + spec + "': expected name=halt or name=throw, comma-separated");
    }
    return jvmOption("-Dbasalt.faultpoints=" + spec);
  }

  /** A setting of this process only (HBase's key names, as with -D); wins over the cluster's. */
  public LocalNodeOptions set(String key, String value) {
    Map<String, String> more = new LinkedHashMap<>(settings);
    more.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    return new LocalNodeOptions(port, jvmOptions, more);
  }

  int port() {
    return port;
  }

  List<String> jvmOptions() {
    return jvmOptions;
  }

  Map<String, String> settings() {
    return settings;
  }

  @Override
  public String toString() {
    return "port " + port + ", JVM options " + jvmOptions + ", settings " + settings;
  }
}
