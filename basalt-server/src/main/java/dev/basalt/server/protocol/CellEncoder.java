package dev.basalt.server.protocol;

import dev.basalt.cell.Cell;
import dev.basalt.ops.Result;
import java.util.List;
import org.apache.hadoop.hbase.shaded.protobuf.generated.CellProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Turns basalt-core results into HBase's {@code Result} message. With a cell codec on the
 * connection the cells travel in the response cell block: the message only counts them ({@code
 * associated_cell_count}) and the cells are appended to the caller's list, in the order the client
 * will read them. Without a codec they are protobuf {@code Cell}s inside the message. An
 * existence-only answer carries {@code exists} and no cells; a row cut by a cell limit carries
 * {@code partial}. Stateless.
 */
public final class CellEncoder {
  private static final ClientProtos.Result EMPTY = ClientProtos.Result.getDefaultInstance();

  private CellEncoder() {}

  /**
   * @param cellBlock where cells go when the connection has a codec; null to put them in the
   *     message
   */
  public static ClientProtos.Result toResult(Result r, List<Cell> cellBlock) {
    if (r == null) {
      return EMPTY;
    }
    if (r.getExists() != null) {
      return ClientProtos.Result.newBuilder().setExists(r.getExists()).build();
    }
    ClientProtos.Result.Builder b = ClientProtos.Result.newBuilder();
    // cells(), not rawCells(): a view, where rawCells() copies the array (and List.of again)
    List<Cell> cells = r.cells();
    if (cellBlock != null) {
      b.setAssociatedCellCount(cells.size());
      for (Cell c : cells) {
        cellBlock.add(c);
      }
    } else {
      for (Cell c : cells) {
        b.addCell(toCell(c));
      }
    }
    if (r.mayHaveMoreCellsInRow()) {
      b.setPartial(true);
    }
    return b.build();
  }

  /** A cell as a protobuf message; its byte strings share the cell's bytes. */
  public static CellProtos.Cell toCell(Cell c) {
    return CellProtos.Cell.newBuilder()
        .setRow(wrap(c.getRowArray(), c.getRowOffset(), c.getRowLength()))
        .setFamily(wrap(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength()))
        .setQualifier(wrap(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength()))
        .setTimestamp(c.getTimestamp())
        .setCellType(CellProtos.CellType.forNumber(c.getTypeByte() & 0xFF))
        .setValue(wrap(c.getValueArray(), c.getValueOffset(), c.getValueLength()))
        .build();
  }

  private static org.apache.hbase.thirdparty.com.google.protobuf.ByteString wrap(
      byte[] b, int off, int len) {
    // Cells are immutable once stored, so the message may share their bytes.
    return UnsafeByteOperations.unsafeWrap(b, off, len);
  }
}
