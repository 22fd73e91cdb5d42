package dev.basalt.server.rpc;

import static dev.basalt.server.rpc.ClientFrames.open;
import static dev.basalt.server.rpc.ClientFrames.request;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ScanRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Every request the server refuses or fails leaves one log line naming the method, the region or
 * table, the client and the exception; a bug's line carries its stack trace; a method the server
 * does not implement is logged once.
 */
class CallFailureLogTest {
  private final Logger logger = (Logger) LoggerFactory.getLogger(CallFailureLog.class);
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();

  private Level before;

  @BeforeEach
  void capture() {
    before = logger.getLevel();
    logger.setLevel(Level.INFO); // as a server logs (conf/logback.xml); tests log less
    events.start();
    logger.addAppender(events);
  }

  @AfterEach
  void release() {
    logger.detachAppender(events);
    logger.setLevel(before);
  }

  private static Harness harness() {
    return new Harness(List.of(TestServices.client()), () -> "c", 1 << 20);
  }

  private static GetRequest get(String row) {
    return GetRequest.newBuilder()
        .setRegion(
            RegionSpecifier.newBuilder()
                .setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFromUtf8("t,,1.abc.")))
        .setGet(
            org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Get.newBuilder()
                .setRow(ByteString.copyFromUtf8(row)))
        .build();
  }

  private List<ILoggingEvent> lines() {
    return events.list;
  }

  @Test
  void anExpectedRefusalIsOneLineWithWhereWhoAndWhat() throws Exception {
    Harness h = harness().send(open("ClientService"));
    h.send(request(3, "Get", get("missing")));
    h.responses();
    assertThat(lines()).hasSize(1);
    ILoggingEvent e = lines().get(0);
    assertThat(e.getLevel()).isEqualTo(Level.INFO);
    assertThat(e.getFormattedMessage())
        .contains("ClientService.Get region t,,1.abc.")
        .contains("org.apache.hadoop.hbase.TableNotFoundException: table 't' does not exist");
    assertThat(e.getThrowableProxy()).isNull();
  }

  @Test
  void aBugIsLoggedWithItsStackTrace() throws Exception {
    Harness h = harness().send(open("ClientService"));
    h.send(request(4, "Get", get("bug")));
    h.responses();
    assertThat(lines()).hasSize(1);
    ILoggingEvent e = lines().get(0);
    assertThat(e.getLevel()).isEqualTo(Level.WARN);
    assertThat(e.getFormattedMessage()).contains("ClientService.Get region t,,1.abc.");
    assertThat(e.getThrowableProxy().getClassName()).isEqualTo("java.lang.IllegalStateException");
  }

  @Test
  void anUnimplementedMethodIsLoggedOncePerMethod() throws Exception {
    Harness h = harness().send(open("ClientService"));
    ScanRequest scan = ScanRequest.newBuilder().setScannerId(42).build();
    h.send(request(5, "Scan", scan));
    h.send(request(6, "Scan", scan));
    h.responses();
    List<String> scans =
        lines().stream()
            .map(ILoggingEvent::getFormattedMessage)
            .filter(m -> m.contains("ClientService.Scan"))
            .toList();
    assertThat(scans).hasSize(1);
    assertThat(scans.get(0)).contains("is not implemented by this server");
  }

  @Test
  void theTargetOfARequestIsFoundInItsMessages() {
    assertThat(CallFailureLog.target(get("r"))).isEqualTo(" region t,,1.abc.");
    assertThat(CallFailureLog.target(ScanRequest.newBuilder().setScannerId(7).build()))
        .isEqualTo(" scanner 7");
    assertThat(CallFailureLog.target(null)).isEmpty();
  }
}
