package dev.basalt.server.protocol;

import dev.basalt.filter.ColumnCountGetFilter;
import dev.basalt.filter.ColumnPaginationFilter;
import dev.basalt.filter.ColumnPrefixFilter;
import dev.basalt.filter.ColumnRangeFilter;
import dev.basalt.filter.ColumnValueFilter;
import dev.basalt.filter.DependentColumnFilter;
import dev.basalt.filter.FamilyFilter;
import dev.basalt.filter.Filter;
import dev.basalt.filter.FilterList;
import dev.basalt.filter.FirstKeyOnlyFilter;
import dev.basalt.filter.FuzzyRowFilter;
import dev.basalt.filter.InclusiveStopFilter;
import dev.basalt.filter.KeyOnlyFilter;
import dev.basalt.filter.MultiRowRangeFilter;
import dev.basalt.filter.MultipleColumnPrefixFilter;
import dev.basalt.filter.PageFilter;
import dev.basalt.filter.PrefixFilter;
import dev.basalt.filter.QualifierFilter;
import dev.basalt.filter.RandomRowFilter;
import dev.basalt.filter.RowFilter;
import dev.basalt.filter.SingleColumnValueExcludeFilter;
import dev.basalt.filter.SingleColumnValueFilter;
import dev.basalt.filter.SkipFilter;
import dev.basalt.filter.TimestampsFilter;
import dev.basalt.filter.ValueFilter;
import dev.basalt.filter.WhileMatchFilter;
import dev.basalt.util.BasaltIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Turns a filter as HBase's client sends it into the filter object of basalt-core. On the wire a
 * filter is {@code Filter{name = the HBase class name, serialized_filter = that class's message
 * from Filter.proto}}; compare filters carry a comparator the same way (see {@link
 * ComparatorDecoder}); FilterList, SkipFilter and WhileMatchFilter nest filters.
 *
 * <p>Every problem (an unknown class, bytes that are not the named message, arguments the filter
 * rejects) becomes a {@link BasaltIOException} named {@code DoNotRetryIOException}, as HBase
 * answers, so the client fails the call at once with a message naming the filter. Nesting deeper
 * than {@link #MAX_DEPTH} is refused rather than risking the server's stack. Stateless.
 */
public final class FilterDecoder {
  private static final String PACKAGE = "org.apache.hadoop.hbase.filter.";

  /** Filter lists nest; a client never needs more than a few levels. */
  static final int MAX_DEPTH = 64;

  private FilterDecoder() {}

  /** Decodes a filter; never returns null. */
  public static Filter decode(FilterProtos.Filter proto) throws BasaltIOException {
    return decode(proto, 0);
  }

  private static Filter decode(FilterProtos.Filter proto, int depth) throws BasaltIOException {
    String name = proto.getName();
    if (depth > MAX_DEPTH) {
      throw BasaltIOException.doNotRetry("filters nested more than " + MAX_DEPTH + " deep");
    }
    if (!name.startsWith(PACKAGE)) {
      throw unknown(name);
    }
    ByteString bytes = proto.getSerializedFilter();
    try {
      return build(name.substring(PACKAGE.length()), bytes, depth);
    } catch (InvalidProtocolBufferException e) {
      throw BasaltIOException.doNotRetry(
          "the bytes sent for filter " + name + " are not its message: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw BasaltIOException.doNotRetry("filter " + name + ": " + e.getMessage());
    }
  }

  private static BasaltIOException unknown(String name) {
    return BasaltIOException.doNotRetry(
        "unknown filter class "
            + name
            + " (Basalt implements HBase's filters in "
            + PACKAGE
            + "*; custom filter classes cannot be loaded)");
  }

  private static Filter build(String simpleName, ByteString b, int depth)
      throws InvalidProtocolBufferException, BasaltIOException {
    switch (simpleName) {
      case "FilterList":
        return filterList(FilterProtos.FilterList.parseFrom(b), depth);
      case "PageFilter":
        return new PageFilter(FilterProtos.PageFilter.parseFrom(b).getPageSize());
      case "PrefixFilter":
        {
          FilterProtos.PrefixFilter p = FilterProtos.PrefixFilter.parseFrom(b);
          return new PrefixFilter(p.hasPrefix() ? p.getPrefix().toByteArray() : null);
        }
      case "RowFilter":
        {
          FilterProtos.CompareFilter c = FilterProtos.RowFilter.parseFrom(b).getCompareFilter();
          return new RowFilter(Enums.operator(c.getCompareOp()), comparator(c));
        }
      case "FamilyFilter":
        {
          FilterProtos.CompareFilter c = FilterProtos.FamilyFilter.parseFrom(b).getCompareFilter();
          return new FamilyFilter(Enums.operator(c.getCompareOp()), comparator(c));
        }
      case "QualifierFilter":
        {
          FilterProtos.CompareFilter c =
              FilterProtos.QualifierFilter.parseFrom(b).getCompareFilter();
          return new QualifierFilter(Enums.operator(c.getCompareOp()), comparator(c));
        }
      case "ValueFilter":
        {
          FilterProtos.CompareFilter c = FilterProtos.ValueFilter.parseFrom(b).getCompareFilter();
          return new ValueFilter(Enums.operator(c.getCompareOp()), comparator(c));
        }
      case "SingleColumnValueFilter":
        {
          FilterProtos.SingleColumnValueFilter p =
              FilterProtos.SingleColumnValueFilter.parseFrom(b);
          return new SingleColumnValueFilter(
              bytesOrNull(p.hasColumnFamily(), p.getColumnFamily()),
              bytesOrNull(p.hasColumnQualifier(), p.getColumnQualifier()),
              Enums.operator(p.getCompareOp()),
              ComparatorDecoder.decode(p.getComparator()),
              p.getFilterIfMissing(),
              p.getLatestVersionOnly());
        }
      case "SingleColumnValueExcludeFilter":
        {
          FilterProtos.SingleColumnValueFilter p =
              FilterProtos.SingleColumnValueExcludeFilter.parseFrom(b).getSingleColumnValueFilter();
          return new SingleColumnValueExcludeFilter(
              bytesOrNull(p.hasColumnFamily(), p.getColumnFamily()),
              bytesOrNull(p.hasColumnQualifier(), p.getColumnQualifier()),
              Enums.operator(p.getCompareOp()),
              ComparatorDecoder.decode(p.getComparator()),
              p.getFilterIfMissing(),
              p.getLatestVersionOnly());
        }
      case "ColumnValueFilter":
        {
          FilterProtos.ColumnValueFilter p = FilterProtos.ColumnValueFilter.parseFrom(b);
          return new ColumnValueFilter(
              bytesOrNull(p.hasFamily(), p.getFamily()),
              bytesOrNull(p.hasQualifier(), p.getQualifier()),
              Enums.operator(p.getCompareOp()),
              ComparatorDecoder.decode(p.getComparator()));
        }
      case "DependentColumnFilter":
        {
          FilterProtos.DependentColumnFilter p = FilterProtos.DependentColumnFilter.parseFrom(b);
          FilterProtos.CompareFilter c = p.getCompareFilter();
          return new DependentColumnFilter(
              bytesOrNull(p.hasColumnFamily(), p.getColumnFamily()),
              bytesOrNull(p.hasColumnQualifier(), p.getColumnQualifier()),
              p.getDropDependentColumn(),
              Enums.operator(c.getCompareOp()),
              c.hasComparator() ? ComparatorDecoder.decode(c.getComparator()) : null);
        }
      case "KeyOnlyFilter":
        return new KeyOnlyFilter(FilterProtos.KeyOnlyFilter.parseFrom(b).getLenAsVal());
      case "FirstKeyOnlyFilter":
        FilterProtos.FirstKeyOnlyFilter.parseFrom(b);
        return new FirstKeyOnlyFilter();
      case "ColumnPrefixFilter":
        {
          FilterProtos.ColumnPrefixFilter p = FilterProtos.ColumnPrefixFilter.parseFrom(b);
          return new ColumnPrefixFilter(bytesOrNull(p.hasPrefix(), p.getPrefix()));
        }
      case "MultipleColumnPrefixFilter":
        {
          FilterProtos.MultipleColumnPrefixFilter p =
              FilterProtos.MultipleColumnPrefixFilter.parseFrom(b);
          byte[][] prefixes = new byte[p.getSortedPrefixesCount()][];
          for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = p.getSortedPrefixes(i).toByteArray();
          }
          return new MultipleColumnPrefixFilter(prefixes);
        }
      case "ColumnRangeFilter":
        {
          FilterProtos.ColumnRangeFilter p = FilterProtos.ColumnRangeFilter.parseFrom(b);
          return new ColumnRangeFilter(
              bytesOrNull(p.hasMinColumn(), p.getMinColumn()),
              p.getMinColumnInclusive(),
              bytesOrNull(p.hasMaxColumn(), p.getMaxColumn()),
              p.getMaxColumnInclusive());
        }
      case "ColumnCountGetFilter":
        return new ColumnCountGetFilter(FilterProtos.ColumnCountGetFilter.parseFrom(b).getLimit());
      case "ColumnPaginationFilter":
        {
          FilterProtos.ColumnPaginationFilter p = FilterProtos.ColumnPaginationFilter.parseFrom(b);
          return p.hasColumnOffset()
              ? new ColumnPaginationFilter(p.getLimit(), p.getColumnOffset().toByteArray())
              : new ColumnPaginationFilter(p.getLimit(), p.getOffset());
        }
      case "InclusiveStopFilter":
        {
          FilterProtos.InclusiveStopFilter p = FilterProtos.InclusiveStopFilter.parseFrom(b);
          return new InclusiveStopFilter(bytesOrNull(p.hasStopRowKey(), p.getStopRowKey()));
        }
      case "MultiRowRangeFilter":
        {
          FilterProtos.MultiRowRangeFilter p = FilterProtos.MultiRowRangeFilter.parseFrom(b);
          List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>();
          for (FilterProtos.RowRange r : p.getRowRangeListList()) {
            ranges.add(
                new MultiRowRangeFilter.RowRange(
                    r.hasStartRow() ? r.getStartRow().toByteArray() : new byte[0],
                    r.getStartRowInclusive(),
                    r.hasStopRow() ? r.getStopRow().toByteArray() : new byte[0],
                    r.getStopRowInclusive()));
          }
          return new MultiRowRangeFilter(ranges);
        }
      case "FuzzyRowFilter":
        return fuzzy(FilterProtos.FuzzyRowFilter.parseFrom(b));
      case "RandomRowFilter":
        return new RandomRowFilter(FilterProtos.RandomRowFilter.parseFrom(b).getChance());
      case "TimestampsFilter":
        {
          FilterProtos.TimestampsFilter p = FilterProtos.TimestampsFilter.parseFrom(b);
          return new TimestampsFilter(p.getTimestampsList(), p.hasCanHint() && p.getCanHint());
        }
      case "SkipFilter":
        return new SkipFilter(decode(FilterProtos.SkipFilter.parseFrom(b).getFilter(), depth + 1));
      case "WhileMatchFilter":
        return new WhileMatchFilter(
            decode(FilterProtos.WhileMatchFilter.parseFrom(b).getFilter(), depth + 1));
      default:
        throw unknown(PACKAGE + simpleName);
    }
  }

  private static Filter filterList(FilterProtos.FilterList p, int depth) throws BasaltIOException {
    FilterList.Operator op =
        p.getOperator() == FilterProtos.FilterList.Operator.MUST_PASS_ONE
            ? FilterList.Operator.MUST_PASS_ONE
            : FilterList.Operator.MUST_PASS_ALL;
    List<Filter> children = new ArrayList<>(p.getFiltersCount());
    for (FilterProtos.Filter f : p.getFiltersList()) {
      children.add(decode(f, depth + 1));
    }
    return new FilterList(op, children);
  }

  /**
   * HBase's client sends FuzzyRowFilter masks already "preprocessed": -1 for a fixed byte and, for
   * a free byte, 0 (first mask format) or 2 ({@code is_mask_v2}). A mask made only of -1 and the
   * format's free value is taken as preprocessed; otherwise as the user form (0 fixed, 1 free), as
   * HBase's own server does.
   */
  private static Filter fuzzy(FilterProtos.FuzzyRowFilter p) {
    byte free = p.hasIsMaskV2() && p.getIsMaskV2() ? (byte) 2 : (byte) 0;
    List<Map.Entry<byte[], byte[]>> keys = new ArrayList<>(p.getFuzzyKeysDataCount());
    for (HBaseProtos.BytesBytesPair pair : p.getFuzzyKeysDataList()) {
      byte[] mask = pair.getSecond().toByteArray();
      boolean preprocessed = true;
      for (byte m : mask) {
        if (m != -1 && m != free) {
          preprocessed = false;
          break;
        }
      }
      if (preprocessed) {
        for (int i = 0; i < mask.length; i++) {
          mask[i] = mask[i] == -1 ? (byte) 0 : (byte) 1;
        }
      }
      keys.add(Map.entry(pair.getFirst().toByteArray(), mask));
    }
    return new FuzzyRowFilter(keys);
  }

  private static dev.basalt.filter.ByteArrayComparable comparator(FilterProtos.CompareFilter c)
      throws BasaltIOException {
    return c.hasComparator() ? ComparatorDecoder.decode(c.getComparator()) : null;
  }

  private static byte[] bytesOrNull(boolean present, ByteString b) {
    return present ? b.toByteArray() : null;
  }
}
