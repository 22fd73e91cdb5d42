package dev.basalt.ops;

/** Whether a read sees only committed writes (the default) or also writes still in flight. */
public enum IsolationLevel {
  READ_COMMITTED,
  READ_UNCOMMITTED
}
