package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Append;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Put;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Client nonces travel with their edits through the log and come back when a crash replays it. */
class NonceRecoveryTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;
  @TempDir Path crashed;

  @Test
  void theNoncesOfLoggedIncrementsAndAppendsAreRecoveredAfterACrash() throws IOException {
    long before = System.currentTimeMillis();
    try (Database db = Database.open(dir)) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(T)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build());
      Table t = db.getTable(T);
      Increment inc = new Increment(Bytes.toBytes("counter")).addColumn(F, Q, 5);
      inc.setNonce(11, 77);
      t.increment(inc);
      Append app = new Append(Bytes.toBytes("log")).addColumn(F, Q, Bytes.toBytes("x"));
      app.setNonce(11, -78);
      t.append(app);
      t.increment(new Increment(Bytes.toBytes("counter")).addColumn(F, Q, 1)); // no nonce
      t.put(new Put(Bytes.toBytes("p")).addColumn(F, Q, Bytes.toBytes("v")));
      // Every write above was acknowledged, so it is in the log: a copy of the directory now is
      // what a crash at this moment leaves.
      copy(dir, crashed);
    }
    long after = System.currentTimeMillis();
    try (Database db = Database.open(crashed)) {
      assertThat(db.recoveredNonces())
          .extracting(Database.RecoveredNonce::nonceGroup, Database.RecoveredNonce::nonce)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(11L, 77L),
              org.assertj.core.groups.Tuple.tuple(11L, -78L));
      assertThat(db.recoveredNonces())
          .allSatisfy(n -> assertThat(n.writeTime()).isBetween(before, after));
      assertThat(
              Bytes.toLong(
                  db.getTable(T)
                      .get(new dev.basalt.ops.Get(Bytes.toBytes("counter")))
                      .getValue(F, Q)))
          .isEqualTo(6);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      all.forEach(
          p -> {
            try {
              Path target = to.resolve(from.relativize(p).toString());
              if (Files.isDirectory(p)) {
                Files.createDirectories(target);
              } else {
                Files.copy(p, target);
              }
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }
  }
}
