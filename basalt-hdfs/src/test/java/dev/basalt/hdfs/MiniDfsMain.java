package dev.basalt.hdfs;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A MiniDFSCluster (NameNode + 2 DataNodes on 127.0.0.1, as {@link MiniDfs}) in a process of its
 * own, for trying {@code bin/basalt} on HDFS by hand and for the measurements in
 * docs/PERFORMANCE.md. Runs until killed (SIGTERM shuts the cluster down and deletes its data).
 *
 * <pre>
 * mvn -B -o -q test-compile -pl basalt-hdfs
 * mvn -B -o -q dependency:build-classpath -pl basalt-hdfs -Dmdep.outputFile=/tmp/hdfs.cp
 * java -cp basalt-hdfs/target/test-classes:basalt-hdfs/target/classes:$(cat /tmp/hdfs.cp) \
 *   dev.basalt.hdfs.MiniDfsMain READY_FILE
 * </pre>
 *
 * The ready file gets one line, {@code hdfs://127.0.0.1:PORT}, once the cluster is up. The data
 * lives under target/ of the working directory. Needs the JVM flags of basalt-hdfs's pom
 * (hadoop.jdk17.flags) on Java 17.
 */
public final class MiniDfsMain {
  private MiniDfsMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: MiniDfsMain READY_FILE");
      System.exit(2);
    }
    Files.createDirectories(Path.of("target"));
    MiniDfs dfs = MiniDfs.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  dfs.close();
                  stopped.countDown();
                }));
    Path ready = Path.of(args[0]);
    Path tmp = ready.resolveSibling(ready.getFileName() + ".tmp");
    Files.writeString(tmp, dfs.uri() + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, ready, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    System.out.println("MiniDFSCluster at " + dfs.uri());
    stopped.await();
  }
}
