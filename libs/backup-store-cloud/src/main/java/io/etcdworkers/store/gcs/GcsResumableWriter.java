package io.etcdworkers.store.gcs;

import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.WriterStream;
import io.etcdworkers.store.gcs.GcsErrorTranslator.Target;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * Streams an object into GCS through the SDK's resumable upload ({@link Storage#writer}): the
 * session is opened when the writer is created; bytes collect in one chunk-sized buffer, and
 * each full chunk is sent to the session; {@link #commit()} sends the rest and finalizes, which
 * makes the object visible at once and whole.
 *
 * <p>An unfinished session is invisible: nothing is listed or readable under the name, and an
 * object already there stays as it was. {@link #close()} without a commit therefore only drops
 * the channel, never closing it (closing a channel is what finalizes). The SDK exposes no call
 * to cancel a session; GCS discards unfinished ones after a week.
 */
final class GcsResumableWriter implements ObjectWriter {
    private final Storage storage;
    private final BlobId id;
    private final GcsErrorTranslator errors;
    private final OutputStream out = new WriterStream(this::write);

    private WriteChannel channel;
    private ObjectInfo committed;
    private boolean closed;

    /** @param channel a freshly opened {@link Storage#writer} channel for {@code id} */
    GcsResumableWriter(Storage storage, BlobId id, WriteChannel channel, GcsErrorTranslator errors) {
        this.storage = storage;
        this.id = id;
        this.channel = channel;
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
            channel.close();
        } catch (IOException | RuntimeException e) {
            channel = null;
            closed = true;
            throw errors.translate(e, "finalizing the upload of \"" + id.getName() + "\"", Target.BUCKET);
        }
        channel = null;
        Blob blob;
        try {
            blob = storage.get(id);
        } catch (RuntimeException e) {
            throw errors.translate(e, "reading back \"" + id.getName() + "\" after its upload", Target.OBJECT);
        }
        if (blob == null) {
            throw errors.translateStatus(
                    404,
                    null,
                    "not found right after its upload was finalized",
                    "reading back \"" + id.getName() + "\"",
                    Target.OBJECT,
                    null);
        }
        committed = new ObjectInfo(
                id.getName(),
                blob.getSize() == null ? 0 : blob.getSize(),
                blob.getUpdateTimeOffsetDateTime() == null
                        ? Instant.EPOCH
                        : blob.getUpdateTimeOffsetDateTime().toInstant());
        return committed;
    }

    @Override
    public void close() {
        closed = true;
        // Dropped, not closed: closing would finalize the upload (see the class comment).
        channel = null;
    }

    private void write(byte[] src, int off, int len) {
        ensureOpen();
        ByteBuffer bytes = ByteBuffer.wrap(src, off, len);
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException | RuntimeException e) {
            throw errors.translate(e, "uploading \"" + id.getName() + "\"", Target.BUCKET);
        }
    }

    private void ensureOpen() {
        if (closed || committed != null) {
            throw new IllegalStateException(
                    "writer of \"" + id.getName() + "\" is already " + (committed != null ? "committed" : "closed"));
        }
    }
}
