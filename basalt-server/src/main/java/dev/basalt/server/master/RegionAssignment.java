package dev.basalt.server.master;

import dev.basalt.server.cluster.ServerName;

/**
 * Where one region is and where it is going: its assignment record, kept by the master in memory
 * and in its store ({@link MasterStore}) before any command it implies is sent. Immutable; each
 * transition makes a new record.
 *
 * @param state the region's state (HBase's names)
 * @param target the server of the transition in progress (OPENING there, CLOSING there), or null
 * @param location the server the region was last OPEN on (what hbase:meta's {@code info:server}
 *     keeps naming while the region moves), or null
 * @param openSeqNum the sequence id that open reported ({@code info:seqnumDuringOpen})
 * @param op the id of the operation in progress, echoed by the region server's report
 * @param moveTo where to open the region once it closed (a move), or null
 * @param held closed on purpose ({@code unassign}): not opened again until assigned
 * @param failures failed opens in a row (FAILED_OPEN after too many)
 */
record RegionAssignment(
    State state,
    ServerName target,
    ServerName location,
    long openSeqNum,
    long op,
    ServerName moveTo,
    boolean held,
    int failures) {

  /** HBase's region state names, those Basalt's master uses. */
  enum State {
    OFFLINE,
    OPENING,
    OPEN,
    CLOSING,
    CLOSED,
    FAILED_OPEN,
    /** Its server died with the region open: its log must be recovered before it opens again. */
    ABNORMALLY_CLOSED,
    /** Its server hands it over to two daughters (a split), as the master planned. */
    SPLITTING,
    /** Its server hands it and its neighbour over to one new region (a merge). */
    MERGING
  }

  static final RegionAssignment NEW =
      new RegionAssignment(State.OFFLINE, null, null, 0, 0, null, false, 0);

  RegionAssignment opening(ServerName server, long opId) {
    return new RegionAssignment(
        State.OPENING, server, location, openSeqNum, opId, null, false, failures);
  }

  RegionAssignment open(ServerName server, long seq) {
    return new RegionAssignment(State.OPEN, null, server, seq, op, null, false, 0);
  }

  RegionAssignment closing(long opId, ServerName destination, boolean hold) {
    return new RegionAssignment(
        State.CLOSING, location, location, openSeqNum, opId, destination, hold, 0);
  }

  RegionAssignment closed() {
    return new RegionAssignment(State.CLOSED, null, location, openSeqNum, op, null, held, 0);
  }

  RegionAssignment offline() {
    return new RegionAssignment(
        State.OFFLINE, null, location, openSeqNum, op, null, held, failures);
  }

  RegionAssignment failedOpen(boolean giveUp) {
    return new RegionAssignment(
        giveUp ? State.FAILED_OPEN : State.OFFLINE,
        null,
        location,
        openSeqNum,
        op,
        null,
        held,
        failures + 1);
  }

  /** Splitting or merging on the server where it is open. */
  RegionAssignment handingOver(State how, long opId) {
    return new RegionAssignment(how, location, location, openSeqNum, opId, null, false, 0);
  }

  /** Back to OPEN where it was (the server reverted a split or merge and serves it again). */
  RegionAssignment reverted() {
    return new RegionAssignment(State.OPEN, null, location, openSeqNum, op, null, false, 0);
  }

  /** Its server died with it: {@code location} names that server until its log is recovered. */
  RegionAssignment abnormallyClosedOn(ServerName server) {
    return new RegionAssignment(
        State.ABNORMALLY_CLOSED, null, server, openSeqNum, op, null, held, 0);
  }

  RegionAssignment assignable() {
    return new RegionAssignment(State.OFFLINE, null, location, openSeqNum, op, null, false, 0);
  }

  /** Whether a transition is in progress (the region is "in transition"). */
  boolean inTransition() {
    return state == State.OPENING
        || state == State.CLOSING
        || state == State.SPLITTING
        || state == State.MERGING;
  }

  /**
   * The record as stored: {@code key=value} pairs separated by {@code |} (server names in HBase's
   * {@code host,port,startcode} form, empty when null).
   */
  String encode() {
    return "state="
        + state
        + "|target="
        + name(target)
        + "|location="
        + name(location)
        + "|seq="
        + openSeqNum
        + "|op="
        + op
        + "|moveTo="
        + name(moveTo)
        + "|held="
        + held
        + "|failures="
        + failures;
  }

  /**
   * @throws IllegalArgumentException naming the text when it is not a record
   */
  static RegionAssignment decode(String text) {
    java.util.Map<String, String> f = new java.util.HashMap<>();
    for (String part : text.split("\\|", -1)) {
      int eq = part.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("not an assignment record: '" + text + "'");
      }
      f.put(part.substring(0, eq), part.substring(eq + 1));
    }
    try {
      return new RegionAssignment(
          State.valueOf(f.get("state")),
          server(f.get("target")),
          server(f.get("location")),
          Long.parseLong(f.get("seq")),
          Long.parseLong(f.get("op")),
          server(f.get("moveTo")),
          Boolean.parseBoolean(f.get("held")),
          Integer.parseInt(f.get("failures")));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not an assignment record: '" + text + "'", e);
    }
  }

  private static String name(ServerName s) {
    return s == null ? "" : s.toString();
  }

  private static ServerName server(String s) {
    return s == null || s.isEmpty() ? null : ServerName.parse(s);
  }
}
