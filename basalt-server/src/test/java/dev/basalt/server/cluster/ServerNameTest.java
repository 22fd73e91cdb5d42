package dev.basalt.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServerNameTest {
  @Test
  void hostAndPortBracketsIpv6Literals() {
    assertThat(new ServerName("127.0.0.1", 16020, 1).hostAndPort()).isEqualTo("127.0.0.1:16020");
    assertThat(new ServerName("rs1.example.com", 1, 1).hostAndPort())
        .isEqualTo("rs1.example.com:1");
    assertThat(new ServerName("::1", 16020, 1).hostAndPort()).isEqualTo("[::1]:16020");
    assertThat(ServerName.hostAndPort("fe80::1%eth0", 2181)).isEqualTo("[fe80::1%eth0]:2181");
    assertThat(ServerName.hostAndPort("[::1]", 2181)).isEqualTo("[::1]:2181");
  }

  @Test
  void toStringIsHBaseServerNameForm() {
    assertThat(new ServerName("::1", 16020, 42).toString()).isEqualTo("::1,16020,42");
  }

  @Test
  void rejectsMissingHostAndBadPort() {
    assertThatThrownBy(() -> new ServerName("", 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("host");
    assertThatThrownBy(() -> new ServerName("h", 65536, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("65536");
  }
}
