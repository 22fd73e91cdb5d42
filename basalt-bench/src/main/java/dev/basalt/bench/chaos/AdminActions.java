package dev.basalt.bench.chaos;

import dev.basalt.server.cluster.LocalClusterNode;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The cluster's own operations between faults, through the stock Admin API: moves, splits and
 * merges of the linked-list table's regions (which the writers keep writing to), balance, flush and
 * major compaction. The region count is kept between {@code minRegions} and {@code maxRegions}: a
 * split is done as a merge above it and the other way round.
 */
final class AdminActions {
  private static final long WAIT_SECONDS = 120;

  private final ChaosContext ctx;
  private final TableName table;
  private final int minRegions;
  private final int maxRegions;

  AdminActions(ChaosContext ctx, TableName table, int minRegions, int maxRegions) {
    this.ctx = ctx;
    this.table = table;
    this.minRegions = minRegions;
    this.maxRegions = maxRegions;
  }

  /** Moves a random region of the table to another running region server. */
  ActionReport move() throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    String what = moveOnce();
    return ActionReport.of("move")
        .target(what)
        .detail("millis", ChaosContext.millisSince(t0))
        .build();
  }

  /** {@link #move}, for a trigger that must not throw: what happened, as text. */
  String moveQuietly() {
    try {
      return moveOnce();
    } catch (IOException | RuntimeException e) {
      return "failed: " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private String moveOnce() throws IOException, InterruptedException {
    try (Admin admin = ctx.connection.getAdmin()) {
      List<MetaRows.Row> rows = MetaRows.read(ctx.connection).getOrDefault(table, List.of());
      if (rows.isEmpty()) {
        throw new IllegalStateException(table + " has no region in meta");
      }
      MetaRows.Row r = rows.get(ctx.random.nextInt(rows.size()));
      List<LocalClusterNode> others = new ArrayList<>();
      for (LocalClusterNode n : ctx.cluster.regionServers()) {
        if (!n.serverName().toString().equals(r.serverName())) {
          others.add(n);
        }
      }
      if (others.isEmpty()) {
        return "nowhere to move " + r.region().getEncodedName();
      }
      LocalClusterNode to = others.get(ctx.random.nextInt(others.size()));
      admin.move(
          r.region().getEncodedNameAsBytes(), ServerName.valueOf(to.serverName().toString()));
      return r.region().getEncodedName() + " -> " + to.id();
    }
  }

  /** A split of a random region at a key in its middle, or a merge when there are too many. */
  ActionReport splitOrMerge(boolean preferSplit) throws IOException, InterruptedException {
    try (Admin admin = ctx.connection.getAdmin()) {
      List<RegionInfo> regions = sorted(admin.getRegions(table));
      boolean split = regions.size() < minRegions || (preferSplit && regions.size() < maxRegions);
      long t0 = System.nanoTime();
      String what;
      try {
        what = split ? split(admin, regions) : merge(admin, regions);
      } catch (IOException e) {
        if (!refusedForReferences(e)) {
          throw e;
        }
        // a daughter not yet compacted: refused before anything closed, as HBase refuses to
        // split or merge a region with reference files; the invariants still must hold
        what = "refused by the region server (a daughter not yet compacted?): " + e.getMessage();
      }
      return ActionReport.of(split ? "split" : "merge")
          .target(what)
          .detail("millis", ChaosContext.millisSince(t0))
          .detail("regionsBefore", regions.size())
          .build();
    }
  }

  private String split(Admin admin, List<RegionInfo> regions)
      throws IOException, InterruptedException {
    RegionInfo r = regions.get(ctx.random.nextInt(regions.size()));
    byte[] mid = middle(r.getStartKey(), r.getEndKey());
    if (mid == null) {
      return "no key between the bounds of " + r.getEncodedName();
    }
    await(admin.splitRegionAsync(r.getRegionName(), mid));
    return r.getEncodedName() + " at " + Bytes.toStringBinary(mid);
  }

  private String merge(Admin admin, List<RegionInfo> regions)
      throws IOException, InterruptedException {
    if (regions.size() < 2) {
      return "one region: nothing to merge";
    }
    int i = ctx.random.nextInt(regions.size() - 1);
    RegionInfo a = regions.get(i);
    RegionInfo b = regions.get(i + 1);
    await(
        admin.mergeRegionsAsync(
            new byte[][] {a.getEncodedNameAsBytes(), b.getEncodedNameAsBytes()}, false));
    return a.getEncodedName() + " + " + b.getEncodedName();
  }

  /**
   * Whether a split or merge was refused by the region server: a region that still reads its
   * parent's files (a daughter not yet compacted).
   */
  static boolean refusedForReferences(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      // the region server's reason, or the master's answer to the client, which names the server
      // and points to its log (the region server refuses before it closes anything; any other
      // refusal that left a region closed fails the invariants right after)
      if (t instanceof org.apache.hadoop.hbase.DoNotRetryIOException
          && (m.contains("still reads files of the region")
              || m.contains("could not split or merge"))) {
        return true;
      }
    }
    return false;
  }

  ActionReport balance() throws IOException {
    try (Admin admin = ctx.connection.getAdmin()) {
      long t0 = System.nanoTime();
      admin.balancerSwitch(true, true);
      boolean ran = admin.balance();
      return ActionReport.of("balance")
          .detail("ran", ran)
          .detail("millis", ChaosContext.millisSince(t0))
          .build();
    }
  }

  ActionReport flush() throws IOException {
    try (Admin admin = ctx.connection.getAdmin()) {
      long t0 = System.nanoTime();
      admin.flush(table);
      return ActionReport.of("flush").detail("millis", ChaosContext.millisSince(t0)).build();
    }
  }

  ActionReport compact() throws IOException {
    try (Admin admin = ctx.connection.getAdmin()) {
      long t0 = System.nanoTime();
      admin.majorCompact(table);
      return ActionReport.of("major-compact")
          .detail("requestMillis", ChaosContext.millisSince(t0))
          .build();
    }
  }

  private static List<RegionInfo> sorted(List<RegionInfo> regions) {
    List<RegionInfo> s = new ArrayList<>(regions);
    s.sort(Comparator.comparing(RegionInfo::getStartKey, Bytes.BYTES_COMPARATOR));
    return s;
  }

  /**
   * A key halfway between two row keys of the node table (16-byte keys; empty bounds are the ends
   * of the key space), or null when none lies strictly between them.
   */
  static byte[] middle(byte[] start, byte[] end) {
    BigInteger lo = toNumber(start, false);
    BigInteger hi = toNumber(end, true);
    BigInteger mid = lo.add(hi).shiftRight(1);
    byte[] key = toKey(mid);
    if (Bytes.compareTo(key, start) <= 0 || (end.length > 0 && Bytes.compareTo(key, end) >= 0)) {
      return null;
    }
    return key;
  }

  /** A key as a number of 16 bytes (padded right with zeros); an empty end is 2^128. */
  private static BigInteger toNumber(byte[] key, boolean isEnd) {
    if (key.length == 0) {
      return isEnd ? BigInteger.ONE.shiftLeft(128) : BigInteger.ZERO;
    }
    return new BigInteger(1, Arrays.copyOf(key, NodeKeys.KEY_LENGTH));
  }

  private static byte[] toKey(BigInteger n) {
    byte[] raw = n.toByteArray(); // big-endian, maybe with a sign byte or shorter
    byte[] key = new byte[NodeKeys.KEY_LENGTH];
    int copy = Math.min(raw.length, NodeKeys.KEY_LENGTH);
    System.arraycopy(raw, raw.length - copy, key, NodeKeys.KEY_LENGTH - copy, copy);
    return key;
  }

  private static void await(java.util.concurrent.Future<Void> f)
      throws IOException, InterruptedException {
    try {
      f.get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IOException(e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("not done in " + WAIT_SECONDS + " s", e);
    }
  }
}
