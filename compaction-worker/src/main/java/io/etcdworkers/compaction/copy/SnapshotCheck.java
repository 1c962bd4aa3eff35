package io.etcdworkers.compaction.copy;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.format.DeltaDecoder;
import io.etcdworkers.format.FullSnapshotReader;
import io.etcdworkers.format.SnapshotKind;
import io.etcdworkers.format.SnapshotName;
import io.etcdworkers.format.codec.Compression;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Reads one snapshot object's bytes whole and checks them as a restore would: a delta decompressed,
 * its SHA-256 trailer matched and every event decoded; a full snapshot decompressed and its
 * SHA-256 trailer matched. An object with an unknown compression suffix is only counted (nothing
 * can be checked inside it). Returns the object's size and the SHA-256 of its stored bytes.
 */
final class SnapshotCheck {
    /** What the check found: the stored bytes' length and SHA-256, and what was checked inside. */
    record Checked(long size, String sha256, String what) {}

    private SnapshotCheck() {}

    static Checked check(String objectName, SnapshotName name, InputStream raw) throws InterruptedException {
        MessageDigest digest = sha256();
        CountingInputStream counted = new CountingInputStream(new DigestInputStream(raw, digest));
        // the readers close what they are given once they are done: drain() still reads the rest
        InputStream shielded = new FilterInputStream(counted) {
            @Override
            public void close() {}
        };
        Optional<Compression> codec = name.compression();
        String what;
        if (codec.isEmpty()) {
            what = "size (unknown compression \"" + name.compressionSuffix() + "\")";
        } else if (name.kind() == SnapshotKind.FULL) {
            FullSnapshotReader.copy(objectName, codec.get().decompressFull(shielded), null, false);
            what = "sha256 trailer";
        } else {
            DeltaDecoder.verify(objectName, codec.get().decompress(shielded));
            what = "sha256 trailer, events decoded";
        }
        drain(objectName, counted);
        return new Checked(counted.count(), HexFormat.of().formatHex(digest.digest()), what);
    }

    /** Reads what the decompressor left unread, so the length and hash cover every stored byte. */
    private static void drain(String objectName, InputStream in) {
        byte[] buf = new byte[64 * 1024];
        try {
            while (in.read(buf) >= 0) {
                // counted and hashed on the way
            }
        } catch (IOException e) {
            throw new WorkerException(ErrorCode.STORE_UNAVAILABLE, objectName + ": read failed: " + e.getMessage(), e);
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
