package dev.basalt.db;

import dev.basalt.cell.Bytes;
import dev.basalt.fs.ReadableFile;
import dev.basalt.fs.Storage;
import dev.basalt.fs.WritableFile;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.NamespaceDescriptor;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The small catalog files: table descriptors ({@code .tabledesc}), region sets ({@code
 * .regionset}), region infos ({@code .regioninfo}) and namespace descriptors ({@code .nsdesc}).
 * Each is written whole under a temporary name, synced and renamed into place, so a reader sees the
 * old file or the new one, never a part. Format version 1, big-endian (docs/formats/catalog.md):
 *
 * <pre>
 * file       = magic(4) version(2) body crc32c-of-everything-before(4)
 * .tabledesc   magic "BTDS"; body = string(table) attrs u32(familyCount) family*
 *              family = bytes16(name) attrs
 * .regionset   magic "BRGS"; body = string(table) u8(state: 0 enabled, 1 disabled)
 *              u32(regionCount) (bytes16(startKey) bytes16(endKey) u64(regionId) u64(seqFloor))*
 * .regioninfo  magic "BRGI"; body = string(table) bytes16(startKey) bytes16(endKey) u64(regionId)
 * .nsdesc      magic "BNSD"; body = string(namespace) attrs
 * attrs      = u32(count) (string(key) string(value))*
 * string     = u32(length) UTF-8 bytes;  bytes16 = u16(length) bytes
 * </pre>
 *
 * Thread-safe (stateless).
 */
final class CatalogFiles {
  static final String TABLE_DESC = ".tabledesc";
  static final String REGION_SET = ".regionset";
  static final String REGION_INFO = ".regioninfo";
  static final String NAMESPACE_DESC = ".nsdesc";
  private static final int TABLE_MAGIC = 0x42544453; // BTDS
  private static final int REGION_SET_MAGIC = 0x42524753; // BRGS
  private static final int REGION_MAGIC = 0x42524749; // BRGI
  private static final int NAMESPACE_MAGIC = 0x424e5344; // BNSD
  private static final short VERSION = 1;

  private CatalogFiles() {}

  static byte[] encodeTable(TableDescriptor t) {
    Out o = new Out(TABLE_MAGIC);
    o.string(t.getTableName().getNameAsString());
    o.attrs(t.getValues());
    o.u32(t.getColumnFamilyCount());
    for (ColumnFamilyDescriptor f : t.getColumnFamilies()) {
      o.bytes16(f.getName());
      o.attrs(f.getValues());
    }
    return o.finish();
  }

  static TableDescriptor decodeTable(byte[] b, String where) throws IOException {
    In in = new In(b, TABLE_MAGIC, where);
    try {
      TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(TableName.valueOf(in.string()));
      in.attrs().forEach(tb::setValue);
      int n = in.u32();
      for (int i = 0; i < n; i++) {
        ColumnFamilyDescriptorBuilder fb = ColumnFamilyDescriptorBuilder.newBuilder(in.bytes16());
        in.attrs().forEach(fb::setValue);
        tb.setColumnFamily(fb.build());
      }
      in.end();
      return tb.build();
    } catch (IllegalArgumentException e) {
      throw new IOException("table descriptor " + where + " is invalid: " + e.getMessage(), e);
    }
  }

  static byte[] encodeRegion(RegionInfo r) {
    Out o = new Out(REGION_MAGIC);
    o.string(r.getTable().getNameAsString());
    o.bytes16(r.getStartKey());
    o.bytes16(r.getEndKey());
    o.u64(r.getRegionId());
    return o.finish();
  }

  static RegionInfo decodeRegion(byte[] b, String where) throws IOException {
    In in = new In(b, REGION_MAGIC, where);
    try {
      TableName t = TableName.valueOf(in.string());
      byte[] start = in.bytes16();
      byte[] end = in.bytes16();
      long id = in.u64();
      in.end();
      return RegionInfo.of(t, start, end, id);
    } catch (IllegalArgumentException e) {
      throw new IOException("region info " + where + " is invalid: " + e.getMessage(), e);
    }
  }

  static byte[] encodeRegionSet(RegionSet set) {
    Out o = new Out(REGION_SET_MAGIC);
    o.string(set.table().getNameAsString());
    o.u8(set.state() == RegionSet.State.ENABLED ? 0 : 1);
    o.u32(set.members().size());
    for (RegionSet.Member m : set.members()) {
      o.bytes16(m.info().getStartKey());
      o.bytes16(m.info().getEndKey());
      o.u64(m.info().getRegionId());
      o.u64(m.sequenceFloor());
    }
    return o.finish();
  }

  static RegionSet decodeRegionSet(byte[] b, String where) throws IOException {
    In in = new In(b, REGION_SET_MAGIC, where);
    try {
      TableName t = TableName.valueOf(in.string());
      int state = in.u8();
      if (state > 1) {
        throw new IllegalArgumentException("unknown table state " + state);
      }
      int n = in.u32();
      if (n < 1 || n > b.length) {
        throw new IllegalArgumentException("impossible region count " + n);
      }
      List<RegionSet.Member> members = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        byte[] start = in.bytes16();
        byte[] end = in.bytes16();
        long id = in.u64();
        long floor = in.u64();
        members.add(new RegionSet.Member(RegionInfo.of(t, start, end, id), floor));
      }
      in.end();
      return RegionSet.of(
          t, state == 0 ? RegionSet.State.ENABLED : RegionSet.State.DISABLED, members);
    } catch (IllegalArgumentException e) {
      throw new IOException("region set " + where + " is invalid: " + e.getMessage(), e);
    }
  }

  static byte[] encodeNamespace(NamespaceDescriptor ns) {
    Out o = new Out(NAMESPACE_MAGIC);
    o.string(ns.getName());
    o.attrs(ns.getConfiguration());
    return o.finish();
  }

  static NamespaceDescriptor decodeNamespace(byte[] b, String where) throws IOException {
    In in = new In(b, NAMESPACE_MAGIC, where);
    try {
      NamespaceDescriptor.Builder nb = NamespaceDescriptor.create(in.string());
      nb.addConfiguration(in.attrs());
      in.end();
      return nb.build();
    } catch (IllegalArgumentException e) {
      throw new IOException("namespace descriptor " + where + " is invalid: " + e.getMessage(), e);
    }
  }

  /** Writes a file atomically: temporary name, sync, rename into place. */
  static void writeAtomically(Storage storage, String path, byte[] content) throws IOException {
    String tmp = path + ".tmp";
    storage.delete(tmp);
    try (WritableFile f = storage.create(tmp)) {
      f.write(content);
      f.sync();
    }
    storage.rename(tmp, path);
  }

  static byte[] readAll(Storage storage, String path) throws IOException {
    try (ReadableFile f = storage.open(path)) {
      long len = f.length();
      if (len > 64L * 1024 * 1024) {
        throw new IOException(storage.describe(path) + " is " + len + " bytes: too large");
      }
      byte[] b = new byte[(int) len];
      f.readFully(0, b, 0, b.length);
      return b;
    }
  }

  private static final class Out {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final byte[] scratch = new byte[8];

    Out(int magic) {
      u32(magic);
      out.write(VERSION >>> 8);
      out.write(VERSION);
    }

    void u32(int v) {
      Bytes.putInt(scratch, 0, v);
      out.write(scratch, 0, 4);
    }

    void u64(long v) {
      Bytes.putLong(scratch, 0, v);
      out.write(scratch, 0, 8);
    }

    void u8(int v) {
      out.write(v);
    }

    void string(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      u32(b.length);
      out.write(b, 0, b.length);
    }

    void bytes16(byte[] b) {
      out.write(b.length >>> 8);
      out.write(b.length);
      out.write(b, 0, b.length);
    }

    void attrs(Map<String, String> m) {
      u32(m.size());
      for (Map.Entry<String, String> e : m.entrySet()) {
        string(e.getKey());
        string(e.getValue());
      }
    }

    byte[] finish() {
      byte[] body = out.toByteArray();
      CRC32C c = new CRC32C();
      c.update(body, 0, body.length);
      byte[] all = new byte[body.length + 4];
      System.arraycopy(body, 0, all, 0, body.length);
      Bytes.putInt(all, body.length, (int) c.getValue());
      return all;
    }
  }

  private static final class In {
    private final byte[] b;
    private final String where;
    private final int end;
    private int pos;

    In(byte[] b, int magic, String where) throws IOException {
      this.b = b;
      this.where = where;
      if (b.length < 10) {
        throw new IOException(where + " is truncated (" + b.length + " bytes)");
      }
      this.end = b.length - 4;
      CRC32C c = new CRC32C();
      c.update(b, 0, end);
      if ((int) c.getValue() != Bytes.readInt(b, end)) {
        throw new IOException(where + " is corrupt: checksum mismatch");
      }
      if (Bytes.readInt(b, 0) != magic) {
        throw new IOException(where + " has the wrong magic number for its kind");
      }
      short v = Bytes.readShort(b, 4);
      if (v != VERSION) {
        throw new IOException(where + " has unsupported format version " + v);
      }
      pos = 6;
    }

    private void need(int n) {
      if (n < 0 || pos + n > end) {
        throw new IllegalArgumentException("field overruns the file at byte " + pos);
      }
    }

    int u32() {
      need(4);
      int v = Bytes.readInt(b, pos);
      pos += 4;
      return v;
    }

    int u8() {
      need(1);
      return b[pos++] & 0xff;
    }

    long u64() {
      need(8);
      long v = Bytes.readLong(b, pos);
      pos += 8;
      return v;
    }

    String string() {
      int n = u32();
      need(n);
      String s = new String(b, pos, n, StandardCharsets.UTF_8);
      pos += n;
      return s;
    }

    byte[] bytes16() {
      need(2);
      int n = ((b[pos] & 0xff) << 8) | (b[pos + 1] & 0xff);
      pos += 2;
      need(n);
      byte[] out = Bytes.copy(b, pos, n);
      pos += n;
      return out;
    }

    Map<String, String> attrs() {
      int n = u32();
      if (n < 0 || n > end) {
        throw new IllegalArgumentException("impossible attribute count " + n);
      }
      Map<String, String> m = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        m.put(string(), string());
      }
      return m;
    }

    void end() {
      if (pos != end) {
        throw new IllegalArgumentException((end - pos) + " stray bytes at the end");
      }
    }
  }
}
