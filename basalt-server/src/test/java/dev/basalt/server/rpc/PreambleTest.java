package dev.basalt.server.rpc;

import static dev.basalt.server.rpc.ClientFrames.ascii;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PreambleTest {

  @Test
  void kinds() {
    assertThat(Preamble.parse(ClientFrames.preamble()).kind()).isEqualTo(Preamble.Kind.RPC);
    assertThat(Preamble.parse(ascii("Regist")).kind()).isEqualTo(Preamble.Kind.REGISTRY);
    assertThat(Preamble.parse(ascii("Securi")).kind()).isEqualTo(Preamble.Kind.SECURITY);
    assertThat(Preamble.parse(ascii("HBase!")).kind()).isEqualTo(Preamble.Kind.RPC);
    assertThat(Preamble.parse(ascii("hbas\0P")).kind()).isEqualTo(Preamble.Kind.BAD_MAGIC);
  }

  @Test
  void onlyVersionZeroWithSimpleAuthOpensAConnection() {
    assertThat(Preamble.parse(ClientFrames.preamble(0, 80)).opensConnection()).isTrue();
    assertThat(Preamble.parse(ClientFrames.preamble(1, 80)).opensConnection()).isFalse();
    assertThat(Preamble.parse(ClientFrames.preamble(0, 81)).opensConnection()).isFalse();
    assertThat(Preamble.parse(ascii("Regist")).opensConnection()).isFalse();
    assertThat(Preamble.parse(ascii("Securi")).expectsAnotherPreamble()).isTrue();
  }

  @Test
  void magicIsPrintedAsHBaseDoes() {
    assertThat(Preamble.parse(new byte[] {'G', 'E', 'T', 0, 0, 0}).magicText())
        .isEqualTo("GET\\x00");
  }
}
