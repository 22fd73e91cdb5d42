package dev.basalt.db;

import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The entry point of the embedded engine:
 *
 * <pre>{@code
 * try (Database db = Basalt.open(Path.of("data"), Config.defaults())) {
 *   db.createTable(descriptor, splitKeys);
 *   Table t = db.getTable(name);
 *   ...
 * }
 * }</pre>
 */
public final class Basalt {
  private Basalt() {}

  /**
   * Opens (creating if needed) the database in {@code dir}, replaying its write-ahead log.
   *
   * @throws IOException when another process has it open, or its files cannot be recovered
   */
  public static Database open(Path dir, Config config) throws IOException {
    return Database.open(dir, config);
  }

  /** Opens the database in {@code dir} with default settings. */
  public static Database open(Path dir) throws IOException {
    return Database.open(dir);
  }
}
