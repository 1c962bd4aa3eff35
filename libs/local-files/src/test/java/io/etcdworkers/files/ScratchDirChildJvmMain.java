package io.etcdworkers.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A JVM that holds a {@link ScratchDir} as a live run does: arguments the scratch root and,
 * optionally, the WAL root, where it makes {@code <run>-wal} and etcd's {@code <run>-wal.tmp};
 * prints {@code SCRATCH <dir>} once it holds it, then closes it when its stdin ends (or dies
 * holding it).
 */
public final class ScratchDirChildJvmMain {
    private ScratchDirChildJvmMain() {}

    public static void main(String[] args) throws IOException {
        Optional<Path> wal = args.length > 1 ? Optional.of(Path.of(args[1])) : Optional.empty();
        try (ScratchDir dir = ScratchDir.create(Path.of(args[0]), "restore-", wal)) {
            Files.writeString(dir.path().resolve("base.db"), "a live run's download");
            if (wal.isPresent()) {
                String run = dir.path().getFileName().toString();
                Files.createDirectories(
                        wal.get().resolve(run + ScratchDir.WAL_SUFFIX).resolve("member/wal"));
                Files.createDirectories(wal.get().resolve(run + ScratchDir.WAL_SUFFIX + ".tmp"));
            }
            System.out.println("SCRATCH " + dir.path());
            System.out.flush();
            System.in.readAllBytes();
        }
    }
}
