package dev.basalt.fs;

import dev.basalt.util.config.Config;
import java.io.IOException;
import java.net.URI;

/**
 * A {@link Storage} implementation for roots given as URIs of some schemes (basalt-hdfs: {@code
 * hdfs://} and the other Hadoop file systems), found by {@link Storages#open} through {@link
 * java.util.ServiceLoader} in {@code META-INF/services/dev.basalt.fs.StorageProvider}: basalt-core
 * itself never depends on Hadoop.
 */
public interface StorageProvider {
  /** Whether this provider serves roots of {@code scheme} (lower case, never "file"). */
  boolean handles(String scheme);

  /**
   * Opens the storage at {@code root}: connects, and checks that the root can be used (it is not
   * created: {@link Storage#mkdirs} with "" does that).
   *
   * @throws IllegalArgumentException when the root cannot be used as configured (its server cannot
   *     be reached, no permission): the message names the URI and the reason
   * @throws IOException for a failure that may pass (the file system is starting)
   */
  Storage open(URI root, Config config) throws IOException;
}
