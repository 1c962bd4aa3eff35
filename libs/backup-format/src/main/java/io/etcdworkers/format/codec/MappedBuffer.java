package io.etcdworkers.format.codec;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * Native memory mapped from the kernel for itself ({@code mmap}, anonymous) and given back to it
 * when closed ({@code munmap}): a buffer of megabytes that the process's resident size drops by
 * as soon as it is freed. {@code malloc} (JNA's {@code Memory}, direct byte buffers) keeps freed
 * blocks of that size in its arenas once its threshold has grown past them: a restore's peak grew
 * by 60-75 MB with it (docs/benchmarks.md). A new mapping costs a page fault per 4 KiB touched,
 * so {@link BufferPool} reuses them. Not for concurrent use.
 */
final class MappedBuffer implements AutoCloseable {
    /** The calls used, as Linux's libc declares them. */
    interface LibC extends Library {
        Pointer mmap(Pointer address, long length, int protection, int flags, int fd, long offset);

        int munmap(Pointer address, long length);
    }

    private static final int PROT_READ = 0x1;
    private static final int PROT_WRITE = 0x2;
    private static final int MAP_PRIVATE = 0x02;
    /** The same on x86-64 and arm64 Linux. */
    private static final int MAP_ANONYMOUS = 0x20;

    private static final class Loaded {
        static final LibC LIBC = Native.load("c", LibC.class);
    }

    private final long length;
    private Pointer address;

    /** {@code length} bytes, zero-filled by the kernel as they are first touched. */
    MappedBuffer(long length) {
        if (length <= 0) {
            throw new IllegalArgumentException("length must be positive: " + length);
        }
        Pointer mapped = Loaded.LIBC.mmap(null, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == null || Pointer.nativeValue(mapped) == -1) {
            throw new OutOfMemoryError("mmap of " + length + " bytes failed (errno " + Native.getLastError() + ")");
        }
        this.length = length;
        this.address = mapped;
    }

    /** Its size in bytes. */
    long length() {
        return length;
    }

    /** Where it starts; valid until {@link #close()}. */
    Pointer pointer() {
        if (address == null) {
            throw new IllegalStateException("unmapped");
        }
        return address;
    }

    @Override
    public void close() {
        if (address != null) {
            Loaded.LIBC.munmap(address, length);
            address = null;
        }
    }
}
