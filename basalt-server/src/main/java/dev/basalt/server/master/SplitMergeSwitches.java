package dev.basalt.server.master;

import dev.basalt.util.BasaltIOException;
import java.util.Locale;
import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProtos.MasterSwitchType;

/**
 * The cluster-wide split and merge switches of {@code Admin.splitSwitch/mergeSwitch}. Both start
 * on. While one is off, the master refuses split (or merge) requests as HBase does, with a
 * DoNotRetryIOException; the engine's own size-triggered splits do not consult it (they are not
 * requests through the master). Not persisted: a restarted server has both on again. Thread-safe.
 */
final class SplitMergeSwitches {
  private volatile boolean split = true;
  private volatile boolean merge = true;

  boolean isEnabled(MasterSwitchType type) {
    return type == MasterSwitchType.MERGE ? merge : split;
  }

  /**
   * @return the previous value
   */
  synchronized boolean set(MasterSwitchType type, boolean on) {
    boolean prev = isEnabled(type);
    if (type == MasterSwitchType.MERGE) {
      merge = on;
    } else {
      split = on;
    }
    return prev;
  }

  /**
   * @throws BasaltIOException (DoNotRetryIOException) when the switch is off
   */
  void require(MasterSwitchType type, String what) throws BasaltIOException {
    if (!isEnabled(type)) {
      throw BasaltIOException.doNotRetry(
          what + " failed since " + type.name().toLowerCase(Locale.ROOT) + " switch is off");
    }
  }
}
