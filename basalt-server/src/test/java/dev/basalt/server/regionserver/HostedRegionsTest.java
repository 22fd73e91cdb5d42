package dev.basalt.server.regionserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.basalt.cell.Bytes;
import dev.basalt.db.ClusterCatalog;
import dev.basalt.db.RegionHost;
import dev.basalt.fs.LocalStorage;
import dev.basalt.ops.Put;
import dev.basalt.region.Region;
import dev.basalt.schema.ColumnFamilyDescriptorBuilder;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableDescriptorBuilder;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import dev.basalt.server.meta.MetaTable;
import dev.basalt.util.BasaltIOException;
import dev.basalt.util.Clock;
import dev.basalt.util.ManualClock;
import dev.basalt.util.config.Config;
import java.nio.file.Path;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier.RegionSpecifierType;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster region server's region lookups and HBase's answers for regions it does not serve, over
 * a real region host on a cluster root.
 */
class HostedRegionsTest {
  private static final TableName T = TableName.valueOf("t");
  private static final ServerName SELF = new ServerName("rs1.example", 16020, 1000L);
  private static final ServerName OTHER = new ServerName("rs2.example", 16021, 2000L);

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_000_000L);
  private RegionHost host;
  private HostedRegions regions;
  private RegionInfo a;
  private RegionInfo b;
  private TableDescriptor desc;

  @BeforeEach
  void setUp() throws Exception {
    LocalStorage storage = new LocalStorage(dir);
    ClusterCatalog catalog = ClusterCatalog.open(storage, Clock.system(), true);
    desc =
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f"))
            .build();
    var regionSet = catalog.createTable(desc, new byte[][] {Bytes.toBytes("m")}).regionInfos();
    a = regionSet.get(0);
    b = regionSet.get(1);
    host = RegionHost.start(storage, SELF.toString(), Config.defaults(), Clock.system());
    regions = new HostedRegions(() -> SELF, clock);
  }

  @AfterEach
  void tearDown() throws Exception {
    host.close();
  }

  private static RegionSpecifier byName(RegionInfo r) {
    return byName(r.getRegionName());
  }

  private static RegionSpecifier byName(byte[] name) {
    return RegionSpecifier.newBuilder()
        .setType(RegionSpecifierType.REGION_NAME)
        .setValue(ByteString.copyFrom(name))
        .build();
  }

  private static RegionSpecifier byEncodedName(String name) {
    return RegionSpecifier.newBuilder()
        .setType(RegionSpecifierType.ENCODED_REGION_NAME)
        .setValue(ByteString.copyFromUtf8(name))
        .build();
  }

  private BasaltIOException failure(RegionSpecifier spec) {
    return catchThrowableOfType(() -> regions.region(spec), BasaltIOException.class);
  }

  @Test
  void notRunningYetBeforeTheHostIsAttached() {
    BasaltIOException e = failure(byName(a));
    assertThat(e.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.ipc.ServerNotRunningYetException");
    assertThat(e.getMessage()).isEqualTo("Server rs1.example,16020,1000 is not running yet");
    assertThat(regions.regionMetrics()).isEmpty();
    assertThat(regions.isEmpty()).isTrue();
  }

  @Test
  void findsOpenRegionsByFullAndEncodedName() throws Exception {
    regions.attach(host);
    Region r = host.open(a, desc, 0);
    assertThat(regions.region(byName(a))).isSameAs(r);
    assertThat(regions.region(byEncodedName(a.getEncodedName()))).isSameAs(r);
    assertThat(regions.online(a.getRegionName())).isSameAs(r);
    assertThat(regions.regionMetrics()).hasSize(1);
    assertThat(regions.regionMetrics(T)).hasSize(1);
    assertThat(regions.regionMetrics(TableName.valueOf("other"))).isEmpty();
    assertThat(regions.isEmpty()).isFalse();
  }

  @Test
  void aRegionNotHereIsNotServingWithHBasesText() {
    regions.attach(host);
    BasaltIOException byFull = failure(byName(b));
    assertThat(byFull.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");
    assertThat(byFull.isDoNotRetry()).isFalse();
    assertThat(byFull.getMessage())
        .isEqualTo(
            Bytes.toStringBinary(b.getRegionName()) + " is not online on rs1.example,16020,1000");
    assertThat(failure(byEncodedName(b.getEncodedName())).getMessage())
        .isEqualTo(b.getEncodedName() + " is not online on rs1.example,16020,1000");
    // a full name whose encoded part is of an open region but whose prefix is not
    byte[] forged = b.getRegionName();
    System.arraycopy(Bytes.toBytes(a.getEncodedName()), 0, forged, forged.length - 33, 32);
    assertThat(failure(byName(forged)).hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");
  }

  @Test
  void hbaseMetaIsNotServedByRegionServers() {
    regions.attach(host);
    BasaltIOException e = failure(byName(MetaTable.REGION_NAME));
    assertThat(e.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");
    assertThat(e.getMessage()).isEqualTo("hbase:meta,,1 is not online on rs1.example,16020,1000");
    assertThat(failure(byEncodedName(MetaTable.ENCODED_NAME)).getMessage())
        .isEqualTo("1588230740 is not online on rs1.example,16020,1000");
  }

  @Test
  void aRegionBeingOpenedAnswersRegionOpening() {
    regions.attach(host);
    InTransition t;
    synchronized (regions.lock()) {
      t = regions.beginOpen(b, new InTransition.Command(7, 1L, null));
    }
    BasaltIOException e = failure(byName(b));
    assertThat(e.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.exceptions.RegionOpeningException");
    assertThat(e.getMessage())
        .isEqualTo(
            "Region "
                + Bytes.toStringBinary(b.getRegionName())
                + " is opening on rs1.example,16020,1000");
    assertThat(regions.isEmpty()).as("in transition").isFalse();
    regions.endOpen(t, null); // failed
    assertThat(failure(byName(b)).hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");
  }

  @Test
  void aRegionClosedForAMoveAnswersRegionMovedForTwoMinutes() throws Exception {
    regions.attach(host);
    InTransition open;
    synchronized (regions.lock()) {
      open = regions.beginOpen(a, new InTransition.Command(1, 1L, null));
    }
    Region r = host.open(a, desc, 0);
    long openSeq = r.getLastSequenceId() + 1;
    regions.endOpen(open, openSeq);
    assertThat(regions.openSeqNum(a.getEncodedName())).isEqualTo(openSeq);
    r.put(
        new Put(Bytes.toBytes("k")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"), new byte[1]));
    r.put(
        new Put(Bytes.toBytes("l")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"), new byte[1]));

    InTransition close;
    synchronized (regions.lock()) {
      close = regions.beginClose(a, new InTransition.Command(2, 1L, OTHER));
    }
    assertThat(regions.region(byName(a))).as("served while it closes").isSameAs(r);
    long last = host.close(a.getEncodedName());
    assertThat(last).isGreaterThan(openSeq);
    regions.endClose(close, last);

    BasaltIOException e = failure(byName(a));
    assertThat(e.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.exceptions.RegionMovedException");
    assertThat(e.getMessage())
        .isEqualTo(
            "Region moved to: hostname=rs2.example port=16021 startCode=2000. As of"
                + " locationSeqNum="
                + last
                + ".");
    assertThat(regions.closedHere(a.getEncodedName()).lastSequenceId()).isEqualTo(last);

    clock.advance(MovedRegions.TIMEOUT_MILLIS - 1);
    assertThat(failure(byEncodedName(a.getEncodedName())).hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.exceptions.RegionMovedException");
    clock.advance(1);
    assertThat(failure(byEncodedName(a.getEncodedName())).hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");
  }

  @Test
  void theMovedSequenceNumberIsNeverBelowTheOpenOne() throws Exception {
    // no edit between open and close: the last sequence id is below the open sequence number
    // meta gave the client, which would then ignore the new location
    regions.attach(host);
    InTransition open;
    synchronized (regions.lock()) {
      open = regions.beginOpen(a, new InTransition.Command(1, 1L, null));
    }
    long openSeq = host.open(a, desc, 41).getLastSequenceId() + 1;
    regions.endOpen(open, openSeq);
    InTransition close;
    synchronized (regions.lock()) {
      close = regions.beginClose(a, new InTransition.Command(2, 1L, OTHER));
    }
    long last = host.close(a.getEncodedName());
    assertThat(last).isLessThan(openSeq);
    regions.endClose(close, last);
    assertThat(failure(byName(a)).getMessage()).endsWith("locationSeqNum=" + openSeq + ".");
  }

  @Test
  void aCloseWithoutDestinationOrToThisAddressLeavesNoMove() throws Exception {
    regions.attach(host);
    for (ServerName to : new ServerName[] {null, new ServerName("rs1.example", 16020, 5000L)}) {
      host.open(a, desc, 0);
      InTransition close;
      synchronized (regions.lock()) {
        close = regions.beginClose(a, new InTransition.Command(2, 1L, to));
      }
      regions.endClose(close, host.close(a.getEncodedName()));
      assertThat(failure(byName(a)).hbaseExceptionClass())
          .as("destination %s", to)
          .isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");
    }
  }

  @Test
  void stoppingAndAbortedServersSaySo() throws Exception {
    regions.attach(host);
    host.open(a, desc, 0);
    regions.stopping();
    BasaltIOException stopping = failure(byName(a));
    assertThat(stopping.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.regionserver.RegionServerStoppedException");
    assertThat(stopping.getMessage()).isEqualTo("Server rs1.example,16020,1000 stopping");
    regions.checkAcceptsCloses(); // a stopping server still closes regions
    regions.aborted();
    BasaltIOException aborted = failure(byName(a));
    assertThat(aborted.hbaseExceptionClass())
        .isEqualTo("org.apache.hadoop.hbase.regionserver.RegionServerAbortedException");
    assertThat(aborted.getMessage()).isEqualTo("Server rs1.example,16020,1000 aborting");
    regions.stopping();
    assertThat(regions.isAborted()).as("an abort is final").isTrue();
  }

  @Test
  void encodedNamesAreTakenFromTheEndOfFullNames() {
    assertThat(HostedRegions.encodedNameOf(a.getRegionName())).isEqualTo(a.getEncodedName());
    assertThat(HostedRegions.encodedNameOf(MetaTable.REGION_NAME)).isNull();
    assertThat(HostedRegions.encodedNameOf(new byte[0])).isNull();
    assertThat(HostedRegions.encodedNameOf(Bytes.toBytes("t,,1." + "x".repeat(31) + "."))).isNull();
  }
}
