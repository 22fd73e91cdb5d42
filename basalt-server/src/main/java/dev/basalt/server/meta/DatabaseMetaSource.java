package dev.basalt.server.meta;

import dev.basalt.db.Database;
import dev.basalt.db.TableNotFoundException;
import dev.basalt.schema.RegionInfo;
import dev.basalt.schema.TableDescriptor;
import dev.basalt.schema.TableName;
import dev.basalt.server.cluster.ServerName;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Meta of a standalone server: every region of an enabled table is OPEN on the one region server
 * (opened once, sequence number 1), every region of a disabled one CLOSED.
 */
public final class DatabaseMetaSource implements MetaSource {
  private final Database db;
  private final Supplier<ServerName> server;

  /**
   * @param server the region server (asked on each read: its port is known once it listens)
   */
  public DatabaseMetaSource(Database db, Supplier<ServerName> server) {
    this.db = db;
    this.server = server;
  }

  @Override
  public List<TableRow> tables() {
    List<TableRow> out = new ArrayList<>();
    for (TableDescriptor d : db.listTables()) {
      TableRow t = table(d.getTableName());
      if (t != null) {
        out.add(t);
      }
    }
    return out;
  }

  @Override
  public TableRow table(TableName name) {
    try {
      boolean enabled = db.isTableEnabled(name);
      ServerName rs = server.get();
      List<RegionRow> regions = new ArrayList<>();
      for (RegionInfo r : db.getRegions(name)) {
        regions.add(new RegionRow(r, rs, 1, enabled ? "OPEN" : "CLOSED", rs));
      }
      return new TableRow(name, enabled, regions);
    } catch (TableNotFoundException dropped) {
      return null; // deleted meanwhile, or never there
    }
  }
}
