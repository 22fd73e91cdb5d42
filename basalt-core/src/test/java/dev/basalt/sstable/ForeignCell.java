package dev.basalt.sstable;

import dev.basalt.cell.Cell;

/** A {@link Cell} that is not a KeyValue, so code has to take its generic path. */
record ForeignCell(Cell inner) implements Cell {
  @Override
  public byte[] getRowArray() {
    return inner.getRowArray();
  }

  @Override
  public int getRowOffset() {
    return inner.getRowOffset();
  }

  @Override
  public short getRowLength() {
    return inner.getRowLength();
  }

  @Override
  public byte[] getFamilyArray() {
    return inner.getFamilyArray();
  }

  @Override
  public int getFamilyOffset() {
    return inner.getFamilyOffset();
  }

  @Override
  public byte getFamilyLength() {
    return inner.getFamilyLength();
  }

  @Override
  public byte[] getQualifierArray() {
    return inner.getQualifierArray();
  }

  @Override
  public int getQualifierOffset() {
    return inner.getQualifierOffset();
  }

  @Override
  public int getQualifierLength() {
    return inner.getQualifierLength();
  }

  @Override
  public long getTimestamp() {
    return inner.getTimestamp();
  }

  @Override
  public byte getTypeByte() {
    return inner.getTypeByte();
  }

  @Override
  public long getSequenceId() {
    return inner.getSequenceId();
  }

  @Override
  public long getTtl() {
    return inner.getTtl();
  }

  @Override
  public byte[] getValueArray() {
    return inner.getValueArray();
  }

  @Override
  public int getValueOffset() {
    return inner.getValueOffset();
  }

  @Override
  public int getValueLength() {
    return inner.getValueLength();
  }
}
