package dev.basalt.hdfs;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.fs.Storage;
import dev.basalt.ops.Durability;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalEntry;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The HDFS figures of docs/PERFORMANCE.md, on a MiniDFSCluster in this JVM (NameNode + 2 DataNodes,
 * replication 2, 1 s heartbeats) against a local directory:
 *
 * <ul>
 *   <li>WAL appends per second, SYNC_WAL (hflush on HDFS, write to the OS locally) and FSYNC_WAL
 *       (hsync; fdatasync), 1 and 64 writers: each writer appends one ~150-byte entry and waits for
 *       its durability, in a loop (as WalThroughput in basalt-bench does);
 *   <li>lease recovery of a dead writer's log: a child JVM ({@link HdfsWriterMain}) writing with 8
 *       threads is killed with SIGKILL, then the time until {@link Storage#tryLockDirectory} of its
 *       log directory succeeds (every file recovered and closed).
 * </ul>
 *
 * <pre>
 * mvn -B -o -q test-compile -pl basalt-hdfs
 * mvn -B -o -q dependency:build-classpath -pl basalt-hdfs -Dmdep.outputFile=/tmp/hdfs.cp
 * java -Xmx2g $HADOOP_JDK17_FLAGS -cp basalt-hdfs/target/test-classes:basalt-hdfs/target/classes:$(cat /tmp/hdfs.cp) \
 *   dev.basalt.hdfs.HdfsMeasure LOCAL_DIR [seconds] [recoveries]
 * </pre>
 *
 * (run from the repository's top: the cluster's data goes to target/; HADOOP_JDK17_FLAGS: the
 * hadoop.jdk17.flags of basalt-hdfs's pom).
 */
public final class HdfsMeasure {
  private HdfsMeasure() {}

  public static void main(String[] args) throws Exception {
    Path localDir = Path.of(args[0]);
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int recoveries = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Files.createDirectories(Path.of("target"));
    try (MiniDfs dfs = MiniDfs.start()) {
      System.out.println("| storage | durability | writers | appends/s | p50 µs | p99 µs |");
      System.out.println("| --- | --- | ---: | ---: | ---: | ---: |");
      int run = 0;
      for (Durability d : List.of(Durability.SYNC_WAL, Durability.FSYNC_WAL)) {
        for (int writers : new int[] {1, 64}) {
          run++;
          Path local = localDir.resolve("wal-" + run);
          try (Storage s = new LocalStorage(local)) {
            walRun("local", s, d, writers, seconds);
          }
          try (Storage s = dfs.storage("wal-" + run)) {
            walRun("HDFS", s, d, writers, seconds);
          }
        }
      }
      System.out.println();
      for (int i = 0; i < recoveries; i++) {
        leaseRecovery(dfs, localDir, i);
      }
    }
  }

  static void walRun(String name, Storage storage, Durability d, int writers, int seconds)
      throws Exception {
    Wal wal = new Wal(storage, "bench", Config.defaults(), Clock.system(), List.of());
    byte[] value = new byte[100];
    AtomicBoolean measuring = new AtomicBoolean();
    AtomicBoolean stop = new AtomicBoolean();
    long[][] latencies = new long[writers][];
    int[] counts = new int[writers];
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      latencies[w] = new long[1 << 20];
      threads.add(
          new Thread(
              () -> {
                long seq = (long) id << 40;
                byte[] row = Bytes.toBytes("row-" + id);
                try {
                  while (!stop.get()) {
                    KeyValue kv =
                        KeyValue.of(
                                row, Bytes.toBytes("f"), Bytes.toBytes("q"), 1, CellType.PUT, value)
                            .withSequenceId(++seq);
                    long t0 = System.nanoTime();
                    wal.sync(wal.append(new WalEntry("region", 1, List.of(), List.of(kv))), d);
                    long micros = (System.nanoTime() - t0) / 1000;
                    if (measuring.get() && counts[id] < latencies[id].length) {
                      latencies[id][counts[id]++] = micros;
                    }
                  }
                } catch (IOException e) {
                  throw new RuntimeException(e);
                }
              }));
    }
    threads.forEach(Thread::start);
    Thread.sleep(1000); // warm-up
    measuring.set(true);
    long t0 = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    measuring.set(false);
    double secs = (System.nanoTime() - t0) / 1e9;
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    wal.close();
    int total = Arrays.stream(counts).sum();
    long[] all = new long[total];
    int at = 0;
    for (int w = 0; w < writers; w++) {
      System.arraycopy(latencies[w], 0, all, at, counts[w]);
      at += counts[w];
    }
    Arrays.sort(all);
    System.out.printf(
        "| %s | %s | %d | %,.0f | %d | %d |%n",
        name,
        d,
        writers,
        total / secs,
        all.length == 0 ? 0 : all[all.length / 2],
        all.length == 0 ? 0 : all[(int) (all.length * 0.99)]);
  }

  static void leaseRecovery(MiniDfs dfs, Path localDir, int i) throws Exception {
    String name = "dead-writer-" + i;
    Path report = localDir.resolve(name + ".report");
    Files.createDirectories(localDir);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(
        List.of("-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path")));
    cmd.add(HdfsWriterMain.class.getName());
    cmd.add(dfs.uri() + "/" + name);
    cmd.add(report.toString());
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(localDir.resolve(name + ".out").toFile())
            .start();
    long deadline = System.currentTimeMillis() + 120_000;
    while ((!Files.exists(report) || Files.size(report) < 20_000)
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    p.destroyForcibly();
    p.waitFor(30, TimeUnit.SECONDS);
    try (Storage s = dfs.storage(name)) {
      int files = s.list("WALs/local").size();
      long start = System.nanoTime();
      Closeable lock = s.tryLockDirectory("WALs/local");
      while (lock == null) {
        Thread.sleep(20);
        lock = s.tryLockDirectory("WALs/local");
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      lock.close();
      System.out.printf(
          "lease recovery of a SIGKILLed writer's log (%d files: segments and .lock): %d ms%n",
          files, millis);
    }
  }
}
