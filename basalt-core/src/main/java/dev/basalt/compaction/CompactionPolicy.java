package dev.basalt.compaction;

import java.util.List;

/**
 * Picks the files of a minor compaction, in the spirit of HBase's exploring policy: among every run
 * of consecutive files (in sequence order, oldest first) of between {@code minFiles} and {@code
 * maxFiles} files in which no file is larger than {@code ratio} times the others together, it takes
 * the run with the most files, then the smallest total size. Keeping the run consecutive keeps the
 * store's files ordered by sequence id. Stateless and thread-safe.
 */
public final class CompactionPolicy {
  private final int minFiles;
  private final int maxFiles;
  private final double ratio;

  public CompactionPolicy(int minFiles, int maxFiles, double ratio) {
    if (minFiles < 2 || maxFiles < minFiles || ratio <= 0) {
      throw new IllegalArgumentException(
          "compaction needs 2 <= min files <= max files and a positive ratio, got "
              + minFiles
              + ", "
              + maxFiles
              + ", "
              + ratio);
    }
    this.minFiles = minFiles;
    this.maxFiles = maxFiles;
    this.ratio = ratio;
  }

  /** A run of files: indices {@code [from, to)} of the list given to {@link #select}. */
  public record Selection(int from, int to) {
    public int count() {
      return to - from;
    }
  }

  /**
   * The files to compact, or null when no run qualifies.
   *
   * @param sizes file sizes in sequence order, oldest first
   */
  public Selection select(List<Long> sizes) {
    Selection best = null;
    long bestSize = Long.MAX_VALUE;
    for (int from = 0; from < sizes.size(); from++) {
      for (int to = from + minFiles; to <= Math.min(sizes.size(), from + maxFiles); to++) {
        long total = 0;
        for (int i = from; i < to; i++) {
          total += sizes.get(i);
        }
        if (!inRatio(sizes, from, to, total)) {
          continue;
        }
        int count = to - from;
        if (best == null || count > best.count() || (count == best.count() && total < bestSize)) {
          best = new Selection(from, to);
          bestSize = total;
        }
      }
    }
    return best;
  }

  private boolean inRatio(List<Long> sizes, int from, int to, long total) {
    for (int i = from; i < to; i++) {
      long size = sizes.get(i);
      if (size > (total - size) * ratio) {
        return false;
      }
    }
    return true;
  }
}
