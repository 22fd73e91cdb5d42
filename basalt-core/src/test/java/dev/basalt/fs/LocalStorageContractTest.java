package dev.basalt.fs;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The storage contract on a local directory. */
class LocalStorageContractTest extends StorageContractTest {
  @TempDir Path dir;

  @Override
  protected Storage newStorage(String name) throws IOException {
    return new LocalStorage(dir.resolve(name));
  }

  @Override
  protected Storage otherClient(String name) throws IOException {
    return new LocalStorage(dir.resolve(name));
  }

  @Override
  protected boolean fencesLiveHolders() {
    return false;
  }
}
