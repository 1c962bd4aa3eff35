package io.etcdworkers.bolt;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdworkers.testsupport.seeded.SeededCase;
import io.etcdworkers.testsupport.seeded.SeededTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Random bucket sets written with BoltWriter read back identical, in a structurally sound file. */
@Timeout(60)
class BoltRoundTripTest {
    private static final int[] PAGE_SIZES = {4096, 1024, 512};

    /** One bucket as written: sorted entries and a sequence. */
    record Spec(byte[] name, TreeMap<byte[], byte[]> entries, long sequence) {}

    @TempDir
    Path tmp;

    @SeededTest(tries = 60)
    void writtenBucketsReadBackIdentical(SeededCase c) throws IOException {
        int buckets = c.intBetween(0, 6);
        int pageSize = PAGE_SIZES[c.intBetween(0, 2)];
        assertReadBackIdentical(c.random(), buckets, pageSize);
    }

    /** A file of no bucket and one of the most the random cases write, in each page size. */
    @ParameterizedTest(name = "{0} buckets, page size {1}")
    @CsvSource({"0, 4096", "0, 1024", "0, 512", "6, 4096", "6, 1024", "6, 512"})
    void noBucketAndTheMostBucketsReadBackIdentical(int buckets, int pageSize) throws IOException {
        for (long seed = 0; seed < 3; seed++) {
            assertReadBackIdentical(new Random(seed), buckets, pageSize);
        }
    }

    private void assertReadBackIdentical(Random random, int buckets, int pageSize) throws IOException {
        List<Spec> specs = randomBuckets(random, buckets, pageSize);
        Path file = tmp.resolve("db");
        Files.deleteIfExists(file);
        long bytes = write(file, pageSize, shuffled(specs, random));
        assertThat(Files.size(file)).isEqualTo(bytes).isEqualTo(bytes / pageSize * pageSize);
        try (BoltReader reader = BoltReader.open(file)) {
            assertThat(reader.pageSize()).isEqualTo(pageSize);
            assertThat(reader.highWaterMark() * pageSize).isEqualTo(bytes);
            assertThat(reader.bucketNames())
                    .containsExactlyElementsOf(specs.stream().map(Spec::name).toList());
            for (Spec spec : specs) {
                assertThat(reader.sequence(List.of(spec.name()))).isEqualTo(spec.sequence());
                List<byte[]> keys = new ArrayList<>();
                List<byte[]> values = new ArrayList<>();
                reader.forEach(spec.name(), (k, v, isBucket) -> {
                    assertThat(isBucket).isFalse();
                    keys.add(k);
                    values.add(v);
                });
                assertThat(keys).containsExactlyElementsOf(spec.entries().keySet());
                assertThat(values).containsExactlyElementsOf(spec.entries().values());
            }
            PageUsage usage = reader.checkPages();
            // every page below the high-water mark is a meta page, the freelist, or reached once from a root
            assertThat(usage.unaccounted()).isZero();
            assertThat(usage.freePages()).isZero();
            assertThat(usage.freelistPages()).isEqualTo(1);
            assertThat(2 + 1 + usage.treePages()).isEqualTo(reader.highWaterMark());
            assertThat(usage.buckets()).isEqualTo(specs.size() + 1);
        }
    }

    static long write(Path file, int pageSize, List<Spec> specs) throws IOException {
        try (BoltWriter writer = BoltWriter.create(file, pageSize)) {
            for (Spec spec : specs) {
                try (BucketWriter bucket = writer.bucket(spec.name())) {
                    for (Map.Entry<byte[], byte[]> e : spec.entries().entrySet()) {
                        bucket.put(e.getKey(), e.getValue());
                    }
                    bucket.setSequence(spec.sequence());
                }
            }
            return writer.finish();
        }
    }

    static List<Spec> randomBuckets(Random random, int count, int pageSize) {
        TreeSet<byte[]> names = new TreeSet<>(Arrays::compareUnsigned);
        while (names.size() < count) {
            names.add(randomBytes(random, 1 + random.nextInt(40)));
        }
        List<Spec> specs = new ArrayList<>();
        for (byte[] name : names) {
            int keys = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> random.nextInt(5);
                case 2 -> random.nextInt(200);
                default -> random.nextInt(3000);
            };
            int maxKey = random.nextBoolean() ? 300 : 20;
            TreeMap<byte[], byte[]> entries = new TreeMap<>(Arrays::compareUnsigned);
            while (entries.size() < keys) {
                int valueSize = switch (random.nextInt(20)) {
                    case 0, 1 -> 0;
                    case 2 -> random.nextInt(3 * pageSize + 1); // up to 3 pages: overflow pages
                    default -> random.nextInt(120);
                };
                entries.put(randomBytes(random, 1 + random.nextInt(maxKey)), randomBytes(random, valueSize));
            }
            specs.add(new Spec(name, entries, random.nextInt(3) == 0 ? random.nextLong() : 0));
        }
        return specs;
    }

    static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static <T> List<T> shuffled(List<T> list, Random random) {
        List<T> copy = new ArrayList<>(list);
        Collections.shuffle(copy, random);
        return copy;
    }
}
