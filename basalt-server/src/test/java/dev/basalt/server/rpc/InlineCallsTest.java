package dev.basalt.server.rpc;

import static dev.basalt.server.rpc.ClientFrames.concat;
import static dev.basalt.server.rpc.ClientFrames.open;
import static dev.basalt.server.rpc.ClientFrames.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.basalt.util.BasaltIOException;
import dev.basalt.util.NoWait;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.ClientService;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.GetResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.Result;
import org.junit.jupiter.api.Test;

/**
 * Calls an {@link InlineRule} accepts run on the event loop; refused ones, and ones that would
 * wait, go to the handler threads (held by the harness until the test runs them).
 */
class InlineCallsTest {
  /** What each handler run saw: the row and whether it ran inside NoWait (i.e. inline). */
  private final List<String> runs = new ArrayList<>();

  /**
   * Get with a rule that refuses row "long"; row "locked" waits (for a lock the test pretends is
   * held) and row "missing" fails; the answer carries the number of the run as its cell count.
   */
  private RpcService service() {
    return RpcService.builder(ClientService.getDescriptor())
        .method(
            "Get",
            GetRequest.getDefaultInstance(),
            (req, call) -> {
              String row = req.getGet().getRow().toStringUtf8();
              runs.add(row + (NoWait.active() ? " inline" : " handler"));
              if (row.equals("locked")) {
                NoWait.beforeWaiting("the lock of row locked");
              }
              if (row.equals("missing")) {
                throw new BasaltIOException(
                    "table 't' does not exist",
                    "org.apache.hadoop.hbase.TableNotFoundException",
                    true);
              }
              return RpcReply.of(
                  GetResponse.newBuilder()
                      .setResult(Result.newBuilder().setAssociatedCellCount(runs.size()))
                      .build());
            },
            req -> !req.getGet().getRow().toStringUtf8().equals("long"))
        .build();
  }

  private Harness harness(boolean inline) {
    return new Harness(List.of(service()), () -> "c", 1 << 20, inline).holdCalls();
  }

  @Test
  void acceptedCallsAreAnsweredOnTheEventLoopWithoutAHandler() throws Exception {
    Harness h = harness(true);
    h.send(
        concat(
            open("ClientService"),
            request(1, "Get", TestServices.get("a")),
            request(2, "Get", TestServices.get("b"))));
    // Both answered although the handlers are held.
    assertThat(h.responses()).extracting(ClientFrames.Response::callId).containsExactly(1, 2);
    assertThat(runs).containsExactly("a inline", "b inline");
  }

  @Test
  void refusedCallsGoToAHandler() throws Exception {
    Harness h = harness(true);
    h.send(concat(open("ClientService"), request(1, "Get", TestServices.get("long"))));
    assertThat(h.written()).isEmpty();
    h.runHeldCallsNewestFirst();
    assertThat(h.responses()).extracting(ClientFrames.Response::callId).containsExactly(1);
    assertThat(runs).containsExactly("long handler");
  }

  @Test
  void aCallThatWouldWaitIsHandedOverAndRunsAgain() throws Exception {
    Harness h = harness(true);
    h.send(
        concat(
            open("ClientService"),
            request(1, "Get", TestServices.get("locked")),
            request(2, "Get", TestServices.get("a"))));
    // The call that would wait does not hold up the next one.
    List<ClientFrames.Response> first = h.responses();
    assertThat(first).extracting(ClientFrames.Response::callId).containsExactly(2);
    h.runHeldCallsNewestFirst();
    ClientFrames.Response r = h.responses().get(0);
    assertThat(r.callId()).isEqualTo(1);
    assertThat(r.failed()).isFalse();
    assertThat(runs).containsExactly("locked inline", "a inline", "locked handler");
  }

  @Test
  void errorsOfInlineCallsAreAnsweredLikeAnyOther() throws Exception {
    Harness h = harness(true);
    h.send(concat(open("ClientService"), request(4, "Get", TestServices.get("missing"))));
    ClientFrames.Response r = h.responses().get(0);
    assertThat(r.callId()).isEqualTo(4);
    assertThat(r.exceptionClass()).isEqualTo("org.apache.hadoop.hbase.TableNotFoundException");
    assertThat(h.isOpen()).isTrue();
  }

  @Test
  void anUnparsableParameterIsAnsweredWithoutAHandler() throws Exception {
    Harness h = harness(true);
    byte[] bad =
        request(
            5,
            "Get",
            org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdResponse
                .newBuilder()
                .setClusterId("not a get request")
                .build());
    h.send(concat(open("ClientService"), bad));
    ClientFrames.Response r = h.responses().get(0);
    assertThat(r.callId()).isEqualTo(5);
    assertThat(r.exceptionClass()).isEqualTo(BasaltIOException.DO_NOT_RETRY);
    assertThat(runs).isEmpty();
  }

  @Test
  void withInlineCallsOffEveryCallGoesToAHandler() throws Exception {
    Harness h = harness(false);
    h.send(concat(open("ClientService"), request(1, "Get", TestServices.get("a"))));
    assertThat(h.written()).isEmpty();
    h.runHeldCallsNewestFirst();
    assertThat(h.responses()).extracting(ClientFrames.Response::callId).containsExactly(1);
    assertThat(runs).containsExactly("a handler");
  }
}
