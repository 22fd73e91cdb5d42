package dev.basalt.bench;

import dev.basalt.cell.Cell;

/**
 * A {@link Cell} that is not a {@link dev.basalt.cell.KeyValue}: it forwards every accessor to a
 * wrapped cell. Comparing two of these makes {@link dev.basalt.cell.CellComparator} take its
 * generic, accessor-based path instead of the KeyValue fast path, on exactly the same bytes.
 */
final class DelegatingCell implements Cell {
  private final Cell delegate;

  DelegatingCell(Cell delegate) {
    this.delegate = delegate;
  }

  @Override
  public byte[] getRowArray() {
    return delegate.getRowArray();
  }

  @Override
  public int getRowOffset() {
    return delegate.getRowOffset();
  }

  @Override
  public short getRowLength() {
    return delegate.getRowLength();
  }

  @Override
  public byte[] getFamilyArray() {
    return delegate.getFamilyArray();
  }

  @Override
  public int getFamilyOffset() {
    return delegate.getFamilyOffset();
  }

  @Override
  public byte getFamilyLength() {
    return delegate.getFamilyLength();
  }

  @Override
  public byte[] getQualifierArray() {
    return delegate.getQualifierArray();
  }

  @Override
  public int getQualifierOffset() {
    return delegate.getQualifierOffset();
  }

  @Override
  public int getQualifierLength() {
    return delegate.getQualifierLength();
  }

  @Override
  public long getTimestamp() {
    return delegate.getTimestamp();
  }

  @Override
  public byte getTypeByte() {
    return delegate.getTypeByte();
  }

  @Override
  public long getSequenceId() {
    return delegate.getSequenceId();
  }

  @Override
  public byte[] getValueArray() {
    return delegate.getValueArray();
  }

  @Override
  public int getValueOffset() {
    return delegate.getValueOffset();
  }

  @Override
  public int getValueLength() {
    return delegate.getValueLength();
  }
}
