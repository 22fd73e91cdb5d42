package dev.basalt.server.rpc;

import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/** Settings of the HBase RPC server (listed in META-INF/services of basalt-server). */
public final class RpcSettings implements ConfigKeySet {
  public static final ConfigKey<Long> MAX_REQUEST_SIZE =
      ConfigKey.ofLong(
              "hbase.ipc.max.request.size",
              256L * 1024 * 1024,
              "bytes",
              "Largest request frame (and decompressed request cell block) a client may send; a larger"
                  + " one is answered with RequestTooBigException and the connection closed.")
          .between(64L, Integer.MAX_VALUE - 16L);

  public static final ConfigKey<Integer> HANDLER_COUNT =
      ConfigKey.ofInt(
              "hbase.regionserver.handler.count",
              0,
              "threads",
              "Threads that run calls; short calls that cannot block (a get of rows in memory, a"
                  + " small write) run on the network thread that read them instead. 0 means four"
                  + " per core, at least eight.")
          .atLeast(0);

  public static final ConfigKey<Integer> CALL_QUEUE_LENGTH =
      ConfigKey.ofInt(
              "hbase.ipc.server.max.callqueue.length",
              0,
              "calls",
              "Calls that may wait for a handler thread; more are answered with"
                  + " CallQueueTooBigException. 0 means ten per handler thread.")
          .atLeast(0);

  public static final ConfigKey<Integer> EVENT_LOOP_THREADS =
      ConfigKey.ofInt(
              "hbase.netty.worker.count",
              0,
              "threads",
              "Network threads that read and write connections; 0 means Netty's default (two per"
                  + " core).")
          .atLeast(0);

  public static final ConfigKey<Boolean> INLINE_CALLS =
      ConfigKey.ofBoolean(
          "basalt.rpc.inline.calls",
          true,
          "Network threads run short calls themselves (a Get, a Mutate not forced to the device, a"
              + " scan call for up to 100 rows) instead of handing them to a handler thread; a call that would wait (a row"
              + " lock, a flush, memory) is handed over after all. Saves two thread wake-ups per"
              + " call; false hands every call over, as HBase does.");

  @Override
  public String section() {
    return "RPC server";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        MAX_REQUEST_SIZE, HANDLER_COUNT, CALL_QUEUE_LENGTH, EVENT_LOOP_THREADS, INLINE_CALLS);
  }
}
