package io.etcdworkers.rebuild.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.RevisionGroup;
import io.etcdworkers.format.SnapshotCatalog;
import io.etcdworkers.format.SnapshotObject;
import io.etcdworkers.store.LocalDirectoryStore;
import io.etcdworkers.testsupport.Fixtures;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two ways deltas reach an engine hand out the same items in the same order: the replay's
 * (raw copies decoded again on a thread, a byte budget between) and the fold's (decoded by the
 * fetch threads, read back); each removes a delta's local copy once its end was handed out, and
 * a bad delta fails where it stands, in order.
 */
@Timeout(60)
class DeltaStreamsTest {
    @TempDir
    Path dir;

    @Test
    void bothStreamsHandOutTheSameItemsInOrderAndLeaveNoCopies() throws Exception {
        LocalDirectoryStore store = new LocalDirectoryStore(Fixtures.bucket("lzw"));
        List<SnapshotObject> deltas = SnapshotCatalog.load(store, "").select().deltas();
        assertThat(deltas).hasSizeGreaterThan(2);
        Path raw = Files.createDirectories(dir.resolve("raw"));
        Path decoded = Files.createDirectories(dir.resolve("decoded"));

        // a budget of 1 MiB: the decode thread waits for releases, as it does on a large delta
        List<String> replay = drain(
                new DecodingStream(
                        new DeltaPrefetcher(store, deltas, raw, 3, DeltaPrefetcher.Mode.RAW_COPY), 1024 * 1024),
                raw);
        List<String> fold = drain(
                new DecodedFileStream(new DeltaPrefetcher(store, deltas, decoded, 3, DeltaPrefetcher.Mode.DECODED)),
                decoded);

        assertThat(replay).isEqualTo(fold);
        assertThat(replay.get(0)).startsWith("start " + deltas.get(0).key());
        assertThat(replay.stream().filter(s -> s.startsWith("end ")).count()).isEqualTo(deltas.size());
        assertThat(replay.get(replay.size() - 1)).isEqualTo("done");
    }

    @Test
    void aCorruptDeltaFailsInOrderAfterTheGoodOnesInBothStreams() throws Exception {
        Path bucket = Fixtures.copyBucket("plain", dir.resolve("bucket"));
        LocalDirectoryStore store = new LocalDirectoryStore(bucket);
        List<SnapshotObject> deltas = SnapshotCatalog.load(store, "").select().deltas();
        try (RandomAccessFile f =
                new RandomAccessFile(bucket.resolve(deltas.get(1).key()).toFile(), "rw")) {
            f.seek(500);
            int b = f.read();
            f.seek(500);
            f.write(b ^ 0x01);
        }
        for (Function<Path, DeltaStream> open : List.<Function<Path, DeltaStream>>of(
                d -> new DecodingStream(
                        new DeltaPrefetcher(store, deltas, d, 2, DeltaPrefetcher.Mode.RAW_COPY), 1024 * 1024),
                d -> new DecodedFileStream(new DeltaPrefetcher(store, deltas, d, 2, DeltaPrefetcher.Mode.DECODED)))) {
            Path downloads = Files.createTempDirectory(dir, "downloads");
            List<String> seen = new ArrayList<>();
            try (DeltaStream stream = open.apply(downloads)) {
                assertThatThrownBy(() -> {
                            while (true) {
                                seen.add(describe(stream, stream.next()));
                            }
                        })
                        .isInstanceOfSatisfying(
                                WorkerException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.HASH_MISMATCH))
                        .hasMessageContaining(deltas.get(1).key());
            }
            assertThat(seen)
                    .as("the first delta whole, nothing of the second")
                    .contains("end " + deltas.get(0).key())
                    .noneMatch(s -> s.contains(deltas.get(1).key()));
        }
    }

    private static List<String> drain(DeltaStream stream, Path downloads) throws Exception {
        List<String> items = new ArrayList<>();
        try (stream) {
            while (true) {
                DeltaItem item = stream.next();
                items.add(describe(stream, item));
                if (item instanceof DeltaItem.DeltaEnd end) {
                    assertThat(end.delta().file()).as("copy removed at its end").doesNotExist();
                }
                if (item instanceof DeltaItem.Done) {
                    break;
                }
            }
        }
        try (Stream<Path> left = Files.list(downloads)) {
            assertThat(left).isEmpty();
        }
        return items;
    }

    private static String describe(DeltaStream stream, DeltaItem item) {
        if (item instanceof DeltaItem.DeltaStart s) {
            return "start " + s.delta().object().key() + " events="
                    + s.delta().summary().events();
        }
        if (item instanceof DeltaItem.Group g) {
            RevisionGroup group = g.group();
            stream.release(g);
            return "group " + group.revision() + " events=" + group.events().size() + " bytes=" + group.payloadBytes();
        }
        if (item instanceof DeltaItem.DeltaEnd e) {
            return "end " + e.delta().object().key();
        }
        return "done";
    }
}
