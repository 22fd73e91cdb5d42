package dev.basalt.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.Database;
import dev.basalt.db.RegionHost;
import dev.basalt.fs.LockHolder;
import dev.basalt.fs.Storage;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.region.Region;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalSplitter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers that die or are fenced with their log on HDFS: a child JVM killed with SIGKILL while 8
 * threads write loses no acknowledged edit (the reopen takes its lock and log over at once: the
 * lock file names a dead process of this host), and a live region server whose log a master takes
 * by lease recovery cannot acknowledge another write, while every edit it acknowledged before comes
 * back through the split.
 */
class HdfsCrashTest {
  private static MiniDfs dfs;
  @TempDir Path tmp;

  @BeforeAll
  static void startDfs() throws IOException {
    dfs = MiniDfs.shared();
  }

  @Test
  void aKilledWriterLosesNoAcknowledgedEdit() throws Exception {
    Path report = tmp.resolve("child.report");
    Path out = tmp.resolve("child.out");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
    cmd.add(HdfsWriterMain.class.getName());
    cmd.add(dfs.uri() + "/killed");
    cmd.add(report.toString());
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    try {
      long deadline = System.currentTimeMillis() + 90_000;
      while (acknowledged(report).size() < 2000
          && p.isAlive()
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(acknowledged(report).size()).as("child wrote (see %s)", out).isGreaterThan(2000);
    } finally {
      p.destroyForcibly(); // SIGKILL
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    List<String> acked = acknowledged(report);
    Config config = MiniDfs.config().build();
    try (Storage storage = dfs.storage("killed", config)) {
      assertThat(LockHolder.parse(storage.lockFileHolder("LOCK")).pid()).isEqualTo(p.pid());
      long start = System.nanoTime();
      try (Database db = Database.open(storage, config, Clock.system())) {
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf(
            "reopen after SIGKILL on HDFS (lock and log lease recovery, replay of %d edits): %d"
                + " ms%n",
            acked.size(), millis);
        for (String row : acked) {
          assertThat(db.getTable(HdfsWriterMain.T).get(new Get(Bytes.toBytes(row))).isEmpty())
              .as("acknowledged put of %s", row)
              .isFalse();
        }
      }
    }
  }

  @Test
  void aLiveRegionServerLosesItsLogToLeaseRecovery() throws Exception {
    TableName t = TableName.valueOf("fenced");
    byte[] f = Bytes.toBytes("f");
    TableDescriptor desc =
        TableDescriptorBuilder.newBuilder(t)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(f))
            .build();
    String server = "rs1,16020,1";
    String live = Wal.DIR + "/" + server;
    String splitting = live + WalSplitter.SPLITTING_SUFFIX;
    Config config = MiniDfs.config().build();
    try (Storage serverStorage = dfs.storage("fence", config);
        Storage masterStorage = dfs.storage("fence", config)) {
      ClusterCatalog catalog = ClusterCatalog.open(masterStorage, Clock.system(), true);
      catalog.createTable(desc, new byte[][] {Bytes.toBytes("m")});
      ClusterCatalog.TableEntry entry = catalog.requireTable(t);
      RegionHost host = RegionHost.start(serverStorage, server, config, Clock.system());
      List<Region> regions = new ArrayList<>();
      for (ClusterCatalog.RegionEntry r : entry.regions()) {
        regions.add(host.open(r.info(), desc, r.sequenceFloor()));
      }
      for (int i = 0; i < 200; i++) {
        Region region = regions.get(i % 2);
        byte[] row = Bytes.toBytes((i % 2 == 0 ? "a" : "x") + i);
        region.put(new Put(row).addColumn(f, f, Bytes.toBytes("v" + i)));
      }

      // The master's fence: rename, then lease recovery of every file until all are closed.
      long start = System.nanoTime();
      masterStorage.rename(live, splitting);
      Closeable fence = masterStorage.tryLockDirectory(splitting);
      while (fence == null) {
        Thread.sleep(50);
        fence = masterStorage.tryLockDirectory(splitting);
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      System.out.printf(
          "fence of a live writer's log on HDFS (rename + lease recovery): %d ms%n", millis);
      assertThatThrownBy(
              () ->
                  regions
                      .get(0)
                      .put(new Put(Bytes.toBytes("a-late")).addColumn(f, f, Bytes.toBytes("no"))))
          .as("the fenced server cannot acknowledge another write")
          .isInstanceOf(IOException.class);
      host.abort();

      WalSplitter.split(masterStorage, splitting, catalog::recoveryTarget, false);
      WalSplitter.archive(masterStorage, splitting);
      fence.close();
      try (RegionHost next =
          RegionHost.start(masterStorage, "rs2,16020,2", config, Clock.system())) {
        List<Region> reopened = new ArrayList<>();
        for (ClusterCatalog.RegionEntry r : entry.regions()) {
          reopened.add(next.open(r.info(), desc, r.sequenceFloor()));
        }
        for (int i = 0; i < 200; i++) {
          byte[] row = Bytes.toBytes((i % 2 == 0 ? "a" : "x") + i);
          assertThat(reopened.get(i % 2).get(new Get(row)).isEmpty()).as("row %d", i).isFalse();
        }
        assertThat(reopened.get(0).get(new Get(Bytes.toBytes("a-late"))).isEmpty()).isTrue();
      }
    }
  }

  /** The lines the child reported, without the first (ready) and a last one cut short. */
  private static List<String> acknowledged(Path report) throws IOException {
    if (!Files.exists(report)) {
      return List.of();
    }
    String all = new String(Files.readAllBytes(report), StandardCharsets.UTF_8);
    List<String> out = new ArrayList<>();
    for (String line : all.split("\n", -1)) {
      if (!line.isEmpty() && !line.equals("ready") && all.contains(line + "\n")) {
        out.add(line);
      }
    }
    return out;
  }
}
