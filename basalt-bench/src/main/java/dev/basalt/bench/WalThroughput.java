package dev.basalt.bench;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.CellType;
import dev.basalt.cell.KeyValue;
import dev.basalt.fs.LocalStorage;
import dev.basalt.ops.Durability;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.Wal;
import dev.basalt.wal.WalEntry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * Measures the write-ahead log: the disk's raw fsync rate, then WAL appends with each durability
 * level and several writer counts, reporting throughput and latency percentiles.
 *
 * <pre>
 * java -cp basalt-bench/target/benchmarks.jar dev.basalt.bench.WalThroughput [dir] [seconds]
 * </pre>
 *
 * Each writer appends one entry (one 100-byte cell, about 150 bytes framed) and waits for the
 * durability it asked for, in a loop, for the given time.
 */
public final class WalThroughput {
  private WalThroughput() {}

  public static void main(String[] args) throws Exception {
    Path base = Path.of(args.length > 0 ? args[0] : "target/walbench");
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    BenchFiles.deleteTree(base);
    Files.createDirectories(base);
    System.out.printf(
        "raw fsync'd 4 KiB appends, 1 thread: %,.0f per second%n", rawFsync(base, seconds));
    System.out.println();
    System.out.println("| durability | writers | ops/s | p50 µs | p99 µs | p99.9 µs |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | ---: |");
    run(base, Durability.FSYNC_WAL, 1, seconds);
    run(base, Durability.FSYNC_WAL, 8, seconds);
    run(base, Durability.FSYNC_WAL, 64, seconds);
    run(base, Durability.SYNC_WAL, 1, seconds);
    run(base, Durability.SYNC_WAL, 2, seconds);
    run(base, Durability.ASYNC_WAL, 1, seconds);
    run(base, Durability.ASYNC_WAL, 2, seconds);
  }

  /** 4 KiB writes each followed by a force, from one thread: the disk's limit. */
  static double rawFsync(Path base, int seconds) throws IOException {
    Path f = base.resolve("raw");
    ByteBuffer block = ByteBuffer.allocate(4096);
    long n = 0;
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    long start = System.nanoTime();
    try (FileChannel ch =
        FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      while (System.nanoTime() < end) {
        block.clear();
        ch.write(block);
        ch.force(false);
        n++;
      }
    }
    return n / ((System.nanoTime() - start) / 1e9);
  }

  static void run(Path base, Durability d, int writers, int seconds) throws Exception {
    Path dir = base.resolve(d + "-" + writers);
    LocalStorage storage = new LocalStorage(dir);
    Wal wal = new Wal(storage, "bench", Config.defaults(), Clock.system(), List.of());
    byte[] value = new byte[100];
    Recorder recorder = new Recorder(3);
    AtomicBoolean stop = new AtomicBoolean();
    LongAdder counts = new LongAdder();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      final int id = w;
      Thread t =
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
                    long txid = wal.append(new WalEntry("region", 1, List.of(), List.of(kv)));
                    wal.sync(txid, d);
                    recorder.recordValue((System.nanoTime() - t0) / 1000);
                    counts.increment();
                  }
                } catch (IOException e) {
                  throw new RuntimeException(e);
                }
              });
      threads.add(t);
    }
    // one second of warm-up, then measure
    threads.forEach(Thread::start);
    Thread.sleep(1000);
    long before = counts.sum();
    recorder.getIntervalHistogram();
    long t0 = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    long done = counts.sum() - before;
    double secs = (System.nanoTime() - t0) / 1e9;
    var h = recorder.getIntervalHistogram();
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    wal.close();
    System.out.printf(
        "| %s | %d | %,.0f | %d | %d | %d |%n",
        d,
        writers,
        done / secs,
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(99),
        h.getValueAtPercentile(99.9));
    BenchFiles.deleteTree(dir);
  }
}
