package dev.basalt.server.rpc;

import static dev.basalt.server.rpc.ClientFrames.ascii;
import static dev.basalt.server.rpc.ClientFrames.concat;
import static dev.basalt.server.rpc.ClientFrames.preamble;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.GetClusterIdRequest;
import org.junit.jupiter.api.Test;

/** The frame decoder alone: what units it cuts from a byte stream. */
class RpcFrameDecoderTest {

  private static List<Object> decode(int max, byte[]... reads) {
    EmbeddedChannel ch = new EmbeddedChannel(new RpcFrameDecoder(max));
    for (byte[] r : reads) {
      ch.writeInbound(Unpooled.wrappedBuffer(r));
    }
    List<Object> out = new ArrayList<>();
    Object o;
    while ((o = ch.readInbound()) != null) {
      out.add(o);
    }
    ch.finishAndReleaseAll();
    return out;
  }

  private static byte[] frame(int length) {
    byte[] f = new byte[4 + length];
    f[0] = (byte) (length >>> 24);
    f[1] = (byte) (length >>> 16);
    f[2] = (byte) (length >>> 8);
    f[3] = (byte) length;
    Arrays.fill(f, 4, f.length, (byte) 7);
    return f;
  }

  @Test
  void preambleThenFrames() {
    List<Object> out = decode(100, concat(preamble(), frame(3), frame(0), frame(5)));
    assertThat(out).hasSize(4);
    assertThat(((Preamble) out.get(0)).opensConnection()).isTrue();
    assertThat(((RpcFrameDecoder.Frame) out.get(1)).body()).hasSize(3);
    assertThat(((RpcFrameDecoder.Frame) out.get(2)).body()).isEmpty();
    assertThat(((RpcFrameDecoder.Frame) out.get(3)).body()).hasSize(5);
  }

  @Test
  void unitsSplitAnywhereAreReassembled() {
    byte[] all = concat(preamble(), frame(10), frame(1));
    for (int cut = 1; cut < all.length; cut++) {
      List<Object> out =
          decode(100, Arrays.copyOfRange(all, 0, cut), Arrays.copyOfRange(all, cut, all.length));
      assertThat(out).as("cut at %d", cut).hasSize(3);
    }
  }

  @Test
  void incompleteUnitsWait() {
    assertThat(decode(100, Arrays.copyOf(preamble(), 5))).isEmpty();
    assertThat(decode(100, concat(preamble(), Arrays.copyOf(frame(10), 13)))).hasSize(1);
  }

  @Test
  void securityPreambleIsFollowedByAnother() {
    List<Object> out = decode(100, concat(ascii("Securi"), preamble(), frame(2)));
    assertThat(out).hasSize(3);
    assertThat(((Preamble) out.get(0)).kind()).isEqualTo(Preamble.Kind.SECURITY);
    assertThat(((Preamble) out.get(1)).kind()).isEqualTo(Preamble.Kind.RPC);
  }

  @Test
  void everythingAfterARefusedPreambleIsDiscarded() {
    for (byte[] p : List.of(ascii("Regist"), ascii("HTTP/1"), preamble(1, 80), preamble(0, 82))) {
      List<Object> out = decode(100, concat(p, frame(2), frame(3)));
      assertThat(out).hasSize(1);
      assertThat(out.get(0)).isInstanceOf(Preamble.class);
    }
  }

  @Test
  void oversizedConnectionHeaderIsReportedWithoutCallId() {
    List<Object> out = decode(100, concat(preamble(), frame(101)));
    assertThat(out).hasSize(2);
    FrameTooLarge t = (FrameTooLarge) out.get(1);
    assertThat(t.length()).isEqualTo(101);
    assertThat(t.hasCallId()).isFalse();
  }

  @Test
  void oversizedRequestReportsItsCallIdOnceTheHeaderHasArrived() {
    byte[] req =
        ClientFrames.request(
            12345, "GetClusterId", GetClusterIdRequest.getDefaultInstance(), new byte[500]);
    byte[] start = concat(preamble(), frame(1));
    // The header arrives a byte at a time; nothing is reported until it is complete.
    EmbeddedChannel ch = new EmbeddedChannel(new RpcFrameDecoder(100));
    ch.writeInbound(Unpooled.wrappedBuffer(start));
    ch.readInbound();
    ch.readInbound();
    int i = 0;
    Object o = null;
    while (o == null && i < req.length) {
      ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {req[i++]}));
      o = ch.readInbound();
    }
    assertThat(o).isInstanceOf(FrameTooLarge.class);
    assertThat(((FrameTooLarge) o).callId()).isEqualTo(12345);
    assertThat(i).isLessThan(40); // length + header, not the whole 500-byte body
    ch.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(req, i, req.length)));
    assertThat((Object) ch.readInbound()).isNull();
    ch.finishAndReleaseAll();
  }

  @Test
  void oversizedFrameWithGarbageHeaderHasNoCallId() {
    byte[] garbage = new byte[200];
    Arrays.fill(garbage, (byte) 0xff);
    List<Object> out = decode(100, concat(preamble(), frame(1)), concat(frame(150), garbage));
    FrameTooLarge t = (FrameTooLarge) out.get(2);
    assertThat(t.hasCallId()).isFalse();
  }

  @Test
  void oversizedFrameShorterThanAHeaderDoesNotWaitForever() {
    // Limit 64, frame of 70 bytes whose header claims more bytes than the frame has.
    byte[] body = new byte[70];
    body[0] = 100;
    byte[] lengthOnly = Arrays.copyOf(frame(70), 4);
    List<Object> out = decode(64, concat(preamble(), frame(1), lengthOnly), body);
    assertThat(out.get(2)).isInstanceOf(FrameTooLarge.class);
  }

  @Test
  void lengthWithTheTopBitSetIsOversizedNotNegative() {
    List<Object> out =
        decode(100, concat(preamble(), new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0}));
    assertThat(((FrameTooLarge) out.get(1)).length()).isEqualTo(0xffffff00L);
  }
}
