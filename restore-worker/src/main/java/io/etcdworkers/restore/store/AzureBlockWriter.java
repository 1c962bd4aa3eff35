package io.etcdworkers.restore.store;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.options.BlockBlobCommitBlockListOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.options.BlockBlobStageBlockOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.restore.error.WorkerException;
import io.etcdworkers.restore.store.AzureErrorTranslator.Target;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Streams a block blob into Azure without a temp file: bytes collect in one block-sized buffer
 * and each full buffer is staged as the next block (Put Block); {@link #commit()} commits the
 * block list (Put Block List), which makes the blob visible at once and whole. A blob that fits
 * into one block is sent with a single Put Blob at commit instead.
 *
 * <p>Staged blocks are invisible: a blob with only uncommitted blocks is neither listed nor
 * readable, and a blob already under the name stays as it was. {@link #close()} without a
 * commit therefore only drops the buffer: Azure has no call to discard uncommitted blocks, and
 * garbage-collects them after a week (committing an empty list to clean up would briefly show an
 * empty blob, or truncate one already there).
 */
final class AzureBlockWriter implements ObjectWriter {
    /** Azure's limit on committed blocks per blob. */
    static final int MAX_BLOCKS = 50_000;
    private static final int INITIAL_BUFFER = 64 * 1024;

    private final BlockBlobClient client;
    private final String key;
    private final int blockSize;
    private final AzureErrorTranslator errors;
    /** Block ids of one blob must all be as long; a per-writer prefix keeps two writers' apart. */
    private final String idPrefix = UUID.randomUUID().toString();
    private final List<String> blockIds = new ArrayList<>();
    private final OutputStream out = new BlockStream();

    private byte[] buffer = new byte[0];
    private int buffered;
    private ObjectInfo committed;
    private boolean closed;

    AzureBlockWriter(BlockBlobClient client, String key, int blockSize, AzureErrorTranslator errors) {
        this.client = client;
        this.key = key;
        this.blockSize = blockSize;
        this.errors = errors;
    }

    @Override
    public OutputStream out() {
        return out;
    }

    @Override
    public ObjectInfo commit() {
        if (committed != null) {
            return committed;
        }
        ensureOpen();
        try {
            if (blockIds.isEmpty()) {
                client.uploadWithResponse(new BlockBlobSimpleUploadOptions(body()), null, null);
            } else {
                if (buffered > 0) {
                    stageBlock();
                }
                client.commitBlockListWithResponse(new BlockBlobCommitBlockListOptions(blockIds), null, null);
            }
            buffer = new byte[0];
            buffered = 0;
            BlobProperties properties = client.getProperties();
            committed = new ObjectInfo(key, properties.getBlobSize(), properties.getLastModified() == null
                    ? Instant.EPOCH : properties.getLastModified().toInstant());
            return committed;
        } catch (RuntimeException e) {
            throw errors.translate(e, "committing \"" + key + "\"", Target.CONTAINER);
        }
    }

    @Override
    public void close() {
        closed = true;
        buffer = new byte[0];
    }

    private void write(byte[] src, int off, int len) {
        ensureOpen();
        while (len > 0) {
            if (buffered == blockSize) {
                stageBlock();
            }
            int n = Math.min(len, blockSize - buffered);
            ensureCapacity(buffered + n);
            System.arraycopy(src, off, buffer, buffered, n);
            buffered += n;
            off += n;
            len -= n;
        }
    }

    /** Grows the buffer as needed so that small blobs stay small in memory. */
    private void ensureCapacity(int needed) {
        if (needed > buffer.length) {
            int grown = Math.max(needed, Math.max(INITIAL_BUFFER, buffer.length * 2));
            buffer = Arrays.copyOf(buffer, Math.min(grown, blockSize));
        }
    }

    private void stageBlock() {
        if (blockIds.size() == MAX_BLOCKS) {
            throw new WorkerException(ErrorCode.UNEXPECTED, "\"" + key + "\" needs more than " + MAX_BLOCKS
                    + " blocks of " + blockSize + " bytes: raise the block size");
        }
        String id = Base64.getEncoder().encodeToString(
                String.format("%s-%06d", idPrefix, blockIds.size()).getBytes(StandardCharsets.US_ASCII));
        try {
            client.stageBlockWithResponse(new BlockBlobStageBlockOptions(id, body()), null, null);
        } catch (RuntimeException e) {
            throw errors.translate(e, "staging block " + (blockIds.size() + 1) + " of \"" + key + "\"",
                    Target.CONTAINER);
        }
        blockIds.add(id);
        buffered = 0;
    }

    /** The buffered bytes without a copy; the SDK replays them when it retries. */
    private BinaryData body() {
        return BinaryData.fromByteBuffer(ByteBuffer.wrap(buffer, 0, buffered).asReadOnlyBuffer());
    }

    private void ensureOpen() {
        if (closed || committed != null) {
            throw new IllegalStateException("writer of \"" + key + "\" is already "
                    + (committed != null ? "committed" : "closed"));
        }
    }

    /** Closing it only flushes (nothing to flush): commit and abort belong to the writer. */
    private final class BlockStream extends OutputStream {
        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            AzureBlockWriter.this.write(b, off, len);
        }
    }
}
