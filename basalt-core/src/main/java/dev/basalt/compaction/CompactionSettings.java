package dev.basalt.compaction;

import dev.basalt.util.config.Config;
import dev.basalt.util.config.ConfigKey;
import dev.basalt.util.config.ConfigKeySet;
import java.util.List;

/** Settings of compaction selection, scheduling and throttling (HBase's keys). */
public final class CompactionSettings implements ConfigKeySet {
  public static final ConfigKey<Integer> MIN_FILES =
      ConfigKey.ofInt(
              "hbase.hstore.compaction.min",
              3,
              "files",
              "Fewest files a minor compaction rewrites.")
          .atLeast(2);

  public static final ConfigKey<Integer> MAX_FILES =
      ConfigKey.ofInt(
              "hbase.hstore.compaction.max", 10, "files", "Most files a minor compaction rewrites.")
          .atLeast(2);

  public static final ConfigKey<Double> RATIO =
      ConfigKey.ofDouble(
              "hbase.hstore.compaction.ratio",
              1.2,
              "",
              "A minor compaction takes a file only if it is at most this many times the size of the"
                  + " other selected files together.")
          .atLeast(0.0);

  public static final ConfigKey<Integer> BLOCKING_FILES =
      ConfigKey.ofInt(
              "hbase.hstore.blockingStoreFiles",
              16,
              "files",
              "When a store has more files than this, writes to its region wait for compactions.")
          .atLeast(1);

  public static final ConfigKey<Long> BLOCKING_WAIT =
      ConfigKey.ofLong(
              "hbase.hstore.blockingWaitTime",
              90_000L,
              "ms",
              "How long a write waits for a store with too many files before failing with"
                  + " RegionTooBusyException.")
          .atLeast(0L);

  public static final ConfigKey<Long> MAJOR_PERIOD =
      ConfigKey.ofLong(
              "hbase.hregion.majorcompaction",
              7L * 24 * 3600 * 1000,
              "ms",
              "Time between automatic major compactions of a store; 0 turns them off.")
          .atLeast(0L);

  public static final ConfigKey<Double> MAJOR_JITTER =
      ConfigKey.ofDouble(
              "hbase.hregion.majorcompaction.jitter",
              0.5,
              "",
              "Spread of the major compaction period (+/- this fraction, fixed per store) so stores do"
                  + " not all compact at once.")
          .between(0.0, 1.0);

  public static final ConfigKey<Long> THROUGHPUT_LIMIT =
      ConfigKey.ofLong(
          "hbase.hstore.compaction.throughput.higher.bound",
          100L * 1024 * 1024,
          "bytes/s",
          "Most bytes per second one compaction writes; 0 or less means unlimited.");

  /**
   * The minor compaction policy {@code config} describes.
   *
   * @throws IllegalArgumentException naming the keys when they contradict each other (their ranges
   *     cannot say that the maximum is below the minimum, or that a ratio must be above 0)
   */
  public static CompactionPolicy policy(Config config) {
    int min = config.get(MIN_FILES);
    int max = config.get(MAX_FILES);
    double ratio = config.get(RATIO);
    if (max < min) {
      throw new IllegalArgumentException(
          MAX_FILES.named(max) + " is below " + MIN_FILES.named(min));
    }
    if (ratio <= 0) {
      throw new IllegalArgumentException(RATIO.named(ratio) + " must be above 0");
    }
    return new CompactionPolicy(min, max, ratio);
  }

  @Override
  public String section() {
    return "Compaction";
  }

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        MIN_FILES,
        MAX_FILES,
        RATIO,
        BLOCKING_FILES,
        BLOCKING_WAIT,
        MAJOR_PERIOD,
        MAJOR_JITTER,
        THROUGHPUT_LIMIT);
  }
}
