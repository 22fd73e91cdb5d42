package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Put;
import dev.basalt.region.RegionSettings;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.config.Config;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The child process of {@link TransitionCrashTest}: one thread writes rows {@code c<cycle>-<n>} and
 * reports each once acknowledged ({@code A row}); the main thread splits and merges the table's
 * regions in turn (compacting first, so that no region has references), until the JVM is killed, or
 * halts at the fault point armed with {@code -Dbasalt.faultpoints=<point>=halt}.
 */
public final class TransitionCrashMain {
  static final TableName TABLE = TableName.valueOf("transitions");
  static final byte[] F = Bytes.toBytes("f");
  static final byte[] Q = Bytes.toBytes("q");

  private TransitionCrashMain() {}

  static String row(int cycle, int n) {
    return String.format("c%02d-%06d", cycle, n);
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int cycle = Integer.parseInt(args[1]);
    CrashWriterMain.Report out = new CrashWriterMain.Report(Path.of(args[2]));
    Database db =
        Database.open(
            dir,
            Config.builder()
                .set(RegionSettings.FLUSH_SIZE, 64L * 1024)
                .set(DatabaseSettings.MAINTENANCE_INTERVAL, 50L)
                .build());
    if (!db.tableExists(TABLE)) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(TABLE)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build());
    }
    Table t = db.getTable(TABLE);
    AtomicInteger written = new AtomicInteger();
    Thread writer =
        new Thread(
            () -> {
              try {
                for (int n = 0; ; n++) {
                  String row = row(cycle, n);
                  t.put(new Put(Bytes.toBytes(row)).addColumn(F, Q, Bytes.toBytes(row)));
                  out.line("A " + row);
                  written.set(n + 1);
                }
              } catch (Exception e) {
                out.line("ERROR writer " + e);
              }
            },
            "writer");
    writer.start();
    out.line("READY");
    Random rnd = new Random(cycle);
    while (true) {
      Thread.sleep(5);
      int n = written.get();
      if (n < 20) {
        continue;
      }
      db.compact(TABLE);
      List<RegionInfo> regions = db.getRegions(TABLE);
      if (regions.size() < 2 || rnd.nextBoolean()) {
        byte[] at = Bytes.toBytes(row(cycle, 1 + rnd.nextInt(n - 1)));
        boolean isStart = false;
        for (RegionInfo r : regions) {
          isStart |= Bytes.equals(r.getStartKey(), at);
        }
        if (!isStart) {
          db.split(TABLE, at);
        }
      } else {
        int i = rnd.nextInt(regions.size() - 1);
        db.mergeRegions(regions.get(i).getRegionName(), regions.get(i + 1).getRegionName());
      }
    }
  }
}
