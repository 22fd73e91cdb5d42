package dev.basalt.server.replication;

import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/**
 * Settings of replication's source and sink, with HBase's keys where the meaning is the same. The
 * defaults aim at lag under a second and catch-up within seconds of a peer's return: HBase reads an
 * idle log once a second and backs off up to 5 minutes while a peer is down.
 */
public final class ReplicationSettings implements ConfigKeySet {
  public static final ConfigKey<Long> BATCH_SIZE =
      ConfigKey.ofLong(
              "replication.source.size.capacity",
              64L << 20,
              "bytes",
              "A source ships at most this many bytes of log entries in one batch.")
          .atLeast(1L);

  public static final ConfigKey<Integer> BATCH_ENTRIES =
      ConfigKey.ofInt(
              "replication.source.nb.capacity",
              25_000,
              "entries",
              "A source ships at most this many log entries in one batch.")
          .atLeast(1);

  public static final ConfigKey<Long> IDLE_POLL =
      ConfigKey.ofLong(
              "basalt.replication.source.idle.poll",
              100L,
              "ms",
              "How often a source that has shipped everything looks for new log entries (HBase: 1 s).")
          .atLeast(1L);

  public static final ConfigKey<Long> RETRY_MIN =
      ConfigKey.ofLong(
              "replication.source.sleepforretries",
              100L,
              "ms",
              "The first pause after a failed shipment; it doubles with each failure in a row.")
          .atLeast(1L);

  public static final ConfigKey<Long> RETRY_MAX =
      ConfigKey.ofLong(
              "basalt.replication.source.retry.max",
              2_000L,
              "ms",
              "The longest pause between attempts to ship to a peer that is down (HBase: 300 s), so"
                  + " that a returning peer is caught up within seconds.")
          .atLeast(1L);

  public static final ConfigKey<Long> SHIP_TIMEOUT =
      ConfigKey.ofLong(
              "replication.source.shipedits.timeout",
              60_000L,
              "ms",
              "How long one shipment to a peer's region server may take before it is retried.")
          .atLeast(1L);

  public static final ConfigKey<Long> BANDWIDTH =
      ConfigKey.ofLong(
              "replication.source.per.peer.node.bandwidth",
              0L,
              "bytes/s",
              "Default shipping rate limit of each source, for peers that set no bandwidth of their"
                  + " own; 0: unlimited.")
          .atLeast(0L);

  public static final ConfigKey<Long> PEER_REFRESH =
      ConfigKey.ofLong(
              "basalt.replication.peer.refresh",
              1_000L,
              "ms",
              "How often a region server of a cluster rereads the peer list the master keeps, and"
                  + " looks for queues of dead servers to take over.")
          .atLeast(10L);

  public static final ConfigKey<Integer> SINK_ROWS_PER_BATCH =
      ConfigKey.ofInt(
              "hbase.rpc.rows.warning.threshold",
              5_000,
              "rows",
              "A sink applies received edits in batches of at most this many row mutations.")
          .atLeast(1);

  @Override
  public String section() {
    return "Replication";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        BATCH_SIZE,
        BATCH_ENTRIES,
        IDLE_POLL,
        RETRY_MIN,
        RETRY_MAX,
        SHIP_TIMEOUT,
        BANDWIDTH,
        PEER_REFRESH,
        SINK_ROWS_PER_BATCH);
  }
}
