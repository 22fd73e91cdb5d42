package dev.basalt.filter;

import dev.basalt.filter.FilterArguments.Comparison;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The filters the filter language knows: exactly the names HBase 2's parser registers, each with
 * HBase's argument counts and meanings. One Basalt addition: ColumnPaginationFilter also takes a
 * quoted column offset in place of the integer offset (its other constructor). Filters HBase gives
 * no string form (FuzzyRowFilter, MultiRowRangeFilter, RandomRowFilter, ...) have none here.
 */
final class FilterCatalog {

  /** How one filter is written and built. */
  static final class Spec {
    final String name;
    final String usage;
    private final int[] counts;
    private final Function<FilterArguments, Filter> factory;

    /**
     * @param counts the argument counts accepted, ascending; null for any number
     */
    private Spec(String name, String usage, int[] counts, Function<FilterArguments, Filter> f) {
      this.name = name;
      this.usage = usage;
      this.counts = counts;
      this.factory = f;
    }

    Filter create(FilterArguments a) {
      checkCount(a);
      return factory.apply(a);
    }

    /**
     * Points at the first argument past the longest form that fits, or at the closing parenthesis
     * when even the shortest form needs more.
     */
    private void checkCount(FilterArguments a) {
      int n = a.size();
      if (counts == null || Arrays.binarySearch(counts, n) >= 0) {
        return;
      }
      int fits = -1;
      for (int c : counts) {
        fits = c < n ? c : fits;
      }
      int at = fits < 0 ? a.closePosition() : a.token(fits).start();
      throw a.countError("takes " + countText() + ", got " + n + "; usage: " + usage, at);
    }

    private String countText() {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < counts.length; i++) {
        if (i > 0) {
          sb.append(i == counts.length - 1 ? " or " : ", ");
        }
        sb.append(counts[i]);
      }
      return sb.append(counts[counts.length - 1] == 1 ? " argument" : " arguments").toString();
    }
  }

  private static final Map<String, Spec> SPECS = new LinkedHashMap<>();

  /** Why well-known names that are not in the language are missing, for the error message. */
  private static final Map<String, String> NOT_IN_LANGUAGE =
      Map.of(
          "FilterList", "combine filters with AND and OR",
          "SkipFilter", "use the SKIP operator",
          "WhileMatchFilter", "use the WHILE operator",
          "FuzzyRowFilter", "it has no filter-language form (as in HBase); build it in code",
          "MultiRowRangeFilter", "it has no filter-language form (as in HBase); build it in code",
          "RandomRowFilter", "it has no filter-language form (as in HBase); build it in code");

  private static final String CMP = "op, 'type:value'";

  static {
    add("KeyOnlyFilter", "KeyOnlyFilter([lenAsVal])", counts(0, 1), FilterCatalog::keyOnly);
    add("FirstKeyOnlyFilter", "FirstKeyOnlyFilter()", counts(0), a -> new FirstKeyOnlyFilter());
    add(
        "PrefixFilter",
        "PrefixFilter('rowPrefix')",
        counts(1),
        a -> new PrefixFilter(a.bytes(0, "rowPrefix")));
    add(
        "ColumnPrefixFilter",
        "ColumnPrefixFilter('qualifierPrefix')",
        counts(1),
        a -> new ColumnPrefixFilter(a.bytes(0, "qualifierPrefix")));
    add(
        "MultipleColumnPrefixFilter",
        "MultipleColumnPrefixFilter('qualifierPrefix', ...)",
        null,
        FilterCatalog::multipleColumnPrefix);
    add(
        "ColumnCountGetFilter",
        "ColumnCountGetFilter(limit)",
        counts(1),
        a -> new ColumnCountGetFilter(a.intArg(0, "limit", 0)));
    add(
        "PageFilter",
        "PageFilter(pageSize)",
        counts(1),
        a -> new PageFilter(a.longArg(0, "pageSize", 0)));
    add(
        "ColumnPaginationFilter",
        "ColumnPaginationFilter(limit, offset) or ColumnPaginationFilter(limit, 'columnOffset')",
        counts(2),
        FilterCatalog::columnPagination);
    add(
        "InclusiveStopFilter",
        "InclusiveStopFilter('stopRow')",
        counts(1),
        a -> new InclusiveStopFilter(a.bytes(0, "stopRow")));
    add("TimestampsFilter", "TimestampsFilter(timestamp, ...)", null, FilterCatalog::timestamps);
    add("RowFilter", "RowFilter(" + CMP + ")", counts(2), a -> compare(a, RowFilter::new));
    add("FamilyFilter", "FamilyFilter(" + CMP + ")", counts(2), a -> compare(a, FamilyFilter::new));
    add(
        "QualifierFilter",
        "QualifierFilter(" + CMP + ")",
        counts(2),
        a -> compare(a, QualifierFilter::new));
    add("ValueFilter", "ValueFilter(" + CMP + ")", counts(2), a -> compare(a, ValueFilter::new));
    add(
        "ColumnRangeFilter",
        "ColumnRangeFilter('minColumn', minColumnInclusive, 'maxColumn', maxColumnInclusive)",
        counts(4),
        FilterCatalog::columnRange);
    add(
        "DependentColumnFilter",
        "DependentColumnFilter('family', 'qualifier'[, dropDependentColumn[, " + CMP + "]])",
        counts(2, 3, 5),
        FilterCatalog::dependentColumn);
    add(
        "SingleColumnValueFilter",
        "SingleColumnValueFilter('family', 'qualifier', "
            + CMP
            + "[, filterIfMissing, latestVersionOnly])",
        counts(4, 6),
        a -> singleColumnValue(a, false));
    add(
        "SingleColumnValueExcludeFilter",
        "SingleColumnValueExcludeFilter('family', 'qualifier', "
            + CMP
            + "[, filterIfMissing, latestVersionOnly])",
        counts(4, 6),
        a -> singleColumnValue(a, true));
    add(
        "ColumnValueFilter",
        "ColumnValueFilter('family', 'qualifier', " + CMP + ")",
        counts(4),
        FilterCatalog::columnValue);
  }

  private FilterCatalog() {}

  private static void add(
      String name, String usage, int[] counts, Function<FilterArguments, Filter> factory) {
    SPECS.put(name, new Spec(name, usage, counts, factory));
  }

  private static int[] counts(int... counts) {
    return counts;
  }

  /** The spec of a filter name (case-sensitive, as HBase), or null. */
  static Spec find(String name) {
    return SPECS.get(name);
  }

  static SortedSet<String> names() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(SPECS.keySet()));
  }

  /** A hint for an unknown name: the right spelling, or why a known filter is missing; or "". */
  static String hintFor(String name) {
    for (String known : SPECS.keySet()) {
      if (known.equalsIgnoreCase(name)) {
        return "; did you mean " + known + "?";
      }
    }
    String why = NOT_IN_LANGUAGE.get(name);
    return why == null ? "" : ": " + why;
  }

  // ---- factories ----------------------------------------------------------------------------

  private static Filter keyOnly(FilterArguments a) {
    return a.size() == 0 ? new KeyOnlyFilter() : new KeyOnlyFilter(a.bool(0, "lenAsVal"));
  }

  private static Filter multipleColumnPrefix(FilterArguments a) {
    byte[][] prefixes = new byte[a.size()][];
    for (int i = 0; i < prefixes.length; i++) {
      prefixes[i] = a.bytes(i, "qualifierPrefix " + (i + 1));
    }
    return new MultipleColumnPrefixFilter(prefixes);
  }

  private static Filter columnPagination(FilterArguments a) {
    int limit = a.intArg(0, "limit", 0);
    // Basalt addition: a quoted second argument is the column offset HBase's API also takes.
    return a.isQuoted(1)
        ? new ColumnPaginationFilter(limit, a.bytes(1, "columnOffset"))
        : new ColumnPaginationFilter(limit, a.intArg(1, "offset", 0));
  }

  private static Filter timestamps(FilterArguments a) {
    List<Long> ts = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      ts.add(a.longArg(i, "timestamp " + (i + 1), 0));
    }
    return new TimestampsFilter(ts);
  }

  private interface CompareFilterConstructor {
    Filter create(CompareOperator op, ByteArrayComparable comparator);
  }

  private static Filter compare(FilterArguments a, CompareFilterConstructor constructor) {
    Comparison c = a.comparison(0);
    return constructor.create(c.op(), c.comparator());
  }

  private static Filter columnRange(FilterArguments a) {
    return new ColumnRangeFilter(
        a.bytesOrNull(0, "minColumn"),
        a.bool(1, "minColumnInclusive"),
        a.bytesOrNull(2, "maxColumn"),
        a.bool(3, "maxColumnInclusive"));
  }

  private static Filter dependentColumn(FilterArguments a) {
    byte[] family = a.bytes(0, "family");
    byte[] qualifier = a.bytes(1, "qualifier");
    if (a.size() == 2) {
      return new DependentColumnFilter(family, qualifier);
    }
    boolean drop = a.bool(2, "dropDependentColumn");
    if (a.size() == 3) {
      return new DependentColumnFilter(family, qualifier, drop);
    }
    Comparison c = a.comparison(3);
    return new DependentColumnFilter(family, qualifier, drop, c.op(), c.comparator());
  }

  private static Filter singleColumnValue(FilterArguments a, boolean exclude) {
    byte[] family = a.bytes(0, "family");
    byte[] qualifier = a.bytes(1, "qualifier");
    Comparison c = a.comparison(2);
    // HBase's defaults when the flags are left out: keep rows without the column, newest only.
    boolean filterIfMissing = a.size() == 6 && a.bool(4, "filterIfMissing");
    boolean latestVersionOnly = a.size() != 6 || a.bool(5, "latestVersionOnly");
    return exclude
        ? new SingleColumnValueExcludeFilter(
            family, qualifier, c.op(), c.comparator(), filterIfMissing, latestVersionOnly)
        : new SingleColumnValueFilter(
            family, qualifier, c.op(), c.comparator(), filterIfMissing, latestVersionOnly);
  }

  private static Filter columnValue(FilterArguments a) {
    byte[] family = a.bytes(0, "family");
    byte[] qualifier = a.bytes(1, "qualifier");
    Comparison c = a.comparison(2);
    return new ColumnValueFilter(family, qualifier, c.op(), c.comparator());
  }
}
