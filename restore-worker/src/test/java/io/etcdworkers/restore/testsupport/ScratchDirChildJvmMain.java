package io.etcdworkers.restore.testsupport;

import io.etcdworkers.restore.files.ScratchDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A JVM that holds a {@link ScratchDir} as a live run does: argument the scratch root; prints
 * {@code SCRATCH <dir>} once it holds it, then closes it when its stdin ends (or dies holding it).
 */
public final class ScratchDirChildJvmMain {
    private ScratchDirChildJvmMain() {
    }

    public static void main(String[] args) throws IOException {
        try (ScratchDir dir = ScratchDir.create(Path.of(args[0]), "restore-")) {
            Files.writeString(dir.path().resolve("base.db"), "a live run's download");
            System.out.println("SCRATCH " + dir.path());
            System.out.flush();
            System.in.readAllBytes();
        }
    }
}
