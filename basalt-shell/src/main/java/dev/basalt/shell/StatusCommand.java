package dev.basalt.shell;

import dev.basalt.shell.Command.FirstArg;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterStatus;
import org.apache.hadoop.hbase.RegionLoad;
import org.apache.hadoop.hbase.ServerLoad;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.ServerTask;
import org.apache.hadoop.hbase.master.RegionState;

/**
 * {@code status}: the HBase 2.6 shell's formats ('summary', 'simple', 'detailed', 'tasks',
 * 'replication'), printed line for line as hbase-shell's admin.rb does. Like admin.rb it reads the
 * cluster through the client's ClusterStatus view (deprecated, but its ServerLoad and RegionLoad
 * texts are the ones HBase prints, which differ from ServerMetrics's).
 */
@SuppressWarnings("deprecation") // ClusterStatus, ServerLoad and RegionLoad: what admin.rb prints
final class StatusCommand {
  private static final List<String> FORMATS =
      List.of("summary", "simple", "detailed", "tasks", "replication");

  private StatusCommand() {}

  static Command command() {
    return Command.of("status", "general", FirstArg.NONE, StatusCommand::status);
  }

  private static void status(Arguments a, Session s) throws Exception {
    a.expect(0, 2, "status [, 'summary' | 'simple' | 'detailed' | 'tasks' | 'replication']");
    String format = a.has(0) ? a.text(0, "a format").toLowerCase(Locale.ROOT) : "summary";
    if (!FORMATS.contains(format)) {
      throw new UsageException(
          "status: unknown format '"
              + format
              + "'; use 'summary', 'simple', 'detailed', 'tasks' or 'replication'");
    }
    String type = "both";
    if (a.has(1)) {
      if (!format.equals("replication")) {
        throw new UsageException(
            "status: only 'replication' takes a second argument ('source' or 'sink')");
      }
      type = a.text(1, "'source', 'sink' or 'both'").toLowerCase(Locale.ROOT);
      if (!List.of("source", "sink", "both").contains(type)) {
        throw new UsageException(
            "status: unknown replication type '" + type + "'; use 'source', 'sink' or 'both'");
      }
    }
    ClusterStatus status = new ClusterStatus(s.admin().getClusterMetrics());
    PrintWriter out = s.out();
    switch (format) {
      case "detailed" -> detailed(status, out);
      case "simple" -> simple(status, out);
      case "tasks" -> tasks(status, out);
      case "replication" -> ReplicationStatus.print(status, type, out);
      default ->
          out.println(
              String.format(
                  Locale.ROOT,
                  "1 active master, %d backup masters, %d servers, %d dead, %.4f average load",
                  status.getBackupMastersSize(),
                  status.getServersSize(),
                  status.getDeadServers(),
                  status.getAverageLoad()));
    }
  }

  private static void simple(ClusterStatus status, PrintWriter out) {
    long load = 0;
    long regions = 0;
    activeMaster(status, out);
    backupMasters(status, out);
    out.println(status.getServersSize() + " live servers");
    for (ServerName server : status.getServers()) {
      ServerLoad sl = status.getLoad(server);
      out.println("    " + hostPortStartCode(server));
      out.println("        " + sl);
      load += sl.getNumberOfRequests();
      regions += sl.getNumberOfRegions();
    }
    deadServers(status, out);
    out.println("Aggregate load: " + load + ", regions: " + regions);
  }

  private static void detailed(ClusterStatus status, PrintWriter out) {
    out.println("version " + status.getHBaseVersion());
    // regions in transition first, as admin.rb does: usually there are none
    List<RegionState> inTransition = status.getRegionStatesInTransition();
    out.println(inTransition.size() + " regionsInTransition");
    for (RegionState rs : inTransition) {
      out.println("    " + rs);
    }
    if (activeMaster(status, out)) {
      for (ServerTask task : status.getMasterTasks()) {
        out.println("    " + task);
      }
    }
    backupMasters(status, out);
    out.println("master coprocessors: " + Arrays.toString(status.getMasterCoprocessors()));
    out.println(status.getServersSize() + " live servers");
    for (ServerName server : status.getServers()) {
      ServerLoad sl = status.getLoad(server);
      out.println("    " + hostPortStartCode(server));
      out.println("        " + sl);
      for (Map.Entry<byte[], RegionLoad> e : sl.getRegionsLoad().entrySet()) {
        out.println("        " + rubyDump(e.getValue().getNameAsString()));
        out.println("            " + e.getValue());
      }
      for (ServerTask task : sl.getTasks()) {
        out.println("        " + task);
      }
    }
    out.println(status.getDeadServersSize() + " dead servers");
    for (ServerName dead : status.getDeadServerNames()) {
      out.println("    " + dead);
    }
  }

  /** What every server is busy with now: its tasks in state RUNNING. */
  private static void tasks(ClusterStatus status, PrintWriter out) {
    if (activeMaster(status, out)) {
      runningTasks(status.getMasterTasks(), "    ", out);
    }
    out.println(status.getServersSize() + " live servers");
    for (ServerName server : status.getServers()) {
      out.println("    " + hostPortStartCode(server));
      runningTasks(status.getLoad(server).getTasks(), "        ", out);
    }
  }

  private static void runningTasks(List<ServerTask> tasks, String indent, PrintWriter out) {
    boolean printed = false;
    for (ServerTask task : tasks) {
      if (task.getState() == ServerTask.State.RUNNING) {
        out.println(indent + task);
        printed = true;
      }
    }
    if (!printed) {
      out.println(indent + "no active tasks");
    }
  }

  /** "active master: host:port startcode"; false (and nothing printed) when there is none. */
  private static boolean activeMaster(ClusterStatus status, PrintWriter out) {
    ServerName master = status.getMaster();
    if (master == null) {
      return false;
    }
    out.println("active master:  " + hostPortStartCode(master));
    return true;
  }

  private static void backupMasters(ClusterStatus status, PrintWriter out) {
    out.println(status.getBackupMastersSize() + " backup masters");
    for (ServerName b : status.getBackupMasters()) {
      out.println("    " + hostPortStartCode(b));
    }
  }

  private static void deadServers(ClusterStatus status, PrintWriter out) {
    out.println(status.getDeadServers() + " dead servers");
    for (ServerName dead : status.getDeadServerNames()) {
      out.println("    " + dead);
    }
  }

  private static String hostPortStartCode(ServerName s) {
    return s.getHostname() + ":" + s.getPort() + " " + s.getStartcode();
  }

  /**
   * Ruby's String#dump of printable ASCII text (a region name in toStringBinary form): in double
   * quotes, with {@code "} and {@code \} escaped, and {@code #} escaped before {, $ or @.
   */
  static String rubyDump(String text) {
    StringBuilder sb = new StringBuilder(text.length() + 8).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
      if (c == '"' || c == '\\' || (c == '#' && (next == '{' || next == '$' || next == '@'))) {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.append('"').toString();
  }
}
