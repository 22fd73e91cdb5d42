package dev.basalt.server.standalone;

import java.nio.file.Path;

/**
 * The local directory {@code hbase.rootdir} names. A class of its own, without a logger, so that an
 * entry point can find its data directory, and from it its log directory ({@link ProcessLogs}),
 * before anything initializes Logback: calling a method of a class that has a static logger (such
 * as {@link StandaloneServer}) creates that logger, which configures Logback once for the JVM.
 */
public final class RootDirectory {
  private RootDirectory() {}

  /**
   * @param value a local path, or a {@code file:} URI
   * @throws IllegalArgumentException naming {@code hbase.rootdir} for any other URI, or when empty
   */
  public static Path of(String value) {
    if (value.startsWith("file://")) {
      return Path.of(value.substring("file://".length()));
    }
    if (value.startsWith("file:")) {
      return Path.of(value.substring("file:".length()));
    }
    if (value.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
      throw new IllegalArgumentException(
          StandaloneSettings.ROOT_DIR.key()
              + " = "
              + value
              + ": only local directories are supported in standalone mode");
    }
    if (value.isEmpty()) {
      throw new IllegalArgumentException(StandaloneSettings.ROOT_DIR.key() + " is empty");
    }
    return Path.of(value);
  }
}
