package dev.basalt.server.coordination;

import dev.basalt.server.cluster.ServerName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which master is active, decided as HBase decides it: the master that creates the ephemeral {@code
 * <parent>/master} znode is active for as long as its session lives; the others register under
 * {@code <parent>/backup-masters/<host,port,startcode>} and wait for that znode to go away. The
 * winner's <em>epoch</em> is the znode's creation transaction id (czxid), which grows with every
 * new active master whatever the clocks say; region servers refuse commands of a master whose epoch
 * is older than one they have seen. Thread-safe.
 */
public final class MasterElection {
  private static final Logger LOG = LoggerFactory.getLogger(MasterElection.class);

  private final ZooKeeperSession zk;
  private final String masterPath;
  private final String backupDir;
  private final ServerName self;

  public MasterElection(ZooKeeperSession zk, String parent, ServerName self) {
    this.zk = zk;
    String root = HBaseZnodes.checkParent(parent);
    this.masterPath = child(root, HBaseZnodes.MASTER);
    this.backupDir = child(root, HBaseZnodes.BACKUP_MASTERS);
    this.self = self;
  }

  private static String child(String parent, String name) {
    return parent.equals("/") ? "/" + name : parent + "/" + name;
  }

  /**
   * Waits until this master is the active one, standing by under {@code backup-masters} meanwhile.
   *
   * @param stopped checked while waiting; when it turns true the wait ends with -1
   * @return the epoch, or -1 when stopped
   */
  public long awaitActive(BooleanSupplier stopped) throws IOException, InterruptedException {
    zk.createPersistentPath(backupDir);
    String backup = backupDir + "/" + self;
    boolean standingBy = false;
    while (!stopped.getAsBoolean()) {
      Stat won = zk.createEphemeral(masterPath, HBaseZnodes.masterData(self));
      if (won != null) {
        zk.delete(backup);
        LOG.info("{} is the active master (epoch {})", self, won.getCzxid());
        return won.getCzxid();
      }
      if (!standingBy) {
        zk.createEphemeral(backup, HBaseZnodes.masterData(self));
        standingBy = true;
        LOG.info("{} stands by: {} is the active master", self, activeMaster());
      }
      CountDownLatch changed = new CountDownLatch(1);
      Watcher w = event -> changed.countDown();
      if (zk.exists(masterPath, w) != null) {
        changed.await(1, TimeUnit.SECONDS); // re-check the stop flag each second
      }
    }
    zk.delete(backup);
    return -1;
  }

  /** The active master as the znode names it, or null when there is none. */
  public ServerName activeMaster() throws IOException {
    byte[] data = zk.getData(masterPath);
    return data == null ? null : HBaseZnodes.parseMaster(data);
  }

  /** The standby masters. */
  public List<ServerName> backupMasters() throws IOException {
    List<ServerName> out = new ArrayList<>();
    for (String child : zk.children(backupDir, null)) {
      try {
        out.add(ServerName.parse(child));
      } catch (IllegalArgumentException e) {
        LOG.warn("ignoring {}/{}: not a server name", backupDir, child);
      }
    }
    return out;
  }
}
