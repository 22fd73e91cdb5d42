package dev.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.server.cluster.ServerName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Region-count balancing with slop, as HBase's SimpleLoadBalancer plans it. */
class RegionCountBalancerTest {
  private static Map<ServerName, List<String>> cluster(int... counts) {
    Map<ServerName, List<String>> out = new LinkedHashMap<>();
    int region = 0;
    for (int i = 0; i < counts.length; i++) {
      List<String> regions = new ArrayList<>();
      for (int j = 0; j < counts[i]; j++) {
        regions.add("r" + region++);
      }
      out.put(new ServerName("h" + i, 16020, i), regions);
    }
    return out;
  }

  @Test
  void aNewEmptyServerGetsItsShare() {
    List<RegionCountBalancer.Move> moves = RegionCountBalancer.plan(cluster(6, 6, 0), 0.2);
    assertThat(moves).hasSize(4);
    assertThat(moves).allMatch(m -> m.to().host().equals("h2"));
  }

  @Test
  void withinTheSlopNothingMoves() {
    assertThat(RegionCountBalancer.plan(cluster(4, 5, 4), 0.2)).isEmpty();
    assertThat(RegionCountBalancer.plan(cluster(12), 0.2)).isEmpty();
  }

  @Property(tries = 200)
  void afterThePlanEveryServerIsWithinOneOfTheAverage(
      @ForAll @Size(min = 2, max = 6) List<@IntRange(min = 0, max = 40) Integer> counts) {
    int[] c = counts.stream().mapToInt(Integer::intValue).toArray();
    Map<ServerName, List<String>> before = cluster(c);
    List<RegionCountBalancer.Move> moves = RegionCountBalancer.plan(before, 0.0);
    Map<ServerName, Integer> after = new LinkedHashMap<>();
    before.forEach((s, r) -> after.put(s, r.size()));
    for (RegionCountBalancer.Move m : moves) {
      assertThat(before.get(m.from())).contains(m.region());
      after.merge(m.from(), -1, Integer::sum);
      after.merge(m.to(), 1, Integer::sum);
    }
    int max = after.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    int min = after.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
    assertThat(max - min).isLessThanOrEqualTo(1);
  }
}
