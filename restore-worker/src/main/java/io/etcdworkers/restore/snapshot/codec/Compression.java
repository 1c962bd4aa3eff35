package io.etcdworkers.restore.snapshot.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;
import java.util.zip.DeflaterOutputStream;

/** TEMPORARY stand-in until the codec branch lands (LZW missing). */
public enum Compression {
    NONE("", "none"), GZIP(".gz", "gzip"), ZLIB(".zlib", "zlib"), LZW(".Z", "lzw");

    private final String suffix;
    private final String policy;

    Compression(String suffix, String policy) {
        this.suffix = suffix;
        this.policy = policy;
    }

    public String suffix() {
        return suffix;
    }

    public String policyName() {
        return policy;
    }

    public static Optional<Compression> fromSuffix(String s) {
        for (Compression c : values()) {
            if (c.suffix.equals(s)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    public static Optional<Compression> fromPolicyName(String s) {
        for (Compression c : values()) {
            if (c.policy.equals(s)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    public InputStream decompress(InputStream raw) throws IOException {
        return switch (this) {
            case NONE -> raw;
            case GZIP -> new GZIPInputStream(raw, 65536);
            case ZLIB -> new InflaterInputStream(raw);
            case LZW -> throw new IOException("lzw not yet");
        };
    }

    public OutputStream compress(OutputStream sink) throws IOException {
        return switch (this) {
            case NONE -> sink;
            case GZIP -> new GZIPOutputStream(sink, 65536);
            case ZLIB -> new DeflaterOutputStream(sink);
            case LZW -> throw new IOException("lzw not yet");
        };
    }
}
