package dev.basalt.server.protocol;

import dev.basalt.cell.Bytes;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.DataBlockEncoding;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import java.util.Map;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;

/**
 * Table names, table and namespace descriptors and region infos between HBase's HBase.proto
 * messages and basalt-core.
 *
 * <p>HBase keeps a descriptor's attributes as byte-array pairs (in practice UTF-8 names and values
 * such as {@code VERSIONS = "3"}) plus a separate string "configuration" map; basalt-core keeps one
 * string map whose names are HBase's. Both arrive in it (configuration keys are dotted and do not
 * collide with attribute names) and leave as attributes; the core builders validate the values, so
 * a bad one (e.g. {@code VERSIONS = "x"}) is refused with a message naming it. Stateless.
 */
public final class SchemaCodec {
  /**
   * A family attribute Basalt adds to the descriptors it returns to say what it does not apply;
   * dropped from the descriptors it receives.
   */
  public static final String NOTE = "BASALT_NOTE";

  private SchemaCodec() {}

  public static TableName toTableName(HBaseProtos.TableName p) throws BasaltIOException {
    try {
      return TableName.valueOf(p.getNamespace().toStringUtf8(), p.getQualifier().toStringUtf8());
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry("bad table name: " + e.getMessage());
    }
  }

  public static HBaseProtos.TableName toProto(TableName t) {
    return HBaseProtos.TableName.newBuilder()
        .setNamespace(ByteString.copyFromUtf8(t.getNamespaceAsString()))
        .setQualifier(ByteString.copyFromUtf8(t.getQualifierAsString()))
        .build();
  }

  public static TableDescriptor toTableDescriptor(HBaseProtos.TableSchema p)
      throws BasaltIOException {
    TableName name = toTableName(p.getTableName());
    try {
      TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(name);
      for (HBaseProtos.BytesBytesPair a : p.getAttributesList()) {
        b.setValue(a.getFirst().toStringUtf8(), a.getSecond().toStringUtf8());
      }
      for (HBaseProtos.NameStringPair c : p.getConfigurationList()) {
        b.setValue(c.getName(), c.getValue());
      }
      for (HBaseProtos.ColumnFamilySchema f : p.getColumnFamiliesList()) {
        b.setColumnFamily(toFamily(f));
      }
      return b.build();
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry("bad descriptor of table " + name + ": " + e.getMessage());
    }
  }

  public static ColumnFamilyDescriptor toFamily(HBaseProtos.ColumnFamilySchema p)
      throws BasaltIOException {
    try {
      ColumnFamilyDescriptorBuilder b =
          ColumnFamilyDescriptorBuilder.newBuilder(p.getName().toByteArray());
      for (HBaseProtos.BytesBytesPair a : p.getAttributesList()) {
        String key = a.getFirst().toStringUtf8();
        if (!key.equals(NOTE)) { // sent back by a client that modifies what it read
          b.setValue(key, a.getSecond().toStringUtf8());
        }
      }
      for (HBaseProtos.NameStringPair c : p.getConfigurationList()) {
        b.setValue(c.getName(), c.getValue());
      }
      return b.build();
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry(
          "bad descriptor of column family "
              + Bytes.toStringBinary(p.getName().toByteArray())
              + ": "
              + e.getMessage());
    }
  }

  public static HBaseProtos.TableSchema toProto(TableDescriptor d) {
    HBaseProtos.TableSchema.Builder b =
        HBaseProtos.TableSchema.newBuilder().setTableName(toProto(d.getTableName()));
    for (Map.Entry<String, String> e : d.getValues().entrySet()) {
      b.addAttributes(pair(e));
    }
    for (ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      b.addColumnFamilies(toProto(f));
    }
    return b.build();
  }

  /**
   * A family as clients see it. Two attributes say what Basalt does where the stock client's
   * defaults would say otherwise: NEW_VERSION_BEHAVIOR is always sent (the client's default is
   * false; a family stored without it has Basalt's default, true), and a DATA_BLOCK_ENCODING other
   * than NONE, stored but not applied, comes with {@link #NOTE} saying so ({@code describe} shows
   * it under METADATA).
   */
  public static HBaseProtos.ColumnFamilySchema toProto(ColumnFamilyDescriptor f) {
    HBaseProtos.ColumnFamilySchema.Builder b =
        HBaseProtos.ColumnFamilySchema.newBuilder().setName(ByteString.copyFrom(f.getName()));
    for (Map.Entry<String, String> e : f.getValues().entrySet()) {
      b.addAttributes(pair(e.getKey(), e.getValue()));
    }
    if (!f.getValues().containsKey(ColumnFamilyDescriptor.NEW_VERSION_BEHAVIOR)) {
      b.addAttributes(
          pair(
              ColumnFamilyDescriptor.NEW_VERSION_BEHAVIOR,
              String.valueOf(f.isNewVersionBehavior())));
    }
    if (f.getDataBlockEncoding() != DataBlockEncoding.NONE) {
      b.addAttributes(
          pair(
              NOTE,
              "DATA_BLOCK_ENCODING "
                  + f.getDataBlockEncoding()
                  + " is kept but not applied: Basalt's store file blocks always use their own"
                  + " prefix compression"));
    }
    return b.build();
  }

  private static HBaseProtos.BytesBytesPair pair(Map.Entry<String, String> e) {
    return pair(e.getKey(), e.getValue());
  }

  private static HBaseProtos.BytesBytesPair pair(String key, String value) {
    return HBaseProtos.BytesBytesPair.newBuilder()
        .setFirst(ByteString.copyFromUtf8(key))
        .setSecond(ByteString.copyFromUtf8(value))
        .build();
  }

  public static HBaseProtos.RegionInfo toProto(RegionInfo r) {
    return HBaseProtos.RegionInfo.newBuilder()
        .setRegionId(r.getRegionId())
        .setTableName(toProto(r.getTable()))
        .setStartKey(ByteString.copyFrom(r.getStartKey()))
        .setEndKey(ByteString.copyFrom(r.getEndKey()))
        .setOffline(false)
        .setSplit(false)
        .setReplicaId(0)
        .build();
  }

  public static RegionInfo toRegionInfo(HBaseProtos.RegionInfo p) throws BasaltIOException {
    if (p.getReplicaId() != 0) {
      throw BasaltIOException.doNotRetry(
          "region replica " + p.getReplicaId() + ": Basalt has no read replicas");
    }
    byte[] start = p.getStartKey().toByteArray();
    byte[] end = p.getEndKey().toByteArray();
    if (end.length > 0 && Bytes.compareTo(start, end) >= 0) {
      throw BasaltIOException.doNotRetry(
          "region start key "
              + Bytes.toStringBinary(start)
              + " is not before its end key "
              + Bytes.toStringBinary(end));
    }
    return RegionInfo.of(toTableName(p.getTableName()), start, end, p.getRegionId());
  }

  /**
   * @throws BasaltIOException (DoNotRetryIOException) for an illegal namespace name or an empty
   *     configuration key
   */
  public static NamespaceDescriptor toNamespaceDescriptor(HBaseProtos.NamespaceDescriptor p)
      throws BasaltIOException {
    String name = p.getName().toStringUtf8();
    try {
      NamespaceDescriptor.Builder b = NamespaceDescriptor.create(name);
      for (HBaseProtos.NameStringPair c : p.getConfigurationList()) {
        b.addConfiguration(c.getName(), c.getValue());
      }
      return b.build();
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry(
          "bad descriptor of namespace '" + name + "': " + e.getMessage());
    }
  }

  public static HBaseProtos.NamespaceDescriptor toProto(NamespaceDescriptor d) {
    HBaseProtos.NamespaceDescriptor.Builder b =
        HBaseProtos.NamespaceDescriptor.newBuilder().setName(ByteString.copyFromUtf8(d.getName()));
    for (Map.Entry<String, String> e : d.getConfiguration().entrySet()) {
      b.addConfiguration(
          HBaseProtos.NameStringPair.newBuilder().setName(e.getKey()).setValue(e.getValue()));
    }
    return b.build();
  }
}
