package io.etcdworkers.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.zip.GZIPOutputStream;

/** What the tests of the chunked compressors share: GNU gzip as an outside reader, a sink that fails. */
final class ChunkStreams {
    private ChunkStreams() {}

    /** Bytes that compress about as an etcd database does: repeated keys, random and repeated values. */
    static byte[] databaseLike(int size, long seed) {
        Random random = new Random(seed);
        byte[] out = new byte[size];
        int i = 0;
        while (i < size) {
            byte[] record =
                    ("/registry/pods/ns-" + random.nextInt(50) + "/pod-" + random.nextInt(100_000) + "\0").getBytes();
            for (int j = 0; j < record.length && i < size; j++) {
                out[i++] = record[j];
            }
            int value = 64 + random.nextInt(900);
            boolean noise = random.nextInt(3) == 0;
            for (int j = 0; j < value && i < size; j++) {
                out[i++] = noise ? (byte) random.nextInt() : (byte) ('a' + j % 13);
            }
        }
        return out;
    }

    /** {@code data} as one gzip member, as etcdbrctl writes its snapshots (the JDK's writer). */
    static byte[] oneMember(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    /** {@code gz} decompressed by {@code gzip -dc}, a reader that knows nothing of this project. */
    static byte[] gnuGunzip(byte[] gz, Path dir) throws Exception {
        Path file = dir.resolve("snapshot.gz");
        Files.write(file, gz);
        Path out = dir.resolve("snapshot");
        Process gzip = new ProcessBuilder("gzip", "-dc", file.toString())
                .redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        assertThat(gzip.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(gzip.exitValue()).as("gzip -dc's exit").isZero();
        return Files.readAllBytes(out);
    }

    /**
     * A compressing stream over a sink whose every write fails: the write that reaches the sink
     * fails, so does every call after it, and the sink is still closed.
     */
    static void failsWithItsSink(Function<OutputStream, OutputStream> compressor, byte[] data) {
        class Failing extends OutputStream {
            boolean closed;

            @Override
            public void write(int b) throws IOException {
                throw new IOException("disk full");
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw new IOException("disk full");
            }

            @Override
            public void close() {
                closed = true;
            }
        }
        Failing sink = new Failing();
        OutputStream out = compressor.apply(sink);
        assertThatThrownBy(() -> out.write(data)).hasMessageContaining("disk full");
        assertThatThrownBy(() -> out.write(1)).hasMessageContaining("disk full");
        assertThatThrownBy(out::close).hasMessageContaining("disk full");
        assertThat(sink.closed).isTrue();
    }
}
