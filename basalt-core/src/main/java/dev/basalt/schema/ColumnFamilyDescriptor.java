package dev.basalt.schema;

import dev.basalt.cell.Bytes;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The schema of one column family: its name and HBase's family attributes. Immutable; built and
 * validated by {@link ColumnFamilyDescriptorBuilder}. Attributes are kept as HBase's key/value
 * strings (so the wire, the shell and files round-trip them) and parsed once into typed fields.
 */
public final class ColumnFamilyDescriptor implements Comparable<ColumnFamilyDescriptor> {
  public static final String VERSIONS = "VERSIONS";
  public static final String MIN_VERSIONS = "MIN_VERSIONS";
  public static final String TTL = "TTL";
  public static final String KEEP_DELETED_CELLS = "KEEP_DELETED_CELLS";
  public static final String NEW_VERSION_BEHAVIOR = "NEW_VERSION_BEHAVIOR";
  public static final String BLOCKSIZE = "BLOCKSIZE";
  public static final String BLOOMFILTER = "BLOOMFILTER";
  public static final String COMPRESSION = "COMPRESSION";
  public static final String IN_MEMORY = "IN_MEMORY";
  public static final String BLOCKCACHE = "BLOCKCACHE";
  public static final String DATA_BLOCK_ENCODING = "DATA_BLOCK_ENCODING";
  public static final String REPLICATION_SCOPE = "REPLICATION_SCOPE";

  /** TTL meaning "never expires", in seconds (HBase's HConstants.FOREVER). */
  public static final int FOREVER = Integer.MAX_VALUE;

  static final Map<String, String> DEFAULTS;

  static {
    Map<String, String> d = new LinkedHashMap<>();
    d.put(VERSIONS, "1");
    d.put(MIN_VERSIONS, "0");
    d.put(TTL, String.valueOf(FOREVER));
    d.put(KEEP_DELETED_CELLS, "FALSE");
    // Basalt's default: deterministic history (../shared/ARCHITECTURE.md section 1). HBase's is
    // false.
    d.put(NEW_VERSION_BEHAVIOR, "true");
    d.put(BLOCKSIZE, "65536");
    d.put(BLOOMFILTER, "ROW");
    d.put(COMPRESSION, "NONE");
    d.put(IN_MEMORY, "false");
    d.put(BLOCKCACHE, "true");
    d.put(DATA_BLOCK_ENCODING, "NONE");
    d.put(REPLICATION_SCOPE, "0");
    DEFAULTS = Collections.unmodifiableMap(d);
  }

  private final byte[] name;
  private final Map<String, String> values;
  private final int maxVersions;
  private final int minVersions;
  private final int ttlSeconds;
  private final KeepDeletedCells keepDeletedCells;
  private final boolean newVersionBehavior;
  private final int blockSize;
  private final BloomType bloomType;
  private final Compression compression;
  private final boolean inMemory;
  private final boolean blockCacheEnabled;
  private final DataBlockEncoding dataBlockEncoding;
  private final int replicationScope;

  ColumnFamilyDescriptor(byte[] name, Map<String, String> setValues) {
    this.name = name.clone();
    this.values = Collections.unmodifiableMap(new TreeMap<>(setValues));
    this.maxVersions = intAttr(VERSIONS);
    this.minVersions = intAttr(MIN_VERSIONS);
    this.ttlSeconds = parseTtl(effective(TTL));
    this.keepDeletedCells = KeepDeletedCells.parse(effective(KEEP_DELETED_CELLS));
    this.newVersionBehavior = boolAttr(NEW_VERSION_BEHAVIOR);
    this.blockSize = intAttr(BLOCKSIZE);
    this.bloomType = BloomType.parse(effective(BLOOMFILTER));
    this.compression = Compression.parse(effective(COMPRESSION));
    this.inMemory = boolAttr(IN_MEMORY);
    this.blockCacheEnabled = boolAttr(BLOCKCACHE);
    this.dataBlockEncoding = DataBlockEncoding.parse(effective(DATA_BLOCK_ENCODING));
    this.replicationScope = intAttr(REPLICATION_SCOPE);
    validate();
  }

  private void validate() {
    String fam = getNameAsString();
    if (maxVersions < 1) {
      throw new IllegalArgumentException(
          "family '" + fam + "': VERSIONS must be at least 1, got " + maxVersions);
    }
    if (minVersions < 0) {
      throw new IllegalArgumentException(
          "family '" + fam + "': MIN_VERSIONS cannot be negative, got " + minVersions);
    }
    if (minVersions > maxVersions) {
      throw new IllegalArgumentException(
          "family '"
              + fam
              + "': MIN_VERSIONS ("
              + minVersions
              + ") cannot exceed VERSIONS ("
              + maxVersions
              + ")");
    }
    if (ttlSeconds <= 0) {
      throw new IllegalArgumentException(
          "family '" + fam + "': TTL must be positive (seconds), got " + ttlSeconds);
    }
    if (blockSize < 1024 || blockSize > 16 * 1024 * 1024) {
      throw new IllegalArgumentException(
          "family '" + fam + "': BLOCKSIZE must be between 1 KiB and 16 MiB, got " + blockSize);
    }
    if (replicationScope < 0 || replicationScope > 1) {
      throw new IllegalArgumentException(
          "family '" + fam + "': REPLICATION_SCOPE must be 0 or 1, got " + replicationScope);
    }
  }

  private String effective(String key) {
    String v = values.get(key);
    return v != null ? v : DEFAULTS.get(key);
  }

  private int intAttr(String key) {
    String v = effective(key);
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "family '" + getNameAsString() + "': " + key + " must be an integer, not '" + v + "'");
    }
  }

  private boolean boolAttr(String key) {
    String v = effective(key).trim();
    if (v.equalsIgnoreCase("true")) {
      return true;
    }
    if (v.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(
        "family '" + getNameAsString() + "': " + key + " must be true or false, not '" + v + "'");
  }

  private int parseTtl(String v) {
    String t = v.trim();
    if (t.equalsIgnoreCase("FOREVER")) {
      return FOREVER;
    }
    try {
      long secs = Long.parseLong(t);
      return secs > Integer.MAX_VALUE ? FOREVER : (int) secs;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "family '" + getNameAsString() + "': TTL must be a number of seconds, not '" + v + "'");
    }
  }

  public byte[] getName() {
    return name.clone();
  }

  public String getNameAsString() {
    return Bytes.toStringBinary(name);
  }

  /** The attributes that were set explicitly, by HBase attribute name. */
  public Map<String, String> getValues() {
    return values;
  }

  /** Every attribute with its effective value, defaults included. */
  public Map<String, String> getEffectiveValues() {
    Map<String, String> m = new LinkedHashMap<>(DEFAULTS);
    m.putAll(values);
    return m;
  }

  public String getValue(String key) {
    return effective(key);
  }

  public int getMaxVersions() {
    return maxVersions;
  }

  public int getMinVersions() {
    return minVersions;
  }

  /** Seconds; {@link #FOREVER} when cells never expire. */
  public int getTimeToLive() {
    return ttlSeconds;
  }

  /** TTL in milliseconds, or Long.MAX_VALUE for forever. */
  public long getTimeToLiveMillis() {
    return ttlSeconds == FOREVER ? Long.MAX_VALUE : ttlSeconds * 1000L;
  }

  public KeepDeletedCells getKeepDeletedCells() {
    return keepDeletedCells;
  }

  /** True for deterministic history (Basalt's default); false for classic HBase rules. */
  public boolean isNewVersionBehavior() {
    return newVersionBehavior;
  }

  public int getBlocksize() {
    return blockSize;
  }

  public BloomType getBloomFilterType() {
    return bloomType;
  }

  public Compression getCompressionType() {
    return compression;
  }

  public boolean isInMemory() {
    return inMemory;
  }

  public boolean isBlockCacheEnabled() {
    return blockCacheEnabled;
  }

  public DataBlockEncoding getDataBlockEncoding() {
    return dataBlockEncoding;
  }

  public int getScope() {
    return replicationScope;
  }

  @Override
  public int compareTo(ColumnFamilyDescriptor o) {
    return Bytes.compareTo(name, o.name);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ColumnFamilyDescriptor
        && Bytes.equals(name, ((ColumnFamilyDescriptor) o).name)
        && getEffectiveValues().equals(((ColumnFamilyDescriptor) o).getEffectiveValues());
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(name);
  }

  /** HBase shell style: {NAME => 'cf', VERSIONS => '1', ...}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{NAME => '").append(getNameAsString()).append('\'');
    for (Map.Entry<String, String> e : getEffectiveValues().entrySet()) {
      sb.append(", ").append(e.getKey()).append(" => '").append(e.getValue()).append('\'');
    }
    return sb.append('}').toString();
  }
}
