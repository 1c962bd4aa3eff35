package io.etcdworkers.format.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.Deflater;

/**
 * The compressions of etcd-backup-restore snapshot objects, named by the suffix that follows
 * the object name ({@code Full-00000000-00030009-1518427675.gz}) and by the policy name of
 * their {@code compressionPolicy} setting.
 *
 * <p>{@link #decompress} streams with bounded memory. For the three real codecs the returned
 * stream gives -1 only when the compressed stream has ended properly and nothing follows it;
 * otherwise a read throws {@link TruncatedStreamException} (the input ends early, including
 * empty input) or {@link CorruptStreamException} (anything invalid, a checksum mismatch, or
 * bytes after the end), and never another {@code IOException} caused by the data. Bytes decoded
 * before a failure may already have been handed out: only a clean -1 means the object is whole.
 * {@link #NONE} has no end marker and passes the bytes through unchecked: the object's hash
 * trailer is what catches a cut there.
 *
 * <p>{@link #compress} writes what etcd-backup-restore's Go writers read: the same bytes as theirs
 * for {@link #LZW}; for {@link #GZIP} one gzip member per 1 MiB of input, compressed by the
 * system's libdeflate on the machine's processors ({@link GzipMembersOutputStream}), or, where
 * libdeflate cannot be loaded ({@link LibDeflate}), one gzip stream deflated by the JDK's zlib in
 * 1 MiB chunks ({@link ChunkedDeflateOutputStream}) at the level and strategy below; for {@link
 * #ZLIB}, which holds a single stream, always the latter. The bytes differ from Go's; both sides
 * read each other's.
 *
 * <p>Closing either returned stream closes the given stream; closing the compressing stream
 * first finishes the compressed stream, without which it is incomplete.
 */
public enum Compression {
    NONE("", "none"),
    GZIP(".gz", "gzip"),
    ZLIB(".zlib", "zlib"),
    LZW(".Z", "lzw");

    private final String suffix;
    private final String policyName;

    Compression(String suffix, String policyName) {
        this.suffix = suffix;
        this.policyName = policyName;
    }

    /** The object name suffix, with its dot; empty for {@link #NONE}. Case matters: {@code .Z}. */
    public String suffix() {
        return suffix;
    }

    /** The name used in configuration: {@code none}, {@code gzip}, {@code zlib}, {@code lzw}. */
    public String policyName() {
        return policyName;
    }

    /** The compression whose suffix is exactly {@code suffix} ({@code ""} is {@link #NONE}). */
    public static Optional<Compression> fromSuffix(String suffix) {
        Objects.requireNonNull(suffix, "suffix");
        for (Compression c : values()) {
            if (c.suffix.equals(suffix)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** The compression whose policy name is exactly {@code name} (lower case, as theirs). */
    public static Optional<Compression> fromPolicyName(String name) {
        Objects.requireNonNull(name, "name");
        for (Compression c : values()) {
            if (c.policyName.equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** A stream of the decompressed bytes of {@code raw}; see the class comment for failures. */
    public InputStream decompress(InputStream raw) {
        Objects.requireNonNull(raw, "raw");
        return switch (this) {
            case NONE -> raw;
            case GZIP -> InflatingInputStream.gzip(raw);
            case ZLIB -> InflatingInputStream.zlib(raw);
            case LZW -> new LzwInputStream(raw);
        };
    }

    /**
     * As {@link #decompress}, for a full snapshot, which can be large: a gzip one is read member
     * by member by libdeflate while its members are the size this project writes, about twice as
     * fast ({@link MemberInflatingInputStream}); the same bytes, the same failures.
     */
    public InputStream decompressFull(InputStream raw) {
        Objects.requireNonNull(raw, "raw");
        if (this == GZIP) {
            Optional<LibDeflate> lib = LibDeflate.get();
            if (lib.isPresent()) {
                return new MemberInflatingInputStream(raw, lib.get());
            }
        }
        return decompress(raw);
    }

    /** A stream that compresses into {@code sink}; its close() finishes the data and closes the sink. */
    public OutputStream compress(OutputStream sink) throws IOException {
        Objects.requireNonNull(sink, "sink");
        return switch (this) {
            case NONE -> sink;
            case GZIP ->
                LibDeflate.get()
                        .<OutputStream>map(lib -> new GzipMembersOutputStream(sink, lib, threads()))
                        .orElseGet(() -> chunked(sink, ChunkedDeflateOutputStream.Format.GZIP));
            case ZLIB -> chunked(sink, ChunkedDeflateOutputStream.Format.ZLIB);
            case LZW -> new LzwOutputStream(sink);
        };
    }

    /**
     * Level and strategy of the snapshots the JDK's zlib writes (zlib, and gzip without libdeflate). Go's {@code
     * compress/flate} at its default level (what etcdbrctl writes with) produces 1-3 % less than
     * zlib's default level 6 on etcd databases. zlib's {@code FILTERED} strategy, which drops
     * matches of up to five bytes in favour of literals, closes most of that; at level 9 it writes
     * less than Go's on the same database (0.05 % on the 300,000-event benchmark's compacted
     * database, where level 8 wrote 0.01 % more; the fixtures' full snapshots: docs/benchmarks.md).
     * Level 9 takes about 40 % more CPU than 8: the chunks are deflated on every core, beside the
     * verification, and a compaction runs on a schedule, where the snapshot it leaves is kept and
     * downloaded by every restore after it.
     */
    static final int DEFLATE_LEVEL = 9;

    static final int DEFLATE_STRATEGY = Deflater.FILTERED;

    private static OutputStream chunked(OutputStream sink, ChunkedDeflateOutputStream.Format format) {
        return new ChunkedDeflateOutputStream(sink, format, DEFLATE_LEVEL, DEFLATE_STRATEGY, threads());
    }

    private static int threads() {
        return ParallelChunksOutputStream.defaultThreads();
    }
}
