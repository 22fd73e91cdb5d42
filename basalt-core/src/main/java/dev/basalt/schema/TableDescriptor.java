package dev.basalt.schema;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Durability;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The schema of a table: its name, its column families and HBase's table attributes. Immutable;
 * built and validated by {@link TableDescriptorBuilder}.
 */
public final class TableDescriptor {
  public static final String MAX_FILESIZE = "MAX_FILESIZE";
  public static final String MEMSTORE_FLUSHSIZE = "MEMSTORE_FLUSHSIZE";
  public static final String READONLY = "READONLY";
  public static final String DURABILITY = "DURABILITY";
  public static final String COMPACTION_ENABLED = "COMPACTION_ENABLED";
  public static final String SPLIT_ENABLED = "SPLIT_ENABLED";
  public static final String MERGE_ENABLED = "MERGE_ENABLED";

  private final TableName name;
  private final NavigableMap<byte[], ColumnFamilyDescriptor> families;
  private final Map<String, String> values;
  private final Durability durability;
  private final long maxFileSize;
  private final long memstoreFlushSize;
  private final boolean readOnly;

  TableDescriptor(
      TableName name, Collection<ColumnFamilyDescriptor> families, Map<String, String> values) {
    this.name = name;
    NavigableMap<byte[], ColumnFamilyDescriptor> f = new TreeMap<>(Bytes.COMPARATOR);
    for (ColumnFamilyDescriptor cf : families) {
      f.put(cf.getName(), cf);
    }
    this.families = Collections.unmodifiableNavigableMap(f);
    this.values = Collections.unmodifiableMap(new TreeMap<>(values));
    if (this.families.isEmpty()) {
      throw new IllegalArgumentException("table " + name + " must have at least one column family");
    }
    this.durability = parseDurability(values.get(DURABILITY));
    this.maxFileSize = parseLong(MAX_FILESIZE, -1);
    this.memstoreFlushSize = parseLong(MEMSTORE_FLUSHSIZE, -1);
    this.readOnly = parseBoolean(READONLY, false);
  }

  private Durability parseDurability(String v) {
    if (v == null) {
      return Durability.USE_DEFAULT;
    }
    try {
      return Durability.valueOf(v.trim().toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "table "
              + name
              + ": DURABILITY must be USE_DEFAULT, SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL, not '"
              + v
              + "'");
    }
  }

  private long parseLong(String key, long def) {
    String v = values.get(key);
    if (v == null) {
      return def;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "table " + name + ": " + key + " must be a number of bytes, not '" + v + "'");
    }
  }

  private boolean parseBoolean(String key, boolean def) {
    String v = values.get(key);
    if (v == null) {
      return def;
    }
    if (v.trim().equalsIgnoreCase("true")) {
      return true;
    }
    if (v.trim().equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(
        "table " + name + ": " + key + " must be true or false, not '" + v + "'");
  }

  public TableName getTableName() {
    return name;
  }

  /** Families in name order. */
  public List<ColumnFamilyDescriptor> getColumnFamilies() {
    return Collections.unmodifiableList(new ArrayList<>(families.values()));
  }

  public ColumnFamilyDescriptor getColumnFamily(byte[] family) {
    return families.get(family);
  }

  public boolean hasColumnFamily(byte[] family) {
    return families.containsKey(family);
  }

  public int getColumnFamilyCount() {
    return families.size();
  }

  /** Copies of the family names, in order. */
  public List<byte[]> getColumnFamilyNames() {
    List<byte[]> out = new ArrayList<>(families.size());
    for (byte[] f : families.keySet()) {
      out.add(f.clone());
    }
    return out;
  }

  public Map<String, String> getValues() {
    return values;
  }

  public String getValue(String key) {
    return values.get(key);
  }

  /** The table's durability; USE_DEFAULT means the server default (SYNC_WAL). */
  public Durability getDurability() {
    return durability;
  }

  /** Split threshold in bytes, or -1 for the server default. */
  public long getMaxFileSize() {
    return maxFileSize;
  }

  /** Per-region flush threshold in bytes, or -1 for the server default. */
  public long getMemStoreFlushSize() {
    return memstoreFlushSize;
  }

  public boolean isReadOnly() {
    return readOnly;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TableDescriptor)) {
      return false;
    }
    TableDescriptor t = (TableDescriptor) o;
    return name.equals(t.name)
        && values.equals(t.values)
        && getColumnFamilies().equals(t.getColumnFamilies());
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("'").append(name).append("'");
    for (Map.Entry<String, String> e : values.entrySet()) {
      sb.append(", {").append(e.getKey()).append(" => '").append(e.getValue()).append("'}");
    }
    for (ColumnFamilyDescriptor cf : families.values()) {
      sb.append(", ").append(cf);
    }
    return sb.toString();
  }
}
