package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.db.Database;
import dev.basalt.ops.Get;
import dev.basalt.ops.Increment;
import dev.basalt.ops.Result;
import dev.basalt.region.Region;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An increment applied and logged, whose answer the client never got because the server crashed, is
 * not applied again when the client retries it against the restarted server.
 */
class NonceAfterRestartTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] ROW = Bytes.toBytes("counter");

  @TempDir Path dir;
  @TempDir Path crashed;

  @Test
  void aRetryAcrossACrashIsAnsweredWithTheCurrentValue() throws IOException {
    try (Database db = Database.open(dir)) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(T)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
              .build());
      ServerNonces nonces = new ServerNonces(Clock.system(), ServerNonces.GRACE_MILLIS);
      Result first = ClientOperations.applyOnce(region(db), increment(), nonces, 3, 99);
      assertThat(Bytes.toLong(first.getValue(F, Q))).isEqualTo(5);
      copy(dir, crashed); // the crash: the answer never left
    }
    try (Database db = Database.open(crashed)) {
      ServerNonces nonces = new ServerNonces(Clock.system(), ServerNonces.GRACE_MILLIS);
      nonces.recovered(db.recoveredNonces());
      Result retry = ClientOperations.applyOnce(region(db), increment(), nonces, 3, 99);
      assertThat(Bytes.toLong(retry.getValue(F, Q))).as("the retry's answer").isEqualTo(5);
      Result other = ClientOperations.applyOnce(region(db), increment(), nonces, 3, 100);
      assertThat(Bytes.toLong(other.getValue(F, Q))).as("a new increment").isEqualTo(10);
      assertThat(Bytes.toLong(db.getTable(T).get(new Get(ROW)).getValue(F, Q))).isEqualTo(10);
    }
  }

  private static Increment increment() {
    return new Increment(ROW).addColumn(F, Q, 5);
  }

  private static Region region(Database db) throws IOException {
    byte[] name = db.getRegions(T).get(0).getRegionName();
    return new DatabaseRegions(db)
        .region(
            RegionSpecifier.newBuilder()
                .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFrom(name))
                .build());
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
