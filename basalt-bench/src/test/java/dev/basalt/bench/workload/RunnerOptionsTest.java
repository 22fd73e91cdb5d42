package dev.basalt.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunnerOptionsTest {
  @Test
  void defaultsAreYcsbs() throws Exception {
    RunnerOptions o = RunnerOptions.parse("--zookeeper", "127.0.0.1:2181");
    assertThat(o.zookeeper()).isEqualTo("127.0.0.1:2181");
    assertThat(o.bootstrap()).isNull();
    assertThat(o.table()).isEqualTo("usertable");
    // YCSB's procedure: E runs on a table loaded again after D.
    assertThat(o.phases()).containsExactly("load", "A", "B", "C", "F", "D", "reload", "E");
    assertThat(o.records()).isEqualTo(1000);
    assertThat(o.operations()).isEqualTo(1000);
    assertThat(o.fieldCount()).isEqualTo(10);
    assertThat(o.fieldLength()).isEqualTo(100);
    assertThat(o.threads()).isEqualTo(1);
    assertThat(o.targetOpsPerSecond()).isZero();
    assertThat(o.distribution()).isNull();
    assertThat(o.statusIntervalSeconds()).isEqualTo(10);
    assertThat(o.opLogFile()).isNull();
    assertThat(o.workload("D").distribution()).isEqualTo(Distribution.LATEST);
  }

  @Test
  void everyOption() throws Exception {
    RunnerOptions o =
        RunnerOptions.parse(
            "--bootstrap=h1:16020,h2:16020",
            "--workloads",
            "load, c ,Reload,E",
            "--records",
            "100_000",
            "--operations",
            "5000",
            "--max-seconds",
            "60",
            "--threads",
            "8",
            "--target",
            "2500.5",
            "--warmup",
            "5",
            "--fields",
            "4",
            "--field-length",
            "32",
            "--distribution",
            "Uniform",
            "--max-scan-length",
            "20",
            "--table",
            "t",
            "--family",
            "f",
            "--regions",
            "8",
            "--recreate-table",
            "--status-interval",
            "2",
            "--seed",
            "-7",
            "--label",
            "hbase",
            "--json",
            "out/r.json",
            "--op-log",
            "out/ops.csv",
            "-Dhbase.rpc.timeout=5000",
            "-D",
            "hbase.client.retries.number = 3");
    assertThat(o.bootstrap()).isEqualTo("h1:16020,h2:16020");
    assertThat(o.phases()).isEqualTo(List.of("load", "C", "reload", "E"));
    assertThat(o.opLogFile()).isEqualTo("out/ops.csv");
    assertThat(o.records()).isEqualTo(100_000);
    assertThat(o.operations()).isEqualTo(5000);
    assertThat(o.maxSeconds()).isEqualTo(60);
    assertThat(o.threads()).isEqualTo(8);
    assertThat(o.targetOpsPerSecond()).isEqualTo(2500.5);
    assertThat(o.warmupSeconds()).isEqualTo(5);
    assertThat(o.fieldCount()).isEqualTo(4);
    assertThat(o.fieldLength()).isEqualTo(32);
    assertThat(o.distribution()).isEqualTo(Distribution.UNIFORM);
    assertThat(o.workload("E").distribution()).isEqualTo(Distribution.UNIFORM);
    assertThat(o.workload("E").maxScanLength()).isEqualTo(20);
    assertThat(o.table()).isEqualTo("t");
    assertThat(o.family()).isEqualTo("f");
    assertThat(o.regions()).isEqualTo(8);
    assertThat(o.recreateTable()).isTrue();
    assertThat(o.statusIntervalSeconds()).isEqualTo(2);
    assertThat(o.seed()).isEqualTo(-7);
    assertThat(o.label()).isEqualTo("hbase");
    assertThat(o.jsonFile()).isEqualTo("out/r.json");
    assertThat(o.clientSettings())
        .containsExactly(
            Map.entry("hbase.rpc.timeout", "5000"), Map.entry("hbase.client.retries.number", "3"));
  }

  @Test
  void clientConfigurationCarriesTheConnectionSettings() throws Exception {
    RunnerOptions zk = RunnerOptions.parse("--zookeeper", "127.0.0.1:2181", "-Da=b");
    assertThat(HBaseStore.configuration(zk).get("hbase.zookeeper.quorum"))
        .isEqualTo("127.0.0.1:2181");
    assertThat(HBaseStore.configuration(zk).get("a")).isEqualTo("b");
    RunnerOptions rpc = RunnerOptions.parse("--bootstrap", "127.0.0.1:16000");
    assertThat(HBaseStore.configuration(rpc).get(HBaseStore.BOOTSTRAP_SERVERS_KEY))
        .isEqualTo("127.0.0.1:16000");
    assertThat(HBaseStore.configuration(rpc).get(HBaseStore.REGISTRY_IMPL_KEY))
        .isEqualTo(HBaseStore.RPC_REGISTRY_CLASS);
  }

  private static void rejects(String message, String... args) {
    assertThatThrownBy(() -> RunnerOptions.parse(args))
        .isInstanceOf(UsageException.class)
        .hasMessage(message);
  }

  @Test
  void badInputGivesClearErrors() {
    rejects("give exactly one of --zookeeper HOST:PORT or --bootstrap HOST:PORT");
    rejects(
        "give exactly one of --zookeeper HOST:PORT or --bootstrap HOST:PORT",
        "--zookeeper",
        "a:1",
        "--bootstrap",
        "b:2");
    rejects("--records needs a value", "--zookeeper", "a:1", "--records");
    rejects(
        "--records expects a whole number, got 'ten'", "--zookeeper", "a:1", "--records", "ten");
    rejects("--records must be at least 1, got 0", "--zookeeper", "a:1", "--records", "0");
    rejects(
        "--threads must be between 1 and 1024, got 5000",
        "--zookeeper",
        "a:1",
        "--threads",
        "5000");
    rejects("--target expects a number, got 'fast'", "--zookeeper", "a:1", "--target", "fast");
    rejects(
        "--target must be a finite number >= 0, got -1", "--zookeeper", "a:1", "--target", "-1");
    rejects(
        "--workloads: unknown workload 'G' (expected load, reload or one of A, B, C, D, E, F)",
        "--zookeeper",
        "a:1",
        "--workloads",
        "a,g");
    rejects(
        "--workloads: load can only come first (reload loads again later), got 'a,load'",
        "--zookeeper",
        "a:1",
        "--workloads",
        "a,load");
    rejects(
        "--workloads: reload can only follow another phase (start with load and"
            + " --recreate-table), got 'reload,e'",
        "--zookeeper",
        "a:1",
        "--workloads",
        "reload,e");
    rejects(
        "--workloads needs at least one of load, a, b, c, d, e, f",
        "--zookeeper",
        "a:1",
        "--workloads",
        " , ");
    rejects(
        "--distribution: unknown distribution 'pareto' (expected zipfian, uniform or latest)",
        "--zookeeper",
        "a:1",
        "--distribution",
        "pareto");
    rejects("-D expects KEY=VALUE, got 'novalue'", "--zookeeper", "a:1", "-Dnovalue");
    rejects("--zookeeper needs a non-empty value", "--zookeeper", " ");
    rejects("unknown option '--colour'", "--zookeeper", "a:1", "--colour", "red");
    rejects("help", "--help");
  }
}
