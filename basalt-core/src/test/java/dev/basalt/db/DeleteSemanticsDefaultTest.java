package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Delete;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * basalt.new.version.behavior.default: the delete semantics a family gets when it does not say,
 * stored with the family so that changing the setting later changes no existing family.
 */
class DeleteSemanticsDefaultTest {
  private static final TableName T = TableName.valueOf("t");
  private static final byte[] ROW = Bytes.toBytes("r");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;

  private static Config withDefault(boolean nvb) {
    return Config.builder()
        .set(DatabaseSettings.NEW_VERSION_BEHAVIOR_DEFAULT.key(), Boolean.toString(nvb))
        .build();
  }

  private static ColumnFamilyDescriptor family(Database db, String f) throws IOException {
    return db.getDescriptor(T).getColumnFamily(Bytes.toBytes(f));
  }

  /** put@100, deleteColumns@200, put@150: classic semantics hide the last put, Basalt's do not. */
  private static boolean lastPutVisible(Database db, String f) throws IOException {
    byte[] fam = Bytes.toBytes(f);
    var t = db.getTable(T);
    t.put(new Put(ROW).addColumn(fam, Q, 100, Bytes.toBytes("a")));
    t.delete(new Delete(ROW).addColumns(fam, Q, 200));
    t.put(new Put(ROW).addColumn(fam, Q, 150, Bytes.toBytes("b")));
    return !t.get(new Get(ROW).addFamily(fam)).isEmpty();
  }

  @Test
  void newFamiliesTakeTheSettingAndKeepIt() throws IOException {
    try (Database db = Basalt.open(dir, withDefault(false))) {
      db.createTable(
          TableDescriptorBuilder.newBuilder(T)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("plain"))
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("nvb"))
                      .setNewVersionBehavior(true)
                      .build())
              .build());
      assertThat(family(db, "plain").getValues())
          .containsEntry(ColumnFamilyDescriptor.NEW_VERSION_BEHAVIOR, "false");
      assertThat(family(db, "nvb").isNewVersionBehavior()).isTrue();
      assertThat(lastPutVisible(db, "plain")).as("classic: the delete masks it").isFalse();
      assertThat(lastPutVisible(db, "nvb")).as("deterministic history").isTrue();
    }
    // Another default later: existing families keep theirs, also when modified without saying.
    try (Database db = Basalt.open(dir, withDefault(true))) {
      assertThat(family(db, "plain").isNewVersionBehavior()).isFalse();
      db.modifyColumnFamily(
          T,
          ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("plain"))
              .setMaxVersions(3)
              .build());
      assertThat(family(db, "plain").isNewVersionBehavior()).isFalse();
      assertThat(family(db, "plain").getMaxVersions()).isEqualTo(3);
      db.addColumnFamily(T, ColumnFamilyDescriptorBuilder.of("added"));
      assertThat(family(db, "added").isNewVersionBehavior()).isTrue();
    }
  }
}
