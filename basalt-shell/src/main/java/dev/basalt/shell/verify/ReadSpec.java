package dev.basalt.shell.verify;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What is read on both sides, the same way: families, time range [start, end), versions per column,
 * row prefixes, raw (delete markers too), and the scan's batch and caching. The scan of a table and
 * the re-check of one row read through the same settings, so a re-check compares what the scan
 * compared (HBase's re-check is a plain Get of the whole row).
 */
record ReadSpec(
    List<String> families,
    long startTime,
    long endTime,
    int versions,
    List<String> rowPrefixes,
    boolean raw,
    int batch,
    int caching) {

  /**
   * The scans that cover what is compared, in row order: the whole table, or one range per row
   * prefix (prefixes that another one covers left out). HBase's tool scans from the first prefix to
   * the end of the last with a PrefixFilter list instead, which reads every row in between and,
   * with --raw, loses the delete markers (a raw scan with a filter does not return them, on HBase
   * 2.6 as on Basalt).
   */
  List<Scan> tableScans() throws IOException {
    if (rowPrefixes.isEmpty()) {
      return List.of(base());
    }
    List<byte[]> sorted = new ArrayList<>();
    for (String p : rowPrefixes) {
      sorted.add(Bytes.toBytes(p));
    }
    sorted.sort(Bytes.BYTES_COMPARATOR);
    List<Scan> scans = new ArrayList<>();
    byte[] last = null;
    for (byte[] prefix : sorted) {
      if (last != null && Bytes.startsWith(prefix, last)) {
        continue; // inside the previous prefix's range
      }
      last = prefix;
      Scan scan = base().withStartRow(prefix);
      byte[] stop = stopAfterPrefix(prefix);
      if (stop.length > 0) {
        scan.withStopRow(stop);
      }
      scans.add(scan);
    }
    return scans;
  }

  /** A scan of exactly {@code row}, for a re-check. */
  Scan rowScan(byte[] row) throws IOException {
    return base().withStartRow(row, true).withStopRow(row, true);
  }

  private Scan base() throws IOException {
    Scan scan = new Scan();
    for (String f : families) {
      scan.addFamily(Bytes.toBytes(f));
    }
    scan.setTimeRange(startTime, endTime);
    if (versions > 0) {
      scan.readVersions(versions);
    }
    scan.setRaw(raw);
    if (batch > 0) {
      scan.setBatch(batch);
    }
    if (caching > 0) {
      scan.setCaching(caching);
    }
    // a verify run reads every block once: keep the servers' block caches for their users
    scan.setCacheBlocks(false);
    // cells are compared as they arrive, so a row wider than the client's result size limit is
    // never held whole in memory
    scan.setAllowPartialResults(true);
    return scan;
  }

  /**
   * The first row key after every key that starts with {@code prefix}: the prefix with its last
   * byte below 0xFF incremented and the bytes after it dropped; empty (no stop row) when every byte
   * is 0xFF.
   */
  static byte[] stopAfterPrefix(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        byte[] stop = Bytes.copy(prefix, 0, i + 1);
        stop[i]++;
        return stop;
      }
    }
    return new byte[0];
  }
}
