package io.etcdworkers.restore.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.restore.error.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
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

    @Test
    void listingStaysInsideThePrefixFolder() throws IOException {
        Files.createDirectories(root.resolve("etcd/v2"));
        Files.createDirectories(root.resolve("etcd-other/v2"));
        Files.writeString(root.resolve("etcd/v2/a"), "a");
        Files.writeString(root.resolve("etcd-other/v2/b"), "b");

        assertThat(new LocalDirectoryStore(root).list("etcd/")).extracting(ObjectInfo::key).containsExactly("etcd/v2/a");
        assertThat(new LocalDirectoryStore(root).list("")).hasSize(2);
    }

    @Test
    void missingContainerAndMissingObjectHaveTheirCodes() {
        assertThatThrownBy(() -> new LocalDirectoryStore(root.resolve("nope")))
                .isInstanceOfSatisfying(WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_NOT_FOUND));
        assertThatThrownBy(() -> new LocalDirectoryStore(root).open("v2/gone"))
                .isInstanceOfSatisfying(WorkerException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.OBJECT_VANISHED);
                    assertThat(e.getMessage()).contains("v2/gone");
                });
    }

    @Test
    void keysCannotEscapeTheContainer() {
        assertThatThrownBy(() -> new LocalDirectoryStore(root).open("../etc/passwd"))
                .isInstanceOfSatisfying(WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.USAGE));
    }
}
