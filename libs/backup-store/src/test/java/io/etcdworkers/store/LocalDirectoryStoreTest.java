package io.etcdworkers.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalDirectoryStoreTest {
    @TempDir
    Path root;

    @Test
    void writeIsInvisibleUntilCommitAndWholeAfter() throws IOException {
        LocalDirectoryStore store = new LocalDirectoryStore(root);
        try (ObjectWriter writer = store.create("p/v2/Full-00000000-00000010-1")) {
            writer.out().write("hello ".getBytes(StandardCharsets.UTF_8));
            assertThat(store.list("p/")).isEmpty();
            writer.out().write("world".getBytes(StandardCharsets.UTF_8));
            ObjectInfo info = writer.commit();
            assertThat(info.size()).isEqualTo(11);
        }

        assertThat(store.list("p/")).extracting(ObjectInfo::key).containsExactly("p/v2/Full-00000000-00000010-1");
        try (InputStream in = store.open("p/v2/Full-00000000-00000010-1")) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello world");
        }
        try (InputStream in = store.openRange("p/v2/Full-00000000-00000010-1", 6, 3)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("wor");
        }
    }

    @Test
    void closeWithoutCommitLeavesNothing() throws IOException {
        LocalDirectoryStore store = new LocalDirectoryStore(root);
        try (ObjectWriter writer = store.create("v2/x")) {
            writer.out().write(new byte[1000]);
        }

        try (Stream<Path> files = Files.walk(root)) {
            assertThat(files.filter(Files::isRegularFile)).isEmpty();
        }
    }

    /** A writer killed by SIGKILL leaves its temp file, unlocked: the next write there removes it, never a live one's. */
    @Test
    void theNextWriteRemovesTheTempFileOfAKilledUploadButNotALiveOne() throws IOException {
        LocalDirectoryStore store = new LocalDirectoryStore(root);
        Path abandoned = Files.createDirectories(root.resolve("v2"))
                .resolve(LocalDirectoryStore.IN_FLIGHT_PREFIX + "0000-Full-00000000-00000010-1.gz");
        Files.write(abandoned, new byte[4096]);

        try (ObjectWriter live = store.create("v2/Full-00000000-00000020-2.gz")) {
            live.out().write("live".getBytes(StandardCharsets.UTF_8));
            assertThat(abandoned).doesNotExist();
            try (ObjectWriter second = store.create("v2/Full-00000000-00000030-3.gz")) {
                second.out().write("second".getBytes(StandardCharsets.UTF_8));
                second.commit();
            }
            live.commit();
        }

        assertThat(store.list("v2/"))
                .extracting(ObjectInfo::key)
                .containsExactlyInAnyOrder("v2/Full-00000000-00000020-2.gz", "v2/Full-00000000-00000030-3.gz");
        try (Stream<Path> files = Files.list(root.resolve("v2"))) {
            assertThat(files).hasSize(2);
        }
    }

    @Test
    void listingStaysInsideThePrefixFolder() throws IOException {
        Files.createDirectories(root.resolve("etcd/v2"));
        Files.createDirectories(root.resolve("etcd-other/v2"));
        Files.writeString(root.resolve("etcd/v2/a"), "a");
        Files.writeString(root.resolve("etcd-other/v2/b"), "b");

        assertThat(new LocalDirectoryStore(root).list("etcd/"))
                .extracting(ObjectInfo::key)
                .containsExactly("etcd/v2/a");
        assertThat(new LocalDirectoryStore(root).list("")).hasSize(2);
    }

    @Test
    void missingContainerAndMissingObjectHaveTheirCodes() {
        assertThatThrownBy(() -> new LocalDirectoryStore(root.resolve("nope")))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND));
        assertThatThrownBy(() -> new LocalDirectoryStore(root).open("v2/gone"))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED);
                    assertThat(e.getMessage()).contains("v2/gone");
                });
    }

    @Test
    void keysCannotEscapeTheContainer() {
        assertThatThrownBy(() -> new LocalDirectoryStore(root).open("../etc/passwd"))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE));
    }
}
