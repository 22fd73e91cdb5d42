package dev.basalt.server.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Basalt's own version (from the build) and how servers report it to HBase clients. HBase's clients
 * and tools read a server's version from its load report ({@code ServerMetrics.getVersion}) and the
 * cluster's from the status call, and parse it with HBase's rules (numbers separated by dots and
 * dashes). So Basalt reports the HBase release whose protocol it speaks first, then its own
 * version: {@code 2.6.3-basalt-0.1.0}, which such parsers read as 2.6.3.
 */
public final class BasaltVersion {
  /** Basalt's version, e.g. "0.1.0-SNAPSHOT"; "unknown" when the build did not record it. */
  public static final String VERSION = load();

  private BasaltVersion() {}

  /** What servers report as their version: the HBase version spoken, then Basalt's. */
  public static String reported() {
    return ClusterInfo.HBASE_VERSION + "-basalt-" + VERSION;
  }

  private static String load() {
    try (InputStream in =
        BasaltVersion.class.getResourceAsStream("/dev/basalt/server/basalt-version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "unknown");
      return v.startsWith("${") ? "unknown" : v;
    } catch (IOException e) {
      return "unknown";
    }
  }
}
