package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.testsupport.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A bucket whose snapshots lie under another prefix than the one given: the failure says which to give. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SnapshotPrefixHintTest {
    @TempDir
    Path bucket;

    /** The gzip fixture bucket's {@code v2/} folder, laid out as {@code <prefix>/v2/} in the bucket. */
    private void fixtureUnder(String prefix) throws IOException {
        Path copy = Fixtures.copyBucket("gzip", Files.createTempDirectory(bucket, ".copy"));
        Path target = bucket.resolve(prefix);
        Files.createDirectories(target.getParent());
        Files.move(copy, target);
    }

    private WorkerException failure(Path container, String prefix) {
        return (WorkerException) catchThrowable(() ->
                SnapshotCatalog.load(new LocalDirectoryStore(container), prefix).select());
    }

    private static void assertNoSnapshots(WorkerException e, String... advice) {
        assertThat(e.code()).isEqualTo(ErrorCode.NO_SNAPSHOTS);
        assertThat(e.code().exitCode()).isEqualTo(10);
        assertThat(e.getMessage()).contains("no snapshots").contains(advice);
    }

    @Test
    void noPrefixGivenNamesThePrefixThatHoldsTheSnapshots() throws IOException {
        fixtureUnder("etcd-main");

        assertNoSnapshots(failure(bucket, ""), "found snapshots under etcd-main/: add --store-prefix etcd-main");
    }

    @Test
    void legacyV1FolderIsFoundToo() throws IOException {
        Path v1 = bucket.resolve("etcd-main/v1/Backup-1795986606");
        Files.createDirectories(v1);
        try (var files = Files.list(Fixtures.bucket("gzip").resolve("v2"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, v1.resolve(f.getFileName().toString()));
            }
        }

        assertNoSnapshots(failure(bucket, ""), "add --store-prefix etcd-main");
    }

    @Test
    void severalPrefixesAreListed() throws IOException {
        fixtureUnder("etcd-events");
        fixtureUnder("etcd-main");
        fixtureUnder("other");
        fixtureUnder("zz-more");

        WorkerException e = failure(bucket, "");

        assertNoSnapshots(
                e, "found snapshots under ", "etcd-events/", "etcd-main/", "other/", "and 1 more", "--store-prefix");
    }

    @Test
    void aWrongPrefixNamesTheOneThatHoldsTheSnapshots() throws IOException {
        fixtureUnder("etcd-main");

        WorkerException e = failure(bucket, "wrong");

        assertNoSnapshots(e, "\"wrong/\"", "found snapshots under etcd-main/: use --store-prefix etcd-main");
    }

    @Test
    void aPrefixEndingInTheV2FolderSaysToDropTheV2() throws IOException {
        fixtureUnder("etcd-main");

        assertNoSnapshots(
                failure(bucket, "etcd-main/v2"),
                "points at the v2/ folder itself: drop the v2 from the prefix (--store-prefix etcd-main)");
    }

    @Test
    void aContainerThatIsTheV2FolderSaysToDropTheV2() throws IOException {
        fixtureUnder("etcd-main");

        assertNoSnapshots(
                failure(bucket.resolve("etcd-main/v2"), ""),
                "which is the v2/ folder itself",
                "drop the v2 from --store-container");
    }

    @Test
    void aBucketWithoutSnapshotsAnywhereGetsNoAdvice() throws IOException {
        Files.createDirectories(bucket.resolve("empty"));
        Files.writeString(bucket.resolve("readme.txt"), "x");

        assertThat(failure(bucket, "empty").getMessage())
                .contains("no snapshots")
                .doesNotContain("found", "drop");
    }
}
