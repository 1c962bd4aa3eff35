package io.etcdworkers.bolt;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** File-level helpers for bbolt databases used as etcd snapshots. */
public final class BoltFiles {
    /** etcd decides a snapshot has a SHA-256 trailer when {@code size % 512 == 32}. */
    public static final int SECTOR = 512;

    public static final int TRAILER_BYTES = 32;

    private BoltFiles() {}

    /**
     * Appends the SHA-256 of the whole file, so {@code etcdctl snapshot restore} verifies it. The
     * file must be a multiple of 512 bytes (a bbolt file of whole pages is), else etcd would not
     * see the trailer.
     */
    public static void appendSha256Trailer(Path file) throws IOException {
        long size = Files.size(file);
        if (size % SECTOR != 0) {
            throw new IllegalArgumentException(
                    file + ": " + size + " bytes is not a multiple of " + SECTOR + " (already has a trailer?)");
        }
        MessageDigest sha = sha256();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                sha.update(buf, 0, n);
            }
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            PageSink.write(channel, ByteBuffer.wrap(sha.digest()), size);
            channel.force(true);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
