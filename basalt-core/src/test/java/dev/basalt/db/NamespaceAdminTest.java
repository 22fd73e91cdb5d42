package dev.basalt.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Get;
import dev.basalt.ops.Put;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Namespaces: create, modify, list, remove only when empty, the two reserved ones. */
class NamespaceAdminTest {
  private static final byte[] F = Bytes.toBytes("f");

  @TempDir Path dir;

  private static TableDescriptor table(String name) {
    return TableDescriptorBuilder.newBuilder(TableName.valueOf(name))
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
        .build();
  }

  @Test
  void defaultAndHbaseAlwaysExist() throws IOException {
    try (Database db = Basalt.open(dir)) {
      assertThat(db.listNamespaces()).containsExactly("default", "hbase");
      assertThat(db.getNamespaceDescriptor("default"))
          .isEqualTo(NamespaceDescriptor.DEFAULT_NAMESPACE);
    }
  }

  @Test
  void namespacesHoldTablesAndSurviveARestart() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createNamespace(NamespaceDescriptor.create("ns1").addConfiguration("k", "v").build());
      db.createTable(table("ns1:t"));
      db.createTable(table("t"));
      db.getTable(TableName.valueOf("ns1:t"))
          .put(new Put(Bytes.toBytes("r")).addColumn(F, F, Bytes.toBytes("x")));
      assertThat(db.listTablesByNamespace("ns1"))
          .extracting(TableDescriptor::getTableName)
          .containsExactly(TableName.valueOf("ns1:t"));
    }
    assertThat(Files.exists(dir.resolve("data/ns1/t/.tabledesc"))).isTrue();
    try (Database db = Basalt.open(dir)) {
      assertThat(db.listNamespaces()).containsExactly("default", "hbase", "ns1");
      assertThat(db.getNamespaceDescriptor("ns1").getConfigurationValue("k")).isEqualTo("v");
      assertThat(
              db.getTable(TableName.valueOf("ns1:t"))
                  .get(new Get(Bytes.toBytes("r")))
                  .getValue(F, F))
          .isEqualTo(Bytes.toBytes("x"));
    }
  }

  @Test
  void aNamespaceIsRemovedOnlyWhenEmpty() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createNamespace(NamespaceDescriptor.create("ns1").build());
      db.createTable(table("ns1:a"));
      db.createTable(table("ns1:b"));
      assertThatThrownBy(() -> db.deleteNamespace("ns1"))
          .isInstanceOf(ConstraintException.class)
          .hasMessageContaining("Only empty namespaces can be removed")
          .hasMessageContaining("has 2 table(s)");
      for (String t : new String[] {"ns1:a", "ns1:b"}) {
        db.disableTable(TableName.valueOf(t));
        db.deleteTable(TableName.valueOf(t));
      }
      db.deleteNamespace("ns1");
      assertThat(db.listNamespaces()).containsExactly("default", "hbase");
      assertThatThrownBy(() -> db.createTable(table("ns1:c")))
          .isInstanceOf(NamespaceNotFoundException.class);
    }
    assertThat(Files.exists(dir.resolve("data/ns1"))).isFalse();
    try (Database db = Basalt.open(dir)) {
      assertThat(db.listNamespaces()).containsExactly("default", "hbase");
      db.createNamespace(NamespaceDescriptor.create("ns1").build()); // the name is free again
    }
  }

  @Test
  void badNamespaceRequestsNameTheProblem() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createNamespace(NamespaceDescriptor.create("ns1").build());
      assertThatThrownBy(() -> db.createNamespace(NamespaceDescriptor.create("ns1").build()))
          .isInstanceOf(NamespaceExistException.class)
          .hasMessageContaining("'ns1' already exists");
      assertThatThrownBy(() -> db.createNamespace(NamespaceDescriptor.create("default").build()))
          .isInstanceOf(NamespaceExistException.class);
      assertThatThrownBy(() -> db.deleteNamespace("default"))
          .isInstanceOf(ConstraintException.class)
          .hasMessageContaining("Reserved namespace default cannot be removed");
      assertThatThrownBy(() -> db.deleteNamespace("hbase")).isInstanceOf(ConstraintException.class);
      assertThatThrownBy(() -> db.deleteNamespace("nope"))
          .isInstanceOf(NamespaceNotFoundException.class)
          .hasMessageContaining("'nope' does not exist");
      assertThatThrownBy(() -> db.modifyNamespace(NamespaceDescriptor.create("nope").build()))
          .isInstanceOf(NamespaceNotFoundException.class);
      assertThatThrownBy(() -> db.getNamespaceDescriptor("nope"))
          .isInstanceOf(NamespaceNotFoundException.class);
      assertThatThrownBy(() -> NamespaceDescriptor.create("bad-name"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'-'");
      // As in HBase, user tables may live in the system namespace, except under the names of
      // HBase's own system tables.
      db.createTable(table("hbase:mine"));
      assertThat(db.tableExists(TableName.valueOf("hbase:mine"))).isTrue();
      assertThatThrownBy(() -> db.createTable(table("hbase:meta")))
          .isInstanceOf(TableExistsException.class);
      assertThatThrownBy(() -> db.createTable(table("hbase:namespace")))
          .isInstanceOf(BasaltIOException.class)
          .hasMessageContaining("reserved");
      assertThat(new ConstraintException("x").hbaseExceptionClass())
          .isEqualTo("org.apache.hadoop.hbase.constraint.ConstraintException");
      assertThat(new NamespaceExistException("x").hbaseExceptionClass())
          .isEqualTo("org.apache.hadoop.hbase.NamespaceExistException");
    }
  }

  @Test
  void aNamespaceConfigurationCanChange() throws IOException {
    try (Database db = Basalt.open(dir)) {
      db.createNamespace(NamespaceDescriptor.create("ns1").addConfiguration("a", "1").build());
      db.modifyNamespace(NamespaceDescriptor.create("ns1").addConfiguration("b", "2").build());
      db.modifyNamespace(
          NamespaceDescriptor.create(NamespaceDescriptor.DEFAULT_NAMESPACE)
              .addConfiguration("c", "3")
              .build());
    }
    try (Database db = Basalt.open(dir)) {
      assertThat(db.getNamespaceDescriptor("ns1").getConfiguration()).containsOnlyKeys("b");
      assertThat(db.getNamespaceDescriptor("default").getConfigurationValue("c")).isEqualTo("3");
    }
  }

  @Test
  void anUnfinishedNamespaceCreationIsForgottenOnOpen() throws IOException {
    Files.createDirectories(dir.resolve("data/half"));
    try (Database db = Basalt.open(dir)) {
      assertThat(db.listNamespaces()).containsExactly("default", "hbase");
    }
    assertThat(Files.exists(dir.resolve("data/half"))).isFalse();
  }
}
