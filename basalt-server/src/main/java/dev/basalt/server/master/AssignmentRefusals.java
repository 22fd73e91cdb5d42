package dev.basalt.server.master;

import dev.basalt.schema.RegionInfo;
import dev.basalt.server.master.RegionAssignment.State;
import dev.basalt.util.BasaltIOException;

/**
 * How the master refuses an operator's request on a region whose state does not allow it, with the
 * exception classes and messages HBase 2.6's master uses, so that the stock client and the shell
 * report them as they do against HBase.
 */
final class AssignmentRefusals {
  private static final String DO_NOT_RETRY_REGION =
      "org.apache.hadoop.hbase.client.DoNotRetryRegionException";

  private AssignmentRefusals() {}

  /**
   * An assign of an open region or an unassign of a closed one (HBase's TRSP "Unexpected state").
   */
  static BasaltIOException unexpectedState(
      String encodedName, RegionAssignment a, RegionInfo info) {
    return new BasaltIOException(
        "Unexpected state for state="
            + a.state()
            + ", location="
            + (a.state() == State.OPEN ? a.location() : a.target())
            + ", table="
            + (info == null ? "?" : info.getTable().getNameAsString())
            + ", region="
            + encodedName,
        DO_NOT_RETRY_REGION,
        true);
  }

  /**
   * A move, split or merge of a region that is not OPEN (RegionStateNode.checkOnline:
   * "&lt;encoded&gt; is not OPEN; state=..."), with why.
   */
  static BasaltIOException notOpen(String encodedName, RegionAssignment a, String why) {
    return new BasaltIOException(
        encodedName + " is not OPEN; state=" + a.state() + " (" + why + ")",
        DO_NOT_RETRY_REGION,
        true);
  }

  /** A split or merge of a region whose server died (its regions wait for its log's recovery). */
  static BasaltIOException onDeadServer(String encodedName, RegionAssignment a) {
    return new BasaltIOException(
        encodedName
            + " is not online: its server "
            + a.location()
            + " died; it opens elsewhere once that server's log is recovered",
        DO_NOT_RETRY_REGION,
        true);
  }

  /** Regions that cannot merge (the same one twice, not adjacent, another table). */
  static BasaltIOException mergeRefused(String message) {
    return new BasaltIOException(
        message, "org.apache.hadoop.hbase.exceptions.MergeRegionException", true);
  }
}
