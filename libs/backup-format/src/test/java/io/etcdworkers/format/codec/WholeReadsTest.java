package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A delta read whole and decompressed by libdeflate gives what the JDK zlib reader gives for the
 * same input: the same bytes, and for damaged input, a failing read or a length unlike the
 * listing's, the same bytes before the same exception. The memory it holds is accounted for and
 * given back.
 */
class WholeReadsTest {
    private static LibDeflate lib;
    private final WholeReads reads = new WholeReads(Optional.of(lib), WholeReads.CONTENT_BUDGET);
    private static final int BUDGET_KIB = (int) (WholeReads.CONTENT_BUDGET >> 10);

    @BeforeAll
    static void libdeflate() {
        lib = GzipMembersOutputStreamTest.requireLibDeflate();
    }

    @AfterEach
    void nothingHeld() {
        assertThat(reads.availableBudgetKib())
                .as("content budget after the test")
                .isEqualTo(BUDGET_KIB);
        reads.close();
        assertThat(reads.pooledBuffers()).as("buffers mapped after close").isZero();
    }

    private InputStream whole(InputStream raw, long listed) {
        try {
            return reads.decompress(Compression.GZIP, raw, listed);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private ReadOutcome whole(byte[] gz, long listed, int readSize) {
        return ReadOutcome.of(whole(new ByteArrayInputStream(gz), listed), readSize);
    }

    private static ReadOutcome jdk(byte[] gz) {
        return ReadOutcome.of(InflatingInputStream.gzip(new ByteArrayInputStream(gz)), 65_536);
    }

    @Test
    void aDeltaIsReadWholeBeforeItsContentIsHandedOut() throws IOException {
        for (int size : new int[] {0, 1, 4095, 3 << 20}) {
            byte[] data = ChunkStreams.databaseLike(size, size);
            ByteArrayInputStream raw = new ByteArrayInputStream(ChunkStreams.oneMember(data));
            InputStream content = whole(raw, raw.available());
            assertThat(raw.available())
                    .as("unread compressed bytes, %d bytes of content", size)
                    .isZero();
            assertThat(reads.availableBudgetKib())
                    .as("budget while read")
                    .isEqualTo(BUDGET_KIB - Math.max(1, (size + 1023) / 1024));
            assertThat(ReadOutcome.of(content, 7000)).isEqualTo(new ReadOutcome(data, null));
        }
    }

    @Test
    void buffersAreReusedAndUnmappedWhenClosed() throws IOException {
        for (int i = 0; i < 20; i++) {
            byte[] data = ChunkStreams.databaseLike(200_000 + 50_000 * (i % 5), i);
            byte[] gz = ChunkStreams.oneMember(data);
            assertThat(whole(gz, gz.length, 65_536)).isEqualTo(new ReadOutcome(data, null));
            assertThat(reads.pooledBuffers())
                    .as("an input and an output kept, after %d reads", i + 1)
                    .isEqualTo(2);
        }
        byte[] data = ChunkStreams.databaseLike(100_000, 99);
        byte[] gz = ChunkStreams.oneMember(data);
        InputStream open = whole(new ByteArrayInputStream(gz), gz.length);
        reads.close();
        assertThat(reads.pooledBuffers()).as("the input's buffer unmapped").isZero();
        assertThat(ReadOutcome.of(open, 1000)).as("a content read after close").isEqualTo(new ReadOutcome(data, null));
        assertThat(reads.pooledBuffers())
                .as("its buffer unmapped when given back")
                .isZero();
    }

    @Test
    void otherCodecsStreamAsBefore() throws IOException {
        byte[] data = ChunkStreams.databaseLike(300_000, 10);
        for (Compression codec : new Compression[] {Compression.NONE, Compression.ZLIB, Compression.LZW}) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (OutputStream out = codec.compress(bytes)) {
                out.write(data);
            }
            ByteArrayInputStream raw = new ByteArrayInputStream(bytes.toByteArray());
            InputStream content;
            try {
                content = reads.decompress(codec, raw, bytes.size());
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(raw.available()).as("%s: nothing read ahead", codec).isEqualTo(bytes.size());
            assertThat(ReadOutcome.of(content, 4096)).as("%s", codec).isEqualTo(new ReadOutcome(data, null));
        }
    }

    @Test
    void withoutLibDeflateGzipStreamsAsBefore() throws Exception {
        byte[] data = ChunkStreams.databaseLike(300_000, 11);
        byte[] gz = ChunkStreams.oneMember(data);
        ByteArrayInputStream raw = new ByteArrayInputStream(gz);
        try (WholeReads streaming = new WholeReads(Optional.empty(), WholeReads.CONTENT_BUDGET)) {
            InputStream content = streaming.decompress(Compression.GZIP, raw, gz.length);
            assertThat(raw.available()).as("nothing read ahead").isEqualTo(gz.length);
            assertThat(ReadOutcome.of(content, 4096)).isEqualTo(new ReadOutcome(data, null));
        }
    }

    @Test
    void severalMembersReadAsTheJdkReaderReadsThem() throws IOException {
        byte[] first = ChunkStreams.databaseLike(300_000, 1);
        byte[] second = ChunkStreams.databaseLike(200_000, 2);
        byte[] gz = CompressionTest.concat(ChunkStreams.oneMember(first), ChunkStreams.oneMember(second));
        assertThat(whole(gz, gz.length, 4096)).isEqualTo(new ReadOutcome(CompressionTest.concat(first, second), null));
    }

    @Test
    void damageEndsExactlyAsWithTheJdkReader() throws IOException {
        byte[] valid = ChunkStreams.oneMember(ChunkStreams.databaseLike(700_000, 3));
        Random sizes = new Random(7);
        for (Damage d : Damage.of(valid, 7, 120)) {
            assertThat(whole(d.bytes(), d.bytes().length, 1 + sizes.nextInt(70_000)))
                    .as(d.what())
                    .isEqualTo(jdk(d.bytes()));
        }
    }

    @Test
    void aBodyShorterOrLongerThanListedEndsAsWithTheJdkReader() throws IOException {
        byte[] valid = ChunkStreams.oneMember(ChunkStreams.databaseLike(500_000, 4));
        byte[] cut = Arrays.copyOf(valid, valid.length / 2);
        // listed whole, delivered cut: what reaches the decoder is the cut body
        ReadOutcome shorter = whole(cut, valid.length, 8192);
        assertThat(shorter).isEqualTo(jdk(cut));
        assertThat(shorter.end()).startsWith("TruncatedStreamException");
        // listed cut, delivered whole: nothing past the listing is dropped
        assertThat(whole(valid, cut.length, 8192)).isEqualTo(jdk(valid));
        byte[] longer = CompressionTest.concat(valid, new byte[] {1, 2, 3});
        assertThat(whole(longer, valid.length, 8192)).isEqualTo(jdk(longer));
    }

    @Test
    void aReadThatFailsFailsTheReaderAfterTheSameBytes() throws IOException {
        byte[] valid = ChunkStreams.oneMember(ChunkStreams.databaseLike(900_000, 5));
        for (int failAt : new int[] {0, 1, 10, 70_000, valid.length - 1, valid.length}) {
            ReadOutcome expected = ReadOutcome.of(InflatingInputStream.gzip(failing(valid, failAt)), 65_536);
            ReadOutcome got = ReadOutcome.of(whole(failing(valid, failAt), valid.length), 65_536);
            assertThat(got).as("failing after %d bytes", failAt).isEqualTo(expected);
            assertThat(got.end()).contains("connection reset");
        }
    }

    /** {@code gz}'s first {@code failAt} bytes, then an IOException on every read. */
    private static InputStream failing(byte[] gz, int failAt) {
        return new InputStream() {
            private int position;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (position >= failAt) {
                    throw new IOException("connection reset");
                }
                int n = Math.min(len, failAt - position);
                System.arraycopy(gz, position, b, off, n);
                position += n;
                return n;
            }
        };
    }

    @Test
    void anObjectTooLargeToHoldStreamsThroughTheJdkReader() throws IOException {
        byte[] data = new byte[(int) WholeReads.MAX_INPUT + 1000];
        new Random(6).nextBytes(data); // does not compress: the object is larger than its content
        byte[] gz = ChunkStreams.oneMember(data);
        ByteArrayInputStream raw = new ByteArrayInputStream(gz);
        InputStream content = whole(raw, gz.length);
        assertThat(raw.available()).as("nothing read before the content is").isEqualTo(gz.length);
        assertThat(reads.availableBudgetKib()).isEqualTo(BUDGET_KIB);
        assertThat(ReadOutcome.of(content, 65_536)).isEqualTo(new ReadOutcome(data, null));
    }

    @Test
    void contentLargerThanItsLimitStreamsThroughTheJdkReader() throws IOException {
        long size = WholeReads.MAX_OUTPUT + 1;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CRC32 expected = new CRC32();
        byte[] block = ChunkStreams.databaseLike(1 << 20, 8);
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            for (long written = 0; written < size; written += block.length) {
                int n = (int) Math.min(block.length, size - written);
                out.write(block, 0, n);
                expected.update(block, 0, n);
            }
        }
        byte[] gz = bytes.toByteArray();
        CRC32 got = new CRC32();
        long length = 0;
        try (InputStream content = whole(new ByteArrayInputStream(gz), gz.length)) {
            assertThat(reads.availableBudgetKib()).as("nothing held for it").isEqualTo(BUDGET_KIB);
            byte[] buf = new byte[65_536];
            int n;
            while ((n = content.read(buf)) >= 0) {
                got.update(buf, 0, n);
                length += n;
            }
        }
        assertThat(length).isEqualTo(size);
        assertThat(got.getValue()).isEqualTo(expected.getValue());
    }

    @Test
    void aReaderWaitsUntilItsContentFitsTheBudget() throws Exception {
        byte[] data = ChunkStreams.databaseLike(100_000, 9); // 98 KiB: two fit in 256 KiB, not three
        byte[] gz = ChunkStreams.oneMember(data);
        byte[] largeData = ChunkStreams.databaseLike(300_000, 10); // more than the whole budget
        byte[] largeGz = ChunkStreams.oneMember(largeData);
        List<InputStream> held = new ArrayList<>();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (WholeReads small = new WholeReads(Optional.of(lib), 256 << 10)) {
            held.add(open(small, gz));
            held.add(open(small, gz));
            Future<ReadOutcome> third = pool.submit(() -> ReadOutcome.of(open(small, gz), 4096));
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !third.isDone());
            held.remove(0).close();
            assertThat(third.get(30, TimeUnit.SECONDS)).isEqualTo(new ReadOutcome(data, null));

            // one larger than the budget waits for all of it, then is held alone
            Future<ReadOutcome> large = pool.submit(() -> ReadOutcome.of(open(small, largeGz), 4096));
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !large.isDone());
            held.remove(0).close();
            assertThat(large.get(30, TimeUnit.SECONDS)).isEqualTo(new ReadOutcome(largeData, null));

            // an interrupt ends the wait, and what was read for it is given back
            held.add(open(small, gz));
            held.add(open(small, gz));
            CompletableFuture<Thread> waiter = new CompletableFuture<>();
            Future<?> interrupted = pool.submit(() -> {
                waiter.complete(Thread.currentThread());
                return open(small, gz);
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> waiter.get().getState() == Thread.State.WAITING);
            waiter.get().interrupt();
            assertThatThrownBy(() -> interrupted.get(30, TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(InterruptedException.class);
            for (InputStream in : held) {
                in.close();
            }
            held.clear();
            assertThat(small.availableBudgetKib()).isEqualTo(256);
        } finally {
            for (InputStream in : held) {
                in.close();
            }
            pool.shutdownNow();
        }
    }

    private static InputStream open(WholeReads reads, byte[] gz) {
        try {
            return reads.decompress(Compression.GZIP, new ByteArrayInputStream(gz), gz.length);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
