package dev.basalt.server.rpc;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A raw blocking TCP client for server tests. Reads have a generous timeout so that a server bug
 * fails the test instead of hanging the build; no test asserts on how long anything takes.
 */
final class SocketClient implements AutoCloseable {
  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;

  SocketClient(InetSocketAddress server) throws IOException {
    socket = new Socket();
    socket.connect(server, 10_000);
    socket.setSoTimeout(30_000);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  SocketClient send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  ClientFrames.Response read() throws IOException {
    int length = in.readInt();
    byte[] frame = new byte[length];
    in.readFully(frame);
    return ClientFrames.parse(frame);
  }

  /** True when the server closed the connection (end of stream, nothing more to read). */
  boolean closedByServer() throws IOException {
    try {
      return in.read() == -1;
    } catch (EOFException e) {
      return true;
    } catch (java.net.SocketException e) {
      return true; // reset by the server
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
