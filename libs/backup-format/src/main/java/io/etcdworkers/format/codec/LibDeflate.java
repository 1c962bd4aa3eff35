package io.etcdworkers.format.codec;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.LongByReference;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The system's libdeflate ({@code libdeflate.so.0}, Debian's and Ubuntu's {@code libdeflate0}),
 * called through JNA: whole-buffer gzip compression, about four times faster than zlib's level 9
 * for output as small, and decompression of one whole gzip member at a time, about twice as fast
 * as zlib's (docs/benchmarks.md). Loaded once, on first use, and checked by compressing
 * a buffer and reading it back with the JDK's inflater; when it cannot be loaded (not installed,
 * no JNA native support for the platform, a temp dir JNA cannot unpack into) or is turned off
 * with {@code -Detcdworkers.libdeflate=false}, {@link #get()} is empty and the log says why once.
 *
 * <p>A compressor is allocated and freed for each call, so any thread may call and nothing native
 * outlives a stream.
 */
final class LibDeflate {
    private static final Logger LOG = LoggerFactory.getLogger(LibDeflate.class);

    /** {@code -Detcdworkers.libdeflate=false} turns it off (zlib then writes the gzip snapshots). */
    static final String SWITCH = "etcdworkers.libdeflate";

    /** The functions used, as libdeflate.h declares them ({@code size_t} is 64 bits where JNA runs this). */
    interface Api extends Library {
        Pointer libdeflate_alloc_compressor(int level);

        long libdeflate_gzip_compress(Pointer compressor, Pointer in, long inBytes, Pointer out, long outAvail);

        long libdeflate_gzip_compress_bound(Pointer compressor, long inBytes);

        void libdeflate_free_compressor(Pointer compressor);

        Pointer libdeflate_alloc_decompressor();

        int libdeflate_gzip_decompress_ex(
                Pointer decompressor,
                Pointer in,
                long inBytes,
                Pointer out,
                long outAvail,
                LongByReference actualIn,
                LongByReference actualOut);

        void libdeflate_free_decompressor(Pointer decompressor);
    }

    /** {@code LIBDEFLATE_SUCCESS}. */
    private static final int SUCCESS = 0;

    private final Api api;

    private LibDeflate(Api api) {
        this.api = api;
    }

    private static final class Loaded {
        static final Object RESULT = load();
    }

    /** The library when it is loaded and passed its check. */
    static Optional<LibDeflate> get() {
        return Loaded.RESULT instanceof LibDeflate lib ? Optional.of(lib) : Optional.empty();
    }

    /** Why {@link #get()} is empty; empty when it is not. */
    static Optional<String> unavailableReason() {
        return Loaded.RESULT instanceof String reason ? Optional.of(reason) : Optional.empty();
    }

    /**
     * One gzip member (RFC 1952: header, deflate stream, CRC-32, length) of the bytes from {@code
     * in}'s position to its limit, at {@code level} (1-12).
     *
     * @param in a direct buffer; not changed
     * @param output gives a direct buffer of at least the capacity asked, cleared (the caller's
     *     reused one); the member is copied out of it
     */
    byte[] gzip(int level, ByteBuffer in, IntFunction<ByteBuffer> output) {
        if (!in.isDirect()) {
            throw new IllegalArgumentException("libdeflate reads direct buffers only");
        }
        Pointer compressor = api.libdeflate_alloc_compressor(level);
        if (compressor == null) {
            throw new IllegalStateException("libdeflate_alloc_compressor(" + level + ") failed (out of memory, or "
                    + "a level this libdeflate does not have)");
        }
        ByteBuffer out = null;
        try {
            int length = in.remaining();
            long bound = api.libdeflate_gzip_compress_bound(compressor, length);
            out = output.apply(Math.toIntExact(bound));
            long written = api.libdeflate_gzip_compress(compressor, address(in), length, address(out), out.remaining());
            if (written <= 0 || written > out.remaining()) {
                throw new IllegalStateException("libdeflate_gzip_compress wrote " + written + " bytes of at most "
                        + out.remaining() + " for " + length);
            }
            byte[] member = new byte[(int) written];
            out.get(out.position(), member);
            return member;
        } finally {
            api.libdeflate_free_compressor(compressor);
            Reference.reachabilityFence(in);
            Reference.reachabilityFence(out);
        }
    }

    /** A decompressor of its own for one reader (not for several threads at once); {@link Members#close} frees it. */
    Members members() {
        Pointer decompressor = api.libdeflate_alloc_decompressor();
        if (decompressor == null) {
            throw new IllegalStateException("libdeflate_alloc_decompressor failed (out of memory)");
        }
        return new Members(decompressor);
    }

    /** Decompresses gzip members one at a time, whole: each from a buffer that holds all of it. */
    final class Members implements AutoCloseable {
        private final LongByReference actualIn = new LongByReference();
        private final LongByReference actualOut = new LongByReference();
        private Pointer decompressor;

        private Members(Pointer decompressor) {
            this.decompressor = decompressor;
        }

        /**
         * Decompresses the member that starts at {@code in}'s position into {@code out} (cleared
         * first), checking its CRC-32 and length. On success {@code in}'s position is moved past
         * the member and {@code out} is flipped for reading; otherwise {@code in} is left as it was
         * and {@code out} is empty (the member is not whole in {@code in}, decompresses to more than
         * {@code out} holds, or is not valid: the caller hands it to a decoder that tells these
         * apart).
         */
        synchronized boolean next(ByteBuffer in, ByteBuffer out) {
            if (decompressor == null) {
                throw new IllegalStateException("closed");
            }
            out.clear();
            int result = api.libdeflate_gzip_decompress_ex(
                    decompressor, address(in), in.remaining(), address(out), out.capacity(), actualIn, actualOut);
            Reference.reachabilityFence(in);
            Reference.reachabilityFence(out);
            if (result != SUCCESS) {
                out.limit(0);
                return false;
            }
            in.position(in.position() + Math.toIntExact(actualIn.getValue()));
            out.limit(Math.toIntExact(actualOut.getValue()));
            return true;
        }

        /** Waits for a call in progress on another thread (a reader closed while it reads ahead). */
        @Override
        public synchronized void close() {
            if (decompressor != null) {
                api.libdeflate_free_decompressor(decompressor);
                decompressor = null;
            }
        }
    }

    private static Pointer address(ByteBuffer buffer) {
        return Native.getDirectBufferPointer(buffer).share(buffer.position());
    }

    private static Object load() {
        if ("false".equalsIgnoreCase(System.getProperty(SWITCH, "true"))) {
            return note("turned off (-D" + SWITCH + "=false)");
        }
        if (System.getProperty("jna.tmpdir") == null) {
            // JNA unpacks its native part into ~/.cache/JNA otherwise: outside the dirs a worker
            // writes to, and not writable where a Job runs as a user without a home
            System.setProperty("jna.tmpdir", System.getProperty("java.io.tmpdir"));
        }
        try {
            if (Native.SIZE_T_SIZE != 8) {
                return note("size_t is " + Native.SIZE_T_SIZE + " bytes here, the binding assumes 8");
            }
            NativeLibrary library = open();
            LibDeflate lib = new LibDeflate(Native.load(library.getName(), Api.class));
            String failed = selfCheck(lib);
            if (failed != null) {
                return note(failed);
            }
            LOG.info(
                    "libdeflate compresses gzip snapshots and reads full snapshots and deltas file={}",
                    library.getFile());
            return lib;
        } catch (LinkageError | RuntimeException e) {
            return note(e.toString());
        }
    }

    /** {@code libdeflate.so} where the development package links it, else the runtime's {@code libdeflate.so.0}. */
    private static NativeLibrary open() {
        try {
            return NativeLibrary.getInstance("deflate");
        } catch (UnsatisfiedLinkError e) {
            return NativeLibrary.getInstance("libdeflate.so.0");
        }
    }

    private static String note(String reason) {
        LOG.info("libdeflate is not used, the JDK's zlib compresses and reads gzip snapshots (slower): {}", reason);
        return reason;
    }

    /** A buffer compressed at the level used and read back by the JDK's inflater; null when they agree. */
    private static String selfCheck(LibDeflate lib) {
        byte[] sample = new byte[200_000];
        for (int i = 0; i < sample.length; i++) {
            sample[i] = (byte) (i % 251 < 100 ? i * 31 >>> 3 : 'a' + i % 7);
        }
        ByteBuffer in = ByteBuffer.allocateDirect(sample.length).put(sample).flip();
        byte[] member = lib.gzip(GzipMembersOutputStream.LEVEL, in, ByteBuffer::allocateDirect);
        try (InputStream back = new GZIPInputStream(new ByteArrayInputStream(member))) {
            return Arrays.equals(back.readAllBytes(), sample)
                    ? null
                    : "its gzip output does not read back as its input (self-check)";
        } catch (IOException e) {
            return "its gzip output does not read back (self-check): " + e.getMessage();
        }
    }
}
