package dev.basalt.bench.workload;

/** The operation types of YCSB's core workloads, with the names YCSB reports them under. */
enum Operation {
  INSERT("INSERT"),
  READ("READ"),
  UPDATE("UPDATE"),
  SCAN("SCAN"),
  READ_MODIFY_WRITE("READ-MODIFY-WRITE");

  private final String label;

  Operation(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }
}
