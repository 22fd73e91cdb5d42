package dev.basalt.cell;

import java.util.Arrays;

/**
 * A cell in HBase's KeyValue byte layout, so that the WAL, store files and RPC cell blocks share
 * bytes without conversion. All integers are big-endian.
 *
 * <pre>
 * offset            size  field
 * 0                 4     key length K   (= 12 + R + F + Q)
 * 4                 4     value length V
 * 8                 2     row length R   (1..32767)
 * 10                R     row
 * 10+R              1     family length F (0..127; 0 only in seek keys)
 * 11+R              F     family
 * 11+R+F            Q     qualifier      (Q = K - R - F - 12)
 * 8+K-9             8     timestamp
 * 8+K-1             1     type code      (see CellType)
 * 8+K               V     value
 * total length: 8 + K + V
 * </pre>
 *
 * <p>The sequence id is not part of the bytes; it is held beside them. So is a per-cell time to
 * live ({@link #getTtl}, HBase's TTL tag, set by {@code Mutation.setTTL}): only cells that have one
 * are of the subclass that holds it, so a plain cell costs nothing for it. Instances are immutable;
 * {@link #withSequenceId}, {@link #withTimestamp} and {@link #withTtl} return new instances. {@link
 * #equals} compares key and value bytes and ignores the sequence id and the TTL.
 */
public sealed class KeyValue implements Cell permits TtlKeyValue {
  /** Bytes of a key that are not row, family or qualifier: row length, family length, ts, type. */
  public static final int KEY_INFRASTRUCTURE_SIZE = 2 + 1 + 8 + 1;

  /** Bytes before the key: key length and value length. */
  public static final int ROW_OFFSET = 8;

  public static final int MAX_ROW_LENGTH = Short.MAX_VALUE;
  public static final int MAX_FAMILY_LENGTH = Byte.MAX_VALUE;

  /** Timestamp meaning "the server's clock when the mutation commits". */
  public static final long LATEST_TIMESTAMP = Long.MAX_VALUE;

  /** Sorts after every real timestamp; only seek keys use it. */
  public static final long OLDEST_TIMESTAMP = Long.MIN_VALUE;

  /** {@link #getTtl} of a cell without a per-cell TTL (HBase's "no TTL" value). */
  public static final long NO_TTL = Long.MAX_VALUE;

  private final byte[] bytes;
  private final int offset;
  private final int length;
  private final long seqId;

  /**
   * Wraps a well-formed KeyValue; use {@link #parse} for bytes from outside the process.
   *
   * @param bytes backing array, not copied
   */
  public KeyValue(byte[] bytes, int offset, int length, long seqId) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
    this.seqId = seqId;
  }

  /**
   * Validates and wraps a KeyValue read from a file or the network.
   *
   * @throws IllegalArgumentException naming the inconsistent field
   */
  public static KeyValue parse(byte[] bytes, int offset, int length, long seqId) {
    if (offset < 0 || length < 0 || offset > bytes.length - length) {
      throw new IllegalArgumentException(
          "KeyValue range offset "
              + offset
              + ", length "
              + length
              + " is outside its "
              + bytes.length
              + "-byte array");
    }
    if (length < ROW_OFFSET + KEY_INFRASTRUCTURE_SIZE) {
      throw new IllegalArgumentException("KeyValue too short: " + length + " bytes");
    }
    int klen = Bytes.readInt(bytes, offset);
    int vlen = Bytes.readInt(bytes, offset + 4);
    if (klen < KEY_INFRASTRUCTURE_SIZE || vlen < 0 || (long) ROW_OFFSET + klen + vlen != length) {
      throw new IllegalArgumentException(
          "KeyValue lengths inconsistent: key " + klen + ", value " + vlen + ", total " + length);
    }
    int rlen = Bytes.readShort(bytes, offset + ROW_OFFSET);
    if (rlen < 0 || 2 + rlen + 1 > klen - 9) {
      throw new IllegalArgumentException("KeyValue row length " + rlen + " exceeds key " + klen);
    }
    int flen = bytes[offset + ROW_OFFSET + 2 + rlen];
    if (flen < 0 || 2 + rlen + 1 + flen > klen - 9) {
      throw new IllegalArgumentException("KeyValue family length " + flen + " exceeds key " + klen);
    }
    byte type = bytes[offset + ROW_OFFSET + klen - 1];
    try {
      CellType.fromCode(type);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("KeyValue type code " + (type & 0xff) + " is unknown");
    }
    return new KeyValue(bytes, offset, length, seqId);
  }

  /**
   * Builds a cell from whole arrays; see {@link #create(byte[], int, int, byte[], int, int, byte[],
   * int, int, long, byte, byte[], int, int)}.
   */
  public static KeyValue of(
      byte[] row, byte[] family, byte[] qualifier, long ts, CellType type, byte[] value) {
    return create(
        row,
        0,
        row.length,
        family,
        0,
        family.length,
        qualifier,
        0,
        qualifier.length,
        ts,
        type.code(),
        value,
        0,
        value.length);
  }

  /**
   * Lays out a new cell. Checks only what the layout itself cannot represent (row and family
   * length); semantic checks (empty rows, negative timestamps) belong to the operations.
   */
  public static KeyValue create(
      byte[] row,
      int roff,
      int rlen,
      byte[] fam,
      int foff,
      int flen,
      byte[] qual,
      int qoff,
      int qlen,
      long ts,
      byte type,
      byte[] val,
      int voff,
      int vlen) {
    if (rlen > MAX_ROW_LENGTH) {
      throw new IllegalArgumentException("row length " + rlen + " > " + MAX_ROW_LENGTH);
    }
    if (flen > MAX_FAMILY_LENGTH) {
      throw new IllegalArgumentException("family length " + flen + " > " + MAX_FAMILY_LENGTH);
    }
    long klen = (long) KEY_INFRASTRUCTURE_SIZE + rlen + flen + qlen;
    long total = ROW_OFFSET + klen + vlen;
    if (total > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("cell too large: " + total + " bytes");
    }
    byte[] b = new byte[(int) total];
    int p = Bytes.putInt(b, 0, (int) klen);
    p = Bytes.putInt(b, p, vlen);
    p = Bytes.putShort(b, p, (short) rlen);
    System.arraycopy(row, roff, b, p, rlen);
    p += rlen;
    b[p++] = (byte) flen;
    System.arraycopy(fam, foff, b, p, flen);
    p += flen;
    System.arraycopy(qual, qoff, b, p, qlen);
    p += qlen;
    p = Bytes.putLong(b, p, ts);
    b[p++] = type;
    System.arraycopy(val, voff, b, p, vlen);
    return new KeyValue(b, 0, b.length, 0);
  }

  /** A copy of any cell in this layout, keeping its sequence id and per-cell TTL. */
  public static KeyValue copyOf(Cell c) {
    if (c instanceof KeyValue) {
      return (KeyValue) c;
    }
    KeyValue kv =
        create(
            c.getRowArray(),
            c.getRowOffset(),
            c.getRowLength(),
            c.getFamilyArray(),
            c.getFamilyOffset(),
            c.getFamilyLength(),
            c.getQualifierArray(),
            c.getQualifierOffset(),
            c.getQualifierLength(),
            c.getTimestamp(),
            c.getTypeByte(),
            c.getValueArray(),
            c.getValueOffset(),
            c.getValueLength());
    return kv.withSequenceId(c.getSequenceId()).withTtl(c.getTtl());
  }

  // ---- seek keys ----------------------------------------------------------------------------

  /** Sorts before every cell of {@code row}. */
  public static KeyValue firstOnRow(byte[] row) {
    return seekKey(row, Bytes.EMPTY, Bytes.EMPTY, LATEST_TIMESTAMP, CellType.MAXIMUM);
  }

  /** Sorts before every cell of the family in the row, including its family delete markers. */
  public static KeyValue firstOnFamily(byte[] row, byte[] family) {
    return seekKey(row, family, Bytes.EMPTY, LATEST_TIMESTAMP, CellType.MAXIMUM);
  }

  /** Sorts before every cell of the column. */
  public static KeyValue firstOnColumn(byte[] row, byte[] family, byte[] qualifier) {
    return seekKey(row, family, qualifier, LATEST_TIMESTAMP, CellType.MAXIMUM);
  }

  /** Sorts before every cell of the column whose timestamp is {@code ts} or older. */
  public static KeyValue firstOnColumnAt(byte[] row, byte[] family, byte[] qualifier, long ts) {
    return seekKey(row, family, qualifier, ts, CellType.MAXIMUM);
  }

  /** Sorts after every cell of the column {@code c} belongs to, and before the next column. */
  public static KeyValue lastOnColumn(Cell c) {
    KeyValue kv =
        create(
            c.getRowArray(),
            c.getRowOffset(),
            c.getRowLength(),
            c.getFamilyArray(),
            c.getFamilyOffset(),
            c.getFamilyLength(),
            c.getQualifierArray(),
            c.getQualifierOffset(),
            c.getQualifierLength(),
            OLDEST_TIMESTAMP,
            CellType.MINIMUM.code(),
            Bytes.EMPTY,
            0,
            0);
    return kv; // sequence id 0 sorts last among equal keys
  }

  private static KeyValue seekKey(
      byte[] row, byte[] family, byte[] qualifier, long ts, CellType type) {
    return of(row, family, qualifier, ts, type, Bytes.EMPTY).withSequenceId(Long.MAX_VALUE);
  }

  // ---- derived copies -----------------------------------------------------------------------

  public KeyValue withSequenceId(long seq) {
    return seq == seqId ? this : of(bytes, offset, length, seq, getTtl());
  }

  /** A copy with the timestamp replaced (used to resolve LATEST_TIMESTAMP at commit). */
  public KeyValue withTimestamp(long ts) {
    byte[] b = Arrays.copyOfRange(bytes, offset, offset + length);
    Bytes.putLong(b, ROW_OFFSET + keyLength() - 9, ts);
    return of(b, 0, b.length, seqId, getTtl());
  }

  /** The same cell with per-cell TTL {@code ttl} in milliseconds ({@link #NO_TTL}: none). */
  public KeyValue withTtl(long ttl) {
    return ttl == getTtl() ? this : of(bytes, offset, length, seqId, ttl);
  }

  /**
   * Wraps a well-formed KeyValue with a sequence id and a per-cell TTL ({@link #NO_TTL} for none).
   */
  public static KeyValue of(byte[] bytes, int offset, int length, long seqId, long ttl) {
    return ttl == NO_TTL
        ? new KeyValue(bytes, offset, length, seqId)
        : new TtlKeyValue(bytes, offset, length, seqId, ttl);
  }

  /**
   * The per-cell time to live in milliseconds, {@link #NO_TTL} for none. HBase's rule: the cell has
   * expired once its timestamp plus this is before now; the family's TTL applies as well.
   */
  @Override
  public long getTtl() {
    return NO_TTL;
  }

  // ---- layout accessors ---------------------------------------------------------------------

  /** The backing array (HBase: getBuffer). */
  public byte[] getBuffer() {
    return bytes;
  }

  public int getOffset() {
    return offset;
  }

  public int getLength() {
    return length;
  }

  public int keyLength() {
    return Bytes.readInt(bytes, offset);
  }

  /** Offset of the key (row length field) in the backing array. */
  public int keyOffset() {
    return offset + ROW_OFFSET;
  }

  /** Approximate heap footprint, for memstore accounting. */
  public long heapSize() {
    // object header + fields (~32) + array header (16) + data, when this cell owns its array
    return 48L + length;
  }

  // ---- Cell ---------------------------------------------------------------------------------

  @Override
  public byte[] getRowArray() {
    return bytes;
  }

  @Override
  public int getRowOffset() {
    return offset + ROW_OFFSET + 2;
  }

  @Override
  public short getRowLength() {
    return Bytes.readShort(bytes, offset + ROW_OFFSET);
  }

  @Override
  public byte[] getFamilyArray() {
    return bytes;
  }

  @Override
  public int getFamilyOffset() {
    return offset + ROW_OFFSET + 2 + getRowLength() + 1;
  }

  @Override
  public byte getFamilyLength() {
    return bytes[offset + ROW_OFFSET + 2 + getRowLength()];
  }

  @Override
  public byte[] getQualifierArray() {
    return bytes;
  }

  @Override
  public int getQualifierOffset() {
    int rlen = getRowLength();
    return offset + ROW_OFFSET + 2 + rlen + 1 + bytes[offset + ROW_OFFSET + 2 + rlen];
  }

  @Override
  public int getQualifierLength() {
    int rlen = getRowLength();
    return keyLength() - KEY_INFRASTRUCTURE_SIZE - rlen - bytes[offset + ROW_OFFSET + 2 + rlen];
  }

  @Override
  public long getTimestamp() {
    return Bytes.readLong(bytes, offset + ROW_OFFSET + keyLength() - 9);
  }

  @Override
  public byte getTypeByte() {
    return bytes[offset + ROW_OFFSET + keyLength() - 1];
  }

  @Override
  public long getSequenceId() {
    return seqId;
  }

  @Override
  public byte[] getValueArray() {
    return bytes;
  }

  @Override
  public int getValueOffset() {
    return offset + ROW_OFFSET + keyLength();
  }

  @Override
  public int getValueLength() {
    return Bytes.readInt(bytes, offset + 4);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof KeyValue)) {
      return false;
    }
    KeyValue other = (KeyValue) o;
    return Arrays.equals(
        bytes, offset, offset + length, other.bytes, other.offset, other.offset + other.length);
  }

  @Override
  public int hashCode() {
    return Bytes.hashCode(bytes, offset, length);
  }

  @Override
  public String toString() {
    return CellUtil.toString(this);
  }
}
