package dev.basalt.hdfs;

import dev.basalt.fs.Storage;
import dev.basalt.fs.StorageProvider;
import dev.basalt.fs.StorageSettings;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Opens {@link HdfsStorage} for roots of every scheme but {@code file:} ({@code hdfs://}, and the
 * other file systems the Hadoop client knows). Before the storage is handed out, {@link RootCheck}
 * makes sure the root can be used, so that a server fails at start with a message naming the URI
 * (and does not hang) when the NameNode cannot be reached or refuses access, and waits while the
 * NameNode is in safe mode.
 */
public final class HdfsStorageProvider implements StorageProvider {
  @Override
  public boolean handles(String scheme) {
    return !scheme.equals("file");
  }

  @Override
  public Storage open(URI root, Config config) throws IOException {
    Configuration conf = HadoopConfigurations.of(config);
    Path rootPath = new Path(root);
    RootCheck.check(root, rootPath, conf, config);
    FileSystem fs = FileSystem.newInstance(root, conf);
    try {
      Path qualified = fs.makeQualified(rootPath);
      LeaseRecovery leases =
          new LeaseRecovery(fs, config.get(StorageSettings.LEASE_RECOVERY_RETRY));
      return new HdfsStorage(fs, qualified, leases, true);
    } catch (RuntimeException e) {
      fs.close();
      throw e;
    }
  }
}
