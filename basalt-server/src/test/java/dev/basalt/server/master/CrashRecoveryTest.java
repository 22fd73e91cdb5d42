package dev.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.RegionHost;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.LockHolder;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.region.Region;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.master.RegionAssignment.State;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A dead region server's log is recovered before its regions open elsewhere: region servers are
 * real RegionHosts in this JVM (a "crash" aborts one: nothing flushed, its log left as it was), the
 * master's assignment manager drives them, and CrashRecovery fences, splits, archives and lets the
 * regions open on the server left, which replays the edits. Also: a master that dies at each step
 * is resumed by the next one, and a log still locked by a live process of this host is fenced by
 * killing that process.
 */
class CrashRecoveryTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final ServerName A = new ServerName("a", 1, 1);
  private static final ServerName B = new ServerName("b", 2, 2);

  @TempDir Path root;

  private LocalStorage storage;
  private ClusterCatalog catalog;
  private MasterStore store;
  private ServerManager servers;
  private AssignmentManager am;
  private CrashRecovery recovery;
  private final Map<ServerName, RegionHost> hosts = new ConcurrentHashMap<>();

  /** Region servers in this JVM: commands run on their RegionHosts and report at once. */
  private final class LocalServers implements RegionCommands {
    @Override
    public void open(ServerName server, RegionInfo region, long op) throws IOException {
      RegionHost h = hosts.get(server);
      if (h == null) {
        return; // dead: the master finds out
      }
      ClusterCatalog.TableEntry t = catalog.requireTable(region.getTable());
      long floor = 0;
      for (ClusterCatalog.RegionEntry e : t.regions()) {
        if (e.info().getEncodedName().equals(region.getEncodedName())) {
          floor = e.sequenceFloor();
        }
      }
      Region r = h.open(region, t.descriptor(), floor);
      am.opened(server, region, r.getLastSequenceId());
    }

    @Override
    public void close(ServerName server, RegionInfo region, ServerName destination, long op)
        throws IOException {
      RegionHost h = hosts.get(server);
      if (h != null) {
        am.closed(server, region, h.close(region.getEncodedName()));
      }
    }

    @Override
    public void handOver(ServerName server, RegionStateTransition plan, long op) {
      throw new UnsupportedOperationException("no splits here");
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    storage = new LocalStorage(root);
    catalog = ClusterCatalog.open(storage, Clock.system(), true);
    store = MasterStore.open(root);
    servers = new ServerManager(Clock.system(), 30_000);
    startHost(A);
    startHost(B);
    startMaster(1);
    servers.startup(A, System.currentTimeMillis());
    servers.startup(B, System.currentTimeMillis());
    servers.znodes(List.of(A.toString(), B.toString()), 30_000);
  }

  private void startHost(ServerName name) throws IOException {
    hosts.put(name, RegionHost.start(storage, name.toString(), Config.defaults(), Clock.system()));
  }

  private void startMaster(long epoch) throws IOException {
    am =
        new AssignmentManager(
            catalog, store, servers, new LocalServers(), Clock.system(), epoch, 500);
    recovery =
        new CrashRecovery(storage, catalog, store, am, servers, new WalFence(storage, true), false);
    servers.setListener(
        new ServerManager.Listener() {
          @Override
          public void serverAdded(ServerName server) {
            am.kick();
          }

          @Override
          public void serverDied(ServerName server) {
            am.serverDied(server);
            recovery.serverDied(server);
          }
        });
    am.start();
    recovery.start();
  }

  private void stopMaster() {
    recovery.close();
    am.close();
  }

  @AfterEach
  void tearDown() throws IOException {
    FaultPoints.disarmAll();
    stopMaster();
    for (RegionHost h : hosts.values()) {
      h.close();
    }
    store.close();
  }

  private List<RegionInfo> createTable(int regions) throws Exception {
    byte[][] splits = new byte[regions - 1][];
    for (int i = 0; i < splits.length; i++) {
      splits[i] = Bytes.toBytes("r" + (i + 1));
    }
    List<RegionInfo> infos =
        catalog
            .createTable(
                TableDescriptorBuilder.newBuilder(T)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
                    .build(),
                splits)
            .regionInfos();
    am.awaitOpen(T).get(20, TimeUnit.SECONDS);
    return infos;
  }

  /** Writes rows r0..r(n-1) through whichever host serves each, as a client would. */
  private void writeRows(int n) throws IOException {
    for (int i = 0; i < n; i++) {
      byte[] row = Bytes.toBytes("r" + i);
      region(row).put(new Put(row).addColumn(F, Q, Bytes.toBytes("v" + i)));
    }
  }

  private Region region(byte[] row) {
    for (Map.Entry<String, RegionAssignment> e : am.snapshot().entrySet()) {
      RegionAssignment a = e.getValue();
      if (a.state() != State.OPEN) {
        continue;
      }
      RegionHost h = hosts.get(a.location());
      Region r = h == null ? null : h.region(e.getKey());
      if (r != null && r.getRegionInfo().containsRow(row)) {
        return r;
      }
    }
    throw new AssertionError("no open region holds " + Bytes.toString(row));
  }

  private void assertRows(int n) throws IOException {
    for (int i = 0; i < n; i++) {
      byte[] row = Bytes.toBytes("r" + i);
      byte[] v = region(row).get(new Get(row)).getValue(F, Q);
      assertThat(v == null ? null : Bytes.toString(v)).as("row r" + i).isEqualTo("v" + i);
    }
  }

  /** Kills a host as a crash would: nothing flushed, its log left with every edit. */
  private void crash(ServerName server) {
    hosts.remove(server).abort();
    servers.died(server);
  }

  private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(20);
    }
  }

  private boolean allOpenOn(ServerName server) {
    for (RegionAssignment a : am.snapshot().values()) {
      if (a.state() != State.OPEN || !server.equals(a.location())) {
        return false;
      }
    }
    return !am.snapshot().isEmpty();
  }

  @Test
  void aDeadServersEditsAreReplayedWhereItsRegionsOpenAgain() throws Exception {
    createTable(4);
    writeRows(4);
    assertThat(am.openByServer().get(A)).as("A serves some regions").isNotEmpty();
    crash(A);
    waitFor(() -> allOpenOn(B), "every region is open on B");
    assertRows(4);
    assertThat(storage.isDirectory(Wal.DIR + "/" + A)).isFalse();
    assertThat(storage.isDirectory(WalFence.splittingDir(A))).as("archived").isFalse();
    assertThat(store.recoveries()).isEmpty();
    assertThat(am.awaitingRecovery()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        CrashRecovery.FAULT_AFTER_FENCE,
        CrashRecovery.FAULT_AFTER_SPLIT,
        CrashRecovery.FAULT_AFTER_ARCHIVE
      })
  void aMasterThatDiesAtAStepIsResumedByTheNext(String point) throws Exception {
    createTable(4);
    writeRows(4);
    // The master "dies" at the fault point: its recovery stops right there.
    FaultPoints.arm(
        point,
        p -> {
          recovery.close();
          throw new FaultPoints.InjectedFault(p);
        });
    crash(A);
    waitFor(() -> !recovery.isRecovering(A), "the recovery of A stopped at " + point);
    FaultPoints.disarmAll();
    stopMaster();
    assertThat(store.recoveries()).containsKey(A.toString());
    assertThat(am.awaitingRecovery()).contains(A);
    startMaster(2);
    waitFor(() -> allOpenOn(B), "every region is open on B after " + point);
    assertRows(4);
    assertThat(store.recoveries()).isEmpty();
  }

  private boolean isStored(ServerName server) {
    try {
      return store.recoveries().containsKey(server.toString());
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void aLogStillLockedByALiveProcessOfThisHostIsFencedByKillingIt() throws Exception {
    ServerName zombie = new ServerName("z", 3, 3);
    String dir = Wal.DIR + "/" + zombie;
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LogLockHolder.class.getName(),
                root.toString(),
                dir)
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("locked");
      assertThat(LockHolder.parse(storage.lockHolder(dir)).pid()).isEqualTo(child.pid());
      WalFence fence = new WalFence(storage, true);
      assertThat(fence.fence(zombie, () -> false)).isTrue();
      assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("the holder was killed").isTrue();
      assertThat(storage.isDirectory(WalFence.splittingDir(zombie))).isTrue();
      assertThat(Files.exists(root.resolve(dir))).isFalse();
    } finally {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void withoutKillingTheFenceWaitsForTheHolder() throws Exception {
    ServerName zombie = new ServerName("y", 4, 4);
    String dir = Wal.DIR + "/" + zombie;
    try (var lock = storage.lockDirectory(dir, LockHolder.current().format())) {
      WalFence fence = new WalFence(storage, false);
      long start = System.nanoTime();
      List<Boolean> stop = new ArrayList<>(List.of(false));
      Thread stopper =
          new Thread(
              () -> {
                try {
                  Thread.sleep(300);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                stop.set(0, true);
              });
      stopper.start();
      try {
        fence.fence(zombie, () -> stop.get(0));
        throw new AssertionError("fenced a log whose holder lives");
      } catch (InterruptedException expected) {
        assertThat(System.nanoTime() - start).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(250));
      }
      stopper.join();
    }
  }

  /** A child process that takes a log directory's lock and holds it until killed. */
  public static final class LogLockHolder {
    public static void main(String[] args) throws Exception {
      LocalStorage s = new LocalStorage(Path.of(args[0]));
      s.lockDirectory(args[1], LockHolder.current().format());
      System.out.println("locked");
      System.out.flush();
      Thread.sleep(TimeUnit.MINUTES.toMillis(2));
      System.exit(3);
    }
  }
}
