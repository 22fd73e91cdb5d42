package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.region.NoSuchColumnFamilyException;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Changing a table's schema: families added, removed (data archived), altered; attributes. */
class TableSchemaChangeTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[][] SPLITS = {Bytes.toBytes("m")};

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll();
  }

  private static TableDescriptor table(byte[]... families) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(T);
    for (byte[] f : families) {
      b.setColumnFamily(ColumnFamilyDescriptorBuilder.of(f));
    }
    return b.build();
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private long archivedFiles(String family) throws IOException {
    Path archive = dir.resolve("archive");
    if (!Files.isDirectory(archive)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(archive)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> p.getParent().getFileName().toString().equals(family))
          .count();
    }
  }

  @Test
  void aFamilyAddedToAnEnabledTableTakesWritesAtOnce() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(F), SPLITS);
      Table t = db.getTable(T);
      t.put(new Put(b("a")).addColumn(F, Q, b("1")));
      assertThatThrownBy(() -> t.put(new Put(b("a")).addColumn(G, Q, b("2"))))
          .isInstanceOf(NoSuchColumnFamilyException.class);
      db.addColumnFamily(T, ColumnFamilyDescriptorBuilder.of(G));
      t.put(new Put(b("a")).addColumn(G, Q, b("2")));
      t.put(new Put(b("z")).addColumn(G, Q, b("3")));
      assertThat(t.get(new Get(b("a"))).size()).isEqualTo(2);
      assertThat(db.isTableEnabled(T)).isTrue();
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(db.getDescriptor(T).hasColumnFamily(G)).isTrue();
      Result r = db.getTable(T).get(new Get(b("a")));
      assertThat(r.getValue(F, Q)).isEqualTo(b("1"));
      assertThat(r.getValue(G, Q)).isEqualTo(b("2"));
    }
  }

  @Test
  void aRemovedFamilyIsArchivedAndDoesNotComeBackWhenReAdded() throws IOException {
    // No flush on close: the removed family's edits stay in the WAL, and must not be replayed
    // into the family of the same name added later.
    Config keepInWal = Config.builder().set(DatabaseSettings.FLUSH_ON_CLOSE, false).build();
    try (Database db = Basalt.open(dir, keepInWal)) {
      db.createTable(table(F, G), SPLITS);
      Table t = db.getTable(T);
      for (String r : new String[] {"a", "z"}) {
        t.put(new Put(b(r)).addColumn(F, Q, b("f-" + r)).addColumn(G, Q, b("g-" + r)));
      }
      db.deleteColumnFamily(T, G);
      assertThat(archivedFiles("g")).as("one flushed file per region, archived").isEqualTo(2);
      assertThatThrownBy(() -> t.get(new Get(b("a")).addFamily(G)))
          .isInstanceOf(NoSuchColumnFamilyException.class);
      db.addColumnFamily(T, ColumnFamilyDescriptorBuilder.of(G));
      assertThat(t.get(new Get(b("a"))).getValue(G, Q)).isNull();
      t.put(new Put(b("a")).addColumn(G, Q, b("new")));
    }
    try (Database db = Basalt.open(dir)) {
      Table t = db.getTable(T);
      assertThat(t.get(new Get(b("a"))).getValue(G, Q)).isEqualTo(b("new"));
      assertThat(t.get(new Get(b("z"))).getValue(G, Q)).isNull();
      assertThat(t.get(new Get(b("z"))).getValue(F, Q)).isEqualTo(b("f-z"));
    }
  }

  @Test
  void alteredFamiliesAndAttributesApplyAndPersist() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(F), SPLITS);
      Table t = db.getTable(T);
      db.modifyColumnFamily(
          T, ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(3).build());
      for (int v = 1; v <= 4; v++) {
        t.put(new Put(b("a")).addColumn(F, Q, v, b("v" + v)));
      }
      assertThat(t.get(new Get(b("a")).readAllVersions()).size()).isEqualTo(3);
      db.modifyTable(
          TableDescriptorBuilder.newBuilder(db.getDescriptor(T)).setValue("OWNER", "me").build());
    }
    try (Database db = Basalt.open(dir)) {
      TableDescriptor d = db.getDescriptor(T);
      assertThat(d.getValue("OWNER")).isEqualTo("me");
      assertThat(d.getColumnFamily(F).getMaxVersions()).isEqualTo(3);
      assertThat(db.getTable(T).get(new Get(b("a")).readAllVersions()).size()).isEqualTo(3);
    }
  }

  @Test
  void aDisabledTableCanBeModifiedAndStaysDisabled() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(F, G), SPLITS);
      db.getTable(T).put(new Put(b("a")).addColumn(G, Q, b("1")));
      db.disableTable(T);
      db.deleteColumnFamily(T, G);
      assertThat(db.isTableDisabled(T)).isTrue();
      assertThat(archivedFiles("g")).isEqualTo(1);
      db.enableTable(T);
      assertThat(db.getTable(T).get(new Get(b("a"))).isEmpty()).isTrue();
    }
  }

  @Test
  void badSchemaChangesNameTheProblem() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(F));
      assertThatThrownBy(() -> db.addColumnFamily(T, ColumnFamilyDescriptorBuilder.of(F)))
          .isInstanceOf(InvalidFamilyOperationException.class)
          .hasMessageContaining("'f'")
          .hasMessageContaining("already exists");
      assertThatThrownBy(() -> db.deleteColumnFamily(T, G))
          .isInstanceOf(InvalidFamilyOperationException.class)
          .hasMessageContaining("'g' does not exist");
      assertThatThrownBy(() -> db.deleteColumnFamily(T, F))
          .isInstanceOf(InvalidFamilyOperationException.class)
          .hasMessageContaining("only column family");
      assertThatThrownBy(() -> db.modifyColumnFamily(T, ColumnFamilyDescriptorBuilder.of(G)))
          .isInstanceOf(InvalidFamilyOperationException.class)
          .hasMessageContaining("cannot be modified");
      TableName other = TableName.valueOf("nope");
      assertThatThrownBy(
              () -> db.modifyTable(TableDescriptorBuilder.newBuilder(other, table(F)).build()))
          .isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> db.addColumnFamily(other, ColumnFamilyDescriptorBuilder.of(G)))
          .isInstanceOf(TableNotFoundException.class);
      assertThat(new InvalidFamilyOperationException("x").hbaseExceptionClass())
          .isEqualTo("org.apache.hadoop.hbase.InvalidFamilyOperationException");
      assertThat(db.getDescriptor(T)).isEqualTo(table(F));
    }
  }

  @Test
  void aModifyInterruptedBeforeItsDescriptorKeepsTheOldSchemaAndEveryRow() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(F, G), SPLITS);
      db.getTable(T).put(new Put(b("a")).addColumn(G, Q, b("1")));
      FaultPoints.arm(TableAdmin.FAULT_MODIFY_BEFORE_DESCRIPTOR, FaultPoints.THROW);
      assertThatThrownBy(() -> db.deleteColumnFamily(T, G))
          .isInstanceOf(FaultPoints.InjectedFault.class);
      FaultPoints.disarmAll();
      // The table serves again with its old schema.
      assertThat(db.getTable(T).get(new Get(b("a"))).getValue(G, Q)).isEqualTo(b("1"));
      db.getTable(T).put(new Put(b("b")).addColumn(G, Q, b("2")));
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(db.getDescriptor(T).hasColumnFamily(G)).isTrue();
      assertThat(db.getTable(T).get(new Get(b("b"))).getValue(G, Q)).isEqualTo(b("2"));
    }
  }

  @Test
  void writersAndReadersDuringSchemaChangesNeitherFailNorLoseWrites() throws Exception {
    try (Database db = Basalt.open(dir)) {
      db.createTable(table(F), new byte[][] {b("w1"), b("w2"), b("w3")});
      Table t = db.getTable(T);
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<Integer>> writers = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        String prefix = "w" + w;
        writers.add(
            pool.submit(
                () -> {
                  int n = 0;
                  while (!stop.get() || n < 50) {
                    t.put(new Put(b(prefix + "-" + n)).addColumn(F, Q, b("v" + n)));
                    n++;
                  }
                  return n;
                }));
      }
      Future<Integer> reader =
          pool.submit(
              () -> {
                int scans = 0;
                while (!stop.get()) {
                  try (ResultScanner s = t.getScanner(new Scan())) {
                    for (Result r : s) {
                      assertThat(r.getValue(F, Q)).isNotNull();
                    }
                  }
                  scans++;
                }
                return scans;
              });
      for (int i = 0; i < 6; i++) {
        byte[] fam = b("x" + i);
        db.addColumnFamily(T, ColumnFamilyDescriptorBuilder.of(fam));
        db.deleteColumnFamily(T, fam);
      }
      stop.set(true);
      int total = 0;
      for (int w = 0; w < writers.size(); w++) {
        int n = writers.get(w).get();
        total += n;
        for (int i = 0; i < n; i++) {
          assertThat(t.get(new Get(b("w" + w + "-" + i))).getValue(F, Q))
              .as("w%d-%d", w, i)
              .isEqualTo(b("v" + i));
        }
      }
      reader.get();
      pool.shutdown();
      int rows = 0;
      try (ResultScanner s = t.getScanner(new Scan())) {
        for (Result r : s) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(total);
    }
  }
}
