package dev.basalt.ops;

/** Anything addressed to one row: mutations and gets. */
public interface Row {
  byte[] getRow();
}
