package dev.basalt.region;

/**
 * Where a region asks for background work: the database's flush and compaction queues. The
 * in-memory region uses {@link #NONE}. Implementations are thread-safe and must not block.
 */
public interface MaintenanceRequests {
  /** The region's memstores passed their flush size. */
  void requestFlush(Region region);

  /** A store of the region may need compacting (after a flush, or too many files). */
  void requestCompaction(Region region);

  /**
   * Called before every write batch; may wait while the host is short of memory.
   *
   * @throws RegionTooBusyException when memory does not free up in time
   */
  default void beforeWrite(Region region) throws java.io.IOException {}

  /**
   * Whether compactions run (switched off by the region server's CompactionSwitch). While they do
   * not, writes are not held for a store with too many files: nothing would catch up.
   */
  default boolean compactionsEnabled() {
    return true;
  }

  MaintenanceRequests NONE =
      new MaintenanceRequests() {
        @Override
        public void requestFlush(Region region) {}

        @Override
        public void requestCompaction(Region region) {}
      };
}
