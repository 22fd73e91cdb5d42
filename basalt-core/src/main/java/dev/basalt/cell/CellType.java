package dev.basalt.cell;

/**
 * The type byte of a cell, with HBase's codes. Cells of equal row, column and timestamp sort by
 * type code descending, so delete markers come before the puts they mask; {@link #MAXIMUM} and
 * {@link #MINIMUM} exist only in seek keys.
 */
public enum CellType {
  MINIMUM((byte) 0),
  PUT((byte) 4),
  DELETE((byte) 8),
  DELETE_FAMILY_VERSION((byte) 10),
  DELETE_COLUMN((byte) 12),
  DELETE_FAMILY((byte) 14),
  MAXIMUM((byte) 255);

  private static final CellType[] BY_CODE = new CellType[256];

  static {
    for (CellType t : values()) {
      BY_CODE[t.code & 0xff] = t;
    }
  }

  private final byte code;

  CellType(byte code) {
    this.code = code;
  }

  /** The code stored in the KeyValue type byte. */
  public byte code() {
    return code;
  }

  /** True for the four delete marker types. */
  public boolean isDelete() {
    return isDelete(code);
  }

  /** True when {@code code} is one of the four delete marker codes. */
  public static boolean isDelete(byte code) {
    int c = code & 0xff;
    return c >= 8 && c <= 14;
  }

  /**
   * The type with this code.
   *
   * @throws IllegalArgumentException if the code is not one of HBase's type codes
   */
  public static CellType fromCode(byte code) {
    CellType t = BY_CODE[code & 0xff];
    if (t == null) {
      throw new IllegalArgumentException("unknown cell type code " + (code & 0xff));
    }
    return t;
  }
}
