package dev.basalt.filter;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.filter.FilterList.Operator;
import dev.basalt.filter.MultiRowRangeFilter.RowRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * Random filter descriptions for the seek property test. Each description builds a fresh filter
 * and, independently, decides from its own parameters whether a cell passes: the naive side never
 * calls filter code, so it cannot share the filters' seek shortcuts or their mistakes.
 */
final class FilterSpecs {
  static final byte[] ROW_ALPHABET = {0x00, 'a', 'b', (byte) 0xFF};
  static final byte[] QUAL_ALPHABET = {0x00, 'a', 'b', (byte) 0xFF};

  private FilterSpecs() {}

  /** A stateless filter: each cell passes or not on its own. */
  interface Spec {
    Filter build();

    boolean passes(Cell c);
  }

  static byte[] randomBytes(Random rnd, byte[] alphabet, int minLen, int maxLen) {
    byte[] out = new byte[minLen + rnd.nextInt(maxLen - minLen + 1)];
    for (int i = 0; i < out.length; i++) {
      out[i] = alphabet[rnd.nextInt(alphabet.length)];
    }
    return out;
  }

  /**
   * Keys for filter parameters: half the time a stored key or one of its prefixes, so that bounds
   * and prefixes land on rows and columns that exist (where off-by-one seeks show).
   */
  record Pools(List<byte[]> rows, List<byte[]> quals) {
    byte[] row(Random rnd, int minLen, int maxLen) {
      return pick(rnd, rows, ROW_ALPHABET, minLen, maxLen);
    }

    byte[] qual(Random rnd, int minLen, int maxLen) {
      return pick(rnd, quals, QUAL_ALPHABET, minLen, maxLen);
    }

    private static byte[] pick(Random rnd, List<byte[]> pool, byte[] alphabet, int min, int max) {
      if (pool.isEmpty() || rnd.nextBoolean()) {
        return randomBytes(rnd, alphabet, min, max);
      }
      byte[] k = pool.get(rnd.nextInt(pool.size()));
      int len = Math.max(min, k.length - rnd.nextInt(2));
      return Arrays.copyOf(k, Math.min(len, k.length));
    }
  }

  static String show(byte[] b) {
    return b == null ? "null" : "'" + Bytes.toStringBinary(b) + "'";
  }

  private static byte[] row(Cell c) {
    return CellUtil.cloneRow(c);
  }

  private static byte[] qualifier(Cell c) {
    return CellUtil.cloneQualifier(c);
  }

  record Prefix(byte[] prefix) implements Spec {
    public Filter build() {
      return new PrefixFilter(prefix);
    }

    public boolean passes(Cell c) {
      return Bytes.startsWith(row(c), prefix);
    }

    public String toString() {
      return "Prefix(" + show(prefix) + ")";
    }
  }

  record Fuzzy(List<byte[]> keys, List<byte[]> masks) implements Spec {
    public Filter build() {
      List<Map.Entry<byte[], byte[]>> pairs = new ArrayList<>();
      for (int i = 0; i < keys.size(); i++) {
        pairs.add(Map.entry(keys.get(i), masks.get(i)));
      }
      return new FuzzyRowFilter(pairs);
    }

    public boolean passes(Cell c) {
      byte[] r = row(c);
      for (int k = 0; k < keys.size(); k++) {
        byte[] key = keys.get(k);
        byte[] mask = masks.get(k);
        boolean ok = true;
        for (int i = 0; i < r.length && i < key.length; i++) {
          ok &= mask[i] == 1 || r[i] == key[i];
        }
        if (ok) {
          return true;
        }
      }
      return false;
    }

    public String toString() {
      StringBuilder sb = new StringBuilder("Fuzzy(");
      for (int i = 0; i < keys.size(); i++) {
        sb.append(show(keys.get(i))).append('/').append(Arrays.toString(masks.get(i))).append(' ');
      }
      return sb.append(')').toString();
    }
  }

  /** Row ranges: start, startInclusive, stop, stopInclusive (empty = open). */
  record Ranges(List<Object[]> ranges) implements Spec {
    public Filter build() {
      List<RowRange> out = new ArrayList<>();
      for (Object[] r : ranges) {
        out.add(new RowRange((byte[]) r[0], (Boolean) r[1], (byte[]) r[2], (Boolean) r[3]));
      }
      return new MultiRowRangeFilter(out);
    }

    public boolean passes(Cell c) {
      byte[] row = row(c);
      for (Object[] r : ranges) {
        byte[] start = (byte[]) r[0];
        byte[] stop = (byte[]) r[2];
        int cs = Bytes.compareTo(row, start);
        int ce = Bytes.compareTo(row, stop);
        boolean afterStart = start.length == 0 || cs > 0 || (cs == 0 && (Boolean) r[1]);
        boolean beforeStop = stop.length == 0 || ce < 0 || (ce == 0 && (Boolean) r[3]);
        if (afterStart && beforeStop) {
          return true;
        }
      }
      return false;
    }

    public String toString() {
      StringBuilder sb = new StringBuilder("Ranges(");
      for (Object[] r : ranges) {
        sb.append((Boolean) r[1] ? "[" : "(")
            .append(show((byte[]) r[0]))
            .append(',')
            .append(show((byte[]) r[2]))
            .append((Boolean) r[3] ? "]" : ")")
            .append(' ');
      }
      return sb.append(')').toString();
    }
  }

  record ColumnPrefix(byte[] prefix) implements Spec {
    public Filter build() {
      return new ColumnPrefixFilter(prefix);
    }

    public boolean passes(Cell c) {
      return Bytes.startsWith(qualifier(c), prefix);
    }

    public String toString() {
      return "ColumnPrefix(" + show(prefix) + ")";
    }
  }

  record ColumnRange(byte[] min, boolean minInc, byte[] max, boolean maxInc) implements Spec {
    public Filter build() {
      return new ColumnRangeFilter(min, minInc, max, maxInc);
    }

    public boolean passes(Cell c) {
      byte[] q = qualifier(c);
      if (min != null) {
        int cmp = Bytes.compareTo(q, min);
        if (cmp < 0 || (cmp == 0 && !minInc)) {
          return false;
        }
      }
      if (max != null) {
        int cmp = Bytes.compareTo(q, max);
        return cmp < 0 || (cmp == 0 && maxInc);
      }
      return true;
    }

    public String toString() {
      return "ColumnRange("
          + (minInc ? "[" : "(")
          + show(min)
          + ","
          + show(max)
          + (maxInc ? "]" : ")")
          + ")";
    }
  }

  record MultiPrefix(List<byte[]> prefixes) implements Spec {
    public Filter build() {
      return new MultipleColumnPrefixFilter(prefixes.toArray(new byte[0][]));
    }

    public boolean passes(Cell c) {
      if (prefixes.isEmpty()) {
        return true;
      }
      byte[] q = qualifier(c);
      for (byte[] p : prefixes) {
        if (Bytes.startsWith(q, p)) {
          return true;
        }
      }
      return false;
    }

    public String toString() {
      StringBuilder sb = new StringBuilder("MultiPrefix(");
      for (byte[] p : prefixes) {
        sb.append(show(p)).append(' ');
      }
      return sb.append(')').toString();
    }
  }

  record Timestamps(List<Long> stamps, boolean canHint) implements Spec {
    public Filter build() {
      return new TimestampsFilter(stamps, canHint);
    }

    public boolean passes(Cell c) {
      return stamps.contains(c.getTimestamp());
    }

    public String toString() {
      return "Timestamps(" + stamps + (canHint ? ", hint" : "") + ")";
    }
  }

  record ListSpec(boolean and, List<Spec> members) implements Spec {
    public Filter build() {
      List<Filter> fs = new ArrayList<>();
      for (Spec s : members) {
        fs.add(s.build());
      }
      return new FilterList(and ? Operator.MUST_PASS_ALL : Operator.MUST_PASS_ONE, fs);
    }

    public boolean passes(Cell c) {
      for (Spec s : members) {
        if (s.passes(c) != and) {
          return !and;
        }
      }
      return and;
    }

    public String toString() {
      return (and ? "AND" : "OR") + members;
    }
  }

  /** A random stateless spec; {@code hintsSafe} allows timestamp seeks. */
  static Spec random(Random rnd, Pools pools, int depth, boolean hintsSafe) {
    int kinds = depth > 0 ? 8 : 7;
    switch (rnd.nextInt(kinds)) {
      case 0:
        return new Prefix(pools.row(rnd, 0, 2));
      case 1:
        {
          List<byte[]> keys = new ArrayList<>();
          List<byte[]> masks = new ArrayList<>();
          int n = 1 + rnd.nextInt(2);
          for (int i = 0; i < n; i++) {
            byte[] key = pools.row(rnd, 1, 3);
            byte[] mask = new byte[key.length];
            for (int j = 0; j < mask.length; j++) {
              mask[j] = (byte) rnd.nextInt(2);
            }
            keys.add(key);
            masks.add(mask);
          }
          return new Fuzzy(keys, masks);
        }
      case 2:
        {
          List<Object[]> ranges = new ArrayList<>();
          int n = 1 + rnd.nextInt(3);
          for (int i = 0; i < n; i++) {
            byte[] a = pools.row(rnd, 0, 3);
            byte[] b = pools.row(rnd, 0, 3);
            if (a.length > 0 && b.length > 0 && Bytes.compareTo(a, b) > 0) {
              byte[] t = a;
              a = b;
              b = t;
            }
            boolean si = rnd.nextBoolean();
            boolean ei = rnd.nextBoolean();
            if (a.length > 0 && Bytes.equals(a, b)) {
              ei = true;
            }
            ranges.add(new Object[] {a, si, b, ei});
          }
          return new Ranges(ranges);
        }
      case 3:
        return new ColumnPrefix(pools.qual(rnd, 0, 2));
      case 4:
        return new ColumnRange(
            rnd.nextInt(4) == 0 ? null : pools.qual(rnd, 0, 2),
            rnd.nextBoolean(),
            rnd.nextInt(4) == 0 ? null : pools.qual(rnd, 0, 2),
            rnd.nextBoolean());
      case 5:
        {
          TreeSet<byte[]> set = new TreeSet<>(Bytes.COMPARATOR);
          int n = 1 + rnd.nextInt(3);
          for (int i = 0; i < n; i++) {
            set.add(pools.qual(rnd, 0, 2));
          }
          List<byte[]> prefixes = new ArrayList<>(set);
          java.util.Collections.shuffle(prefixes, rnd);
          return new MultiPrefix(prefixes);
        }
      case 6:
        {
          List<Long> ts = new ArrayList<>();
          int n = 1 + rnd.nextInt(3);
          for (int i = 0; i < n; i++) {
            ts.add((long) rnd.nextInt(7));
          }
          return new Timestamps(ts, hintsSafe && rnd.nextBoolean());
        }
      default:
        {
          List<Spec> members = new ArrayList<>();
          int n = 2 + rnd.nextInt(2);
          for (int i = 0; i < n; i++) {
            members.add(random(rnd, pools, depth - 1, hintsSafe));
          }
          return new ListSpec(rnd.nextBoolean(), members);
        }
    }
  }

  /**
   * A column page, alone or after stateless members in an AND list. Its naive form walks a row's
   * columns: a column takes part when some visible version passes the members before it (the list
   * stops asking at the first member that rejects), and then counts as HBase counts columns.
   */
  record Paged(List<Spec> before, int limit, int offset, byte[] columnOffset) {
    Filter build() {
      Filter page =
          columnOffset != null
              ? new ColumnPaginationFilter(limit, columnOffset)
              : new ColumnPaginationFilter(limit, offset);
      if (before.isEmpty()) {
        return page;
      }
      List<Filter> fs = new ArrayList<>();
      for (Spec s : before) {
        fs.add(s.build());
      }
      fs.add(page);
      return new FilterList(fs);
    }

    /** The cells of one row (in cell order) that the filter returns. */
    List<Cell> apply(List<Cell> rowCells) {
      List<Cell> out = new ArrayList<>();
      int count = 0;
      Cell column = null;
      boolean columnDone = false;
      for (Cell c : rowCells) {
        boolean sameColumn =
            column != null
                && CellUtil.matchingFamily(c, CellUtil.cloneFamily(column))
                && CellUtil.matchingQualifiers(c, column);
        if (!sameColumn) {
          column = c;
          columnDone = false;
        }
        if (columnDone || !passesBefore(c)) {
          continue;
        }
        columnDone = true; // the page answers once per column
        if (columnOffset != null) {
          if (count >= limit) {
            break;
          }
          if (count == 0 && Bytes.compareTo(qualifier(c), columnOffset) < 0) {
            continue;
          }
          out.add(c);
          count++;
        } else {
          if (count >= offset + limit) {
            break;
          }
          if (count >= offset) {
            out.add(c);
          }
          count++;
        }
      }
      return out;
    }

    private boolean passesBefore(Cell c) {
      for (Spec s : before) {
        if (!s.passes(c)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String toString() {
      return "Paged("
          + before
          + ", limit "
          + limit
          + (columnOffset != null ? ", from " + show(columnOffset) : ", offset " + offset)
          + ")";
    }
  }

  static Paged randomPaged(Random rnd, Pools pools, boolean hintsSafe) {
    List<Spec> before = new ArrayList<>();
    int n = rnd.nextInt(3);
    for (int i = 0; i < n; i++) {
      before.add(random(rnd, pools, 1, hintsSafe));
    }
    int limit = rnd.nextInt(4);
    if (rnd.nextBoolean()) {
      return new Paged(before, limit, -1, pools.qual(rnd, 0, 2));
    }
    return new Paged(before, limit, rnd.nextInt(4), null);
  }
}
