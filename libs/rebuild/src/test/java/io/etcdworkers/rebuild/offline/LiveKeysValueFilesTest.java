package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.files.ValueFile;
import io.etcdworkers.files.ValueRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live keys pointing into delta value files (as {@code DecodedFileStream} hands them out): what
 * is read back, when a file goes, and what bounds the disk and the open files. Real files.
 */
class LiveKeysValueFilesTest {
    @TempDir
    Path dir;

    private int deltas;

    @Test
    void aDeltaFileGoesOnceSealedAndItsLastLiveValueIsOverwritten() throws IOException {
        try (LiveKeys live = new LiveKeys(dir)) {
            Delta first = delta(b("a1"), b("b1"));
            live.put(b("a"), first.ref(0), 1, 1, 0, 1, 0);
            live.put(b("b"), first.ref(1), 2, 2, 0, 1, 0);
            first.file.seal();
            assertThat(first.path).exists();

            Delta second = delta(b("a2"));
            live.put(b("a"), second.ref(0), 1, 3, 0, 2, 0);
            second.file.seal();
            assertThat(first.path).as("b still points into it").exists();
            assertThat(live.value(live.get(b("a")))).isEqualTo(b("a2"));
            assertThat(live.value(live.get(b("b")))).isEqualTo(b("b1"));

            live.remove(b("b"));
            assertThat(first.path).as("nothing points into it any more").doesNotExist();
            assertThat(second.path).exists();
            assertThat(live.deltaFiles()).isEqualTo(1);
        }
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aFileStillHandedOutStaysWhenNothingPointsIntoItYet() throws IOException {
        try (LiveKeys live = new LiveKeys(dir)) {
            Delta d = delta(b("x1"), b("x2"));
            live.put(b("x"), d.ref(0), 1, 1, 0, 1, 0);
            live.put(b("x"), d.ref(1), 1, 2, 0, 2, 0);
            live.remove(b("x"));
            assertThat(d.path)
                    .as("not sealed: its stream may still hand out values")
                    .exists();
            d.file.seal();
            assertThat(d.path).doesNotExist();
        }
    }

    @Test
    void mostlyGarbageFilesAreCompactedIntoTheSpillAndEveryValueReadsTheSame() throws IOException {
        Random random = new Random(7);
        Map<String, byte[]> expected = new HashMap<>();
        List<Path> deltaPaths = new ArrayList<>();
        try (LiveKeys live = new LiveKeys(dir, 64 * 1024, 1000)) {
            long rev = 1;
            for (int d = 0; d < 40; d++) {
                // 20 keys, 50 puts a delta: most values are overwritten within a few deltas
                List<byte[]> values = new ArrayList<>();
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    byte[] v = new byte[200 + random.nextInt(800)];
                    random.nextBytes(v);
                    values.add(v);
                    keys.add("k" + random.nextInt(20));
                }
                Delta delta = delta(values.toArray(byte[][]::new));
                deltaPaths.add(delta.path);
                for (int i = 0; i < 50; i++) {
                    String k = keys.get(i);
                    LiveKey previous = live.get(b(k));
                    live.put(
                            b(k),
                            delta.ref(i),
                            previous == null ? rev : previous.create(),
                            rev,
                            0,
                            previous == null ? 1 : previous.version() + 1,
                            0);
                    expected.put(k, values.get(i));
                    rev++;
                }
                delta.file.seal();
                assertThat(live.valueFileBytes())
                        .as("bounded by the live bytes (or the minimum), delta " + d)
                        .isLessThanOrEqualTo(Math.max(
                                64 * 1024 + 50 * 1000, LiveKeys.GARBAGE_FACTOR * live.liveValueBytes() + 50 * 1000));
            }
            assertThat(live.compactions()).isPositive();
            for (var e : expected.entrySet()) {
                assertThat(live.value(live.get(b(e.getKey())))).as(e.getKey()).isEqualTo(e.getValue());
            }
            long filesLeft = deltaPaths.stream().filter(Files::exists).count();
            assertThat(filesLeft).as("compacted files are gone").isLessThanOrEqualTo(live.deltaFiles());
        }
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void pastTheOpenFileLimitTheDeltaValuesMoveIntoTheSpill() throws IOException {
        Map<String, byte[]> expected = new HashMap<>();
        try (LiveKeys live = new LiveKeys(dir, Long.MAX_VALUE, 4)) {
            for (int d = 0; d < 10; d++) {
                byte[] v = b("value of delta " + d);
                Delta delta = delta(v);
                live.put(b("k" + d), delta.ref(0), d + 1, d + 1, 0, 1, 0);
                delta.file.seal();
                expected.put("k" + d, v);
                assertThat(live.deltaFiles()).isLessThanOrEqualTo(4);
            }
            assertThat(live.compactions()).isPositive();
            try (Stream<Path> left = Files.list(dir)) {
                assertThat(left.filter(p -> p.toString().endsWith(".values")).count())
                        .isLessThanOrEqualTo(4);
            }
            for (var e : expected.entrySet()) {
                assertThat(live.value(live.get(b(e.getKey())))).isEqualTo(e.getValue());
            }
        }
    }

    @Test
    void releasingTheKeysLetsEveryFileGo() throws IOException {
        try (LiveKeys live = new LiveKeys(dir)) {
            Delta d = delta(b("v1"), b("v2"));
            live.put(b("a"), d.ref(0), 1, 1, 0, 1, 0);
            live.put(b("b"), live.store(b("held")), 2, 2, 0, 1, 0);
            d.file.seal();
            live.release();
            assertThat(d.path).doesNotExist();
            assertThat(live.size()).isZero();
            assertThat(live.valueFileBytes()).isZero();
        }
    }

    @Test
    void closingMidFoldRemovesEveryFileKeysStillPointInto() throws IOException {
        LiveKeys live = new LiveKeys(dir);
        Delta d = delta(b("v1"));
        live.put(b("a"), d.ref(0), 1, 1, 0, 1, 0);
        d.file.seal();
        live.close();
        assertThat(dir).isEmptyDirectory();
    }

    /** A delta's value file as a fetch thread leaves it, opened as the stream opens it. */
    private Delta delta(byte[]... values) throws IOException {
        Path path = dir.resolve(String.format("%06d.decoded.values", deltas++));
        List<ValueRef> refs = new ArrayList<>();
        long offset = 0;
        try (var out = Files.newOutputStream(path)) {
            for (byte[] v : values) {
                out.write(v);
                refs.add(null);
            }
        }
        ValueFile file = ValueFile.open(path);
        for (int i = 0; i < values.length; i++) {
            refs.set(i, new ValueRef(file, offset, values[i].length));
            offset += values[i].length;
        }
        return new Delta(path, file, refs);
    }

    private record Delta(Path path, ValueFile file, List<ValueRef> refs) {
        ValueRef ref(int i) {
            return refs.get(i);
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
