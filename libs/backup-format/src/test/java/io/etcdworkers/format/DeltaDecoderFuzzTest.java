package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.testsupport.seeded.SeededCase;
import io.etcdworkers.testsupport.seeded.SeededTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random and mutated deltas, through every codec: the decoder either rejects them with one of
 * its object-level codes or (for the untouched original) returns exactly the written events.
 * Never another exception, never a hang, never a wrong but "valid" event list.
 */
@Timeout(60)
class DeltaDecoderFuzzTest {
    private static final Set<ErrorCode> REJECTIONS =
            Set.of(ErrorCode.HASH_MISMATCH, ErrorCode.CORRUPT_OBJECT, ErrorCode.TRUNCATED_OBJECT);

    @SeededTest(tries = 300)
    void mutatedDeltasAreRejectedNeverMisread(SeededCase c) throws Exception {
        assertRejectedOrReadExactly(c.oneOf(Compression.values()), c.intBetween(1, 8), c.random());
    }

    /** One mutation (the likeliest to slip through a check) and the most the random cases make. */
    @ParameterizedTest(name = "{0}, {1} mutations")
    @MethodSource("everyCodecWithTheFewestAndTheMostMutations")
    void theFewestAndTheMostMutationsAreRejectedNeverMisread(Compression codec, int mutations) throws Exception {
        for (long seed = 0; seed < 20; seed++) {
            assertRejectedOrReadExactly(codec, mutations, new Random(seed));
        }
    }

    static Stream<Arguments> everyCodecWithTheFewestAndTheMostMutations() {
        return Stream.of(Compression.values()).flatMap(codec -> Stream.of(arguments(codec, 1), arguments(codec, 8)));
    }

    private static void assertRejectedOrReadExactly(Compression codec, int mutations, Random random) throws Exception {
        List<DeltaEvent> events = events(random);
        byte[] original = compressed(codec, events);
        byte[] mutated = mutate(original, random, mutations);

        if (Arrays.equals(mutated, original)) {
            assertThat(decode(codec, mutated)).isEqualTo(events);
            return;
        }
        try {
            List<DeltaEvent> read = decode(codec, mutated);
            // a change that survives every check must not change a single event (e.g. only
            // the gzip header's mtime or the zlib padding bits changed)
            assertThat(read).isEqualTo(events);
        } catch (WorkerException e) {
            assertThat(e.code()).isIn(REJECTIONS);
        }
    }

    @SeededTest(tries = 200)
    void randomBytesAreRejected(SeededCase c) {
        assertRandomBytesRejected(c.oneOf(Compression.values()), c.intBetween(0, 4000), c.random());
    }

    /** No byte at all, one, and the most the random cases hold, in every codec. */
    @ParameterizedTest(name = "{0}, {1} bytes")
    @MethodSource("everyCodecWithNoneOneAndTheMostBytes")
    void noByteOneByteAndTheMostAreRejected(Compression codec, int length) {
        for (long seed = 0; seed < 20; seed++) {
            assertRandomBytesRejected(codec, length, new Random(seed));
        }
    }

    static Stream<Arguments> everyCodecWithNoneOneAndTheMostBytes() {
        return Stream.of(Compression.values())
                .flatMap(codec -> IntStream.of(0, 1, 4000).mapToObj(length -> arguments(codec, length)));
    }

    private static void assertRandomBytesRejected(Compression codec, int length, Random random) {
        byte[] junk = new byte[length];
        random.nextBytes(junk);

        assertThatThrownBy(() -> decode(codec, junk))
                .isInstanceOfSatisfying(
                        WorkerException.class, e -> assertThat(e.code()).isIn(REJECTIONS));
    }

    private static List<DeltaEvent> decode(Compression codec, byte[] bytes) throws InterruptedException {
        List<DeltaEvent> read = new ArrayList<>();
        try (InputStream in = codec.decompress(new ByteArrayInputStream(bytes))) {
            DeltaDecoder.decode("Incr-fuzz", in, group -> read.addAll(group.events()));
        } catch (IOException closing) {
            throw new AssertionError("closing a byte array stream cannot fail", closing);
        }
        return read;
    }

    private static List<DeltaEvent> events(Random random) {
        List<DeltaEvent> events = new ArrayList<>();
        long revision = 100;
        OffsetDateTime time = OffsetDateTime.parse("2024-05-01T10:20:30Z");
        int count = 1 + random.nextInt(20);
        for (int i = 0; i < count; i++) {
            revision += random.nextInt(4) == 0 ? 0 : 1;
            byte[] key = ("/registry/k/" + random.nextInt(50)).getBytes(StandardCharsets.UTF_8);
            if (random.nextInt(4) == 0) {
                events.add(DeltaEvent.delete(key, revision, time));
            } else {
                byte[] value = new byte[random.nextInt(300)];
                random.nextBytes(value);
                events.add(DeltaEvent.put(key, value, revision, revision, 1 + random.nextInt(5), 0, time));
            }
        }
        return events;
    }

    private static byte[] compressed(Compression codec, List<DeltaEvent> events) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = codec.compress(bytes);
                DeltaWriter writer = new DeltaWriter(out)) {
            for (DeltaEvent e : events) {
                writer.write(e);
            }
        }
        return bytes.toByteArray();
    }

    private static byte[] mutate(byte[] original, Random random, int mutations) {
        byte[] bytes = original.clone();
        for (int m = 0; m < mutations; m++) {
            switch (random.nextInt(3)) {
                case 0 -> bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                case 1 -> bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
                default -> {
                    int at = random.nextInt(bytes.length + 1);
                    byte[] grown = new byte[bytes.length + 1];
                    System.arraycopy(bytes, 0, grown, 0, at);
                    grown[at] = (byte) random.nextInt(256);
                    System.arraycopy(bytes, at, grown, at + 1, bytes.length - at);
                    bytes = grown;
                }
            }
            if (bytes.length == 0) {
                break;
            }
        }
        return bytes;
    }
}
