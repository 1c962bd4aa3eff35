package io.etcdworkers.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run finds beside its target, and what it leaves there, on a real file system. */
class TargetDirTest {
    @TempDir
    Path dir;

    private Path dataDir(String name, String content) throws IOException {
        Path db = dir.resolve(name).resolve("member/snap/db");
        Files.createDirectories(db.getParent());
        Files.writeString(db, content);
        return dir.resolve(name);
    }

    @Test
    void anOldDataDirMovedAsideByAKilledForceRunIsPutBackAndSurvivesAFailingRun() throws IOException {
        dataDir("new.etcd.replaced", "old");
        Path target = dir.resolve("new.etcd");

        try (TargetDir prepared = TargetDir.prepare(target, true)) {
            assertThat(prepared.target().resolve("member/snap/db")).hasContent("old");
            // the run fails here: never placed
        }

        assertThat(target.resolve("member/snap/db")).hasContent("old");
        assertThat(dir.resolve("new.etcd.replaced")).doesNotExist();
    }

    @Test
    void aTargetInUseIsRefusedNamingItsFlagAndWhatToDo() throws IOException {
        Path full = dataDir("full.etcd", "x");
        Path file = Files.writeString(dir.resolve("a-file"), "x");

        assertThatThrownBy(() -> TargetDir.prepare(full, false)).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.TARGET_NOT_EMPTY);
            assertThat(e.code().exitCode()).isEqualTo(31);
            assertThat(e.getMessage())
                    .startsWith("data dir " + full + " exists and is not empty")
                    .endsWith("(give --data-dir a new path, or --force to replace it once the new one is complete)");
        });
        assertThatThrownBy(() -> TargetDir.prepare(full, false, "--output"))
                .isInstanceOfSatisfying(
                        WorkerException.class,
                        e -> assertThat(e.getMessage())
                                .startsWith("--output " + full + " exists")
                                .contains("give --output a new path"));
        assertThatThrownBy(() -> TargetDir.prepare(file, false)).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code().exitCode()).isEqualTo(31);
            assertThat(e.getMessage())
                    .isEqualTo("data dir " + file + " is a file, not a directory: give --data-dir "
                            + "the path of a new directory");
        });
        assertThat(full.resolve("member/snap/db")).hasContent("x");
        assertThat(file).hasContent("x");
    }

    @Test
    void withoutForceThePutBackDataDirIsRefusedButKept() throws IOException {
        dataDir("new.etcd.replaced", "old");
        Path target = dir.resolve("new.etcd");

        assertThatThrownBy(() -> TargetDir.prepare(target, false))
                .isInstanceOf(WorkerException.class)
                .extracting(e -> ((WorkerException) e).code())
                .isEqualTo(ErrorCode.TARGET_NOT_EMPTY);

        assertThat(target.resolve("member/snap/db")).hasContent("old");
    }

    @Test
    void anOldDataDirLeftBesideTheNewOneIsRemoved() throws IOException {
        dataDir("new.etcd.replaced", "old");
        Path target = dataDir("new.etcd", "new");

        try (TargetDir prepared = TargetDir.prepare(target, true)) {
            assertThat(prepared.part()).doesNotExist();
            assertThat(dir.resolve("new.etcd.replaced")).doesNotExist();
        }

        assertThat(target.resolve("member/snap/db")).hasContent("new");
    }

    @Test
    void placingReplacesTheOldDataDirAndLeavesNothingBeside() throws IOException {
        Path target = dataDir("new.etcd", "old");
        dataDir("new.etcd.part", "half-written by a killed run");

        try (TargetDir prepared = TargetDir.prepare(target, true)) {
            assertThat(prepared.part()).doesNotExist();
            Files.createDirectories(prepared.part().resolve("member/snap"));
            Files.writeString(prepared.part().resolve("member/snap/db"), "new");
            prepared.place();
        }

        assertThat(target.resolve("member/snap/db")).hasContent("new");
        try (var left = Files.list(dir)) {
            assertThat(left).containsExactly(target);
        }
    }

    @Test
    void theLockFileIsRemovedWhenTheRunEnds() throws IOException {
        Path target = dir.resolve("new.etcd");
        try (TargetDir prepared = TargetDir.prepare(target, false)) {
            assertThat(prepared.target().resolveSibling("new.etcd.lock")).exists();
        }
        assertThat(dir.resolve("new.etcd.lock")).doesNotExist();

        assertThatThrownBy(() -> TargetDir.prepare(dataDir("full.etcd", "x"), false))
                .isInstanceOf(WorkerException.class);
        assertThat(dir.resolve("full.etcd.lock"))
                .as("removed by a refused run too")
                .doesNotExist();
    }
}
