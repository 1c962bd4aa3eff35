package io.etcdworkers.rebuild.offline;

import io.etcdworkers.format.FullSnapshotReader;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotSelection;
import io.etcdworkers.format.SnapshotStreams;
import io.etcdworkers.rebuild.engine.EngineSettings;
import io.etcdworkers.store.LocalDirectoryStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/** The offline fold of a fixture bucket, as the engine runs it, for tests of what it writes. */
final class FixtureFold {
    private FixtureFold() {}

    /**
     * Folds {@code bucket} into {@code dir/offline.db}: the base decompressed to {@code dir/base.db},
     * downloads and spill files under {@code dir/work}.
     */
    static OfflineResult fold(Path bucket, Path dir) throws IOException, InterruptedException {
        LocalDirectoryStore store = new LocalDirectoryStore(bucket);
        SnapshotSelection selection = SnapshotCatalog.load(store, "").select();
        Path base = dir.resolve("base.db");
        try (InputStream in = SnapshotStreams.openDecompressed(store, selection.base());
                OutputStream out = Files.newOutputStream(base)) {
            FullSnapshotReader.copy(selection.base().key(), in, out, false);
        }
        return new FoldWriter(store, EngineSettings.defaults(), Clock.systemUTC())
                .build(selection, base, Files.createDirectories(dir.resolve("work")), dir.resolve("offline.db"));
    }

    /** Where {@code needle} first occurs at or after {@code from}, with 16 bytes after it. */
    static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i + needle.length + 16 < haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("no key after offset " + from);
    }
}
