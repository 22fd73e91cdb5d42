package dev.basalt.schema;

import dev.basalt.cell.Bytes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Identifies a region: its table, its row range {@code [startKey, endKey)} (empty means unbounded)
 * and its id (creation time in ms). Names follow HBase's format so that clients that compute region
 * names themselves agree with the server:
 *
 * <pre>
 * region name  = table "," startKey "," regionId "." encodedName "."
 * encodedName  = hex MD5 of (table "," startKey "," regionId)
 * </pre>
 *
 * Immutable.
 */
public final class RegionInfo {
  private final TableName table;
  private final byte[] startKey;
  private final byte[] endKey;
  private final long regionId;
  private final byte[] regionName;
  private final String encodedName;

  private RegionInfo(TableName table, byte[] startKey, byte[] endKey, long regionId) {
    this.table = table;
    this.startKey = startKey.clone();
    this.endKey = endKey.clone();
    this.regionId = regionId;
    byte[] prefix =
        Bytes.concat(
            table.getName(),
            new byte[] {','},
            this.startKey,
            new byte[] {','},
            Bytes.toBytes(Long.toString(regionId)));
    this.encodedName = md5Hex(prefix);
    this.regionName = Bytes.concat(prefix, Bytes.toBytes("." + encodedName + "."));
  }

  /**
   * @throws IllegalArgumentException when the end key is not after the start key
   */
  public static RegionInfo of(TableName table, byte[] startKey, byte[] endKey, long regionId) {
    byte[] s = startKey == null ? Bytes.EMPTY : startKey;
    byte[] e = endKey == null ? Bytes.EMPTY : endKey;
    if (e.length > 0 && Bytes.compareTo(s, e) >= 0) {
      throw new IllegalArgumentException(
          "region end key "
              + Bytes.toStringBinary(e)
              + " must sort after its start key "
              + Bytes.toStringBinary(s));
    }
    return new RegionInfo(table, s, e, regionId);
  }

  private static String md5Hex(byte[] data) {
    try {
      byte[] d = MessageDigest.getInstance("MD5").digest(data);
      StringBuilder sb = new StringBuilder(32);
      for (byte b : d) {
        sb.append(String.format("%02x", b & 0xff));
      }
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is required by the JDK", e);
    }
  }

  public TableName getTable() {
    return table;
  }

  public byte[] getStartKey() {
    return startKey.clone();
  }

  public byte[] getEndKey() {
    return endKey.clone();
  }

  public long getRegionId() {
    return regionId;
  }

  public byte[] getRegionName() {
    return regionName.clone();
  }

  /** Whether this region's full name is {@code name} (without copying it, unlike getRegionName). */
  public boolean hasRegionName(byte[] name) {
    return Arrays.equals(regionName, name);
  }

  public String getRegionNameAsString() {
    return new String(regionName, StandardCharsets.ISO_8859_1);
  }

  /** The 32-character hex name used for the region's directory. */
  public String getEncodedName() {
    return encodedName;
  }

  public boolean containsRow(byte[] row) {
    return Bytes.compareTo(row, startKey) >= 0
        && (endKey.length == 0 || Bytes.compareTo(row, endKey) < 0);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RegionInfo && Bytes.equals(((RegionInfo) o).regionName, regionName);
  }

  @Override
  public int hashCode() {
    return encodedName.hashCode();
  }

  @Override
  public String toString() {
    return "{ENCODED => "
        + encodedName
        + ", NAME => '"
        + Bytes.toStringBinary(regionName)
        + "', STARTKEY => '"
        + Bytes.toStringBinary(startKey)
        + "', ENDKEY => '"
        + Bytes.toStringBinary(endKey)
        + "'}";
  }
}
