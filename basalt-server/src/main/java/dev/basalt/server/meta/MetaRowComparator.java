package dev.basalt.server.meta;

import dev.basalt.cell.Bytes;
import java.util.Comparator;

/**
 * The row order of hbase:meta, which is not plain byte order. HBase's client relies on it: a
 * region's row key is {@code table,startKey,regionId.encoded.}, start keys may contain commas and
 * any byte, and the client brackets one table's rows with {@code table,,} and {@code table ,,}
 * (space) or finds the last region from {@code table\0}. Under byte order those bounds miss rows.
 *
 * <p>A row key is compared in three parts, each as unsigned bytes:
 *
 * <table>
 *   <caption>parts of a meta row key</caption>
 *   <tr><th>part</th><th>bytes</th></tr>
 *   <tr><td>table</td><td>up to the first comma</td></tr>
 *   <tr><td>start key</td><td>between the first and the last comma</td></tr>
 *   <tr><td>region id</td><td>after the last comma</td></tr>
 * </table>
 *
 * <p>A key without a comma (a table-state row, or a lookup bound like {@code table\0}) sorts before
 * every key with the same table part that has one. A key with a single comma has an empty region id
 * part. (HBase's MetaCellComparator reads such malformed keys oddly; no client sends them.)
 */
final class MetaRowComparator {
  static final Comparator<byte[]> ROWS = MetaRowComparator::compare;

  static final byte COMMA = ',';

  private MetaRowComparator() {}

  static int compare(byte[] a, byte[] b) {
    int ac = Bytes.indexOf(a, COMMA, 0);
    int bc = Bytes.indexOf(b, COMMA, 0);
    int c = Bytes.compareTo(a, 0, ac < 0 ? a.length : ac, b, 0, bc < 0 ? b.length : bc);
    if (c != 0) {
      return c;
    }
    if (ac < 0 || bc < 0) {
      return ac < 0 ? (bc < 0 ? 0 : -1) : 1;
    }
    int al = lastIndexOf(a, ac);
    int bl = lastIndexOf(b, bc);
    c = Bytes.compareTo(a, ac + 1, al - ac - 1, b, bc + 1, bl - bc - 1);
    if (c != 0) {
      return c;
    }
    return Bytes.compareTo(
        a,
        Math.min(al + 1, a.length),
        idLength(a, al),
        b,
        Math.min(bl + 1, b.length),
        idLength(b, bl));
  }

  /** The last comma after {@code first}, or the key's end when {@code first} is the only one. */
  private static int lastIndexOf(byte[] key, int first) {
    int last = Bytes.lastIndexOf(key, COMMA);
    return last > first ? last : key.length;
  }

  private static int idLength(byte[] key, int last) {
    return Math.max(0, key.length - last - 1);
  }
}
