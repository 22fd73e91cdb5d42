package dev.basalt.server.standalone;

import java.nio.file.Path;

/**
 * Where a server process writes its log file. conf/logback.xml names the file {@code
 * ${basalt.log.dir}/${basalt.log.name}.log}; bin/basalt sets {@code basalt.log.name} from the
 * command ({@code basalt-standalone}, {@code basalt-zookeeper}, ...) and {@code basalt.log.dir}
 * from {@code BASALT_LOG_DIR} when that is set. Otherwise the directory is only known once the
 * command line and the configuration file are read, so each entry point calls {@link #defaultTo}
 * with its data directory before anything logs: Logback reads the system properties when the first
 * logger is created, once per JVM.
 */
public final class ProcessLogs {
  /** The system property conf/logback.xml reads for the directory. */
  public static final String DIR_PROPERTY = "basalt.log.dir";

  /** The directory under the data directory when {@code BASALT_LOG_DIR} is not set. */
  static final String DEFAULT_SUBDIRECTORY = "logs";

  private ProcessLogs() {}

  /**
   * Makes {@code <dataDir>/logs} the log directory, unless the launcher already chose one.
   *
   * @return the log directory in effect
   */
  public static Path defaultTo(Path dataDir) {
    String chosen = System.getProperty(DIR_PROPERTY);
    if (chosen != null && !chosen.isBlank()) {
      return Path.of(chosen);
    }
    Path dir = dataDir.resolve(DEFAULT_SUBDIRECTORY);
    System.setProperty(DIR_PROPERTY, dir.toString());
    return dir;
  }
}
