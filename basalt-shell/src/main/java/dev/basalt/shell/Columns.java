package dev.basalt.shell;

import java.util.Arrays;

/** 'family:qualifier' column names, split as HBase does: at the first ':'. */
record Columns(byte[] family, byte[] qualifier) {
  static Columns parse(byte[] column) {
    for (int i = 0; i < column.length; i++) {
      if (column[i] == ':') {
        return new Columns(
            Arrays.copyOfRange(column, 0, i), Arrays.copyOfRange(column, i + 1, column.length));
      }
    }
    return new Columns(column, null);
  }

  boolean hasQualifier() {
    return qualifier != null;
  }

  /** The qualifier, or the empty qualifier when the column named only a family. */
  byte[] qualifierOrEmpty() {
    return qualifier == null ? new byte[0] : qualifier;
  }
}
