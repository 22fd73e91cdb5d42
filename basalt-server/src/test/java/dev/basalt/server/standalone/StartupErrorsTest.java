package dev.basalt.server.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.junit.jupiter.api.Test;

class StartupErrorsTest {
  @Test
  void fileSystemExceptionsNameThePathAndWhatIsWrongWithIt() {
    assertThat(StartupErrors.describe(new NoSuchFileException("/d/x")))
        .isEqualTo("/d/x: no such file or directory");
    assertThat(StartupErrors.describe(new AccessDeniedException("/d/x")))
        .isEqualTo("/d/x: permission denied");
    assertThat(StartupErrors.describe(new FileAlreadyExistsException("/d/x")))
        .isEqualTo("/d/x: already exists");
    assertThat(StartupErrors.describe(new NotDirectoryException("/d/x")))
        .isEqualTo("/d/x: not a directory");
    assertThat(StartupErrors.describe(new DirectoryNotEmptyException("/d/x")))
        .isEqualTo("/d/x: directory not empty");
  }

  @Test
  void aRenameNamesBothPathsAndTheSystemsReasonWinsWhenGiven() {
    assertThat(StartupErrors.describe(new NoSuchFileException("/d/a", "/d/b", null)))
        .isEqualTo("/d/a -> /d/b: no such file or directory");
    assertThat(
            StartupErrors.describe(new FileSystemException("/d/a", null, "Read-only file system")))
        .isEqualTo("/d/a: Read-only file system");
    assertThat(StartupErrors.describe(new FileSystemException("/d/a")))
        .isEqualTo("/d/a: FileSystemException");
  }

  @Test
  void otherExceptionsKeepTheirMessageOrNameTheirClass() {
    assertThat(StartupErrors.describe(new IOException("port 16020 is in use")))
        .isEqualTo("port 16020 is in use");
    assertThat(StartupErrors.describe(new IllegalStateException()))
        .isEqualTo("java.lang.IllegalStateException");
    assertThat(
            StartupErrors.describe(new UncheckedIOException(new AccessDeniedException("/d/wal"))))
        .isEqualTo("/d/wal: permission denied");
  }
}
