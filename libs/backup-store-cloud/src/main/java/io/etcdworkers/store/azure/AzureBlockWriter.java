package io.etcdworkers.store.azure;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.options.BlockBlobCommitBlockListOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.options.BlockBlobStageBlockOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.PartBuffer;
import io.etcdworkers.store.WriterStream;
import io.etcdworkers.store.azure.AzureErrorTranslator.Target;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
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

    private final BlockBlobClient client;
    private final String key;
    private final int blockSize;
    private final AzureErrorTranslator errors;
    /** Block ids of one blob must all be as long; a per-writer prefix keeps two writers' apart. */
    private final String idPrefix = UUID.randomUUID().toString();

    private final List<String> blockIds = new ArrayList<>();
    private final OutputStream out = new WriterStream(this::write);

    private final PartBuffer block;
    private ObjectInfo committed;
    private boolean closed;

    AzureBlockWriter(BlockBlobClient client, String key, int blockSize, AzureErrorTranslator errors) {
        this.client = client;
        this.key = key;
        this.blockSize = blockSize;
        this.block = new PartBuffer(blockSize);
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
                if (block.size() > 0) {
                    stageBlock();
                }
                client.commitBlockListWithResponse(new BlockBlobCommitBlockListOptions(blockIds), null, null);
            }
            block.release();
            BlobProperties properties = client.getProperties();
            committed = new ObjectInfo(
                    key,
                    properties.getBlobSize(),
                    properties.getLastModified() == null
                            ? Instant.EPOCH
                            : properties.getLastModified().toInstant());
            return committed;
        } catch (RuntimeException e) {
            throw errors.translate(e, "committing \"" + key + "\"", Target.CONTAINER);
        }
    }

    @Override
    public void close() {
        closed = true;
        block.release();
    }

    private void write(byte[] src, int off, int len) {
        ensureOpen();
        block.write(src, off, len, this::stageBlock);
    }

    private void stageBlock() {
        if (blockIds.size() == MAX_BLOCKS) {
            throw new WorkerException(
                    ErrorCode.UNEXPECTED,
                    "\"" + key + "\" needs more than " + MAX_BLOCKS + " blocks of " + blockSize
                            + " bytes: raise the block size");
        }
        String id = Base64.getEncoder()
                .encodeToString(
                        String.format("%s-%06d", idPrefix, blockIds.size()).getBytes(StandardCharsets.US_ASCII));
        try {
            client.stageBlockWithResponse(new BlockBlobStageBlockOptions(id, body()), null, null);
        } catch (RuntimeException e) {
            throw errors.translate(
                    e, "staging block " + (blockIds.size() + 1) + " of \"" + key + "\"", Target.CONTAINER);
        }
        blockIds.add(id);
        block.sent();
    }

    /** The buffered bytes without a copy; the SDK replays them when it retries. */
    private BinaryData body() {
        return BinaryData.fromByteBuffer(
                ByteBuffer.wrap(block.array(), 0, block.size()).asReadOnlyBuffer());
    }

    private void ensureOpen() {
        if (closed || committed != null) {
            throw new IllegalStateException(
                    "writer of \"" + key + "\" is already " + (committed != null ? "committed" : "closed"));
        }
    }
}
