package io.etcdworkers.format.codec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a decompressing reader delivered before it ended, and how it ended: -1 ({@code end} null)
 * or an exception's class and message. Two readers of the same input are equivalent when their
 * outcomes are equal.
 */
record ReadOutcome(byte[] bytes, String end) {
    /** Reads {@code in} to its end or its first failure, {@code readSize} bytes at a time, and closes it. */
    static ReadOutcome of(InputStream in, int readSize) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[readSize];
        try (in) {
            int n;
            while ((n = in.read(buf, 0, buf.length)) >= 0) {
                got.write(buf, 0, n);
            }
            return new ReadOutcome(got.toByteArray(), null);
        } catch (IOException | RuntimeException e) {
            return new ReadOutcome(got.toByteArray(), e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReadOutcome other && Arrays.equals(bytes, other.bytes) && Objects.equals(end, other.end);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return bytes.length + " bytes, then " + (end == null ? "the end" : end);
    }
}
