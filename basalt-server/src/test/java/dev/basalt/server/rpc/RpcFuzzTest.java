package dev.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;

/**
 * Random and mutated byte streams fed to one server connection in random pieces. Whatever arrives,
 * the server must not let an exception escape, must only ever write well-formed response frames,
 * and must never close a connection without first writing why (a call-id -1 error, the registry
 * answer, or RequestTooBigException).
 */
class RpcFuzzTest {
  private static final Set<String> FATAL_FAMILY =
      Set.of(
          RpcErrors.FATAL_CONNECTION,
          RpcErrors.WRONG_VERSION,
          RpcErrors.BAD_AUTH,
          RpcErrors.UNSUPPORTED_CELL_CODEC,
          RpcErrors.UNSUPPORTED_COMPRESSION_CODEC);

  private static Harness harness() {
    return new Harness(
        List.of(TestServices.meta("fuzz"), TestServices.client()), () -> "fuzz", 4096);
  }

  @Property(tries = 300)
  void randomBytes(
      @ForAll @Size(max = 3000) byte[] input,
      @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 1, max = 700) Integer> pieces)
      throws IOException {
    Harness h = feed(input, pieces);
    List<ClientFrames.Response> out = checkInvariants(h);
    if (input.length >= 6 && !Preamble.parse(Arrays.copyOf(input, 6)).opensConnection()) {
      Preamble p = Preamble.parse(Arrays.copyOf(input, 6));
      if (p.kind() == Preamble.Kind.BAD_MAGIC || p.kind() == Preamble.Kind.RPC) {
        // A refused preamble: exactly one explanation, then the connection is closed.
        assertThat(out).hasSize(1);
        assertThat(out.get(0).callId()).isEqualTo(-1);
        assertThat(FATAL_FAMILY).contains(out.get(0).exceptionClass());
        assertThat(h.isOpen()).isFalse();
      }
    }
  }

  @Property(tries = 300)
  void randomBytesAfterAValidOpening(
      @ForAll @Size(max = 3000) byte[] tail,
      @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 1, max = 700) Integer> pieces)
      throws IOException {
    byte[] input = ClientFrames.concat(ClientFrames.open("ClientService"), tail);
    checkInvariants(feed(input, pieces));
  }

  @Property(tries = 500)
  void mutatedValidStreams(
      @ForAll("validStreams") byte[] valid,
      @ForAll("mutations") List<int[]> mutations,
      @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 1, max = 300) Integer> pieces)
      throws IOException {
    byte[] input = mutate(valid, mutations);
    checkInvariants(feed(input, pieces));
  }

  /** The unmutated streams are answered call for call, whatever the pieces. */
  @Property(tries = 100)
  void validStreamsAreAnsweredCompletely(
      @ForAll("validStreams") byte[] valid,
      @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 1, max = 300) Integer> pieces)
      throws IOException {
    Harness h = feed(valid, pieces);
    List<ClientFrames.Response> out = checkInvariants(h);
    assertThat(out).extracting(ClientFrames.Response::callId).allMatch(id -> id >= 0);
    assertThat(h.isOpen()).isTrue();
  }

  private static Harness feed(byte[] input, List<Integer> pieces) {
    Harness h = harness();
    int p = 0;
    int i = 0;
    while (p < input.length && h.isOpen()) {
      int n = Math.min(pieces.get(i++ % pieces.size()), input.length - p);
      h.send(Arrays.copyOfRange(input, p, p + n));
      p += n;
    }
    return h;
  }

  private static List<ClientFrames.Response> checkInvariants(Harness h) throws IOException {
    List<ClientFrames.Response> out = h.responses(); // strict: only whole, well-formed frames
    for (ClientFrames.Response r : out) {
      if (r.failed()) {
        assertThat(r.exceptionClass()).startsWith("org.apache.hadoop.hbase.");
        assertThat(r.exceptionText()).startsWith(r.exceptionClass() + ": ");
      }
    }
    if (!h.isOpen()) {
      assertThat(out).as("a connection is never closed without an explanation").isNotEmpty();
      ClientFrames.Response last = out.get(out.size() - 1);
      boolean explains =
          last.callId() == -1
              || (last.failed() && last.exceptionClass().equals(RpcErrors.REQUEST_TOO_BIG));
      assertThat(explains).as("last frame before close: %s", last.header()).isTrue();
    }
    return out;
  }

  private static byte[] mutate(byte[] valid, List<int[]> mutations) {
    List<Byte> b = new ArrayList<>();
    for (byte x : valid) {
      b.add(x);
    }
    for (int[] m : mutations) {
      if (b.isEmpty()) {
        break;
      }
      int at = Math.floorMod(m[1], b.size());
      switch (m[0]) {
        case 0 -> b.set(at, (byte) m[2]); // overwrite
        case 1 -> b.add(at, (byte) m[2]); // insert
        case 2 -> b.remove(at); // delete
        default -> b.subList(at, b.size()).clear(); // truncate
      }
    }
    byte[] out = new byte[b.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.get(i);
    }
    return out;
  }

  @Provide
  Arbitrary<List<int[]>> mutations() {
    Arbitrary<int[]> one =
        Combinators.combine(
                Arbitraries.integers().between(0, 3).edgeCases(c -> c.includeOnly(0)),
                Arbitraries.integers().greaterOrEqual(0),
                Arbitraries.integers().between(0, 255))
            .as((kind, at, value) -> new int[] {kind, at, value});
    return one.list().ofMinSize(1).ofMaxSize(4);
  }

  /** A well-formed client stream: preamble, connection header, a few requests. */
  @Provide
  Arbitrary<byte[]> validStreams() {
    Arbitrary<byte[]> call =
        Combinators.combine(
                Arbitraries.integers().between(0, Integer.MAX_VALUE),
                Arbitraries.integers().between(0, 5),
                Arbitraries.integers().between(0, 3))
            .as(
                (id, kind, cells) ->
                    switch (kind) {
                      case 0 -> ClientFrames.request(id, "Get", TestServices.get("row"));
                      case 1 -> ClientFrames.request(id, "Get", TestServices.get("missing"));
                      case 2 ->
                          ClientFrames.request(
                              id, "NoSuchMethod", GetClusterIdRequest.getDefaultInstance());
                      case 3 -> ClientFrames.request(id, "Get", TestServices.get("cells"));
                      default ->
                          ClientFrames.request(
                              id,
                              "Mutate",
                              TestServices.put(cells),
                              CellBlockCodec.KEY_VALUE.encode(TestServices.cells(cells)));
                    });
    return call.list()
        .ofMinSize(1)
        .ofMaxSize(5)
        .map(
            calls -> {
              List<byte[]> parts = new ArrayList<>();
              parts.add(ClientFrames.open("ClientService"));
              parts.addAll(calls);
              return ClientFrames.concat(parts.toArray(new byte[0][]));
            });
  }
}
