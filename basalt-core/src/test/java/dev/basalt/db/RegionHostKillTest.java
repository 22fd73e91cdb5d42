package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.LockHolder;
import dev.basalt.ops.Get;
import dev.basalt.ops.Result;
import dev.basalt.region.Region;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalSplitter;
import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region host in a child JVM killed with SIGKILL while it writes: its log's lock names it and
 * holds until the kill, and the recovery (fence, split, open elsewhere) brings back every write it
 * acknowledged, from a log whose last segment has no trailer and may end in a torn frame.
 */
class RegionHostKillTest {
  private static final String SERVER = "h,16020,99";

  @TempDir Path dir;

  @Test
  void everyWriteAKilledHostAcknowledgedIsRecovered() throws Exception {
    LocalStorage storage = new LocalStorage(dir);
    ClusterCatalog catalog = ClusterCatalog.open(storage, Clock.system(), true);
    catalog.createTable(
        RegionHostRecoveryTest.descriptor(),
        new byte[][] {Bytes.toBytes("r3"), Bytes.toBytes("r6")});
    Path report = dir.resolve("child.report");
    Path out = dir.resolve("child.out");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                RegionHostCrashMain.class.getName(),
                dir.toString(),
                SERVER,
                report.toString())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    String live = Wal.DIR + "/" + SERVER;
    try {
      long deadline = System.currentTimeMillis() + 60_000;
      while (acknowledged(report).size() < 300
          && p.isAlive()
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(20);
      }
      assertThat(acknowledged(report).size()).as("child wrote (see %s)", out).isGreaterThan(300);
      LockHolder holder = LockHolder.parse(storage.lockHolder(live));
      assertThat(holder).isNotNull();
      assertThat(holder.pid()).isEqualTo(p.pid());
      // The master's fence: the rename does not stop the writer, the lock says it lives.
      storage.rename(live, live + WalSplitter.SPLITTING_SUFFIX);
      assertThat(storage.tryLockDirectory(live + WalSplitter.SPLITTING_SUFFIX)).isNull();
    } finally {
      p.destroyForcibly(); // SIGKILL
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    String splitting = live + WalSplitter.SPLITTING_SUFFIX;
    Closeable lock = null;
    long deadline = System.currentTimeMillis() + 10_000;
    while (lock == null && System.currentTimeMillis() < deadline) {
      lock = storage.tryLockDirectory(splitting);
      Thread.sleep(lock == null ? 20 : 0);
    }
    assertThat(lock).as("released by the kill").isNotNull();
    // A write between the rename and the kill may have rolled into a new directory, which the
    // host's log refuses and removes; a late segment of it would be an acknowledged write lost.
    assertThat(storage.list(live).stream().filter(Wal::isSegment).toList()).isEmpty();
    WalSplitter.Result r = WalSplitter.split(storage, splitting, catalog::recoveryTarget, false);
    WalSplitter.archive(storage, splitting);
    lock.close();
    assertThat(r.editsWritten()).isGreaterThan(300);

    List<String> acked = acknowledged(report);
    List<Database.RecoveredNonce> nonces = new ArrayList<>();
    try (RegionHost b =
        RegionHost.start(storage, "h,16020,100", Config.defaults(), Clock.system())) {
      b.onRecoveredNonces(nonces::addAll);
      RegionHostRecoveryTest.openAll(b, catalog);
      Map<String, Long> counters = new HashMap<>();
      Set<Long> ackedNonces = new HashSet<>();
      for (String line : acked) {
        String[] f = line.split(" ");
        byte[] row = Bytes.toBytes(f[1]);
        Region region =
            b.region(
                RegionHostRecoveryTest.regionOf(
                        catalog.requireTable(RegionHostRecoveryTest.T).regionInfos(), row)
                    .getEncodedName());
        if (f[0].equals("put")) {
          Result res = region.get(new Get(row));
          assertThat(res.isEmpty()).as("acknowledged put of %s", f[1]).isFalse();
        } else {
          counters.merge(f[1], 1L, Long::sum);
          ackedNonces.add(Long.parseLong(f[2]));
        }
      }
      for (Map.Entry<String, Long> c : counters.entrySet()) {
        byte[] row = Bytes.toBytes(c.getKey());
        Region region =
            b.region(
                RegionHostRecoveryTest.regionOf(
                        catalog.requireTable(RegionHostRecoveryTest.T).regionInfos(), row)
                    .getEncodedName());
        long value =
            Bytes.toLong(
                region
                    .get(new Get(row))
                    .getValue(RegionHostRecoveryTest.FAMILIES[0], Bytes.toBytes("n")));
        // The increment in flight at the kill may have made it too.
        assertThat(value).as(c.getKey()).isBetween(c.getValue(), c.getValue() + 1);
      }
      Set<Long> got = new HashSet<>();
      nonces.forEach(n -> got.add(n.nonce()));
      assertThat(got).as("nothing was flushed: every nonce is in the log").containsAll(ackedNonces);
    }
  }

  /** The lines the child reported, without the first (ready) and a last one cut short. */
  private static List<String> acknowledged(Path report) throws Exception {
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
