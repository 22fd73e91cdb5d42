package dev.basalt.region;

import dev.basalt.cell.Bytes;
import dev.basalt.cell.Cell;
import dev.basalt.cell.CellUtil;
import dev.basalt.fs.LocalStorage;
import dev.basalt.ops.Result;
import dev.basalt.ops.Scan;
import dev.basalt.schema.ColumnFamilyDescriptor;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.sstable.BlockCache;
import dev.basalt.util.Clock;
import dev.basalt.util.FaultPoints;
import dev.basalt.util.ManualClock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/** Small helpers for region tests: tables, regions on a manual clock, readable results. */
final class TestRegions {
  static final byte[] F = Bytes.toBytes("f");
  static final byte[] G = Bytes.toBytes("g");

  private TestRegions() {}

  static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  /**
   * Arms a fault point so that a thread reaching it (only the thread named {@code thread}, or any
   * when null) counts {@code reached} down and waits up to 10 s for {@code release}.
   */
  static void pauseAt(String point, String thread, CountDownLatch reached, CountDownLatch release) {
    FaultPoints.arm(
        point,
        p -> {
          if (thread == null || Thread.currentThread().getName().equals(thread)) {
            reached.countDown();
            try {
              release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        });
  }

  static TableDescriptor table(UnaryOperator<ColumnFamilyDescriptorBuilder> f) {
    return TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
        .setColumnFamily(f.apply(ColumnFamilyDescriptorBuilder.newBuilder(F)).build())
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(G))
        .build();
  }

  static Region region(ManualClock clock, UnaryOperator<ColumnFamilyDescriptorBuilder> f) {
    return region(clock, table(f), Config.defaults());
  }

  static Region region(ManualClock clock, TableDescriptor t, Config config) {
    return Region.inMemory(t, RegionServices.of(clock, config, EditLog.NONE));
  }

  /**
   * Region 7 of table {@code t} stored under {@code dir} (data/t/r), with its own 8 MiB block
   * cache, no edit log and no maintenance service (nothing flushes or compacts by itself).
   */
  static Region onDisk(Path dir, TableDescriptor t, Config config, Clock clock) throws IOException {
    RegionServices services =
        RegionServices.of(
            clock, config, EditLog.NONE, new BlockCache(8 << 20), MaintenanceRequests.NONE);
    return Region.open(
        RegionInfo.of(TableName.valueOf("t"), new byte[0], new byte[0], 7),
        t,
        services,
        new LocalStorage(dir),
        "data/t/r",
        "archive/data/t/r");
  }

  static ColumnFamilyDescriptor family(Region r) {
    return r.getTableDescriptor().getColumnFamily(F);
  }

  /** "q@ts=value" per cell, in result order. */
  static List<String> cells(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      out.add(describe(c));
    }
    return out;
  }

  static String describe(Cell c) {
    String fam = Bytes.toStringBinary(CellUtil.cloneFamily(c));
    String q = Bytes.toStringBinary(CellUtil.cloneQualifier(c));
    String head =
        Bytes.toStringBinary(CellUtil.cloneRow(c)) + "/" + fam + ":" + q + "@" + c.getTimestamp();
    if (c.isDelete()) {
      return head + " " + c.getType();
    }
    return head + "=" + Bytes.toStringBinary(CellUtil.cloneValue(c));
  }

  /** Every result of a scan, each rendered by {@link #cells}, one list per result. */
  static List<List<String>> scanAll(Region r, Scan scan) throws IOException {
    List<List<String>> out = new ArrayList<>();
    try (RegionScanner s = r.getScanner(scan)) {
      Result res;
      while ((res = s.next()) != null) {
        out.add(cells(res));
      }
    }
    return out;
  }
}
