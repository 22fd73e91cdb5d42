package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.ops.RowMutations;
import dev.basalt.region.RegionSettings;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.config.Config;
import dev.basalt.wal.WalSettings;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The child process of {@link CrashRecoveryTest}: writes to a database from several threads and
 * reports every operation to a report file before it starts ({@code S}) and once it is acknowledged
 * ({@code A}), until it is killed. Each thread owns its rows, so the parent can check exactly.
 *
 * <pre>
 * S|A thread put     row value
 * S|A thread multi   row value          (columns a..e, one value)
 * S|A thread delete  row
 * S|A thread incr    amount             (row counter-&lt;thread&gt;)
 * S|A thread rowmut  generation         (row rm-&lt;thread&gt;: delete row, then a,b,c = generation)
 * </pre>
 */
public final class CrashWriterMain {
  static final TableName TABLE = TableName.valueOf("crash");
  static final byte[] F = Bytes.toBytes("f");

  private CrashWriterMain() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int cycle = Integer.parseInt(args[1]);
    int threads = Integer.parseInt(args[2]);
    Report out = new Report(Path.of(args[3]));
    // A tiny flush size, frequent maintenance and small WAL segments keep flushes, compactions
    // and WAL rolls (with their background forces) running all the time, so that kills land in
    // the middle of them too.
    Database db =
        Database.open(
            dir,
            Config.builder()
                .set(RegionSettings.FLUSH_SIZE, 128L * 1024)
                .set(DatabaseSettings.MAINTENANCE_INTERVAL, 50L)
                .set(WalSettings.ROLL_SIZE, 64L * 1024)
                .build());
    if (!db.tableExists(TABLE)) {
      // Several regions, so that recovery replays the shared WAL into each (the rows are
      // c<cycle>-..., counter-<thread> and rm-<thread>).
      db.createTable(
          TableDescriptorBuilder.newBuilder(TABLE)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build(),
          new byte[][] {
            Bytes.toBytes("c1"),
            Bytes.toBytes("c3"),
            Bytes.toBytes("c6"),
            Bytes.toBytes("counter-2"),
            Bytes.toBytes("rm-1")
          });
    }
    Table t = db.getTable(TABLE);
    out.line("READY");
    List<Thread> ws = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      final int id = i;
      Thread w = new Thread(() -> run(t, cycle, id, out), "writer-" + i);
      w.start();
      ws.add(w);
    }
    for (Thread w : ws) {
      w.join();
    }
  }

  private static void report(Report out, String phase, int thread, String rest) {
    out.line(phase + " " + thread + " " + rest);
  }

  /**
   * The report channel: a file written with one unbuffered write per line, so each line is in the
   * operating system as soon as it is reported and a SIGKILL cannot cut one in half. (Not stdout:
   * the JDK can lose what is still in the pipe when the child dies under a slow reader.)
   */
  static final class Report {
    private final FileOutputStream out;

    Report(Path file) throws IOException {
      this.out = new FileOutputStream(file.toFile(), true);
    }

    synchronized void line(String s) {
      try {
        out.write((s + "\n").getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static void run(Table t, int cycle, int thread, Report out) {
    Random rnd = new Random(cycle * 1000L + thread);
    List<String> putRows = new ArrayList<>();
    long generation = cycle * 1_000_000L;
    try {
      for (int i = 0; ; i++) {
        int kind = rnd.nextInt(10);
        String line;
        if (kind < 3) {
          String row = "c" + cycle + "-t" + thread + "-p" + i;
          line = "put " + row + " v" + i;
          report(out, "S", thread, line);
          t.put(
              new Put(Bytes.toBytes(row)).addColumn(F, Bytes.toBytes("q"), Bytes.toBytes("v" + i)));
          putRows.add(row);
        } else if (kind < 5) {
          String row = "c" + cycle + "-t" + thread + "-m" + i;
          line = "multi " + row + " m" + i;
          report(out, "S", thread, line);
          Put p = new Put(Bytes.toBytes(row));
          for (String c : new String[] {"a", "b", "c", "d", "e"}) {
            p.addColumn(F, Bytes.toBytes(c), Bytes.toBytes("m" + i));
          }
          t.put(p);
        } else if (kind < 6 && !putRows.isEmpty()) {
          String row = putRows.remove(rnd.nextInt(putRows.size()));
          line = "delete " + row;
          report(out, "S", thread, line);
          t.delete(new Delete(Bytes.toBytes(row)));
        } else if (kind < 8) {
          int amount = 1 + rnd.nextInt(100);
          line = "incr " + amount;
          report(out, "S", thread, line);
          t.increment(
              new Increment(Bytes.toBytes("counter-" + thread))
                  .addColumn(F, Bytes.toBytes("n"), amount));
        } else {
          generation++;
          line = "rowmut " + generation;
          report(out, "S", thread, line);
          byte[] row = Bytes.toBytes("rm-" + thread);
          Put p = new Put(row);
          for (String c : new String[] {"a", "b", "c"}) {
            p.addColumn(F, Bytes.toBytes(c), Bytes.toBytes(generation));
          }
          t.mutateRow(new RowMutations(row).add(new Delete(row)).add(p));
        }
        report(out, "A", thread, line);
      }
    } catch (Exception e) {
      out.line("ERROR " + thread + " " + e);
    }
  }
}
