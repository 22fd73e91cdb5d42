package dev.basalt.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.basalt.fs.StorageSettings;
import dev.basalt.fs.Storages;
import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A root whose NameNode cannot be reached fails the start at once with an {@link
 * IllegalArgumentException} naming the URI (the launchers exit with code 2), and never hangs: a
 * refused connection, an unknown host, an address that answers something else than Hadoop's RPC,
 * and one that accepts and never answers. No HDFS is needed; permission and safe mode are in {@link
 * HdfsStorageContractTest}, on a real NameNode.
 */
class RootCheckTest {
  private static final long TIMEOUT = 1000;
  private final List<AutoCloseable> servers = new ArrayList<>();

  @AfterEach
  void stopServers() throws Exception {
    for (AutoCloseable s : servers) {
      s.close();
    }
  }

  private static Config config() {
    return Config.builder()
        .set(StorageSettings.CONNECT_TIMEOUT.key(), String.valueOf(TIMEOUT))
        .build();
  }

  /** Opens the root, returning how long the failure took; the failure must name the URI. */
  private static long failsNaming(String root, String reason) {
    long start = System.nanoTime();
    assertThatThrownBy(() -> Storages.open(root, config()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot reach the NameNode of " + root)
        .hasMessageContaining(reason);
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Test
  void aRefusedConnectionFailsAtOnce() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    String root = "hdfs://127.0.0.1:" + port + "/basalt";
    assertThat(failsNaming(root, "Connection refused")).isLessThan(5_000);
  }

  @Test
  void anUnknownHostFailsAtOnce() {
    String root = "hdfs://no-such-namenode.invalid:8020/basalt";
    assertThat(failsNaming(root, "no-such-namenode.invalid")).isLessThan(5_000);
  }

  @Test
  void anAddressThatIsNoNameNodeIsSaidSo() throws IOException {
    ServerSocket web = serve(true);
    String root = "hdfs://127.0.0.1:" + web.getLocalPort() + "/basalt";
    assertThat(failsNaming(root, "does not answer as a NameNode")).isLessThan(5_000);
  }

  @Test
  void aNameNodeThatNeverAnswersFailsWithinTheBound() throws IOException {
    ServerSocket silent = serve(false);
    String root = "hdfs://127.0.0.1:" + silent.getLocalPort() + "/basalt";
    long bound = TIMEOUT * 3 + 1000; // RootCheck's own bound on the whole check
    assertThat(failsNaming(root, "")).isLessThan(bound + 3_000);
  }

  /**
   * A server on 127.0.0.1 that accepts connections and either answers every one as a web server
   * would, or reads and never answers.
   */
  private ServerSocket serve(boolean answerHttp) throws IOException {
    ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    List<Socket> accepted = new ArrayList<>();
    Thread t =
        new Thread(
            () -> {
              while (!server.isClosed()) {
                try {
                  Socket c = server.accept();
                  synchronized (accepted) {
                    accepted.add(c);
                  }
                  if (answerHttp) {
                    OutputStream out = c.getOutputStream();
                    out.write(
                        "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                  } else {
                    InputStream in = c.getInputStream();
                    new Thread(() -> drain(in), "silent-reader").start();
                  }
                } catch (IOException e) {
                  return; // closed
                }
              }
            },
            "fake-namenode");
    t.setDaemon(true);
    t.start();
    servers.add(
        () -> {
          server.close();
          synchronized (accepted) {
            for (Socket c : accepted) {
              c.close();
            }
          }
        });
    return server;
  }

  private static void drain(InputStream in) {
    byte[] buf = new byte[4096];
    try {
      while (in.read(buf) >= 0) {
        // never answers
      }
    } catch (IOException closed) {
      // the test is over
    }
  }
}
