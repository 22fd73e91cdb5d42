package dev.basalt.shell;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Prints results the way the HBase 2.6 shell does (hbase-shell's shell/formatter.rb and
 * hbase/table.rb), so that output people and scripts know stays the same:
 *
 * <ul>
 *   <li>a two-column row is one space, the first column, one space, the second column; on a
 *       terminal the first column is a quarter of the width and the second the rest but two, both
 *       padded, and longer text wraps at the column width; when the output is not a terminal (width
 *       0) nothing is padded or wrapped;
 *   <li>a header is not inset: "ROW COLUMN+CELL" (two spaces);
 *   <li>a row of three or more columns (list_peers) is one space, then the columns joined by one
 *       space, never padded or wrapped, a null column printed as nothing (Ruby's print of nil); its
 *       header is printed the same way;
 *   <li>a cell is "timestamp=..., value=..." with the timestamp as LocalDateTime.toString() in the
 *       local time zone (HBase's default since HBASE-23930), or milliseconds when
 *       hbase.shell.timestamp.format.epoch is true; delete markers show "type=DeleteColumn" and so
 *       on instead of a value;
 *   <li>bytes are printed with Bytes.toStringBinary (printable ASCII as is, anything else \xNN);
 *   <li>a footer "N row(s)".
 * </ul>
 */
final class Formatter {
  private final PrintWriter out;
  private final IntSupplier width;
  private final ZoneId zone;
  private final boolean epochTimestamps;
  private int maxWidth;

  Formatter(PrintWriter out, IntSupplier width, ZoneId zone, boolean epochTimestamps) {
    this.out = out;
    this.width = width;
    this.zone = zone;
    this.epochTimestamps = epochTimestamps;
  }

  /** A header line (not inset); also re-reads the terminal width, as HBase does per header. */
  void header(String... columns) {
    headerWithFirstColumn(25, columns);
  }

  /**
   * A header whose first column takes {@code firstPercent} of the terminal width instead of a
   * quarter (formatter.rb's widths argument, e.g. [32] in list_replicated_tables).
   */
  void headerWithFirstColumn(int firstPercent, String... columns) {
    maxWidth = Math.max(0, width.getAsInt());
    if (columns.length > 0) {
      row(false, firstPercent, columns);
    }
  }

  void row(String... columns) {
    row(true, 25, columns);
  }

  /** A two-column row whose first column takes {@code firstPercent} of the width. */
  void rowWithFirstColumn(int firstPercent, String first, String second) {
    row(true, firstPercent, first, second);
  }

  /** A line of free text, wrapped (and padded) at the terminal width like a one-column row. */
  void line(String text) {
    row(true, 25, text);
  }

  void footer(long rows) {
    out.println(rows + " row(s)");
  }

  private void row(boolean inset, int firstPercent, String... columns) {
    if (columns.length == 1) {
      for (String part : split(maxWidth, columns[0])) {
        out.println(pad(maxWidth, part));
      }
    } else if (columns.length == 2) {
      int w1 = maxWidth == 0 ? 0 : maxWidth * firstPercent / 100;
      int w2 = maxWidth == 0 ? 0 : maxWidth - w1 - 2;
      List<String> left = split(w1, columns[0]);
      List<String> right = split(w2, columns[1]);
      int lines = Math.max(left.size(), right.size());
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < lines; i++) {
        sb.setLength(0);
        sb.append(inset ? " " : "");
        sb.append(pad(w1, i < left.size() ? left.get(i) : ""));
        sb.append(inset ? " " : "  ");
        sb.append(pad(w2, i < right.size() ? right.get(i) : ""));
        out.println(sb);
      }
    } else if (columns.length > 2) {
      // formatter.rb prints a space, then the columns joined by spaces, inset or not
      StringBuilder sb = new StringBuilder(" ");
      for (int i = 0; i < columns.length; i++) {
        sb.append(i == 0 ? "" : " ").append(columns[i] == null ? "" : columns[i]);
      }
      out.println(sb);
    } else {
      throw new IllegalArgumentException("a row has at least one column");
    }
    out.flush();
  }

  private static List<String> split(int width, String s) {
    List<String> parts = new ArrayList<>();
    if (width == 0 || s.length() <= width) {
      parts.add(s);
      return parts;
    }
    for (int i = 0; i < s.length(); i += width) {
      parts.add(s.substring(i, Math.min(s.length(), i + width)));
    }
    return parts;
  }

  private static String pad(int width, String s) {
    if (width == 0 || s.length() >= width) {
      return s;
    }
    return s + " ".repeat(width - s.length());
  }

  /** "family:qualifier" of a cell, each part in toStringBinary form. */
  static String column(Cell c) {
    return Bytes.toStringBinary(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength())
        + ":"
        + Bytes.toStringBinary(
            c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength());
  }

  String timestamp(long millis) {
    if (epochTimestamps) {
      return Long.toString(millis);
    }
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), zone).toString();
  }

  /**
   * "timestamp=..., value=..." for one cell. In hbase:meta the region info and server start code
   * are decoded, as the HBase shell does.
   */
  String cell(TableName table, Cell c) {
    String ts = "timestamp=" + timestamp(c.getTimestamp());
    if (TableName.META_TABLE_NAME.equals(table)) {
      String col = column(c);
      if (col.equals("info:regioninfo")
          || col.startsWith("info:split")
          || col.startsWith("info:merge")) {
        RegionInfo ri =
            RegionInfo.parseFromOrNull(c.getValueArray(), c.getValueOffset(), c.getValueLength());
        return ts + ", value=" + (ri == null ? "" : ri.toString());
      }
      if (col.equals("info:serverstartcode") && c.getValueLength() == Bytes.SIZEOF_LONG) {
        return ts + ", value=" + Bytes.toLong(c.getValueArray(), c.getValueOffset());
      }
    }
    if (c.getType() != Cell.Type.Put) {
      return ts + ", type=" + c.getType();
    }
    return ts
        + ", value="
        + Bytes.toStringBinary(c.getValueArray(), c.getValueOffset(), c.getValueLength());
  }
}
