package dev.basalt.bench.workload;

import java.util.random.RandomGenerator;

/** Builds a worker's key chooser for a workload's distribution, with YCSB's rules. */
final class KeyChoosers {
  private KeyChoosers() {}

  /**
   * @param operations the phase's measured operations, to size the Zipfian range for inserts
   */
  static KeyChooser forWorkload(
      WorkloadSpec spec, InsertSequence inserts, long operations, RandomGenerator random) {
    long existing = inserts.lastAcknowledged() + 1;
    switch (spec.distribution()) {
      case UNIFORM:
        return new UniformKeys(0, existing - 1, random);
      case LATEST:
        return new SkewedLatestKeys(inserts, random);
      case ZIPFIAN:
      default:
        // YCSB sizes the range for the records expected to be inserted during the phase (twice
        // the expected count, a fudge factor), so that the popular records do not move as the
        // table grows, and redraws keys not inserted yet.
        long expectedNew = (long) (operations * spec.insertFraction() * 2.0);
        KeyChooser zipf = new ScrambledZipfianKeys(0, existing + expectedNew - 1, random);
        return expectedNew == 0 ? zipf : new ExistingKeys(zipf, inserts);
    }
  }

  /** Redraws until the record exists (its insert has been acknowledged). */
  static final class ExistingKeys implements KeyChooser {
    private final KeyChooser keys;
    private final InsertSequence inserts;

    ExistingKeys(KeyChooser keys, InsertSequence inserts) {
      this.keys = keys;
      this.inserts = inserts;
    }

    @Override
    public long next() {
      long k;
      do {
        k = keys.next();
      } while (k > inserts.lastAcknowledged());
      return k;
    }
  }
}
