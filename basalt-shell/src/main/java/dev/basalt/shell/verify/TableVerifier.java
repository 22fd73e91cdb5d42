package dev.basalt.shell.verify;

import java.io.IOException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * Compares one table of the source with its copy on the peer: both scanned in row order and walked
 * together as a merge join, one row at a time, cell by cell; never more than one result per side in
 * memory (plus the rows waiting for a re-check). Single-threaded.
 */
final class TableVerifier {
  /** Told about each row the scan finds bad, before any re-check (tests act on it). */
  interface MismatchListener {
    MismatchListener NONE = (row, reason) -> {};

    void mismatch(byte[] row, Counter reason) throws IOException;
  }

  /** How bad rows are re-checked: {@code tries} 0 for not at all. */
  record RecheckPolicy(long sleepMs, int tries, int backoffExponent) {
    boolean enabled() {
      return tries > 0 && sleepMs > 0;
    }
  }

  private final Table source;
  private final Table peer;
  private final ReadSpec spec;
  private final RecheckPolicy policy;
  private final MismatchListener listener;
  private final Counts counts = new Counts();
  private final BadRowSample sample;

  TableVerifier(
      Table source,
      Table peer,
      ReadSpec spec,
      RecheckPolicy policy,
      int showBadRows,
      MismatchListener listener) {
    this.source = source;
    this.peer = peer;
    this.spec = spec;
    this.policy = policy;
    this.listener = listener;
    this.sample = new BadRowSample(showBadRows);
  }

  /** Runs the comparison; the counters and the sample of bad rows are then final. */
  Counts run() throws IOException {
    Recheck recheck =
        policy.enabled()
            ? new Recheck(
                policy.sleepMs(),
                policy.tries(),
                policy.backoffExponent(),
                source,
                peer,
                spec,
                counts,
                sample)
            : null;
    for (Scan scan : spec.tableScans()) {
      compareRange(scan, recheck);
    }
    if (recheck != null) {
      recheck.drain();
    }
    return counts;
  }

  /** The merge join over one range of rows. */
  private void compareRange(Scan scan, Recheck recheck) throws IOException {
    // a copy per side: the client keeps its scanner's position in the Scan it is given
    try (CellCursor s = new CellCursor(source.getScanner(new Scan(scan)));
        CellCursor p = new CellCursor(peer.getScanner(new Scan(scan)))) {
      while (s.hasCell() || p.hasCell()) {
        Cell rowCell = RowComparer.lowerRow(s, p);
        // a row that may still turn good is described when its re-check ends, not now
        boolean describe = recheck == null && sample.wants(rowCell);
        RowDiff diff = describe ? new RowDiff() : RowDiff.NONE;
        Counter verdict = RowComparer.compareRow(rowCell, s, p, diff);
        if (verdict == Counter.GOODROWS) {
          counts.good();
        } else {
          byte[] row = CellUtil.cloneRow(rowCell);
          listener.mismatch(row, verdict);
          if (recheck != null) {
            recheck.add(row, verdict);
          } else {
            counts.bad(verdict);
            sample.add(row, verdict, diff.lines());
          }
        }
        if (recheck != null) {
          recheck.runDue();
        }
      }
    }
  }

  BadRowSample sample() {
    return sample;
  }
}
