package io.etcdworkers.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etcdworkers.format.codec.TruncatedStreamException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ReadAheadInputStreamTest {
    /** A source that gives {@code data} a few bytes per read, then throws {@code failure} (or ends). */
    private static InputStream source(byte[] data, Exception failure) {
        return new InputStream() {
            private int pos;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (pos == data.length) {
                    if (failure instanceof IOException io) {
                        throw io;
                    }
                    if (failure instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    return -1;
                }
                int n = Math.min(Math.min(len, 13), data.length - pos);
                System.arraycopy(data, pos, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    @Test
    void givesTheSourcesBytesWhateverTheBlocksAndReads() throws IOException {
        Random random = new Random(1);
        for (int size : new int[] {0, 1, 6, 7, 8, 50, 1000, 100_003}) {
            byte[] data = new byte[size];
            random.nextBytes(data);
            for (int block : new int[] {1, 7, 64, 4096}) {
                try (InputStream in = new ReadAheadInputStream(source(data, null), "t", block, 2)) {
                    byte[] got = readWithSingleBytes(in, random);
                    assertThat(got).as("%d bytes in blocks of %d", size, block).isEqualTo(data);
                    assertThat(in.read()).isEqualTo(-1);
                }
            }
        }
    }

    private static byte[] readWithSingleBytes(InputStream in, Random random) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[300];
        while (true) {
            if (random.nextInt(4) == 0) {
                int b = in.read();
                if (b < 0) {
                    return out.toByteArray();
                }
                out.write(b);
            } else {
                int n = in.read(buf, 0, 1 + random.nextInt(buf.length));
                if (n < 0) {
                    return out.toByteArray();
                }
                out.write(buf, 0, n);
            }
        }
    }

    @Test
    void theSourcesFailureComesAfterEveryByteBeforeIt() {
        byte[] data = new byte[10_000];
        new Random(2).nextBytes(data);
        TruncatedStreamException cut = new TruncatedStreamException("gzip: stream ends inside the compressed data");
        IllegalStateException broken = new IllegalStateException("store went away");
        for (Exception failure : new Exception[] {cut, broken}) {
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try (InputStream in = new ReadAheadInputStream(source(data, failure), "t", 512, 3)) {
                byte[] buf = new byte[777];
                assertThatThrownBy(() -> {
                            int n;
                            while ((n = in.read(buf, 0, buf.length)) >= 0) {
                                got.write(buf, 0, n);
                            }
                        })
                        .isSameAs(failure);
                assertThatThrownBy(() -> in.read(buf, 0, 1)).as("and again").isSameAs(failure);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            assertThat(got.toByteArray()).isEqualTo(data);
        }
    }

    @Test
    void closeStopsTheThreadAndClosesTheSource() throws Exception {
        AtomicBoolean closed = new AtomicBoolean();
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 7;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                Arrays.fill(b, off, off + len, (byte) 7);
                return len;
            }

            @Override
            public void close() {
                closed.set(true);
            }
        };
        ReadAheadInputStream in = new ReadAheadInputStream(endless, "read-ahead-under-test", 1024, 2);
        assertThat(in.read(new byte[5000], 0, 5000)).isPositive();
        in.close();
        assertThat(closed).isTrue();
        assertThatThrownBy(in::read).hasMessageContaining("closed");
        await().atMost(Duration.ofSeconds(5)).until(() -> !threadAlive("read-ahead-under-test"));
    }

    private static boolean threadAlive(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    @Test
    void anInterruptedReaderStopsWaiting() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        InputStream stuck = new InputStream() {
            @Override
            public int read() throws IOException {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    throw new InterruptedIOException();
                }
                return -1;
            }
        };
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flag = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            try (InputStream in = new ReadAheadInputStream(stuck, "t", 16, 1)) {
                in.read();
            } catch (Throwable e) {
                thrown.set(e);
                flag.set(Thread.currentThread().isInterrupted());
            }
        });
        reader.start();
        // the reader waits for the read-ahead thread's first block, which never comes
        await().atMost(Duration.ofSeconds(5)).until(() -> reader.getState() == Thread.State.WAITING);
        reader.interrupt();
        reader.join(5000);
        assertThat(thrown.get()).isInstanceOf(InterruptedIOException.class);
        assertThat(flag).as("the interrupt is kept for the caller").isTrue();
    }

    @Test
    void anEmptySourceEndsAtOnce() throws IOException {
        try (InputStream in = new ReadAheadInputStream(new ByteArrayInputStream(new byte[0]), "t")) {
            assertThat(in.read(new byte[10], 0, 10)).isEqualTo(-1);
        }
    }
}
