package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.basalt.cell.Bytes;
import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.RegionHost;
import dev.basalt.fs.LocalStorage;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.protocol.SchemaCodec;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import dev.basalt.util.config.Config;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.CloseRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.OpenRegionResponse.RegionOpeningState;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier.RegionSpecifierType;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegionServerStatusProtos.RegionStateTransition.TransitionCode;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenRegion and CloseRegion called directly on a region server's handlers over a real region host
 * (the wire and the master link are covered by cluster.RegionServerTest): the outcome reports, the
 * fences, idempotence.
 */
class RegionAssignmentHandlersTest {
  private static final TableName T = TableName.valueOf("t");
  private static final ServerName SELF = new ServerName("rs1.example", 16020, 1000L);
  private static final ServerName OTHER = new ServerName("rs2.example", 16021, 2000L);
  private static final long EPOCH = 5;

  @TempDir Path dir;
  private final LinkedBlockingQueue<RegionStateTransition> reports = new LinkedBlockingQueue<>();
  private final AtomicInteger stops = new AtomicInteger();
  private final MasterEpochs epochs = new MasterEpochs();
  private LocalStorage storage;
  private ClusterCatalog catalog;
  private RegionHost host;
  private HostedRegions regions;
  private RegionAssignmentHandlers handlers;
  private RegionInfo a;
  private RegionInfo b;

  @BeforeEach
  void setUp() throws Exception {
    storage = new LocalStorage(dir);
    catalog = ClusterCatalog.open(storage, Clock.system(), true);
    TableDescriptor desc =
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
            .build();
    List<RegionInfo> infos =
        catalog.createTable(desc, new byte[][] {Bytes.toBytes("m")}).regionInfos();
    a = infos.get(0);
    b = infos.get(1);
    host = RegionHost.start(storage, SELF.toString(), Config.defaults(), Clock.system());
    regions = new HostedRegions(() -> SELF, Clock.system());
    regions.attach(host);
    epochs.saw(EPOCH);
    handlers =
        new RegionAssignmentHandlers(
            regions, storage, epochs, reports::add, stops::incrementAndGet);
  }

  @AfterEach
  void tearDown() throws Exception {
    handlers.close();
    host.close();
  }

  private RegionStateTransition nextReport() throws InterruptedException {
    RegionStateTransition t = reports.poll(30, TimeUnit.SECONDS);
    assertThat(t).as("a report within 30 s").isNotNull();
    return t;
  }

  private static OpenRegionRequest open(RegionInfo r, long procId, long startCode, long epoch) {
    return OpenRegionRequest.newBuilder()
        .addOpenInfo(
            OpenRegionRequest.RegionOpenInfo.newBuilder()
                .setRegion(SchemaCodec.toProto(r))
                .setOpenProcId(procId))
        .setServerStartCode(startCode)
        .setInitiatingMasterActiveTime(epoch)
        .build();
  }

  private static CloseRegionRequest close(RegionSpecifier spec, ServerName to, long procId) {
    CloseRegionRequest.Builder b =
        CloseRegionRequest.newBuilder()
            .setRegion(spec)
            .setServerStartCode(SELF.startCode())
            .setCloseProcId(procId)
            .setInitiatingMasterActiveTime(EPOCH);
    if (to != null) {
      b.setDestinationServer(to.toProto());
    }
    return b.build();
  }

  private static RegionSpecifier name(RegionInfo r) {
    return RegionSpecifier.newBuilder()
        .setType(RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFrom(r.getRegionName()))
        .build();
  }

  private static RegionSpecifier encoded(String name) {
    return RegionSpecifier.newBuilder()
        .setType(RegionSpecifierType.ENCODED_REGION_NAME)
        .setValue(ByteString.copyFromUtf8(name))
        .build();
  }

  private static String encodedNameIn(RegionStateTransition t) throws Exception {
    return SchemaCodec.toRegionInfo(t.getRegionInfo(0)).getEncodedName();
  }

  @Test
  void opensReportsOpenedAndAnswersAgainAlreadyOpened() throws Exception {
    assertThat(handlers.openRegion(open(a, 11, SELF.startCode(), EPOCH)).getOpeningStateList())
        .containsExactly(RegionOpeningState.OPENED);
    RegionStateTransition opened = nextReport();
    assertThat(opened.getTransitionCode()).isEqualTo(TransitionCode.OPENED);
    assertThat(encodedNameIn(opened)).isEqualTo(a.getEncodedName());
    assertThat(opened.getProcIdList()).containsExactly(11L);
    assertThat(opened.getInitiatingMasterActiveTime()).isEqualTo(EPOCH);
    long openSeq = opened.getOpenSeqNum();
    assertThat(openSeq).isEqualTo(host.region(a.getEncodedName()).getLastSequenceId() + 1);
    assertThat(regions.region(name(a))).isNotNull();

    // the master asks again (it lost the report, or failed over): same answer, reported again
    assertThat(handlers.openRegion(open(a, 12, SELF.startCode(), EPOCH + 1)).getOpeningStateList())
        .containsExactly(RegionOpeningState.ALREADY_OPENED);
    RegionStateTransition again = nextReport();
    assertThat(again.getTransitionCode()).isEqualTo(TransitionCode.OPENED);
    assertThat(again.getOpenSeqNum()).isEqualTo(openSeq);
    assertThat(again.getProcIdList()).containsExactly(12L);
    assertThat(again.getInitiatingMasterActiveTime()).isEqualTo(EPOCH + 1);
  }

  @Test
  void theOpenSequenceNumberContinuesFromTheRecordedFloor() throws Exception {
    catalog.recordFloors(T, java.util.Map.of(a.getEncodedName(), 500L));
    handlers.openRegion(open(a, 1, SELF.startCode(), EPOCH));
    assertThat(nextReport().getOpenSeqNum()).isEqualTo(501);
  }

  @Test
  void aCommandForAnotherLifeOfThisServerIsRefused() {
    BasaltIOException e =
        catchThrowableOfType(
            () -> handlers.openRegion(open(a, 1, 999, EPOCH)), BasaltIOException.class);
    assertThat(e.hbaseExceptionClass()).isEqualTo(BasaltIOException.DO_NOT_RETRY);
    assertThat(e.getMessage()).isEqualTo("this is rs1.example,16020,1000, not startcode 999");
    CloseRegionRequest stale = close(name(a), null, 1).toBuilder().setServerStartCode(999).build();
    assertThat(catchThrowableOfType(() -> handlers.closeRegion(stale), BasaltIOException.class))
        .hasMessage("this is rs1.example,16020,1000, not startcode 999");
    assertThat(reports).isEmpty();
    assertThat(regions.transition(a.getEncodedName())).isNull();
  }

  @Test
  void aCommandOfAnOlderMasterIsRefused() throws Exception {
    BasaltIOException e =
        catchThrowableOfType(
            () -> handlers.openRegion(open(a, 1, SELF.startCode(), EPOCH - 1)),
            BasaltIOException.class);
    assertThat(e.hbaseExceptionClass()).isEqualTo(BasaltIOException.DO_NOT_RETRY);
    assertThat(e.getMessage())
        .isEqualTo("a newer master (epoch 5) is active; this command came from epoch 4");
    // a newer master's command raises the fence for the one before it
    handlers.openRegion(open(a, 2, SELF.startCode(), EPOCH + 3));
    assertThat(nextReport().getTransitionCode()).isEqualTo(TransitionCode.OPENED);
    CloseRegionRequest old =
        close(name(a), null, 3).toBuilder().setInitiatingMasterActiveTime(EPOCH).build();
    assertThat(catchThrowableOfType(() -> handlers.closeRegion(old), BasaltIOException.class))
        .hasMessage("a newer master (epoch 8) is active; this command came from epoch 5");
    assertThat(regions.region(name(a))).as("still open").isNotNull();
  }

  @Test
  void closesForAMoveReportsClosedAndIsIdempotent() throws Exception {
    handlers.openRegion(open(a, 1, SELF.startCode(), EPOCH));
    long openSeq = nextReport().getOpenSeqNum();

    assertThat(handlers.closeRegion(close(name(a), OTHER, 2)).getClosed()).isTrue();
    RegionStateTransition closed = nextReport();
    assertThat(closed.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
    assertThat(encodedNameIn(closed)).isEqualTo(a.getEncodedName());
    assertThat(closed.getProcIdList()).containsExactly(2L);
    assertThat(closed.getInitiatingMasterActiveTime()).isEqualTo(EPOCH);
    long last = closed.getOpenSeqNum();
    assertThat(last).isEqualTo(openSeq - 1); // nothing written while it was open
    assertThat(host.region(a.getEncodedName())).isNull();
    BasaltIOException moved =
        catchThrowableOfType(() -> regions.region(name(a)), BasaltIOException.class);
    assertThat(moved.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.exceptions.RegionMovedException");
    assertThat(moved.getMessage())
        .isEqualTo(
            "Region moved to: hostname=rs2.example port=16021 startCode=2000. As of"
                + " locationSeqNum="
                + openSeq
                + ".");

    // asked again, by encoded name: closed, and the same report again
    assertThat(handlers.closeRegion(close(encoded(a.getEncodedName()), OTHER, 3)).getClosed())
        .isTrue();
    RegionStateTransition again = nextReport();
    assertThat(again.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
    assertThat(again.getOpenSeqNum()).isEqualTo(last);
    assertThat(again.getProcIdList()).containsExactly(3L);
  }

  @Test
  void aCloseOfARegionNeverHereIsReportedWhenItsNameSaysWhichItIs() throws Exception {
    assertThat(handlers.closeRegion(close(name(b), null, 4)).getClosed()).isTrue();
    RegionStateTransition closed = nextReport();
    assertThat(closed.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
    assertThat(closed.hasOpenSeqNum()).isFalse();
    RegionInfo named = SchemaCodec.toRegionInfo(closed.getRegionInfo(0));
    assertThat(named.getEncodedName()).isEqualTo(b.getEncodedName());
    assertThat(named.getStartKey()).isEqualTo(b.getStartKey());

    // by encoded name alone it cannot be named: nothing reported (the next report is the open's)
    assertThat(handlers.closeRegion(close(encoded(b.getEncodedName()), null, 5)).getClosed())
        .isTrue();
    handlers.openRegion(open(a, 6, SELF.startCode(), EPOCH));
    assertThat(nextReport().getProcIdList()).containsExactly(6L);
  }

  @Test
  void aRegionOfATableWithoutDescriptorFailsToOpen() throws Exception {
    RegionInfo stray = RegionInfo.of(TableName.valueOf("gone"), null, null, 1);
    assertThat(handlers.openRegion(open(stray, 9, SELF.startCode(), EPOCH)).getOpeningStateList())
        .containsExactly(RegionOpeningState.FAILED_OPENING);
    RegionStateTransition failed = nextReport();
    assertThat(failed.getTransitionCode()).isEqualTo(TransitionCode.FAILED_OPEN);
    assertThat(failed.getProcIdList()).containsExactly(9L);
    assertThat(regions.isEmpty()).isTrue();
  }

  @Test
  void opensAreRefusedOnceAStopBeganAndCloseAllClosesTheRest() throws Exception {
    handlers.openRegion(open(a, 1, SELF.startCode(), EPOCH));
    handlers.openRegion(open(b, 2, SELF.startCode(), EPOCH));
    nextReport();
    nextReport();
    handlers.refuseOpens();
    BasaltIOException e =
        catchThrowableOfType(
            () -> handlers.openRegion(open(a, 3, SELF.startCode(), EPOCH)),
            BasaltIOException.class);
    assertThat(e.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.regionserver.RegionServerStoppedException");

    handlers.closeAll();
    assertThat(regions.isEmpty()).isTrue();
    for (int i = 0; i < 2; i++) {
      RegionStateTransition closed = nextReport();
      assertThat(closed.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
      assertThat(closed.getProcIdCount()).as("closed by the server itself").isZero();
      assertThat(closed.hasInitiatingMasterActiveTime()).isFalse();
    }
  }

  @Test
  void aCloseDuringAnOpenWaitsForItAndReportsAfterIt() throws Exception {
    AdminServiceHandlersTest.ManualExecutor openers = new AdminServiceHandlersTest.ManualExecutor();
    AdminServiceHandlersTest.ManualExecutor closers = new AdminServiceHandlersTest.ManualExecutor();
    RegionAssignmentHandlers held =
        new RegionAssignmentHandlers(
            regions, storage, epochs, reports::add, stops::incrementAndGet, openers, closers);
    assertThat(held.openRegion(open(a, 1, SELF.startCode(), EPOCH)).getOpeningStateList())
        .containsExactly(RegionOpeningState.OPENED);
    BasaltIOException opening =
        catchThrowableOfType(() -> regions.region(name(a)), BasaltIOException.class);
    assertThat(opening.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.exceptions.RegionOpeningException");
    // the master asks again while it opens: accepted, and the report will name this command
    assertThat(held.openRegion(open(a, 2, SELF.startCode(), EPOCH)).getOpeningStateList())
        .containsExactly(RegionOpeningState.OPENED);
    assertThat(held.closeRegion(close(name(a), OTHER, 3)).getClosed()).isTrue();
    assertThat(openers.pending).hasSize(1);
    assertThat(closers.pending).hasSize(1);
    assertThat(reports).isEmpty();

    openers.runAll();
    RegionStateTransition opened = nextReport();
    assertThat(opened.getTransitionCode()).isEqualTo(TransitionCode.OPENED);
    assertThat(opened.getProcIdList()).containsExactly(2L);
    closers.runAll();
    RegionStateTransition closed = nextReport();
    assertThat(closed.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
    assertThat(closed.getProcIdList()).containsExactly(3L);
    assertThat(regions.isEmpty()).isTrue();
    assertThat(
            catchThrowableOfType(() -> regions.region(name(a)), BasaltIOException.class)
                .hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.exceptions.RegionMovedException");
  }

  @Test
  void anOpenDuringACloseOpensOnceTheCloseEnded() throws Exception {
    handlers.openRegion(open(a, 1, SELF.startCode(), EPOCH));
    nextReport();
    AdminServiceHandlersTest.ManualExecutor openers = new AdminServiceHandlersTest.ManualExecutor();
    AdminServiceHandlersTest.ManualExecutor closers = new AdminServiceHandlersTest.ManualExecutor();
    RegionAssignmentHandlers held =
        new RegionAssignmentHandlers(
            regions, storage, epochs, reports::add, stops::incrementAndGet, openers, closers);
    assertThat(held.closeRegion(close(name(a), null, 2)).getClosed()).isTrue();
    assertThat(regions.region(name(a))).as("served until the close runs").isNotNull();
    assertThat(held.openRegion(open(a, 3, SELF.startCode(), EPOCH)).getOpeningStateList())
        .containsExactly(RegionOpeningState.OPENED);

    closers.runAll();
    RegionStateTransition closed = nextReport();
    assertThat(closed.getTransitionCode()).isEqualTo(TransitionCode.CLOSED);
    assertThat(closed.getProcIdList()).containsExactly(2L);
    openers.runAll();
    RegionStateTransition opened = nextReport();
    assertThat(opened.getTransitionCode()).isEqualTo(TransitionCode.OPENED);
    assertThat(opened.getProcIdList()).containsExactly(3L);
    assertThat(opened.getOpenSeqNum()).isGreaterThan(closed.getOpenSeqNum());
    assertThat(regions.region(name(a))).isNotNull();
  }

  @Test
  void regionNamesParseBackToTheirRegion() {
    RegionInfo r = RegionInfo.of(T, Bytes.toBytes("a,b"), Bytes.toBytes("z"), 123);
    RegionInfo parsed =
        RegionAssignmentHandlers.fromRegionName(r.getRegionName(), r.getEncodedName());
    assertThat(parsed.getEncodedName()).isEqualTo(r.getEncodedName());
    assertThat(parsed.getStartKey()).isEqualTo(Bytes.toBytes("a,b"));
    assertThat(RegionAssignmentHandlers.fromRegionName(r.getRegionName(), a.getEncodedName()))
        .as("a name that does not hash to the encoded name")
        .isNull();
  }
}
