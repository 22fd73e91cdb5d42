package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;

/** Range reads: scan and count. Both stop between rows on Ctrl-C. */
final class ScanCommands {
  static final List<String> SCAN_KEYS =
      List.of(
          "STARTROW",
          "STOPROW",
          "ROWPREFIXFILTER",
          "COLUMNS",
          "COLUMN",
          "LIMIT",
          "VERSIONS",
          "TIMERANGE",
          "TIMESTAMP",
          "FILTER",
          "REVERSED",
          "RAW",
          "CACHE",
          "CACHE_BLOCKS",
          "BATCH",
          "MAXLENGTH");
  static final List<String> COUNT_KEYS =
      List.of(
          "INTERVAL",
          "CACHE",
          "STARTROW",
          "STOPROW",
          "ROWPREFIXFILTER",
          "COLUMNS",
          "COLUMN",
          "FILTER");

  private ScanCommands() {}

  static List<Command> all() {
    return List.of(
        Command.of("scan", "dml", FirstArg.TABLE, ScanCommands::scan).withOptions(SCAN_KEYS),
        Command.of("count", "dml", FirstArg.TABLE, ScanCommands::count).withOptions(COUNT_KEYS));
  }

  /** A Scan from the options, with HBase shell defaults (caching only when CACHE is given). */
  static Scan toScan(String command, Options o) throws UsageException {
    Scan scan = new Scan();
    if (o.has("STARTROW")) {
      scan.withStartRow(o.bytes("STARTROW"));
    }
    if (o.has("STOPROW")) {
      scan.withStopRow(o.bytes("STOPROW"));
    }
    if (o.has("ROWPREFIXFILTER")) {
      // as in HBase, the prefix replaces STARTROW and STOPROW
      scan.setStartStopRowForPrefixScan(o.bytes("ROWPREFIXFILTER"));
    }
    ReadOptions.columns(o, scan);
    if (o.has("FILTER")) {
      scan.setFilter(ReadOptions.filter(command, o));
    }
    if (o.has("TIMESTAMP")) {
      scan.setTimestamp(o.number("TIMESTAMP"));
    }
    if (o.has("TIMERANGE")) {
      ReadOptions.timeRange(command, o, scan::setTimeRange);
    }
    if (o.has("VERSIONS")) {
      scan.readVersions(o.integer("VERSIONS"));
    }
    if (o.has("REVERSED")) {
      scan.setReversed(o.bool("REVERSED"));
    }
    if (o.has("RAW")) {
      scan.setRaw(o.bool("RAW"));
    }
    if (o.has("CACHE")) {
      scan.setCaching(o.integer("CACHE"));
    }
    if (o.has("CACHE_BLOCKS")) {
      scan.setCacheBlocks(o.bool("CACHE_BLOCKS"));
    }
    if (o.has("BATCH")) {
      scan.setBatch(o.integer("BATCH"));
    }
    if (o.has("LIMIT")) {
      int limit = o.integer("LIMIT");
      if (limit > 0) {
        scan.setLimit(limit);
      }
    }
    return scan;
  }

  private static void scan(Arguments a, Session s) throws Exception {
    a.expect(1, 2, "scan 't1' [, {STARTROW => 'a', LIMIT => 10, ...}]");
    TableName name = a.table(0);
    Options o = a.options(1);
    o.allowOnly(SCAN_KEYS);
    Scan scan = toScan("scan", o);
    long limit = o.has("LIMIT") ? o.number("LIMIT") : -1;
    int maxLength = o.has("MAXLENGTH") ? o.integer("MAXLENGTH") : -1;
    Formatter f = s.formatter();
    long rows = 0;
    try (Table t = s.table(name);
        ResultScanner scanner = t.getScanner(scan)) {
      // the first result comes before the header, so a scan that cannot start prints only the error
      Result r = scanner.next();
      f.header("ROW", "COLUMN+CELL");
      for (; r != null; r = scanner.next()) {
        s.cancellation().check();
        String key = Bytes.toStringBinary(r.getRow());
        for (Cell c : r.rawCells()) {
          f.row(
              key,
              "column="
                  + Formatter.column(c)
                  + ", "
                  + DataCommands.cut(f.cell(name, c), maxLength));
        }
        rows++;
        if (limit > 0 && rows >= limit) {
          break;
        }
      }
    } catch (Exception e) {
      footerIfCancelled(s, rows);
      throw e;
    }
    f.footer(rows);
  }

  private static void count(Arguments a, Session s) throws Exception {
    a.expect(1, 2, "count 't1' [, INTERVAL => 1000, CACHE => 10]");
    TableName name = a.table(0);
    Options o = a.options(1);
    o.allowOnly(COUNT_KEYS);
    long interval = o.has("INTERVAL") ? o.number("INTERVAL") : 1000;
    if (interval <= 0) {
      throw new UsageException("count: INTERVAL must be at least 1");
    }
    Scan scan = toScan("count", o);
    scan.setCacheBlocks(false);
    scan.setCaching(o.has("CACHE") ? o.integer("CACHE") : 10);
    // Only the first cell of each row is needed to count it; with a user filter both must pass.
    Filter user = scan.getFilter();
    scan.setFilter(
        user == null ? new FirstKeyOnlyFilter() : new FilterList(user, new FirstKeyOnlyFilter()));
    Formatter f = s.formatter();
    long count = 0;
    try (Table t = s.table(name);
        ResultScanner scanner = t.getScanner(scan)) {
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        s.cancellation().check();
        count++;
        if (count % interval == 0) {
          f.line("Current count: " + count + ", row: " + Bytes.toStringBinary(r.getRow()));
        }
      }
    } catch (Exception e) {
      footerIfCancelled(s, count);
      throw e;
    }
    f.footer(count);
  }

  /** A command stopped by Ctrl-C still reports how many rows it got through. */
  private static void footerIfCancelled(Session s, long rows) {
    if (s.cancellation().requested()) {
      s.out().println(); // after the ^C the terminal echoed
      s.formatter().footer(rows);
    }
  }
}
