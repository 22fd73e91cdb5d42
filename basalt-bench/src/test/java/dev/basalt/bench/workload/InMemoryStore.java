package dev.basalt.bench.workload;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A {@link DataStore} in memory, for running the runner without a cluster. */
final class InMemoryStore implements DataStore {
  final ConcurrentSkipListMap<String, Map<String, byte[]>> rows = new ConcurrentSkipListMap<>();
  final AtomicInteger sessionsOpen = new AtomicInteger();
  volatile long insertMillis; // how long each insert takes
  int preparedRegions;
  int recreations; // how often the table was dropped and created again

  @Override
  public void prepareTable(boolean recreate, int regions) {
    if (recreate) {
      rows.clear();
      recreations++;
    }
    preparedRegions = regions;
  }

  @Override
  public Session openSession() {
    sessionsOpen.incrementAndGet();
    return new Session() {
      @Override
      public void insert(byte[] row, byte[][] fields, byte[][] values) {
        if (insertMillis > 0) {
          try {
            Thread.sleep(insertMillis);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        Map<String, byte[]> r = new ConcurrentHashMap<>();
        for (int i = 0; i < fields.length; i++) {
          r.put(s(fields[i]), values[i]);
        }
        rows.put(s(row), r);
      }

      @Override
      public int read(byte[] row) {
        Map<String, byte[]> r = rows.get(s(row));
        return r == null ? 0 : r.size();
      }

      @Override
      public void update(byte[] row, byte[] field, byte[] value) {
        rows.computeIfAbsent(s(row), k -> new ConcurrentHashMap<>()).put(s(field), value);
      }

      @Override
      public int scan(byte[] startRow, int count) {
        return (int) rows.tailMap(s(startRow)).keySet().stream().limit(count).count();
      }

      @Override
      public void close() {
        sessionsOpen.decrementAndGet();
      }
    };
  }

  private static String s(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Override
  public String describe() {
    return "in memory";
  }

  @Override
  public void close() {}
}
