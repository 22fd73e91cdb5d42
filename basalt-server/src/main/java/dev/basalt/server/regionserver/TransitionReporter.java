package dev.basalt.server.regionserver;

import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;

/**
 * Where a region server sends the outcome of the master's open and close commands (the master link,
 * which delivers them in order with retries).
 */
@FunctionalInterface
public interface TransitionReporter {
  /** Queues a report; never blocks on the master. */
  void report(RegionStateTransition transition);
}
