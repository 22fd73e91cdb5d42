package dev.basalt.shell;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.ParseFilter;

/** The read options get and scan share (columns, versions, time, FILTER), applied as HBase does. */
final class ReadOptions {
  private ReadOptions() {}

  /** COLUMN or COLUMNS: 'cf' reads a family, 'cf:q' one column. */
  static void columns(Options o, Get get) throws UsageException {
    columns(o, get::addFamily, get::addColumn);
  }

  static void columns(Options o, Scan scan) throws UsageException {
    columns(o, scan::addFamily, scan::addColumn);
  }

  private static void columns(
      Options o, Consumer<byte[]> addFamily, BiConsumer<byte[], byte[]> addColumn)
      throws UsageException {
    for (String key : List.of("COLUMN", "COLUMNS")) {
      if (o.has(key)) {
        for (ShellString c : o.strings(key)) {
          Columns col = Columns.parse(c.bytes());
          if (col.hasQualifier()) {
            addColumn.accept(col.family(), col.qualifier());
          } else {
            addFamily.accept(col.family());
          }
        }
      }
    }
  }

  /** TIMERANGE => [from, to]: cells with from <= timestamp < to. */
  static void timeRange(String command, Options o, TimeRangeSetter setter) throws UsageException {
    long[] r = o.range("TIMERANGE");
    try {
      setter.set(r[0], r[1]);
    } catch (java.io.IOException | IllegalArgumentException e) {
      String why = e.getMessage() != null ? Arguments.firstLine(e.getMessage()) : e.toString();
      throw new UsageException(command + ": bad TIMERANGE [" + r[0] + ", " + r[1] + "]: " + why);
    }
  }

  /** Get's and Scan's setTimeRange. */
  @FunctionalInterface
  interface TimeRangeSetter {
    void set(long from, long to) throws java.io.IOException;
  }

  /**
   * A FILTER string in the HBase filter language, parsed by the stock client's ParseFilter (the
   * same parser the HBase shell uses), so the server receives standard filter objects.
   */
  static Filter filter(String command, Options o) throws UsageException {
    String text = o.text("FILTER");
    try {
      return new ParseFilter().parseFilterString(text.getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      String why = e.getMessage() != null ? Arguments.firstLine(e.getMessage()) : e.toString();
      throw new UsageException(
          command
              + ": bad FILTER \""
              + text
              + "\": "
              + why
              + "; e.g. FILTER => \"PrefixFilter('r1') AND ValueFilter(=, 'binary:v')\"");
    }
  }
}
