package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectStore;
import io.etcdworkers.store.ObjectWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotCatalogTest {
    @TempDir
    Path bucket;

    private void objects(String prefix, String... names) throws IOException {
        for (String name : names) {
            Path file = bucket.resolve(prefix).resolve(name);
            Files.createDirectories(file.getParent());
            Files.write(file, new byte[] {1, 2, 3});
        }
    }

    private SnapshotCatalog catalog(String prefix) {
        return SnapshotCatalog.load(new LocalDirectoryStore(bucket), prefix);
    }

    @Test
    void selectsLatestFullAndTheDeltasAfterIt() throws IOException {
        objects(
                "etcd/v2",
                "Full-00000000-00000100-1000",
                "Incr-00000101-00000200-1001",
                "Full-00000000-00000200-1002",
                "Incr-00000201-00000300-1003.gz",
                "Incr-00000301-00000400-1004.gz");

        SnapshotSelection selection = catalog("etcd").select();

        assertThat(selection.base().key()).isEqualTo("etcd/v2/Full-00000000-00000200-1002");
        assertThat(selection.deltas())
                .extracting(SnapshotObject::key)
                .containsExactly("etcd/v2/Incr-00000201-00000300-1003.gz", "etcd/v2/Incr-00000301-00000400-1004.gz");
        assertThat(selection.problems()).isEmpty();
        assertThat(selection.lastRevision()).isEqualTo(400);
    }

    @Test
    void compactedFullSnapshotSortsAfterTheDeltasItCovers() throws IOException {
        objects(
                "v2",
                "Full-00000000-00000100-1000",
                "Incr-00000101-00000200-1001",
                "Incr-00000201-00000300-1003",
                "Full-00000000-00000300-1010");

        SnapshotSelection selection = catalog("").select();

        assertThat(selection.base().key()).isEqualTo("v2/Full-00000000-00000300-1010");
        assertThat(selection.deltas()).isEmpty();
    }

    @Test
    void siblingPrefixIsNotMixedIn() throws IOException {
        objects("etcd/v2", "Full-00000000-00000100-1000");
        objects("etcd-other/v2", "Full-00000000-00000900-1000", "Incr-00000901-00000950-1001");

        SnapshotSelection selection = catalog("etcd").select();

        assertThat(selection.base().key()).isEqualTo("etcd/v2/Full-00000000-00000100-1000");
        assertThat(selection.deltas()).isEmpty();
    }

    @Test
    void chunksAreIgnoredAndOtherKeysSkippedWithTheirNames() throws IOException {
        objects(
                "p/v2",
                "Full-00000000-00000100-1000",
                "Full-00000000-00000100-1000x/0000000001",
                "readme.txt",
                "Incr-00000200-00000100-1000");
        objects("p/v2/Full-00000000-00000200-1005", "0000000001", "0000000002");

        SnapshotCatalog catalog = catalog("p/");

        assertThat(catalog.snapshots())
                .extracting(SnapshotObject::key)
                .containsExactly("p/v2/Full-00000000-00000100-1000");
        assertThat(catalog.skipped())
                .extracting(SnapshotKey.Invalid::key)
                .containsExactlyInAnyOrder("p/v2/readme.txt", "p/v2/Incr-00000200-00000100-1000");
    }

    @Test
    void snapshotsTheListingMarksExcludedAreNeverSelectedAndAreNamed() throws IOException {
        objects(
                "v2",
                "Full-00000000-00000100-1000",
                "Incr-00000101-00000150-1001",
                "Full-00000000-00000150-1002",
                "Incr-00000151-00000200-1003");
        LocalDirectoryStore local = new LocalDirectoryStore(bucket);
        // the listing of a store that keeps the mark (ABS, GCS, versioned S3), for the newest full snapshot
        ObjectStore marking = new ObjectStore() {
            @Override
            public String describe() {
                return local.describe();
            }

            @Override
            public List<ObjectInfo> list(String keyPrefix) {
                return local.list(keyPrefix).stream()
                        .map(o -> o.excludedWhen(o.key().contains("Full-00000000-00000150"), "blob index tag"))
                        .toList();
            }

            @Override
            public InputStream open(String key) {
                return local.open(key);
            }

            @Override
            public InputStream openRange(String key, long offset, long length) {
                return local.openRange(key, offset, length);
            }

            @Override
            public ObjectWriter create(String key) {
                return local.create(key);
            }

            @Override
            public void close() {
                local.close();
            }
        };

        SnapshotCatalog catalog = SnapshotCatalog.load(marking, "");
        SnapshotSelection selection = catalog.select();

        assertThat(selection.base().key()).isEqualTo("v2/Full-00000000-00000100-1000");
        assertThat(selection.deltas())
                .extracting(SnapshotObject::key)
                .containsExactly("v2/Incr-00000101-00000150-1001", "v2/Incr-00000151-00000200-1003");
        assertThat(selection.excluded())
                .extracting(SnapshotObject::key)
                .containsExactly("v2/Full-00000000-00000150-1002");
        assertThat(catalog.olderChains(RestorePoint.LATEST, selection.base())).isEmpty();
    }

    @Test
    void reportsEveryGapAndOverlapNotJustTheFirst() throws IOException {
        objects(
                "v2",
                "Full-00000000-00000100-1000",
                "Incr-00000101-00000150-1001",
                "Incr-00000160-00000200-1002",
                "Incr-00000190-00000200-1003",
                "Incr-00000300-00000400-1004");

        SnapshotSelection selection = catalog("").select();

        assertThat(selection.problems())
                .extracting(ChainProblem::describe)
                .containsExactly(
                        "gap: revisions 151..159 are in no snapshot (after v2/Incr-00000101-00000150-1001, next is v2/Incr-00000160-00000200-1002)",
                        "overlap: v2/Incr-00000190-00000200-1003 starts at revision 190 but v2/Incr-00000160-00000200-1002 already ends at 200 (expected start 201)",
                        "gap: revisions 201..299 are in no snapshot (after v2/Incr-00000190-00000200-1003, next is v2/Incr-00000300-00000400-1004)");
        assertThat(selection.overlaps())
                .as("a delta that ends where the one before it does adds nothing")
                .isEmpty();
        assertThatThrownBy(selection::requireContiguous).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.BACKUP_INCONSISTENT);
            assertThat(e.getMessage()).contains("3 break(s)", "151..159", "201..299", "overlap");
        });
    }

    @Test
    void aDeltaStartingInsideTheOneBeforeAndEndingAfterItIsAnOverlapCheckedWhenRead() throws IOException {
        objects(
                "v2",
                "Full-00000000-00000100-1000",
                "Incr-00000101-00000150-1001",
                "Incr-00000101-00000200-1002",
                "Incr-00000201-00000250-1003");

        SnapshotSelection selection = catalog("").select();

        assertThat(selection.problems()).isEmpty();
        assertThat(selection.overlaps())
                .extracting(o -> o.previous().key() + " > " + o.next().key())
                .containsExactly("v2/Incr-00000101-00000150-1001 > v2/Incr-00000101-00000200-1002");
        assertThat(selection.usable()).isEqualTo(selection);
    }

    @Test
    void firstDeltaMayOverlapTheBaseButNotLeaveAGap() throws IOException {
        objects("a/v2", "Full-00000000-00000100-1000", "Incr-00000095-00000150-1001");
        objects("b/v2", "Full-00000000-00000100-1000", "Incr-00000102-00000150-1001");

        assertThat(catalog("a").select().problems()).isEmpty();
        assertThat(catalog("b").select().problems())
                .singleElement()
                .satisfies(p -> assertThat(p.missingRevisions()).isEqualTo(1));
    }

    @Test
    void noFullSnapshotIsAnErrorNamingStoreAndPrefix() throws IOException {
        objects("etcd/v2", "Incr-00000101-00000150-1001");
        Files.createDirectories(bucket.resolve("empty"));

        assertThatThrownBy(() -> catalog("etcd").select()).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.NO_SNAPSHOTS);
            assertThat(e.getMessage()).contains("no full snapshot", bucket.toString(), "\"etcd/\"");
        });
        assertThatThrownBy(() -> catalog("empty").select()).isInstanceOfSatisfying(WorkerException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.NO_SNAPSHOTS);
            assertThat(e.getMessage()).contains("no snapshots", "\"empty/\"");
        });
    }

    @Test
    void tiesOnLastRevisionAndTimePutTheFullSnapshotLast() throws IOException {
        objects("v2", "Full-00000000-00000100-1000", "Incr-00000101-00000200-1005", "Full-00000000-00000200-1005");

        assertThat(catalog("").select().base().key()).isEqualTo("v2/Full-00000000-00000200-1005");
    }

    @Test
    void legacyV1LayoutIsRead() throws IOException {
        objects("old/v1/Backup-1000", "Full-00000000-00000100-1000", "Incr-00000101-00000120-1001");

        SnapshotSelection selection = catalog("old").select();

        assertThat(selection.base().key()).isEqualTo("old/v1/Backup-1000/Full-00000000-00000100-1000");
        assertThat(selection.deltas()).hasSize(1);
    }
}
