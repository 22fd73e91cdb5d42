package dev.basalt.server.regionserver;

import dev.basalt.schema.RegionInfo;
import dev.basalt.server.cluster.ServerName;
import java.util.concurrent.CompletableFuture;

/**
 * A region being opened or closed on this region server, and the master's command it carries out. A
 * repeated command (the master re-sends after a timeout or a failover) replaces the command, so the
 * report at the end names the latest operation id and epoch.
 */
final class InTransition {
  /** What the master asked: its operation id, its epoch (null when unsaid), a move's target. */
  record Command(long procId, Long epoch, ServerName destination) {}

  final boolean opening;
  final RegionInfo info;

  /** Completes when the open or close has ended, either way. */
  final CompletableFuture<Void> done = new CompletableFuture<>();

  private volatile Command command;

  InTransition(boolean opening, RegionInfo info, Command command) {
    this.opening = opening;
    this.info = info;
    this.command = command;
  }

  Command command() {
    return command;
  }

  void retarget(Command latest) {
    this.command = latest;
  }

  String encodedName() {
    return info.getEncodedName();
  }

  @Override
  public String toString() {
    return (opening ? "opening " : "closing ") + info.getEncodedName();
  }
}
