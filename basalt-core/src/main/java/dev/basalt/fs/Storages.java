package dev.basalt.fs;

import dev.basalt.util.config.Config;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.ServiceLoader;

/**
 * Chooses the {@link Storage} for a root: a local path or a {@code file:} URI is a {@link
 * LocalStorage}; a URI of any other scheme ({@code hdfs://namenode:8020/basalt}) goes to the {@link
 * StorageProvider} on the class path that handles its scheme.
 */
public final class Storages {
  private static final String URI_PREFIX = "^[a-zA-Z][a-zA-Z0-9+.-]*:.*";

  private Storages() {}

  /** Whether {@code root} names a local directory (a path, or a {@code file:} URI). */
  public static boolean isLocal(String root) {
    return localPath(root) != null;
  }

  /**
   * The local directory {@code root} names, or null when it is a URI of another scheme.
   *
   * @throws IllegalArgumentException when {@code root} is empty
   */
  public static Path localPath(String root) {
    if (root.isEmpty()) {
      throw new IllegalArgumentException("the root directory is empty");
    }
    if (root.startsWith("file://")) {
      return Path.of(root.substring("file://".length()));
    }
    if (root.startsWith("file:")) {
      return Path.of(root.substring("file:".length()));
    }
    if (root.matches(URI_PREFIX) && !looksLikeWindowsDrive(root)) {
      return null;
    }
    return Path.of(root);
  }

  private static boolean looksLikeWindowsDrive(String root) {
    return root.length() >= 2 && root.charAt(1) == ':' && Character.isLetter(root.charAt(0));
  }

  /**
   * Opens the storage at {@code root}. A local directory is created when missing; a remote root is
   * not (see {@link StorageProvider#open}).
   *
   * @throws IllegalArgumentException naming {@code root} when no provider handles its scheme, or
   *     the provider cannot use it as configured
   */
  public static Storage open(String root, Config config) throws IOException {
    Path local = localPath(root);
    if (local != null) {
      return new LocalStorage(local);
    }
    URI uri;
    try {
      uri = new URI(root);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(root + " is not a valid URI: " + e.getMessage(), e);
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    for (StorageProvider p :
        ServiceLoader.load(StorageProvider.class, Storages.class.getClassLoader())) {
      if (p.handles(scheme)) {
        return p.open(uri, config);
      }
    }
    throw new IllegalArgumentException(
        root
            + ": no storage for '"
            + scheme
            + ":' roots on the class path (basalt-hdfs serves hdfs:// and the other Hadoop file"
            + " systems; local directories need no scheme)");
  }
}
