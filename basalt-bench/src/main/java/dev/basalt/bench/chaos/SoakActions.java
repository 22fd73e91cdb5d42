package dev.basalt.bench.chaos;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The soak's action names, their weights in random mode, and how many processes each kills (kill
 * -9, or a fault point's halt, which is the same to the cluster).
 */
final class SoakActions {
  /** An action run: its report and the processes it ended abruptly. */
  record Ran(ActionReport report, int regionServersKilled, int mastersKilled) {}

  @FunctionalInterface
  private interface Run {
    Ran run(ChaosActions a) throws IOException, InterruptedException;
  }

  private record Entry(int weight, Run run) {}

  static final List<String> MASTER_FAULT_POINTS =
      List.of(
          ChaosActions.ASSIGNMENT_AFTER_PERSIST,
          ChaosActions.RECOVERY_AFTER_FENCE,
          ChaosActions.RECOVERY_AFTER_SPLIT,
          ChaosActions.RECOVERY_AFTER_ARCHIVE,
          ChaosActions.SPLITTER_SOME_WRITTEN,
          ChaosActions.SPLITTER_BEFORE_RENAME);

  static final List<String> CHURN =
      List.of("move", "split", "merge", "balance", "flush", "compact");

  private static final Map<String, Entry> FAULTS = new LinkedHashMap<>();

  static {
    FAULTS.put("kill-rs-busiest", new Entry(4, a -> rs(a.killBusiestRegionServer(), 1)));
    FAULTS.put("kill-rs-holding-table", new Entry(3, a -> rs(a.killRegionServerHoldingTable(), 1)));
    FAULTS.put("kill-2-rs", new Entry(1, a -> rs(a.killTwoRegionServers(), 2)));
    FAULTS.put("kill-rs-recovery-target", new Entry(1, a -> rs(a.killRecoveryTarget(), 2)));
    FAULTS.put("restart-rs-same-port", new Entry(2, a -> rs(a.restartRegionServerOnSamePort(), 1)));
    FAULTS.put("suspend-rs-short", new Entry(1, null)); // needs the session timeout: see run
    FAULTS.put("suspend-rs-long", new Entry(1, null));
    FAULTS.put(
        "suspend-rs-until-recovered",
        new Entry(0, a -> killedIfEnded(a.suspendRegionServerUntilRecovered())));
    FAULTS.put("kill-master", new Entry(3, a -> master(a.killActiveMaster())));
    FAULTS.put(
        "kill-master-during-create", new Entry(2, a -> master(a.killActiveMasterDuringCreate())));
    FAULTS.put("master-fault", new Entry(2, null)); // a random point: see run
    for (String p : MASTER_FAULT_POINTS) {
      FAULTS.put("master-fault:" + p, new Entry(0, a -> masterFault(a.masterFault(p))));
    }
    FAULTS.put(
        "rs-fault-recovered-flushed",
        new Entry(1, a -> rsFault(a.regionServerHaltsOpeningRecoveredRegion())));
    FAULTS.put("rs-fault-split", new Entry(1, a -> rsFault(a.regionServerHaltsInSplit())));
  }

  private final ChaosActions actions;
  private final Random random;
  private final long sessionMillis;

  SoakActions(ChaosActions actions, Random random, long sessionMillis) {
    this.actions = actions;
    this.random = random;
    this.sessionMillis = sessionMillis;
  }

  static boolean isName(String name) {
    return FAULTS.containsKey(name) || CHURN.contains(name);
  }

  static List<String> names() {
    List<String> all = new ArrayList<>(FAULTS.keySet());
    all.addAll(CHURN);
    return all;
  }

  /** A fault action by weight. */
  String randomFault() {
    int total = 0;
    for (Entry e : FAULTS.values()) {
      total += e.weight();
    }
    int pick = random.nextInt(total);
    for (Map.Entry<String, Entry> e : FAULTS.entrySet()) {
      pick -= e.getValue().weight();
      if (pick < 0) {
        return e.getKey();
      }
    }
    throw new AssertionError("weights");
  }

  String randomChurn() {
    return CHURN.get(random.nextInt(CHURN.size()));
  }

  Ran run(String name) throws IOException, InterruptedException {
    switch (name) {
      case "suspend-rs-short":
        // well inside the session: the server keeps its regions
        return killedIfEnded(
            actions.suspendRegionServer(name, Duration.ofMillis(sessionMillis * 3 / 10)));
      case "suspend-rs-long":
        // past the session: the master fences it (kills it, same host) before the SIGCONT
        return killedIfEnded(
            actions.suspendRegionServer(name, Duration.ofMillis(sessionMillis * 3 / 2)));
      case "master-fault":
        String point = MASTER_FAULT_POINTS.get(random.nextInt(MASTER_FAULT_POINTS.size()));
        return masterFault(actions.masterFault(point));
      case "move":
        return none(actions.move());
      case "split":
        return none(actions.split());
      case "merge":
        return none(actions.merge());
      case "balance":
        return none(actions.balance());
      case "flush":
        return none(actions.flush());
      case "compact":
        return none(actions.compact());
      default:
        Entry e = FAULTS.get(name);
        if (e == null || e.run() == null) {
          throw new IllegalArgumentException("unknown action " + name);
        }
        return e.run().run(actions);
    }
  }

  private static Ran none(ActionReport r) {
    return new Ran(r, 0, 0);
  }

  private static Ran rs(ActionReport r, int killed) {
    return new Ran(r, killed, 0);
  }

  private static Ran master(ActionReport r) {
    return new Ran(r, 0, 1);
  }

  /** A suspended server the master fenced by killing it counts as a kill. */
  private static Ran killedIfEnded(ActionReport r) {
    boolean ended =
        Boolean.FALSE.equals(r.details().get("aliveAfter")) || r.detailMillis("exit") == 137;
    return new Ran(r, ended ? 1 : 0, 0);
  }

  private static Ran masterFault(ActionReport r) {
    boolean fired = Boolean.TRUE.equals(r.details().get("fired"));
    boolean rsKilled = r.target().contains("kill -9");
    return new Ran(r, rsKilled ? 1 : 0, fired ? 1 : 0);
  }

  /** The servers killed -9 beside the armed one, which halted (or was killed) too. */
  private static Ran rsFault(ActionReport r) {
    return new Ran(r, (int) Math.max(0, r.detailMillis("killed")) + 1, 0);
  }
}
