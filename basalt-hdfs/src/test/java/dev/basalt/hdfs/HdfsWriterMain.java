package dev.basalt.hdfs;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.fs.Storage;
import dev.basalt.fs.Storages;
import dev.basalt.ops.Durability;
import dev.basalt.ops.Put;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.WalSettings;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The child process of {@link HdfsCrashTest}: an embedded database with its root on HDFS that
 * writes until it is killed, 8 threads at a time (the log's group commit), reporting each
 * acknowledged put as one line {@code <row>} after the first line {@code ready}. Arguments: root
 * URI, report file.
 */
public final class HdfsWriterMain {
  static final TableName T = TableName.valueOf("t");
  static final byte[] F = Bytes.toBytes("f");

  private HdfsWriterMain() {}

  public static void main(String[] args) throws Exception {
    // Small segments: the kill finds several, rolled ones among them.
    Config config =
        MiniDfs.config()
            .set(WalSettings.ROLL_SIZE, 64L * 1024)
            .set("basalt.flush.on.close", "false")
            .build();
    Storage storage = Storages.open(args[0], config);
    storage.mkdirs("");
    Database db = Database.open(storage, config, Clock.system());
    if (!db.tableExists(T)) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(T)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build());
    }
    try (FileOutputStream out = new FileOutputStream(args[1])) {
      out.write("ready\n".getBytes(StandardCharsets.UTF_8));
      Thread[] writers = new Thread[8];
      for (int w = 0; w < writers.length; w++) {
        int writer = w;
        writers[w] =
            new Thread(
                () -> {
                  try {
                    for (long i = 0; i < 10_000_000; i++) {
                      String row = "w" + writer + "-" + i;
                      Put p =
                          new Put(Bytes.toBytes(row))
                              .addColumn(F, Bytes.toBytes("q"), Bytes.toBytes("v" + i));
                      p.setDurability(i % 3 == 0 ? Durability.FSYNC_WAL : Durability.SYNC_WAL);
                      db.getTable(T).put(p);
                      byte[] line = (row + "\n").getBytes(StandardCharsets.UTF_8);
                      synchronized (out) {
                        out.write(line); // acknowledged: reported
                        out.flush();
                      }
                    }
                  } catch (Exception e) {
                    e.printStackTrace();
                  }
                });
        writers[w].start();
      }
      for (Thread t : writers) {
        t.join();
      }
    }
  }
}
