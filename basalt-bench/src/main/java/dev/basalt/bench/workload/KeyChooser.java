package dev.basalt.bench.workload;

/**
 * Chooses record numbers (not yet key names) for the operations of one worker thread. Each worker
 * has its own instances, seeded from the run's seed, so that a run is reproducible and the choice
 * costs no synchronisation; only {@link InsertSequence} is shared.
 */
interface KeyChooser {
  /** The next record number. */
  long next();
}
