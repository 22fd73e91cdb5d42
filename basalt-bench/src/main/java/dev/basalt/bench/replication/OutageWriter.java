package dev.basalt.bench.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;

/**
 * Writes new rows into the source at a bounded rate for a while (the writes a peer misses during an
 * outage): rows {@code outage-000000001}, ... of YCSB's shape (10 fields of 100 random bytes), one
 * synchronous put each, spread over a few threads, each thread paced to its share of the rate
 * without bursts after a slow put. Every acknowledged row is counted; the peer must end up with
 * exactly that many.
 */
final class OutageWriter {
  static final String PREFIX = "outage-";
  private static final int FIELDS = 10;
  private static final int FIELD_LENGTH = 100;

  private OutageWriter() {}

  /** What was written. */
  record Result(long rows, long errors, double seconds) {
    double rate() {
      return rows / seconds;
    }
  }

  static Result write(
      Connection source,
      TableName table,
      byte[] family,
      int rowsPerSecond,
      int threads,
      long seconds)
      throws InterruptedException {
    AtomicLong rows = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    AtomicLong next = new AtomicLong();
    long start = System.nanoTime();
    long end = start + seconds * 1_000_000_000L;
    double perThreadIntervalNanos = 1e9 * threads / rowsPerSecond;
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      final int id = i;
      Thread t =
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(id);
                byte[][] qualifiers = new byte[FIELDS][];
                for (int f = 0; f < FIELDS; f++) {
                  qualifiers[f] = ("field" + f).getBytes(StandardCharsets.UTF_8);
                }
                try (Table tb = source.getTable(table)) {
                  long due = start + (long) (perThreadIntervalNanos * id / threads);
                  while (true) {
                    long now = System.nanoTime();
                    if (now >= end) {
                      return;
                    }
                    if (due > now) {
                      long wait = due - now;
                      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    due = Math.max(due + (long) perThreadIntervalNanos, System.nanoTime());
                    byte[] row =
                        String.format("%s%09d", PREFIX, next.incrementAndGet())
                            .getBytes(StandardCharsets.UTF_8);
                    Put put = new Put(row);
                    for (byte[] q : qualifiers) {
                      byte[] v = new byte[FIELD_LENGTH];
                      random.nextBytes(v);
                      put.addColumn(family, q, v);
                    }
                    try {
                      tb.put(put);
                      rows.incrementAndGet();
                    } catch (IOException e) {
                      errors.incrementAndGet();
                    }
                  }
                } catch (IOException e) {
                  errors.incrementAndGet();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "outage-writer-" + i);
      workers.add(t);
      t.start();
    }
    for (Thread t : workers) {
      t.join();
    }
    return new Result(rows.get(), errors.get(), (System.nanoTime() - start) / 1e9);
  }
}
