package dev.basalt.server.master;

import dev.basalt.server.cluster.ServerName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans moves that even out the number of regions per region server, as HBase's SimpleLoadBalancer
 * does: nothing when every server holds between average x (1 - slop) and average x (1 + slop)
 * regions; otherwise regions go from the servers above the average (rounded up) to those below it
 * (rounded down) until each is within one of the average. Pure function.
 */
final class RegionCountBalancer {
  /** One move: a region from one server to another. */
  record Move(String region, ServerName from, ServerName to) {}

  private RegionCountBalancer() {}

  /**
   * @param openByServer each candidate server (live, not decommissioned) and the regions open on it
   * @param slop HBase's {@code hbase.regions.slop}
   */
  static List<Move> plan(Map<ServerName, List<String>> openByServer, double slop) {
    int servers = openByServer.size();
    if (servers < 2) {
      return List.of();
    }
    int total = 0;
    for (List<String> regions : openByServer.values()) {
      total += regions.size();
    }
    double average = (double) total / servers;
    int low = (int) Math.floor(average * (1 - slop));
    int high = (int) Math.ceil(average * (1 + slop));
    boolean balanced = true;
    for (List<String> regions : openByServer.values()) {
      if (regions.size() < low || regions.size() > high) {
        balanced = false;
        break;
      }
    }
    if (balanced) {
      return List.of();
    }
    int floor = (int) Math.floor(average);
    int ceil = (int) Math.ceil(average);
    Map<ServerName, List<String>> left = new LinkedHashMap<>();
    for (Map.Entry<ServerName, List<String>> e : openByServer.entrySet()) {
      left.put(e.getKey(), new ArrayList<>(e.getValue()));
    }
    List<Move> moves = new ArrayList<>();
    while (true) {
      ServerName fullest =
          left.entrySet().stream()
              .max(Comparator.comparingInt(e -> e.getValue().size()))
              .map(Map.Entry::getKey)
              .orElseThrow();
      ServerName emptiest =
          left.entrySet().stream()
              .min(Comparator.comparingInt(e -> e.getValue().size()))
              .map(Map.Entry::getKey)
              .orElseThrow();
      int most = left.get(fullest).size();
      int least = left.get(emptiest).size();
      if (most <= ceil && least >= floor || most - least <= 1) {
        return moves;
      }
      List<String> from = left.get(fullest);
      String region = from.remove(from.size() - 1);
      left.get(emptiest).add(region);
      moves.add(new Move(region, fullest, emptiest));
    }
  }
}
