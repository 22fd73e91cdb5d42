package dev.basalt.server.standalone;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Words for an exception that stops {@code bin/basalt standalone} before it serves. The file
 * system's exceptions carry only the path as their message ("could not start: /data/basalt" says
 * nothing about what is wrong with it), so they are described by their kind.
 */
public final class StartupErrors {
  private StartupErrors() {}

  public static String describe(Throwable e) {
    if (e instanceof UncheckedIOException && e.getCause() != null) {
      return describe(e.getCause());
    }
    if (e instanceof FileSystemException f) {
      StringBuilder b = new StringBuilder(String.valueOf(f.getFile()));
      if (f.getOtherFile() != null) {
        b.append(" -> ").append(f.getOtherFile());
      }
      String reason = f.getReason() != null ? f.getReason() : kind(f);
      return b.append(": ").append(reason).toString();
    }
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getName() : message;
  }

  private static String kind(FileSystemException f) {
    if (f instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (f instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (f instanceof FileAlreadyExistsException) {
      // Files.createDirectories throws it for a file standing where a directory should be
      Path path = f.getFile() == null ? null : Path.of(f.getFile());
      return path != null && Files.exists(path) && !Files.isDirectory(path)
          ? "already exists and is not a directory"
          : "already exists";
    }
    if (f instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (f instanceof DirectoryNotEmptyException) {
      return "directory not empty";
    }
    return f.getClass().getSimpleName();
  }
}
