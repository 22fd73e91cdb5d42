package dev.basalt.server.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.Compression;
import dev.basalt.schema.DataBlockEncoding;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

class SchemaCodecTest {
  @Test
  void descriptorsSurviveTheWireBothWays() throws Exception {
    TableDescriptor d =
        TableDescriptorBuilder.newBuilder(TableName.valueOf("ns1", "t1"))
            .setMaxFileSize(1 << 30)
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("f"))
                    .setMaxVersions(5)
                    .setTimeToLive(3600)
                    .setCompressionType(Compression.ZSTD)
                    .build())
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Bytes.toBytes("g")))
            .build();
    TableDescriptor back = SchemaCodec.toTableDescriptor(SchemaCodec.toProto(d));
    assertThat(back.getTableName()).isEqualTo(d.getTableName());
    assertThat(back.getValues()).isEqualTo(d.getValues());
    assertThat(back.getColumnFamilies()).hasSize(2);
    // The family's delete semantics always travel (the stock client's default differs).
    java.util.Map<String, String> expected =
        new java.util.TreeMap<>(d.getColumnFamilies().get(0).getValues());
    expected.put(ColumnFamilyDescriptor.NEW_VERSION_BEHAVIOR, "true");
    assertThat(back.getColumnFamilies().get(0).getValues()).isEqualTo(expected);
    assertThat(back.getColumnFamily(Bytes.toBytes("f")).getMaxVersions()).isEqualTo(5);
  }

  @Test
  void familiesSayTheirDeleteSemanticsAndWhatIsNotApplied() throws Exception {
    ColumnFamilyDescriptor classic =
        ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("c"))
            .setNewVersionBehavior(false)
            .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF)
            .build();
    HBaseProtos.ColumnFamilySchema sent = SchemaCodec.toProto(classic);
    java.util.Map<String, String> attributes = new java.util.HashMap<>();
    for (HBaseProtos.BytesBytesPair a : sent.getAttributesList()) {
      attributes.put(a.getFirst().toStringUtf8(), a.getSecond().toStringUtf8());
    }
    assertThat(attributes)
        .containsEntry("NEW_VERSION_BEHAVIOR", "false")
        .containsEntry("DATA_BLOCK_ENCODING", "FAST_DIFF");
    assertThat(attributes.get(SchemaCodec.NOTE)).contains("FAST_DIFF is kept but not applied");
    // What a client sends back after reading it: the note is Basalt's, not the family's.
    ColumnFamilyDescriptor back = SchemaCodec.toFamily(sent);
    assertThat(back.getValues()).doesNotContainKey(SchemaCodec.NOTE);
    assertThat(back.isNewVersionBehavior()).isFalse();
    assertThat(SchemaCodec.toProto(ColumnFamilyDescriptorBuilder.of("p")).getAttributesList())
        .extracting(a -> a.getFirst().toStringUtf8() + "=" + a.getSecond().toStringUtf8())
        .containsExactly("NEW_VERSION_BEHAVIOR=true");
  }

  @Test
  void hbaseConfigurationEntriesArriveAsValues() throws Exception {
    HBaseProtos.TableSchema p =
        HBaseProtos.TableSchema.newBuilder()
            .setTableName(SchemaCodec.toProto(TableName.valueOf("t")))
            .addColumnFamilies(
                HBaseProtos.ColumnFamilySchema.newBuilder()
                    .setName(ByteString.copyFromUtf8("f"))
                    .addAttributes(
                        HBaseProtos.BytesBytesPair.newBuilder()
                            .setFirst(ByteString.copyFromUtf8("VERSIONS"))
                            .setSecond(ByteString.copyFromUtf8("4")))
                    .addConfiguration(
                        HBaseProtos.NameStringPair.newBuilder()
                            .setName("hbase.hstore.blockingStoreFiles")
                            .setValue("20")))
            .build();
    TableDescriptor d = SchemaCodec.toTableDescriptor(p);
    assertThat(d.getColumnFamily(Bytes.toBytes("f")).getMaxVersions()).isEqualTo(4);
    assertThat(d.getColumnFamily(Bytes.toBytes("f")).getValues())
        .containsEntry("hbase.hstore.blockingStoreFiles", "20");
    assertThat(d.getTableName().getNamespaceAsString()).isEqualTo("default");
  }

  @Test
  void badValuesAreRefusedNamingThem() {
    HBaseProtos.TableSchema p =
        HBaseProtos.TableSchema.newBuilder()
            .setTableName(SchemaCodec.toProto(TableName.valueOf("t")))
            .addColumnFamilies(
                HBaseProtos.ColumnFamilySchema.newBuilder()
                    .setName(ByteString.copyFromUtf8("f"))
                    .addAttributes(
                        HBaseProtos.BytesBytesPair.newBuilder()
                            .setFirst(ByteString.copyFromUtf8("VERSIONS"))
                            .setSecond(ByteString.copyFromUtf8("many"))))
            .build();
    assertThatThrownBy(() -> SchemaCodec.toTableDescriptor(p))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("VERSIONS");
    assertThatThrownBy(
            () ->
                SchemaCodec.toTableName(
                    HBaseProtos.TableName.newBuilder()
                        .setNamespace(ByteString.copyFromUtf8("default"))
                        .setQualifier(ByteString.copyFromUtf8("bad name"))
                        .build()))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("bad table name");
  }

  @Test
  void regionInfosKeepTheirIdentity() throws Exception {
    RegionInfo r =
        RegionInfo.of(TableName.valueOf("t"), Bytes.toBytes("a"), Bytes.toBytes("m"), 1234567L);
    RegionInfo back = SchemaCodec.toRegionInfo(SchemaCodec.toProto(r));
    assertThat(back).isEqualTo(r);
    assertThat(back.getEncodedName()).isEqualTo(r.getEncodedName());
    assertThatThrownBy(
            () ->
                SchemaCodec.toRegionInfo(
                    SchemaCodec.toProto(r).toBuilder()
                        .setStartKey(ByteString.copyFromUtf8("z"))
                        .build()))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("start key");
  }

  @Test
  void namespaceDescriptorsSurviveTheWireAndBadNamesAreRefused() throws Exception {
    NamespaceDescriptor d = NamespaceDescriptor.create("ns_1").addConfiguration("k", "v").build();
    HBaseProtos.NamespaceDescriptor p = SchemaCodec.toProto(d);
    assertThat(p.getName().toStringUtf8()).isEqualTo("ns_1");
    assertThat(p.getConfiguration(0).getName()).isEqualTo("k");
    assertThat(SchemaCodec.toNamespaceDescriptor(p)).isEqualTo(d);
    assertThatThrownBy(
            () ->
                SchemaCodec.toNamespaceDescriptor(
                    HBaseProtos.NamespaceDescriptor.newBuilder()
                        .setName(ByteString.copyFromUtf8("a:b"))
                        .build()))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(BasaltIOException.DO_NOT_RETRY))
        .hasMessageContaining("namespace 'a:b'");
  }
}
