package dev.basalt.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.fs.Storage;
import dev.basalt.ops.Put;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import dev.basalt.wal.ReplicationQueues;
import dev.basalt.wal.WalEntry;
import dev.basalt.wal.WalPosition;
import dev.basalt.wal.WalTail;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a replication source needs from HDFS: reading a log segment that is still being written
 * (each read sees what the writer has hflushed, however long the file is open), and queue positions
 * replaced by rename.
 */
class HdfsReplicationLogTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static MiniDfs dfs;

  @BeforeAll
  static void startDfs() throws IOException {
    dfs = MiniDfs.shared();
  }

  private static List<String> drain(WalTail tail) throws IOException {
    List<String> rows = new ArrayList<>();
    while (true) {
      WalTail.Batch b = tail.read(1000, Long.MAX_VALUE, false);
      for (WalEntry e : b.entries()) {
        assertThat(e.table()).isEqualTo("t");
        rows.add(Bytes.toString(dev.basalt.cell.CellUtil.cloneRow(e.cells().get(0))));
      }
      if (b.logEnded() && b.entries().isEmpty()) {
        return rows;
      }
    }
  }

  @Test
  void aSourceFollowsALogBeingWrittenOnHdfs() throws IOException {
    Config config = MiniDfs.config().build();
    try (Storage storage = dfs.storage("replication-log", config);
        Database db = Database.open(storage, config, Clock.system())) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(T)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setScope(1).build())
              .build());
      WalTail tail =
          new WalTail(
              storage,
              Database.LOG_NAME,
              WalPosition.startOf(WalTail.firstSegment(storage, Database.LOG_NAME)));
      List<String> seen = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 50; i++) {
          db.getTable(T)
              .put(new Put(Bytes.toBytes("r" + round + "-" + i)).addColumn(F, F, Bytes.toBytes(i)));
        }
        List<String> got = drain(tail); // the segment is still open for writing
        assertThat(got).hasSize(50).startsWith("r" + round + "-0").endsWith("r" + round + "-49");
        seen.addAll(got);
      }
      assertThat(seen).hasSize(150);

      ReplicationQueues queues = new ReplicationQueues(storage);
      queues.write("p", "local", tail.position());
      queues.write("p", "local", new WalPosition(tail.position().segment(), 1));
      assertThat(queues.read("p", "local"))
          .isEqualTo(new WalPosition(tail.position().segment(), 1));
      assertThat(queues.claim("p", "local", "other")).isEqualTo("local@other");
      assertThat(queues.claim("p", "local", "third")).isNull();
    }
  }
}
