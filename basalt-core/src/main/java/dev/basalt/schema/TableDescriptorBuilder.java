package dev.basalt.schema;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Durability;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Builds a validated {@link TableDescriptor} (HBase's builder, same method names). */
public final class TableDescriptorBuilder {
  private final TableName name;
  private final Map<byte[], ColumnFamilyDescriptor> families = new TreeMap<>(Bytes.COMPARATOR);
  private final Map<String, String> values = new LinkedHashMap<>();

  private TableDescriptorBuilder(TableName name) {
    if (name == null) {
      throw new IllegalArgumentException("table name is null");
    }
    this.name = name;
  }

  public static TableDescriptorBuilder newBuilder(TableName name) {
    return new TableDescriptorBuilder(name);
  }

  public static TableDescriptorBuilder newBuilder(TableDescriptor from) {
    TableDescriptorBuilder b = new TableDescriptorBuilder(from.getTableName());
    for (ColumnFamilyDescriptor cf : from.getColumnFamilies()) {
      b.families.put(cf.getName(), cf);
    }
    b.values.putAll(from.getValues());
    return b;
  }

  /** A copy of {@code from} under another name (used by clone and truncate). */
  public static TableDescriptorBuilder newBuilder(TableName name, TableDescriptor from) {
    TableDescriptorBuilder b = newBuilder(from);
    TableDescriptorBuilder renamed = new TableDescriptorBuilder(name);
    renamed.families.putAll(b.families);
    renamed.values.putAll(b.values);
    return renamed;
  }

  /**
   * @throws IllegalArgumentException when the family already exists
   */
  public TableDescriptorBuilder setColumnFamily(ColumnFamilyDescriptor family) {
    if (families.containsKey(family.getName())) {
      throw new IllegalArgumentException(
          "column family '" + family.getNameAsString() + "' already exists in table " + name);
    }
    families.put(family.getName(), family);
    return this;
  }

  public TableDescriptorBuilder setColumnFamilies(Iterable<ColumnFamilyDescriptor> fams) {
    fams.forEach(this::setColumnFamily);
    return this;
  }

  /** Replaces a family's descriptor, or adds it. */
  public TableDescriptorBuilder modifyColumnFamily(ColumnFamilyDescriptor family) {
    families.put(family.getName(), family);
    return this;
  }

  public TableDescriptorBuilder removeColumnFamily(byte[] family) {
    families.remove(family);
    return this;
  }

  public TableDescriptorBuilder setValue(String key, String value) {
    if (value == null) {
      values.remove(key);
    } else {
      values.put(key, value);
    }
    return this;
  }

  public TableDescriptorBuilder setDurability(Durability d) {
    return setValue(TableDescriptor.DURABILITY, d.name());
  }

  public TableDescriptorBuilder setMaxFileSize(long bytes) {
    return setValue(TableDescriptor.MAX_FILESIZE, String.valueOf(bytes));
  }

  public TableDescriptorBuilder setMemStoreFlushSize(long bytes) {
    return setValue(TableDescriptor.MEMSTORE_FLUSHSIZE, String.valueOf(bytes));
  }

  public TableDescriptorBuilder setReadOnly(boolean readOnly) {
    return setValue(TableDescriptor.READONLY, String.valueOf(readOnly));
  }

  /**
   * @throws IllegalArgumentException when the table has no family or an attribute is invalid
   */
  public TableDescriptor build() {
    return new TableDescriptor(name, families.values(), values);
  }
}
