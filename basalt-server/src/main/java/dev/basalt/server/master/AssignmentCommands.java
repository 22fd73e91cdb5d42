package dev.basalt.server.master;

import dev.basalt.schema.RegionInfo;
import dev.basalt.server.cluster.ServerName;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commands the {@link AssignmentManager} decides under its lock and sends after it, on threads
 * of their own: a region server's answer comes back as a report, so nothing here waits for it. A
 * command that cannot be sent is only logged: the next reconciliation pass sends it again (or finds
 * the server dead), and region servers answer repeated commands idempotently.
 */
final class AssignmentCommands implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AssignmentCommands.class);

  /** One command: open or close a region, or hand regions over (a split or merge plan). */
  record Command(
      ServerName server,
      RegionInfo region,
      boolean open,
      ServerName dest,
      long op,
      RegionStateTransition plan) {
    Command(ServerName server, RegionInfo region, boolean open, ServerName dest, long op) {
      this(server, region, open, dest, op, null);
    }

    static Command handOver(ServerName server, RegionStateTransition plan, long op) {
      return new Command(server, null, false, null, op, plan);
    }

    private String describe() {
      return plan != null
          ? plan.getTransitionCode() + " " + plan.getRegionInfoCount() + " regions"
          : (open ? "open of " : "close of ") + region.getEncodedName();
    }
  }

  private final RegionCommands commands;
  private final ExecutorService senders =
      Executors.newFixedThreadPool(
          4,
          r -> {
            Thread t = new Thread(r, "basalt-assignment-rpc");
            t.setDaemon(true);
            return t;
          });
  private volatile boolean closed;

  AssignmentCommands(RegionCommands commands) {
    this.commands = commands;
  }

  /** Sends each command on a sender thread; nothing once closed. */
  void send(List<Command> batch) {
    for (Command c : batch) {
      if ((c.region() == null && c.plan() == null) || closed) {
        continue;
      }
      senders.execute(() -> sendNow(c));
    }
  }

  private void sendNow(Command c) {
    try {
      if (c.plan() != null) {
        commands.handOver(c.server(), c.plan(), c.op());
      } else if (c.open()) {
        commands.open(c.server(), c.region(), c.op());
      } else {
        commands.close(c.server(), c.region(), c.dest(), c.op());
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not send {} to {}: {}", c.describe(), c.server(), e.toString());
    }
  }

  /** Sends nothing more; waits up to 10 s for commands being sent. */
  @Override
  public void close() {
    closed = true;
    senders.shutdown();
    try {
      senders.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
