package dev.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Durability;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableDescriptorTest {
  private static final TableName T = TableName.valueOf("t1");
  private static final ColumnFamilyDescriptor A = ColumnFamilyDescriptorBuilder.of("a");
  private static final ColumnFamilyDescriptor B = ColumnFamilyDescriptorBuilder.of("b");

  private static TableDescriptorBuilder t() {
    return TableDescriptorBuilder.newBuilder(T);
  }

  @Test
  void familiesInNameOrder() {
    TableDescriptor d = t().setColumnFamily(B).setColumnFamily(A).build();
    assertThat(d.getTableName()).isEqualTo(T);
    assertThat(d.getColumnFamilies()).containsExactly(A, B);
    assertThat(d.getColumnFamilyCount()).isEqualTo(2);
    assertThat(d.getColumnFamilyNames()).containsExactly(Bytes.toBytes("a"), Bytes.toBytes("b"));
    assertThat(d.hasColumnFamily(Bytes.toBytes("a"))).isTrue();
    assertThat(d.hasColumnFamily(Bytes.toBytes("c"))).isFalse();
    assertThat(d.getColumnFamily(Bytes.toBytes("b"))).isEqualTo(B);
    assertThat(d.getColumnFamily(Bytes.toBytes("c"))).isNull();
  }

  @Test
  void defaults() {
    TableDescriptor d = t().setColumnFamily(A).build();
    assertThat(d.getDurability()).isEqualTo(Durability.USE_DEFAULT);
    assertThat(d.getMaxFileSize()).isEqualTo(-1);
    assertThat(d.getMemStoreFlushSize()).isEqualTo(-1);
    assertThat(d.isReadOnly()).isFalse();
    assertThat(d.getValues()).isEmpty();
  }

  @Test
  void aTableNeedsAFamily() {
    assertThatThrownBy(() -> t().build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("t1")
        .hasMessageContaining("at least one column family");
    assertThatThrownBy(() -> t().setColumnFamily(A).removeColumnFamily(Bytes.toBytes("a")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one column family");
  }

  @Test
  void duplicateFamiliesAreRejected() {
    ColumnFamilyDescriptor a2 =
        ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("a")).setMaxVersions(3).build();
    assertThatThrownBy(() -> t().setColumnFamily(A).setColumnFamily(a2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column family 'a' already exists in table t1");
    assertThatThrownBy(() -> t().setColumnFamilies(List.of(A, B, A)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a' already exists");
    assertThat(t().setColumnFamilies(List.of(A, B)).build().getColumnFamilyCount()).isEqualTo(2);
  }

  @Test
  void modifyReplacesOrAddsAndRemoveRemoves() {
    ColumnFamilyDescriptor a3 =
        ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("a")).setMaxVersions(3).build();
    TableDescriptor d = t().setColumnFamily(A).modifyColumnFamily(a3).modifyColumnFamily(B).build();
    assertThat(d.getColumnFamily(Bytes.toBytes("a")).getMaxVersions()).isEqualTo(3);
    assertThat(d.getColumnFamilyCount()).isEqualTo(2);

    TableDescriptor removed =
        TableDescriptorBuilder.newBuilder(d).removeColumnFamily(Bytes.toBytes("a")).build();
    assertThat(removed.getColumnFamilies()).containsExactly(B);
    // The original is untouched.
    assertThat(d.getColumnFamilyCount()).isEqualTo(2);
    // Removing an absent family is a no-op.
    assertThat(
            TableDescriptorBuilder.newBuilder(d)
                .removeColumnFamily(Bytes.toBytes("zz"))
                .build()
                .getColumnFamilyCount())
        .isEqualTo(2);
  }

  @Test
  void durabilityParsing() {
    for (Durability dur : Durability.values()) {
      assertThat(t().setColumnFamily(A).setDurability(dur).build().getDurability()).isEqualTo(dur);
    }
    assertThat(t().setColumnFamily(A).setValue("DURABILITY", " fsync_wal ").build().getDurability())
        .isEqualTo(Durability.FSYNC_WAL);
    assertThatThrownBy(() -> t().setColumnFamily(A).setValue("DURABILITY", "SOMETIMES").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table t1")
        .hasMessageContaining("DURABILITY")
        .hasMessageContaining("'SOMETIMES'");
  }

  @Test
  void sizesAndReadOnly() {
    TableDescriptor d =
        t().setColumnFamily(A)
            .setMaxFileSize(10L << 30)
            .setMemStoreFlushSize(128L << 20)
            .setReadOnly(true)
            .build();
    assertThat(d.getMaxFileSize()).isEqualTo(10L << 30);
    assertThat(d.getMemStoreFlushSize()).isEqualTo(128L << 20);
    assertThat(d.isReadOnly()).isTrue();
    assertThat(d.getValue("MAX_FILESIZE")).isEqualTo(String.valueOf(10L << 30));
    assertThatThrownBy(() -> t().setColumnFamily(A).setValue("MAX_FILESIZE", "10G").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MAX_FILESIZE")
        .hasMessageContaining("'10G'");
    assertThatThrownBy(() -> t().setColumnFamily(A).setValue("MEMSTORE_FLUSHSIZE", "x").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MEMSTORE_FLUSHSIZE");
  }

  @Test
  void unknownValuesRoundTripAndNullRemoves() {
    TableDescriptor d = t().setColumnFamily(A).setValue("OWNER", "me").build();
    assertThat(d.getValue("OWNER")).isEqualTo("me");
    TableDescriptor copy = TableDescriptorBuilder.newBuilder(d).build();
    assertThat(copy).isEqualTo(d);
    assertThat(
            TableDescriptorBuilder.newBuilder(d).setValue("OWNER", null).build().getValue("OWNER"))
        .isNull();
  }

  @Test
  void renamedCopy() {
    TableDescriptor d = t().setColumnFamily(A).setColumnFamily(B).setValue("OWNER", "me").build();
    TableName other = TableName.valueOf("ns", "t2");
    TableDescriptor renamed = TableDescriptorBuilder.newBuilder(other, d).build();
    assertThat(renamed.getTableName()).isEqualTo(other);
    assertThat(renamed.getColumnFamilies()).isEqualTo(d.getColumnFamilies());
    assertThat(renamed.getValues()).isEqualTo(d.getValues());
    assertThat(renamed).isNotEqualTo(d);
  }

  @Test
  void nullNameIsRejected() {
    assertThatThrownBy(() -> TableDescriptorBuilder.newBuilder((TableName) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table name is null");
  }

  @Test
  void equality() {
    TableDescriptor d1 = t().setColumnFamily(A).build();
    TableDescriptor d2 = t().setColumnFamily(ColumnFamilyDescriptorBuilder.of("a")).build();
    assertThat(d1).isEqualTo(d2).hasSameHashCodeAs(d2);
    assertThat(d1).isNotEqualTo(t().setColumnFamily(B).build());
    assertThat(d1.toString()).startsWith("'t1'").contains("NAME => 'a'");
  }
}
