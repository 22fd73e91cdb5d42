package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import java.util.Arrays;
import java.util.TreeSet;

/**
 * Returns the columns whose qualifier starts with any of the prefixes, seeking from a column that
 * matches none to the next prefix after it and skipping the rest of the row after the last prefix.
 * An empty list lets everything through.
 *
 * <p>Unlike HBase, which tests only the greatest prefix not after the qualifier, a qualifier that
 * starts with a shorter prefix also matches when a longer one sorts between them (prefixes "a" and
 * "aa" both apply to "ab").
 */
public class MultipleColumnPrefixFilter extends Filter implements HintingFilter {
  private final TreeSet<byte[]> sortedPrefixes = new TreeSet<>(Bytes.COMPARATOR);

  /**
   * @param prefixes distinct, non-null prefixes; null means none
   */
  public MultipleColumnPrefixFilter(byte[][] prefixes) {
    if (prefixes != null) {
      for (byte[] p : prefixes) {
        if (p == null) {
          throw new IllegalArgumentException("MultipleColumnPrefixFilter: prefixes can't be null");
        }
        if (!sortedPrefixes.add(p)) {
          throw new IllegalArgumentException(
              "MultipleColumnPrefixFilter: prefixes must be distinct, "
                  + Bytes.toStringBinary(p)
                  + " repeats");
        }
      }
    }
  }

  /** The prefixes in ascending order. */
  public byte[][] getPrefix() {
    return sortedPrefixes.toArray(new byte[0][]);
  }

  @Override
  public ReturnCode filterCell(Cell c) {
    if (sortedPrefixes.isEmpty()) {
      return ReturnCode.INCLUDE;
    }
    byte[] q = CellUtil.cloneQualifier(c);
    if (hasPrefixOf(q)) {
      return ReturnCode.INCLUDE;
    }
    return sortedPrefixes.higher(q) == null ? ReturnCode.NEXT_ROW : ReturnCode.SEEK_NEXT_USING_HINT;
  }

  /**
   * Whether some prefix starts {@code q}. A prefix of {@code q} sorts at or before it, and any
   * prefix of {@code q} sorting before a non-matching candidate p is also a prefix of p; so each
   * miss shortens the probe to the common part of p and {@code q}.
   */
  private boolean hasPrefixOf(byte[] q) {
    byte[] probe = q;
    while (true) {
      byte[] p = sortedPrefixes.floor(probe);
      if (p == null) {
        return false;
      }
      if (Bytes.startsWith(q, p)) {
        return true;
      }
      int common = Arrays.mismatch(p, probe);
      probe = Arrays.copyOf(q, common);
    }
  }

  @Override
  public Cell getNextCellHint(Cell c) {
    byte[] next = sortedPrefixes.higher(CellUtil.cloneQualifier(c));
    return next == null ? null : Cells.firstOnColumn(c, next);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("MultipleColumnPrefixFilter [");
    int n = 0;
    for (byte[] p : sortedPrefixes) {
      if (n++ > 0) {
        sb.append(", ");
      }
      if (n > 5) {
        sb.append("...");
        break;
      }
      sb.append(Bytes.toStringBinary(p));
    }
    return sb.append("]").toString();
  }
}
