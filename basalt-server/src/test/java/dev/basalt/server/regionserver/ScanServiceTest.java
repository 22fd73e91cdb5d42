package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.cell.Bytes;
import dev.basalt.ops.Put;
import dev.basalt.region.EditLog;
import dev.basalt.region.Region;
import dev.basalt.region.RegionServices;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.ManualClock;
import dev.basalt.util.config.Config;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** HBase's scanner protocol (RSRpcServices.scan) over one region. */
class ScanServiceTest {
  private static final byte[] F = Bytes.toBytes("f");
  private final ManualClock clock = new ManualClock(1_000_000);
  private Region region;
  private ScannerRegistry registry;
  private ScanService service;
  private HBaseProtos.RegionSpecifier spec;

  @BeforeEach
  void setUp() throws IOException {
    region =
        Region.inMemory(
            TableDescriptorBuilder.newBuilder(TableName.valueOf("t"))
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
                .build(),
            RegionServices.of(clock, Config.defaults(), EditLog.NONE));
    for (int i = 0; i < 10; i++) {
      Put p = new Put(Bytes.toBytes("r" + i));
      for (int q = 0; q < 3; q++) {
        p.addColumn(F, Bytes.toBytes("q" + q), Bytes.toBytes("v" + i + "-" + q));
      }
      region.put(p);
    }
    spec =
        HBaseProtos.RegionSpecifier.newBuilder()
            .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
            .setValue(ByteString.copyFrom(region.getRegionInfo().getRegionName()))
            .build();
    registry = new ScannerRegistry(clock, 60_000, 0);
    service =
        new ScanService(
            registry,
            s -> {
              if (!s.getValue().equals(spec.getValue())) {
                throw new BasaltIOException("not here", RegionLookup.NOT_SERVING, false);
              }
              return region;
            },
            null);
  }

  private ScanRequest.Builder open(ClientProtos.Scan.Builder scan, int rows) {
    return ScanRequest.newBuilder()
        .setRegion(spec)
        .setScan(scan)
        .setNumberOfRows(rows)
        .setClientHandlesPartials(true)
        .setClientHandlesHeartbeats(true);
  }

  private static ScanRequest next(long id, long seq, int rows) {
    return ScanRequest.newBuilder()
        .setScannerId(id)
        .setNumberOfRows(rows)
        .setNextCallSeq(seq)
        .setClientHandlesPartials(true)
        .build();
  }

  @Test
  void aScanWalksTheRegionInCallsAndClosesWhenItIsExhausted() throws IOException {
    ScanService.Outcome o = service.scan(open(ClientProtos.Scan.newBuilder(), 4).build(), true, 0);
    ScanResponse r = o.response();
    long id = r.getScannerId();
    assertThat(r.getCellsPerResultList()).containsExactly(3, 3, 3, 3);
    assertThat(r.getPartialFlagPerResultList()).containsOnly(false);
    assertThat(o.cellBlock()).hasSize(12);
    assertThat(r.getMoreResultsInRegion()).isTrue();
    assertThat(r.getMoreResults()).isTrue();

    r = service.scan(next(id, 0, 4), true, 0).response();
    assertThat(r.getCellsPerResultCount()).isEqualTo(4);
    r = service.scan(next(id, 1, 4), true, 0).response();
    assertThat(r.getCellsPerResultCount()).as("the last two rows").isEqualTo(2);
    assertThat(r.getMoreResultsInRegion()).isFalse();
    assertThat(r.getMoreResults()).isTrue();
    assertThat(registry.openCount()).as("closed by the server").isZero();

    // The client's close for a scanner the server closed succeeds quietly...
    ScanResponse close =
        service
            .scan(
                ScanRequest.newBuilder()
                    .setScannerId(id)
                    .setNumberOfRows(0)
                    .setCloseScanner(true)
                    .build(),
                true,
                0)
            .response();
    assertThat(close.getMoreResultsInRegion()).isFalse();
    // ...but a next for it is an unknown scanner.
    assertThatThrownBy(() -> service.scan(next(id, 2, 4), true, 0))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(ScanService.UNKNOWN_SCANNER));
  }

  @Test
  void aRetriedCallIsOutOfOrderAndTheScannerStaysUsable() throws IOException {
    long id =
        service
            .scan(open(ClientProtos.Scan.newBuilder(), 1).build(), true, 0)
            .response()
            .getScannerId();
    service.scan(next(id, 0, 1), true, 0);
    assertThatThrownBy(() -> service.scan(next(id, 0, 1), true, 0))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(ScanService.OUT_OF_ORDER));
    ScanService.Outcome o = service.scan(next(id, 1, 1), true, 0);
    assertThat(Bytes.toString(cellRow(o, 0))).isEqualTo("r2");
  }

  private static byte[] cellRow(ScanService.Outcome o, int i) {
    var c = o.cellBlock().get(i);
    return java.util.Arrays.copyOfRange(
        c.getRowArray(), c.getRowOffset(), c.getRowOffset() + c.getRowLength());
  }

  @Test
  void theRowLimitEndsTheWholeScan() throws IOException {
    ScanResponse r =
        service
            .scan(open(ClientProtos.Scan.newBuilder(), 100).setLimitOfRows(3).build(), true, 0)
            .response();
    assertThat(r.getCellsPerResultCount()).isEqualTo(3);
    assertThat(r.getMoreResults()).isFalse();
    assertThat(r.getMoreResultsInRegion()).isFalse();
    assertThat(registry.openCount()).isZero();
  }

  @Test
  void theResultSizeLimitCutsACallShort() throws IOException {
    ScanResponse r =
        service
            .scan(open(ClientProtos.Scan.newBuilder().setMaxResultSize(50), 100).build(), true, 0)
            .response();
    assertThat(r.getCellsPerResultCount()).isBetween(1, 2);
    assertThat(r.getMoreResultsInRegion()).isTrue();
  }

  @Test
  void theServersResultSizeCapsWhatTheClientAsksFor() throws IOException {
    ScanService capped = new ScanService(registry, x -> region, null, -1, 100);
    for (long asked : new long[] {0, 10_000}) {
      ScanResponse r =
          capped
              .scan(
                  open(ClientProtos.Scan.newBuilder().setMaxResultSize(asked), 100).build(),
                  true,
                  0)
              .response();
      // Cells of 29 bytes: the first row takes 87, the second row's first cell reaches 100 and
      // ends the call as a part of that row.
      assertThat(r.getCellsPerResultList()).as("asked %d", asked).containsExactly(3, 1);
      assertThat(r.getPartialFlagPerResultList()).containsExactly(false, true);
    }
  }

  @Test
  void aBatchSizeCutsRowsIntoPartialResults() throws IOException {
    ScanResponse r =
        service
            .scan(open(ClientProtos.Scan.newBuilder().setBatchSize(2), 4).build(), true, 0)
            .response();
    assertThat(r.getCellsPerResultList()).containsExactly(2, 1, 2, 1);
    assertThat(r.getPartialFlagPerResultList()).containsExactly(true, false, true, false);
  }

  @Test
  void withoutACodecResultsTravelInTheMessage() throws IOException {
    ScanService.Outcome o = service.scan(open(ClientProtos.Scan.newBuilder(), 2).build(), false, 0);
    assertThat(o.cellBlock()).isEmpty();
    assertThat(o.response().getResultsCount()).isEqualTo(2);
    assertThat(o.response().getResults(0).getCellCount()).isEqualTo(3);
  }

  @Test
  void aFilterThatIsDoneEndsTheRegionAndTheScanOnlyWhenACallReturnedNothing() throws IOException {
    FilterProtos.Filter prefix =
        FilterProtos.Filter.newBuilder()
            .setName("org.apache.hadoop.hbase.filter.PrefixFilter")
            .setSerializedFilter(
                FilterProtos.PrefixFilter.newBuilder()
                    .setPrefix(ByteString.copyFromUtf8("r3"))
                    .build()
                    .toByteString())
            .build();
    ScanResponse r =
        service
            .scan(open(ClientProtos.Scan.newBuilder().setFilter(prefix), 100).build(), true, 0)
            .response();
    assertThat(r.getCellsPerResultCount()).isEqualTo(1);
    assertThat(r.getMoreResultsInRegion()).isFalse();
    assertThat(r.getMoreResults()).as("rows came back: HBase lets the client go on").isTrue();
    // the filter is done before any row of this call: the whole scan ends
    r =
        service
            .scan(
                open(
                        ClientProtos.Scan.newBuilder()
                            .setFilter(prefix)
                            .setStartRow(ByteString.copyFromUtf8("r4")),
                        100)
                    .build(),
                true,
                0)
            .response();
    assertThat(r.getCellsPerResultCount()).isZero();
    assertThat(r.getMoreResults()).isFalse();
  }

  @Test
  void aPageFilterEndsItsRegionRightAfterThePageAndTheScanGoesOn() throws IOException {
    // HBase pages each region: the region scanner ends after the page's last row, and
    // more_results stays true so that the client pages the next region too.
    FilterProtos.Filter page =
        FilterProtos.Filter.newBuilder()
            .setName("org.apache.hadoop.hbase.filter.PageFilter")
            .setSerializedFilter(
                FilterProtos.PageFilter.newBuilder().setPageSize(2).build().toByteString())
            .build();
    for (int rows : new int[] {2, 100}) {
      ScanResponse r =
          service
              .scan(open(ClientProtos.Scan.newBuilder().setFilter(page), rows).build(), true, 0)
              .response();
      assertThat(r.getCellsPerResultCount()).isEqualTo(2);
      assertThat(r.getMoreResultsInRegion()).as("caching %d", rows).isFalse();
      assertThat(r.getMoreResults()).as("caching %d", rows).isTrue();
    }
    assertThat(registry.openCount()).isZero();
  }

  @Test
  void idleScannersExpireAndRenewalsKeepThemAlive() throws IOException {
    long id =
        service
            .scan(open(ClientProtos.Scan.newBuilder(), 1).build(), true, 0)
            .response()
            .getScannerId();
    clock.advance(59_000);
    ScanResponse renew =
        service
            .scan(
                ScanRequest.newBuilder().setScannerId(id).setRenew(true).setNextCallSeq(0).build(),
                true,
                0)
            .response();
    assertThat(renew.getCellsPerResultCount()).isZero();
    assertThat(renew.getMoreResultsInRegion()).isTrue();
    clock.advance(59_000);
    assertThat(registry.expireIdle()).isZero();
    clock.advance(2_000);
    assertThat(registry.expireIdle()).isOne();
    assertThatThrownBy(() -> service.scan(next(id, 1, 1), true, 0))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(ScanService.UNKNOWN_SCANNER));
  }

  @Test
  void aRegionNotServedHereIsNotServingRegion() {
    HBaseProtos.RegionSpecifier other =
        spec.toBuilder().setValue(ByteString.copyFromUtf8("t,,1.abc.")).build();
    assertThatThrownBy(
            () ->
                service.scan(
                    ScanRequest.newBuilder()
                        .setRegion(other)
                        .setScan(ClientProtos.Scan.newBuilder())
                        .setNumberOfRows(1)
                        .build(),
                    true,
                    0))
        .isInstanceOfSatisfying(
            BasaltIOException.class,
            e -> assertThat(e.hbaseExceptionClass()).isEqualTo(RegionLookup.NOT_SERVING));
    assertThatThrownBy(() -> service.scan(ScanRequest.newBuilder().build(), true, 0))
        .isInstanceOf(BasaltIOException.class)
        .hasMessageContaining("scanner id");
  }

  @Test
  void aFilterRejectingRowAfterRowAnswersWithHeartbeatsUntilItFindsOne() throws IOException {
    ScanService eager = new ScanService(registry, x -> region, null, 0);
    FilterProtos.Filter onlyLast =
        FilterProtos.Filter.newBuilder()
            .setName("org.apache.hadoop.hbase.filter.RowFilter")
            .setSerializedFilter(
                FilterProtos.RowFilter.newBuilder()
                    .setCompareFilter(
                        FilterProtos.CompareFilter.newBuilder()
                            .setCompareOp(HBaseProtos.CompareType.EQUAL)
                            .setComparator(
                                org.apache.hadoop.hbase.shaded.protobuf.generated.ComparatorProtos
                                    .Comparator.newBuilder()
                                    .setName("org.apache.hadoop.hbase.filter.BinaryComparator")
                                    .setSerializedComparator(
                                        org.apache.hadoop.hbase.shaded.protobuf.generated
                                            .ComparatorProtos.BinaryComparator.newBuilder()
                                            .setComparable(
                                                org.apache.hadoop.hbase.shaded.protobuf.generated
                                                    .ComparatorProtos.ByteArrayComparable
                                                    .newBuilder()
                                                    .setValue(ByteString.copyFromUtf8("r9")))
                                            .build()
                                            .toByteString())))
                    .build()
                    .toByteString())
            .build();
    ScanResponse r =
        eager
            .scan(
                open(ClientProtos.Scan.newBuilder().setFilter(onlyLast), 100)
                    .setClientHandlesHeartbeats(true)
                    .build(),
                true,
                0)
            .response();
    int heartbeats = 0;
    int rows = 0;
    for (int seq = 0; ; seq++) {
      rows += r.getCellsPerResultCount();
      if (r.getHeartbeatMessage()) {
        heartbeats++;
        assertThat(r.getMoreResultsInRegion()).isTrue();
      }
      if (!r.getMoreResultsInRegion()) {
        break;
      }
      assertThat(seq).as("calls").isLessThan(20);
      r =
          eager
              .scan(
                  next(r.getScannerId(), seq, 100).toBuilder()
                      .setClientHandlesHeartbeats(true)
                      .build(),
                  true,
                  0)
              .response();
    }
    assertThat(rows).isEqualTo(1);
    assertThat(heartbeats).as("each call gives up after one rejected row").isGreaterThan(5);

    // A client that does not handle heartbeats waits for the row in one call.
    ScanResponse patient =
        eager
            .scan(
                open(ClientProtos.Scan.newBuilder().setFilter(onlyLast), 100)
                    .setClientHandlesHeartbeats(false)
                    .build(),
                true,
                0)
            .response();
    assertThat(patient.getCellsPerResultCount()).isEqualTo(1);
    assertThat(patient.getHeartbeatMessage()).isFalse();
  }
}
