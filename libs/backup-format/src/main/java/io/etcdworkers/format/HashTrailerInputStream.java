package io.etcdworkers.format;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Streams the content of an object whose last 32 bytes are the SHA-256 of everything before
 * them, without knowing the length in advance: it always holds back the 32 bytes it read last,
 * hashes what it releases, and after end of stream exposes the held bytes as the trailer.
 *
 * <p>Memory is one buffer, whatever the size of the object.
 */
public final class HashTrailerInputStream extends InputStream {
    /** Length of a raw SHA-256. */
    public static final int TRAILER_LENGTH = 32;

    private static final int BUFFER = 64 * 1024;

    private final InputStream in;
    private final MessageDigest digest;
    private final byte[] buf = new byte[BUFFER + TRAILER_LENGTH];
    private int start;
    private int end;
    private boolean eof;
    private long released;

    public HashTrailerInputStream(InputStream in) {
        this.in = in;
        this.digest = sha256();
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (releasable() <= 0 && !eof) {
            fill();
        }
        int available = releasable();
        if (available <= 0) {
            return -1;
        }
        int n = Math.min(len, available);
        System.arraycopy(buf, start, b, off, n);
        digest.update(buf, start, n);
        start += n;
        released += n;
        return n;
    }

    private int releasable() {
        return end - start - TRAILER_LENGTH;
    }

    private void fill() throws IOException {
        if (start > 0) {
            System.arraycopy(buf, start, buf, 0, end - start);
            end -= start;
            start = 0;
        }
        int n = in.read(buf, end, buf.length - end);
        if (n < 0) {
            eof = true;
        } else {
            end += n;
        }
    }

    /** Reads to the end, hashing what is left. */
    public void drain() throws IOException {
        byte[] skip = new byte[BUFFER];
        while (read(skip, 0, skip.length) >= 0) {
            // hashing happens in read
        }
    }

    /** Bytes released so far (the content without the trailer). */
    public long contentLength() {
        return released;
    }

    /** Total bytes of the stream, trailer included; only meaningful after end of stream. */
    public long totalLength() {
        return released + (end - start);
    }

    /** The last 32 bytes, once the stream is at its end; empty if it had fewer than 32. */
    public Optional<byte[]> trailer() {
        if (!eof || end - start != TRAILER_LENGTH) {
            return Optional.empty();
        }
        return Optional.of(Arrays.copyOfRange(buf, start, end));
    }

    /** SHA-256 of the content released so far. */
    public byte[] contentDigest() {
        try {
            return ((MessageDigest) digest.clone()).digest();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digests are cloneable", e);
        }
    }

    /** SHA-256 of the content released so far followed by {@code tail}. */
    public byte[] digestWith(byte[] tail) {
        try {
            MessageDigest copy = (MessageDigest) digest.clone();
            copy.update(tail);
            return copy.digest();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digests are cloneable", e);
        }
    }

    /** Whether the stream ended with a trailer equal to the content's SHA-256. */
    public boolean hashMatches() {
        return trailer().map(t -> MessageDigest.isEqual(t, contentDigest())).orElse(false);
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
