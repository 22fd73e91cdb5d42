package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterStatus;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionLoad;
import org.apache.hadoop.hbase.ServerLoad;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code list_regions 'table'[, 'server' | {SERVER_NAME => ..., LOCALITY_THRESHOLD => ...}][,
 * ['COLUMN', ...]]}: a table's regions with their server, keys, size, requests and locality, as the
 * HBase 2.6 shell prints them (" %Ns |" cells, each column as wide as its widest value and at least
 * its default width, then " N rows").
 */
@SuppressWarnings(
    "deprecation") // ClusterStatus, ServerLoad, RegionLoad: what list_regions.rb reads
final class ListRegionsCommand {
  /** Every column with its minimum width, in HBase's order. */
  private static final Map<String, Integer> COLUMNS = new LinkedHashMap<>();

  static {
    COLUMNS.put("SERVER_NAME", 12);
    COLUMNS.put("REGION_NAME", 12);
    COLUMNS.put("START_KEY", 10);
    COLUMNS.put("END_KEY", 10);
    COLUMNS.put("SIZE", 5);
    COLUMNS.put("REQ", 5);
    COLUMNS.put("LOCALITY", 10);
  }

  private static final String POSSIBLE =
      "possible values are SERVER_NAME, REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY";

  private ListRegionsCommand() {}

  static Command command() {
    return Command.of("list_regions", "ddl", FirstArg.TABLE, ListRegionsCommand::listRegions)
        .withOptions(List.of("SERVER_NAME", "LOCALITY_THRESHOLD"));
  }

  private static void listRegions(Arguments a, Session s) throws Exception {
    a.expect(
        1,
        3,
        "list_regions 't1' [, 'server' | {SERVER_NAME => 'server', LOCALITY_THRESHOLD => '0.8'}]"
            + " [, ['SERVER_NAME', 'START_KEY', ...]]");
    TableName table = a.table(0);
    String serverPrefix = null;
    double threshold = 1.0;
    if (a.isHash(1)) {
      Options o = a.options(1);
      o.allowOnly(List.of("SERVER_NAME", "LOCALITY_THRESHOLD"));
      serverPrefix = o.has("SERVER_NAME") ? o.text("SERVER_NAME") : null;
      threshold = o.has("LOCALITY_THRESHOLD") ? threshold(o.text("LOCALITY_THRESHOLD")) : 1.0;
    } else if (a.has(1) && a.get(1) != null) {
      serverPrefix = a.text(1, "a server name (or a prefix of one)");
    }
    Map<String, Integer> widths = columns(a);
    if (!s.admin().isTableEnabled(table)) {
      throw new UsageException(
          "list_regions: table '"
              + table.getNameAsString()
              + "' must be enabled; enable it first: enable '"
              + table.getNameAsString()
              + "'");
    }
    ClusterStatus status = new ClusterStatus(s.admin().getClusterMetrics());
    List<HRegionLocation> locations;
    try (RegionLocator locator = s.connection().getRegionLocator(table)) {
      locations = locator.getAllRegionLocations();
    }
    List<HRegionLocation> selected = new ArrayList<>();
    for (HRegionLocation loc : locations) {
      if (loc.getServerName() == null) {
        throw new UsageException(
            "list_regions: region "
                + loc.getRegion().getRegionNameAsString()
                + " has no server: some regions might be splitting or merging or transitioning"
                + " due to other reasons; try again shortly");
      }
      if (serverPrefix == null || loc.getServerName().toString().startsWith(serverPrefix)) {
        selected.add(loc);
      }
    }
    PrintWriter out = s.out();
    List<Map<String, String>> rows = new ArrayList<>();
    for (HRegionLocation loc : selected) {
      RegionInfo region = loc.getRegion();
      ServerLoad load = status.getLoad(loc.getServerName());
      RegionLoad rl = load == null ? null : load.getRegionsLoad().get(region.getRegionName());
      if (rl == null) {
        out.println(
            "Can not find all details for region: "
                + region.getRegionNameAsString().strip()
                + " , it may be disabled or in transition");
      } else if (rl.getDataLocality() > threshold) {
        continue;
      }
      Map<String, String> row = new LinkedHashMap<>();
      row.put("SERVER_NAME", loc.getServerName().toString());
      row.put("REGION_NAME", region.getRegionNameAsString());
      row.put("START_KEY", Bytes.toStringBinary(region.getStartKey()));
      row.put("END_KEY", Bytes.toStringBinary(region.getEndKey()));
      row.put("SIZE", rl == null ? "" : Integer.toString(rl.getStorefileSizeMB()));
      row.put("REQ", rl == null ? "" : Long.toString(rl.getRequestsCount()));
      row.put("LOCALITY", rl == null ? "" : Double.toString(rl.getDataLocality()));
      for (Map.Entry<String, Integer> w : widths.entrySet()) {
        w.setValue(Math.max(w.getValue(), row.get(w.getKey()).length()));
      }
      rows.add(row);
    }
    StringBuilder line = new StringBuilder();
    for (Map.Entry<String, Integer> w : widths.entrySet()) {
      cell(line, w.getValue(), w.getKey());
    }
    out.println(line);
    line.setLength(0);
    for (int width : widths.values()) {
      cell(line, width, "-".repeat(width));
    }
    out.println(line);
    for (Map<String, String> row : rows) {
      line.setLength(0);
      for (Map.Entry<String, Integer> w : widths.entrySet()) {
        cell(line, w.getValue(), row.get(w.getKey()));
      }
      out.println(line);
    }
    out.println(" " + rows.size() + " rows");
  }

  /** printf(" %Ns |"): right-aligned in its width. */
  private static void cell(StringBuilder line, int width, String text) {
    line.append(' ').append(" ".repeat(Math.max(0, width - text.length()))).append(text);
    line.append(" |");
  }

  /** The columns asked for (all by default), in the order given, each at its minimum width. */
  private static Map<String, Integer> columns(Arguments a) throws UsageException {
    Map<String, Integer> widths = new LinkedHashMap<>();
    if (!a.has(2) || a.get(2) == null) {
      widths.putAll(COLUMNS);
      return widths;
    }
    if (!(a.get(2) instanceof List<?> list)) {
      throw new UsageException(
          "list_regions: "
              + Arguments.shown(a.get(2))
              + " must be an array of strings; "
              + POSSIBLE);
    }
    for (Object o : list) {
      String name = o instanceof ShellString str ? str.text().toUpperCase(Locale.ROOT) : null;
      if (name == null || !COLUMNS.containsKey(name)) {
        throw new UsageException(
            "list_regions: " + Arguments.shown(o) + " is not a valid column; " + POSSIBLE);
      }
      widths.putIfAbsent(name, COLUMNS.get(name));
    }
    return widths;
  }

  /**
   * LOCALITY_THRESHOLD between 0 and 1.0: quoted ('0.8'), as the shell's literals are whole numbers
   * (0 and 1 may be bare).
   */
  private static double threshold(String text) throws UsageException {
    double v;
    try {
      v = new BigDecimal(text.trim()).doubleValue();
    } catch (NumberFormatException e) {
      throw new UsageException(
          "list_regions: LOCALITY_THRESHOLD must be a number between 0 and 1.0, such as '0.8',"
              + " got '"
              + text
              + "'");
    }
    if (v < 0 || v > 1.0) {
      throw new UsageException(
          "list_regions: LOCALITY_THRESHOLD must be between 0 and 1.0, inclusive, got " + text);
    }
    return v;
  }
}
