package dev.basalt.schema;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.KeyValue;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds a validated {@link ColumnFamilyDescriptor} (HBase's builder, same setter names). */
public final class ColumnFamilyDescriptorBuilder {
  private final byte[] name;
  private final Map<String, String> values = new LinkedHashMap<>();

  private ColumnFamilyDescriptorBuilder(byte[] name) {
    this.name = checkFamilyName(name);
  }

  public static ColumnFamilyDescriptorBuilder newBuilder(byte[] name) {
    return new ColumnFamilyDescriptorBuilder(name);
  }

  public static ColumnFamilyDescriptorBuilder newBuilder(ColumnFamilyDescriptor from) {
    ColumnFamilyDescriptorBuilder b = new ColumnFamilyDescriptorBuilder(from.getName());
    b.values.putAll(from.getValues());
    return b;
  }

  /** A family with every attribute at its default. */
  public static ColumnFamilyDescriptor of(String name) {
    return newBuilder(Bytes.toBytes(name)).build();
  }

  public static ColumnFamilyDescriptor of(byte[] name) {
    return newBuilder(name).build();
  }

  /**
   * Checks a family name as HBase does, plus what a directory name needs.
   *
   * @throws IllegalArgumentException naming the offending byte
   */
  public static byte[] checkFamilyName(byte[] name) {
    if (name == null || name.length == 0) {
      throw new IllegalArgumentException("column family name cannot be empty");
    }
    if (name.length > KeyValue.MAX_FAMILY_LENGTH) {
      throw new IllegalArgumentException(
          "column family name is "
              + name.length
              + " bytes, longer than the limit of "
              + KeyValue.MAX_FAMILY_LENGTH);
    }
    if (name[0] == '.') {
      throw new IllegalArgumentException(
          "column family name cannot start with a period: " + Bytes.toStringBinary(name));
    }
    for (int i = 0; i < name.length; i++) {
      int b = name[i] & 0xff;
      if (b < 0x20 || b == 0x7f || b == ':' || b == '\\' || b == '/') {
        throw new IllegalArgumentException(
            String.format(
                "column family name %s has an illegal byte 0x%02X at position %d: names cannot"
                    + " contain control characters, ':', '\\' or '/'",
                Bytes.toStringBinary(name), b, i));
      }
    }
    if (Bytes.toString(name).equals("recovered.edits")) {
      throw new IllegalArgumentException("column family name cannot be recovered.edits");
    }
    return name.clone();
  }

  /**
   * Sets any attribute by its HBase name (VERSIONS, TTL, ...); values are validated by {@link
   * #build()}. Unknown names are kept as free-form metadata.
   */
  public ColumnFamilyDescriptorBuilder setValue(String key, String value) {
    if (value == null) {
      values.remove(key);
    } else {
      values.put(key, value);
    }
    return this;
  }

  public ColumnFamilyDescriptorBuilder setMaxVersions(int v) {
    return setValue(ColumnFamilyDescriptor.VERSIONS, String.valueOf(v));
  }

  public ColumnFamilyDescriptorBuilder setMinVersions(int v) {
    return setValue(ColumnFamilyDescriptor.MIN_VERSIONS, String.valueOf(v));
  }

  /** Seconds a cell lives after its timestamp. */
  public ColumnFamilyDescriptorBuilder setTimeToLive(int seconds) {
    return setValue(ColumnFamilyDescriptor.TTL, String.valueOf(seconds));
  }

  public ColumnFamilyDescriptorBuilder setKeepDeletedCells(KeepDeletedCells k) {
    return setValue(ColumnFamilyDescriptor.KEEP_DELETED_CELLS, k.name());
  }

  public ColumnFamilyDescriptorBuilder setNewVersionBehavior(boolean b) {
    return setValue(ColumnFamilyDescriptor.NEW_VERSION_BEHAVIOR, String.valueOf(b));
  }

  public ColumnFamilyDescriptorBuilder setBlocksize(int bytes) {
    return setValue(ColumnFamilyDescriptor.BLOCKSIZE, String.valueOf(bytes));
  }

  public ColumnFamilyDescriptorBuilder setBloomFilterType(BloomType t) {
    return setValue(ColumnFamilyDescriptor.BLOOMFILTER, t.name());
  }

  public ColumnFamilyDescriptorBuilder setCompressionType(Compression c) {
    return setValue(ColumnFamilyDescriptor.COMPRESSION, c.name());
  }

  public ColumnFamilyDescriptorBuilder setInMemory(boolean b) {
    return setValue(ColumnFamilyDescriptor.IN_MEMORY, String.valueOf(b));
  }

  public ColumnFamilyDescriptorBuilder setBlockCacheEnabled(boolean b) {
    return setValue(ColumnFamilyDescriptor.BLOCKCACHE, String.valueOf(b));
  }

  public ColumnFamilyDescriptorBuilder setDataBlockEncoding(DataBlockEncoding e) {
    return setValue(ColumnFamilyDescriptor.DATA_BLOCK_ENCODING, e.name());
  }

  public ColumnFamilyDescriptorBuilder setScope(int scope) {
    return setValue(ColumnFamilyDescriptor.REPLICATION_SCOPE, String.valueOf(scope));
  }

  /**
   * @throws IllegalArgumentException naming the family and the invalid attribute
   */
  public ColumnFamilyDescriptor build() {
    return new ColumnFamilyDescriptor(name, values);
  }
}
