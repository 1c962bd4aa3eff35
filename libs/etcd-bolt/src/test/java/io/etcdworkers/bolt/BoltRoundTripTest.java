package io.etcdworkers.bolt;

import static org.assertj.core.api.Assertions.assertThat;

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
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Random bucket sets written with BoltWriter read back identical, in a structurally sound file. */
class BoltRoundTripTest {

    /** One bucket as written: sorted entries and a sequence. */
    record Spec(byte[] name, TreeMap<byte[], byte[]> entries, long sequence) {}

    @Property(tries = 60)
    void writtenBucketsReadBackIdentical(@ForAll long seed, @ForAll @IntRange(min = 0, max = 6) int buckets,
            @ForAll @IntRange(min = 0, max = 2) int pageSizeChoice) throws IOException {
        int pageSize = new int[] {4096, 1024, 512}[pageSizeChoice];
        Random random = new Random(seed);
        List<Spec> specs = randomBuckets(random, buckets, pageSize);
        Path dir = Files.createTempDirectory("bolt-rt");
        Path file = dir.resolve("db");
        try {
            long bytes = write(file, pageSize, shuffled(specs, random));
            assertThat(Files.size(file)).isEqualTo(bytes).isEqualTo(bytes / pageSize * pageSize);
            try (BoltReader reader = BoltReader.open(file)) {
                assertThat(reader.pageSize()).isEqualTo(pageSize);
                assertThat(reader.highWaterMark() * pageSize).isEqualTo(bytes);
                assertThat(reader.bucketNames()).containsExactlyElementsOf(specs.stream().map(Spec::name).toList());
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
        } finally {
            Files.deleteIfExists(file);
            Files.delete(dir);
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
