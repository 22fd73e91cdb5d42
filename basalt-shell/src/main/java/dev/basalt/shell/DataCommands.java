package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;

/** Row reads and writes: put, get, delete, deleteall, incr, get_counter, append. */
final class DataCommands {
  private static final String DML = "dml";
  static final List<String> GET_KEYS =
      List.of("COLUMN", "COLUMNS", "VERSIONS", "TIMERANGE", "TIMESTAMP", "FILTER", "MAXLENGTH");

  private DataCommands() {}

  static List<Command> all() {
    return List.of(
        Command.of("put", DML, FirstArg.TABLE, DataCommands::put),
        Command.of("get", DML, FirstArg.TABLE, DataCommands::get).withOptions(GET_KEYS),
        Command.of("delete", DML, FirstArg.TABLE, DataCommands::delete),
        Command.of("deleteall", DML, FirstArg.TABLE, DataCommands::deleteall)
            .withOptions(List.of("ROWPREFIXFILTER", "CACHE")),
        Command.of("incr", DML, FirstArg.TABLE, DataCommands::incr),
        Command.of("get_counter", DML, FirstArg.TABLE, DataCommands::getCounter),
        Command.of("append", DML, FirstArg.TABLE, DataCommands::append));
  }

  private static void put(Arguments a, Session s) throws Exception {
    a.expect(4, 5, "put 't1', 'row', 'cf:q', 'value' [, timestamp]");
    TableName name = a.table(0);
    byte[] row = a.bytes(1, "a row key");
    Columns col = Columns.parse(a.bytes(2, "a column ('family:qualifier')"));
    byte[] value = a.bytes(3, "a value");
    Put p = new Put(row);
    if (a.has(4)) {
      p.addColumn(col.family(), col.qualifierOrEmpty(), a.number(4, "a timestamp"), value);
    } else {
      p.addColumn(col.family(), col.qualifierOrEmpty(), value);
    }
    try (Table t = s.table(name)) {
      t.put(p);
    }
  }

  private static void get(Arguments a, Session s) throws Exception {
    a.expect(
        2, 3, "get 't1', 'row' [, 'cf:q' | ['cf:a', 'cf:b'] | {COLUMN => 'cf:q', VERSIONS => 3}]");
    TableName name = a.table(0);
    Get get = new Get(a.bytes(1, "a row key"));
    Options o;
    if (!a.has(2) || a.isHash(2)) {
      o = a.options(2);
    } else {
      o = new Options("get", Map.of("COLUMNS", a.get(2)));
    }
    o.allowOnly(GET_KEYS);
    ReadOptions.columns(o, get);
    if (o.has("VERSIONS")) {
      get.readVersions(o.integer("VERSIONS"));
    }
    if (o.has("TIMESTAMP")) {
      get.setTimestamp(o.number("TIMESTAMP"));
    }
    if (o.has("TIMERANGE")) {
      ReadOptions.timeRange("get", o, get::setTimeRange);
    }
    if (o.has("FILTER")) {
      get.setFilter(ReadOptions.filter("get", o));
    }
    int maxLength = o.has("MAXLENGTH") ? o.integer("MAXLENGTH") : -1;
    Result r;
    try (Table t = s.table(name)) {
      r = t.get(get);
    }
    Formatter f = s.formatter();
    f.header("COLUMN", "CELL");
    for (Cell c : r.rawCells()) {
      f.row(Formatter.column(c), cut(f.cell(name, c), maxLength));
    }
    f.footer(r.isEmpty() ? 0 : 1);
  }

  static String cut(String s, int maxLength) {
    return maxLength >= 0 && s.length() > maxLength ? s.substring(0, maxLength) : s;
  }

  private static void delete(Arguments a, Session s) throws Exception {
    a.expect(3, 4, "delete 't1', 'row', 'cf:q' [, timestamp]");
    TableName name = a.table(0);
    Delete d = new Delete(a.bytes(1, "a row key"));
    Columns col = Columns.parse(a.bytes(2, "a column ('family:qualifier')"));
    long ts = a.has(3) ? a.number(3, "a timestamp") : HConstants.LATEST_TIMESTAMP;
    d.addColumns(col.family(), col.qualifierOrEmpty(), ts);
    try (Table t = s.table(name)) {
      t.delete(d);
    }
  }

  private static void deleteall(Arguments a, Session s) throws Exception {
    a.expect(
        2,
        4,
        "deleteall 't1', 'row' [, 'cf:q' [, timestamp]] or deleteall 't1', {ROWPREFIXFILTER => 'p'}");
    TableName name = a.table(0);
    if (a.isHash(1)) {
      deletePrefix(a, s, name);
      return;
    }
    long ts = a.has(3) ? a.number(3, "a timestamp") : HConstants.LATEST_TIMESTAMP;
    Delete d = new Delete(a.bytes(1, "a row key"), ts);
    if (a.has(2)) {
      Columns col = Columns.parse(a.bytes(2, "a column ('family' or 'family:qualifier')"));
      if (col.hasQualifier()) {
        d.addColumns(col.family(), col.qualifier(), ts);
      } else {
        d.addFamily(col.family(), ts);
      }
    }
    try (Table t = s.table(name)) {
      t.delete(d);
    }
  }

  /** Deletes every row starting with ROWPREFIXFILTER, in batches of CACHE rows (default 100). */
  private static void deletePrefix(Arguments a, Session s, TableName name) throws Exception {
    a.expect(2, 2, "deleteall 't1', {ROWPREFIXFILTER => 'prefix'}");
    Options o = a.options(1);
    o.allowOnly(List.of("ROWPREFIXFILTER", "CACHE"));
    if (!o.has("ROWPREFIXFILTER")) {
      throw new UsageException("deleteall: the hash form needs ROWPREFIXFILTER => 'prefix'");
    }
    int batch = o.has("CACHE") ? Math.max(1, o.integer("CACHE")) : 100;
    Scan scan =
        new Scan()
            .setStartStopRowForPrefixScan(o.bytes("ROWPREFIXFILTER"))
            .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
            .setCaching(batch);
    try (Table t = s.table(name);
        ResultScanner scanner = t.getScanner(scan)) {
      List<Delete> pending = new ArrayList<>();
      for (Result r = scanner.next(); r != null; r = scanner.next()) {
        s.cancellation().check();
        pending.add(new Delete(r.getRow()));
        if (pending.size() >= batch) {
          t.delete(pending);
          pending = new ArrayList<>();
        }
      }
      if (!pending.isEmpty()) {
        t.delete(pending);
      }
    }
  }

  private static void incr(Arguments a, Session s) throws Exception {
    a.expect(3, 4, "incr 't1', 'row', 'cf:q' [, amount]");
    TableName name = a.table(0);
    Columns col = counterColumn(a);
    long amount = a.has(3) ? a.number(3, "an amount") : 1;
    Increment inc = new Increment(a.bytes(1, "a row key"));
    inc.addColumn(col.family(), col.qualifier(), amount);
    Result r;
    try (Table t = s.table(name)) {
      r = t.increment(inc);
    }
    byte[] v = r.getValue(col.family(), col.qualifier());
    s.out().println("COUNTER VALUE = " + Bytes.toLong(v));
  }

  private static void getCounter(Arguments a, Session s) throws Exception {
    a.expect(3, 3, "get_counter 't1', 'row', 'cf:q'");
    TableName name = a.table(0);
    Columns col = counterColumn(a);
    Get get = new Get(a.bytes(1, "a row key")).addColumn(col.family(), col.qualifier());
    Result r;
    try (Table t = s.table(name)) {
      r = t.get(get);
    }
    byte[] v = r.getValue(col.family(), col.qualifier());
    if (v == null) {
      s.out().println("No counter found at specified coordinates");
      return;
    }
    if (v.length != Bytes.SIZEOF_LONG) {
      throw new UsageException(
          "get_counter: the cell holds "
              + v.length
              + " bytes, not a counter (8 bytes); read it with get");
    }
    s.out().println("COUNTER VALUE = " + Bytes.toLong(v));
  }

  private static Columns counterColumn(Arguments a) throws UsageException {
    Columns col = Columns.parse(a.bytes(2, "a column ('family:qualifier')"));
    if (!col.hasQualifier()) {
      throw new UsageException(
          a.command() + ": give both family and qualifier, as in 'cf:counter'");
    }
    return col;
  }

  private static void append(Arguments a, Session s) throws Exception {
    a.expect(4, 4, "append 't1', 'row', 'cf:q', 'value'");
    TableName name = a.table(0);
    Columns col = Columns.parse(a.bytes(2, "a column ('family:qualifier')"));
    if (!col.hasQualifier()) {
      throw new UsageException("append: give both family and qualifier, as in 'cf:q'");
    }
    Append app = new Append(a.bytes(1, "a row key"));
    app.addColumn(col.family(), col.qualifier(), a.bytes(3, "a value"));
    Result r;
    try (Table t = s.table(name)) {
      r = t.append(app);
    }
    byte[] v = r.getValue(col.family(), col.qualifier());
    s.out().println("CURRENT VALUE = " + (v == null ? "" : Bytes.toStringBinary(v)));
  }
}
