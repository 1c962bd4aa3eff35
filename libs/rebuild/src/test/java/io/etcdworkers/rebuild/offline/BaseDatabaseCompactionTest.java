package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.Fixtures;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BaseDatabase#compactedAt}, the test that lets etcd open a base while the fold reads it,
 * on the full snapshots etcdbrctl wrote: its compacted snapshot is compacted at the revision its
 * name gives, a sidecar's scheduled full snapshot is not (it holds history), nor is a file that is
 * no database.
 */
class BaseDatabaseCompactionTest {
    @TempDir
    Path dir;

    @Test
    void etcdbrctlsCompactedSnapshotIsCompactedAtItsNamesRevisionOnly() throws Exception {
        Path compacted = Fixtures.bucket("compacted").resolve("v2/Full-00000000-00003656-1795986628");

        assertThat(BaseDatabase.compactedAt(compacted, 3656)).isTrue();
        assertThat(BaseDatabase.compactedAt(compacted, 3655)).isFalse();
        assertThat(BaseDatabase.compactedAt(compacted, 3657)).isFalse();
    }

    @Test
    void aSidecarsFullSnapshotWithHistoryIsNot() throws Exception {
        Path db = dir.resolve("full-2037.db");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(
                Fixtures.bucket(Fixtures.V0_41_2, "gzip").resolve("v2/Full-00000000-00002037-1796115300.gz")))) {
            Files.copy(in, db);
        }
        Path uncompacted = Fixtures.bucket("plain").resolve("v2/Full-00000000-00000601-1795986606");

        assertThat(BaseDatabase.compactedAt(db, 2037)).isFalse();
        assertThat(BaseDatabase.compactedAt(uncompacted, 601)).isFalse();
    }

    @Test
    void aFileThatIsNoDatabaseIsNot() throws Exception {
        Path junk = Files.write(dir.resolve("junk.db"), new byte[8192]);

        assertThat(BaseDatabase.compactedAt(junk, 1)).isFalse();
    }
}
