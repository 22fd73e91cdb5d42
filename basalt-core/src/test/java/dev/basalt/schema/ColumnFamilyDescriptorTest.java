package dev.basalt.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import org.junit.jupiter.api.Test;

class ColumnFamilyDescriptorTest {

  private static ColumnFamilyDescriptorBuilder cf() {
    return ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("cf"));
  }

  private static void assertBuildFails(ColumnFamilyDescriptorBuilder b, String... parts) {
    var t = assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class);
    for (String p : parts) {
      t.hasMessageContaining(p);
    }
  }

  // ---- defaults -----------------------------------------------------------------------------

  @Test
  void defaults() {
    ColumnFamilyDescriptor d = ColumnFamilyDescriptorBuilder.of("cf");
    assertThat(d.getNameAsString()).isEqualTo("cf");
    assertThat(d.getName()).isEqualTo(Bytes.toBytes("cf"));
    assertThat(d.getMaxVersions()).isEqualTo(1);
    assertThat(d.getMinVersions()).isZero();
    assertThat(d.getTimeToLive())
        .isEqualTo(Integer.MAX_VALUE)
        .isEqualTo(ColumnFamilyDescriptor.FOREVER);
    assertThat(d.getTimeToLiveMillis()).isEqualTo(Long.MAX_VALUE);
    assertThat(d.getKeepDeletedCells()).isEqualTo(KeepDeletedCells.FALSE);
    // Basalt's default, unlike HBase's.
    assertThat(d.isNewVersionBehavior()).isTrue();
    assertThat(d.getBlocksize()).isEqualTo(65536);
    assertThat(d.getBloomFilterType()).isEqualTo(BloomType.ROW);
    assertThat(d.getCompressionType()).isEqualTo(Compression.NONE);
    assertThat(d.isInMemory()).isFalse();
    assertThat(d.isBlockCacheEnabled()).isTrue();
    assertThat(d.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.NONE);
    assertThat(d.getScope()).isZero();
    assertThat(d.getValues()).isEmpty();
    assertThat(d.getValue(ColumnFamilyDescriptor.VERSIONS)).isEqualTo("1");
    assertThat(d.getValue(ColumnFamilyDescriptor.NEW_VERSION_BEHAVIOR)).isEqualTo("true");
    assertThat(d.getEffectiveValues())
        .containsEntry("VERSIONS", "1")
        .containsEntry("MIN_VERSIONS", "0")
        .containsEntry("TTL", "2147483647")
        .containsEntry("KEEP_DELETED_CELLS", "FALSE")
        .containsEntry("NEW_VERSION_BEHAVIOR", "true")
        .containsEntry("BLOCKSIZE", "65536")
        .containsEntry("BLOOMFILTER", "ROW")
        .containsEntry("COMPRESSION", "NONE")
        .containsEntry("IN_MEMORY", "false")
        .containsEntry("BLOCKCACHE", "true")
        .containsEntry("DATA_BLOCK_ENCODING", "NONE");
    assertThat(d.toString()).startsWith("{NAME => 'cf', VERSIONS => '1'");
  }

  @Test
  void typedSettersRoundTrip() {
    ColumnFamilyDescriptor d =
        cf().setMaxVersions(5)
            .setMinVersions(2)
            .setTimeToLive(3600)
            .setKeepDeletedCells(KeepDeletedCells.TTL)
            .setNewVersionBehavior(false)
            .setBlocksize(4096)
            .setBloomFilterType(BloomType.ROWCOL)
            .setCompressionType(Compression.ZSTD)
            .setInMemory(true)
            .setBlockCacheEnabled(false)
            .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF)
            .setScope(1)
            .build();
    assertThat(d.getMaxVersions()).isEqualTo(5);
    assertThat(d.getMinVersions()).isEqualTo(2);
    assertThat(d.getTimeToLive()).isEqualTo(3600);
    assertThat(d.getTimeToLiveMillis()).isEqualTo(3_600_000L);
    assertThat(d.getKeepDeletedCells()).isEqualTo(KeepDeletedCells.TTL);
    assertThat(d.isNewVersionBehavior()).isFalse();
    assertThat(d.getBlocksize()).isEqualTo(4096);
    assertThat(d.getBloomFilterType()).isEqualTo(BloomType.ROWCOL);
    assertThat(d.getCompressionType()).isEqualTo(Compression.ZSTD);
    assertThat(d.isInMemory()).isTrue();
    assertThat(d.isBlockCacheEnabled()).isFalse();
    assertThat(d.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.FAST_DIFF);
    assertThat(d.getScope()).isEqualTo(1);
    assertThat(d.getValues()).containsEntry("VERSIONS", "5").containsEntry("TTL", "3600");
    // A builder from a descriptor copies it.
    assertThat(ColumnFamilyDescriptorBuilder.newBuilder(d).build()).isEqualTo(d);
  }

  @Test
  void valuesAreParsedLikeHBaseShellInput() {
    ColumnFamilyDescriptor d =
        cf().setValue("VERSIONS", " 3 ")
            .setValue("TTL", "FOREVER")
            .setValue("KEEP_DELETED_CELLS", "true")
            .setValue("BLOOMFILTER", "rowcol")
            .setValue("COMPRESSION", "gzip")
            .setValue("IN_MEMORY", "TRUE")
            .setValue("DATA_BLOCK_ENCODING", "prefix")
            .build();
    assertThat(d.getMaxVersions()).isEqualTo(3);
    assertThat(d.getTimeToLive()).isEqualTo(ColumnFamilyDescriptor.FOREVER);
    assertThat(d.getKeepDeletedCells()).isEqualTo(KeepDeletedCells.TRUE);
    assertThat(d.getBloomFilterType()).isEqualTo(BloomType.ROWCOL);
    assertThat(d.getCompressionType()).isEqualTo(Compression.GZ);
    assertThat(d.isInMemory()).isTrue();
    assertThat(d.getDataBlockEncoding()).isEqualTo(DataBlockEncoding.PREFIX);
    // TTLs beyond an int mean forever.
    assertThat(cf().setValue("TTL", "99999999999").build().getTimeToLive())
        .isEqualTo(ColumnFamilyDescriptor.FOREVER);
  }

  @Test
  void unknownAttributesRoundTrip() {
    ColumnFamilyDescriptor d =
        cf().setValue("METADATA_OWNER", "team-a").setValue("other.key", "x=y").build();
    assertThat(d.getValues())
        .containsEntry("METADATA_OWNER", "team-a")
        .containsEntry("other.key", "x=y");
    assertThat(d.getValue("METADATA_OWNER")).isEqualTo("team-a");
    assertThat(d.getEffectiveValues()).containsEntry("other.key", "x=y");
    ColumnFamilyDescriptor copy = ColumnFamilyDescriptorBuilder.newBuilder(d).build();
    assertThat(copy.getValue("other.key")).isEqualTo("x=y");
    assertThat(copy).isEqualTo(d);
    // Setting null removes.
    ColumnFamilyDescriptor removed =
        ColumnFamilyDescriptorBuilder.newBuilder(d).setValue("other.key", null).build();
    assertThat(removed.getValues()).doesNotContainKey("other.key");
    assertThat(removed).isNotEqualTo(d);
    assertThat(d.getValue("never.set")).isNull();
  }

  @Test
  void explicitDefaultEqualsImplicitDefault() {
    assertThat(cf().setMaxVersions(1).build()).isEqualTo(cf().build());
    assertThat(cf().setMaxVersions(2).build()).isNotEqualTo(cf().build());
    assertThat(ColumnFamilyDescriptorBuilder.of("a"))
        .isNotEqualTo(ColumnFamilyDescriptorBuilder.of("b"));
    assertThat(
            ColumnFamilyDescriptorBuilder.of("a").compareTo(ColumnFamilyDescriptorBuilder.of("b")))
        .isNegative();
  }

  // ---- family names -------------------------------------------------------------------------

  @Test
  void legalFamilyNames() {
    for (String name : new String[] {"cf", "a", "A-b_c.d", "with space", "x.", "日本"}) {
      assertThat(ColumnFamilyDescriptorBuilder.of(name).getName()).isEqualTo(Bytes.toBytes(name));
    }
    byte[] longest = new byte[127];
    java.util.Arrays.fill(longest, (byte) 'f');
    assertThat(ColumnFamilyDescriptorBuilder.of(longest).getName()).hasSize(127);
    assertThat(ColumnFamilyDescriptorBuilder.of(new byte[] {(byte) 0x80, (byte) 0xFF}).getName())
        .hasSize(2);
  }

  @Test
  void illegalFamilyNamesNameTheProblem() {
    assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.of(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be empty");
    assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.of((byte[]) null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be empty");
    assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.of(".hidden"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot start with a period");
    assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.of("recovered.edits"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("recovered.edits");
    assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.of(new byte[128]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("128 bytes")
        .hasMessageContaining("127");
  }

  @Test
  void illegalBytesInFamilyNamesAreNamedWithTheirPosition() {
    String[][] cases = {
      {"a:b", "0x3A", "position 1"},
      {"ab\\", "0x5C", "position 2"},
      {"a/b", "0x2F", "position 1"},
      {"\u0000x", "0x00", "position 0"},
      {"x\ty", "0x09", "position 1"},
      {"x\ny", "0x0A", "position 1"},
      {"del\u007F", "0x7F", "position 3"},
    };
    for (String[] c : cases) {
      assertThatThrownBy(() -> ColumnFamilyDescriptorBuilder.of(c[0]))
          .as(c[0])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("illegal byte " + c[1])
          .hasMessageContaining(c[2]);
    }
  }

  // ---- attribute validation -----------------------------------------------------------------

  @Test
  void versionLimits() {
    assertBuildFails(cf().setMaxVersions(0), "family 'cf'", "VERSIONS must be at least 1, got 0");
    assertBuildFails(cf().setMaxVersions(-3), "VERSIONS", "-3");
    assertBuildFails(cf().setMinVersions(-1), "MIN_VERSIONS cannot be negative, got -1");
    assertBuildFails(
        cf().setMaxVersions(2).setMinVersions(3), "MIN_VERSIONS (3) cannot exceed VERSIONS (2)");
    assertThat(cf().setMaxVersions(3).setMinVersions(3).build().getMinVersions()).isEqualTo(3);
  }

  @Test
  void ttlMustBePositive() {
    assertBuildFails(cf().setTimeToLive(0), "TTL must be positive", "got 0");
    assertBuildFails(cf().setTimeToLive(-5), "TTL must be positive", "got -5");
    assertThat(cf().setTimeToLive(1).build().getTimeToLive()).isEqualTo(1);
  }

  @Test
  void blocksizeRange() {
    assertBuildFails(cf().setBlocksize(1023), "BLOCKSIZE", "1023");
    assertBuildFails(cf().setBlocksize(16 * 1024 * 1024 + 1), "BLOCKSIZE", "16777217");
    assertBuildFails(cf().setBlocksize(0), "BLOCKSIZE");
    assertThat(cf().setBlocksize(1024).build().getBlocksize()).isEqualTo(1024);
    assertThat(cf().setBlocksize(16 * 1024 * 1024).build().getBlocksize())
        .isEqualTo(16 * 1024 * 1024);
  }

  @Test
  void replicationScope() {
    assertBuildFails(cf().setScope(2), "REPLICATION_SCOPE must be 0 or 1, got 2");
    assertBuildFails(cf().setScope(-1), "REPLICATION_SCOPE");
  }

  @Test
  void badEnumValuesNameTheAttributeAndTheValue() {
    assertBuildFails(cf().setValue("BLOOMFILTER", "ROWPREFIX"), "BLOOMFILTER", "'ROWPREFIX'");
    assertBuildFails(cf().setValue("COMPRESSION", "LZO"), "COMPRESSION", "'LZO'");
    assertBuildFails(cf().setValue("KEEP_DELETED_CELLS", "maybe"), "KEEP_DELETED_CELLS", "'maybe'");
    assertBuildFails(cf().setValue("DATA_BLOCK_ENCODING", "ZIP"), "DATA_BLOCK_ENCODING", "'ZIP'");
  }

  @Test
  void nonNumericValuesNameTheAttributeAndTheValue() {
    assertBuildFails(cf().setValue("VERSIONS", "three"), "family 'cf'", "VERSIONS", "'three'");
    assertBuildFails(cf().setValue("MIN_VERSIONS", "1.5"), "MIN_VERSIONS", "'1.5'");
    assertBuildFails(cf().setValue("BLOCKSIZE", "64k"), "BLOCKSIZE", "'64k'");
    assertBuildFails(cf().setValue("TTL", "1 day"), "TTL", "'1 day'");
    assertBuildFails(cf().setValue("REPLICATION_SCOPE", ""), "REPLICATION_SCOPE");
    assertBuildFails(cf().setValue("VERSIONS", "99999999999"), "VERSIONS", "'99999999999'");
  }

  @Test
  void nonBooleanValuesNameTheAttributeAndTheValue() {
    assertBuildFails(cf().setValue("IN_MEMORY", "yes"), "IN_MEMORY", "'yes'");
    assertBuildFails(cf().setValue("BLOCKCACHE", "1"), "BLOCKCACHE", "'1'");
    assertBuildFails(cf().setValue("NEW_VERSION_BEHAVIOR", "on"), "NEW_VERSION_BEHAVIOR", "'on'");
  }

  @Test
  void descriptorsAreImmutable() {
    ColumnFamilyDescriptor d = cf().setValue("X", "1").build();
    assertThatThrownBy(() -> d.getValues().put("Y", "2"))
        .isInstanceOf(UnsupportedOperationException.class);
    byte[] name = d.getName();
    name[0] = 'z';
    assertThat(d.getNameAsString()).isEqualTo("cf");
  }
}
