package dev.basalt.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * Turns the hashes of create and alter into descriptors, with the HBase shell's option names. An
 * unknown option is an error (with the closest known name), not silently ignored.
 */
final class Descriptors {
  /** Column family options, as in {NAME => 'cf', VERSIONS => 3}. */
  static final List<String> FAMILY_KEYS =
      List.of(
          "NAME",
          "VERSIONS",
          "MIN_VERSIONS",
          "TTL",
          "BLOOMFILTER",
          "COMPRESSION",
          "COMPRESSION_COMPACT",
          "IN_MEMORY",
          "BLOCKCACHE",
          "BLOCKSIZE",
          "KEEP_DELETED_CELLS",
          "DATA_BLOCK_ENCODING",
          "REPLICATION_SCOPE",
          "NEW_VERSION_BEHAVIOR",
          "CACHE_DATA_ON_WRITE",
          "CACHE_INDEX_ON_WRITE",
          "CACHE_BLOOMS_ON_WRITE",
          "EVICT_BLOCKS_ON_CLOSE",
          "PREFETCH_BLOCKS_ON_OPEN",
          "METADATA",
          "CONFIGURATION",
          "METHOD");

  /** Table options, as in create 't1', 'cf', {MAX_FILESIZE => '1073741824'}. */
  static final List<String> TABLE_KEYS =
      List.of(
          "MAX_FILESIZE",
          "READONLY",
          "MEMSTORE_FLUSHSIZE",
          "DURABILITY",
          "COMPACTION_ENABLED",
          "SPLIT_ENABLED",
          "MERGE_ENABLED",
          "NORMALIZATION_ENABLED",
          "REGION_REPLICATION",
          "PRIORITY",
          "FLUSH_POLICY",
          "SPLIT_POLICY",
          "METADATA",
          "METHOD");

  private Descriptors() {}

  /** A family descriptor from {@code options} on top of {@code base} (null: HBase's defaults). */
  static ColumnFamilyDescriptor family(String command, Options options, ColumnFamilyDescriptor base)
      throws UsageException {
    options.allowOnly(FAMILY_KEYS);
    String name = options.text("NAME");
    ColumnFamilyDescriptorBuilder b =
        base != null
            ? ColumnFamilyDescriptorBuilder.newBuilder(base)
            : ColumnFamilyDescriptorBuilder.newBuilder(ShellString.of(name).bytes());
    try {
      for (String key : options.map().keySet()) {
        switch (key) {
          case "NAME", "METHOD" -> {}
          case "VERSIONS" -> b.setMaxVersions(options.integer(key));
          case "MIN_VERSIONS" -> b.setMinVersions(options.integer(key));
          case "TTL" -> {
            if (options.map().get(key) instanceof Long) {
              b.setTimeToLive(options.integer(key));
            } else {
              try {
                b.setTimeToLive(options.text(key));
              } catch (org.apache.hadoop.hbase.exceptions.HBaseException e) {
                throw new UsageException(
                    command
                        + ": bad TTL '"
                        + options.text(key)
                        + "': give seconds, 'FOREVER' or"
                        + " a duration such as '1 DAY'");
              }
            }
          }
          case "BLOOMFILTER" -> b.setBloomFilterType(BloomType.valueOf(upper(options, key)));
          case "COMPRESSION" ->
              b.setCompressionType(Compression.Algorithm.valueOf(upper(options, key)));
          case "COMPRESSION_COMPACT" ->
              b.setCompactionCompressionType(Compression.Algorithm.valueOf(upper(options, key)));
          case "IN_MEMORY" -> b.setInMemory(options.bool(key));
          case "BLOCKCACHE" -> b.setBlockCacheEnabled(options.bool(key));
          case "BLOCKSIZE" -> b.setBlocksize(options.integer(key));
          case "KEEP_DELETED_CELLS" -> b.setKeepDeletedCells(keepDeleted(options, key));
          case "DATA_BLOCK_ENCODING" ->
              b.setDataBlockEncoding(DataBlockEncoding.valueOf(upper(options, key)));
          case "REPLICATION_SCOPE" -> b.setScope(options.integer(key));
          case "NEW_VERSION_BEHAVIOR" -> b.setNewVersionBehavior(options.bool(key));
          case "CACHE_DATA_ON_WRITE" -> b.setCacheDataOnWrite(options.bool(key));
          case "CACHE_INDEX_ON_WRITE" -> b.setCacheIndexesOnWrite(options.bool(key));
          case "CACHE_BLOOMS_ON_WRITE" -> b.setCacheBloomsOnWrite(options.bool(key));
          case "EVICT_BLOCKS_ON_CLOSE" -> b.setEvictBlocksOnClose(options.bool(key));
          case "PREFETCH_BLOCKS_ON_OPEN" -> b.setPrefetchBlocksOnOpen(options.bool(key));
          case "METADATA" -> hashValues(command, options, key, b::setValue);
          case "CONFIGURATION" -> hashValues(command, options, key, b::setConfiguration);
          default -> throw new IllegalStateException("unhandled family option " + key);
        }
      }
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          command + ": bad column family " + name + ": " + Arguments.firstLine(e.getMessage()));
    }
  }

  /** Applies table options (other than SPLITS and METHOD, which the commands handle). */
  static void table(String command, Options options, TableDescriptorBuilder b)
      throws UsageException {
    try {
      for (String key : options.map().keySet()) {
        switch (key) {
          case "METHOD", "SPLITS" -> {}
          case "MAX_FILESIZE" -> b.setMaxFileSize(options.number(key));
          case "READONLY" -> b.setReadOnly(options.bool(key));
          case "MEMSTORE_FLUSHSIZE" -> b.setMemStoreFlushSize(options.number(key));
          case "DURABILITY" -> b.setDurability(Durability.valueOf(upper(options, key)));
          case "COMPACTION_ENABLED" -> b.setCompactionEnabled(options.bool(key));
          case "SPLIT_ENABLED" -> b.setSplitEnabled(options.bool(key));
          case "MERGE_ENABLED" -> b.setMergeEnabled(options.bool(key));
          case "NORMALIZATION_ENABLED" -> b.setNormalizationEnabled(options.bool(key));
          case "REGION_REPLICATION" -> b.setRegionReplication(options.integer(key));
          case "PRIORITY" -> b.setPriority(options.integer(key));
          case "FLUSH_POLICY" -> b.setFlushPolicyClassName(options.text(key));
          case "SPLIT_POLICY" -> b.setRegionSplitPolicyClassName(options.text(key));
          case "METADATA" -> hashValues(command, options, key, b::setValue);
          default -> {
            String near = Suggest.closest(key, TABLE_KEYS);
            throw new UsageException(
                command
                    + ": unknown table option "
                    + key
                    + (near != null ? "; did you mean " + near + "?" : ""));
          }
        }
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          command + ": bad table option: " + Arguments.firstLine(e.getMessage()));
    }
  }

  /** Split points from SPLITS => ['a', 'm'], sorted as the client requires. */
  static byte[][] splits(Options options) throws UsageException {
    List<ShellString> keys = options.strings("SPLITS");
    List<byte[]> out = new ArrayList<>();
    for (ShellString k : keys) {
      out.add(k.bytes());
    }
    out.sort(org.apache.hadoop.hbase.util.Bytes.BYTES_COMPARATOR);
    return out.toArray(new byte[0][]);
  }

  private static KeepDeletedCells keepDeleted(Options options, String key) throws UsageException {
    Object v = options.map().get(key);
    if (v instanceof Boolean b) {
      return b ? KeepDeletedCells.TRUE : KeepDeletedCells.FALSE;
    }
    return KeepDeletedCells.valueOf(upper(options, key));
  }

  private static String upper(Options options, String key) throws UsageException {
    return options.text(key).toUpperCase(Locale.ROOT);
  }

  /** Passes each entry of the hash at {@code key} (METADATA, CONFIGURATION) to {@code set}. */
  private static void hashValues(
      String command, Options options, String key, BiConsumer<String, String> set)
      throws UsageException {
    for (Map.Entry<String, Object> e : options.hash(key).entrySet()) {
      set.accept(e.getKey(), valueText(command, key, e.getValue()));
    }
  }

  private static String valueText(String command, String key, Object v) throws UsageException {
    if (v instanceof ShellString s) {
      return s.text();
    }
    if (v instanceof Long || v instanceof Boolean) {
      return v.toString();
    }
    throw new UsageException(command + ": the values of " + key + " must be strings");
  }
}
