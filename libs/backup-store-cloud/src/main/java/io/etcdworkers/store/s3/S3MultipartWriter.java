package io.etcdworkers.store.s3;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.PartBuffer;
import io.etcdworkers.store.WriterStream;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Streams an object into S3 without a temp file: bytes collect in one part-sized buffer and
 * each full buffer is uploaded as the next part of a multipart upload, so memory stays at one
 * part. An object that fits into one part is sent with a single PUT at commit instead.
 *
 * <p>S3 shows neither an unfinished multipart upload nor an unsent PUT under the key, so
 * nothing is visible before {@link #commit()}. {@link #close()} without a commit aborts the
 * upload, so its parts do not linger (and cost) in the bucket.
 */
final class S3MultipartWriter implements ObjectWriter {
    /** S3's limit on parts per upload. */
    static final int MAX_PARTS = 10_000;

    private final S3Client client;
    private final String bucket;
    private final String key;
    private final Optional<SseCustomerKey> sse;
    private final int partSize;
    private final S3ErrorTranslator errors;
    private final List<CompletedPart> parts = new ArrayList<>();
    private final OutputStream out = new WriterStream(this::write);

    private final PartBuffer part;
    private String uploadId;
    private ObjectInfo committed;
    private boolean closed;

    S3MultipartWriter(
            S3Client client,
            String bucket,
            String key,
            Optional<SseCustomerKey> sse,
            long partSize,
            S3ErrorTranslator errors) {
        this.client = client;
        this.bucket = bucket;
        this.key = key;
        this.sse = sse;
        // One part must fit a Java array; 5 GiB parts are allowed by S3 but not by this writer.
        this.partSize = (int) Math.min(partSize, Integer.MAX_VALUE - 8);
        this.part = new PartBuffer(this.partSize);
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
            if (uploadId == null) {
                client.putObject(
                        b -> b.bucket(bucket)
                                .key(key)
                                .sseCustomerAlgorithm(
                                        sse.map(SseCustomerKey::algorithm).orElse(null))
                                .sseCustomerKey(
                                        sse.map(SseCustomerKey::keyBase64).orElse(null))
                                .sseCustomerKeyMD5(
                                        sse.map(SseCustomerKey::keyMd5Base64).orElse(null)),
                        body());
            } else {
                if (part.size() > 0) {
                    uploadPart();
                }
                client.completeMultipartUpload(b -> b.bucket(bucket)
                        .key(key)
                        .uploadId(uploadId)
                        .multipartUpload(m -> m.parts(parts))
                        .sseCustomerAlgorithm(sse.map(SseCustomerKey::algorithm).orElse(null))
                        .sseCustomerKey(sse.map(SseCustomerKey::keyBase64).orElse(null))
                        .sseCustomerKeyMD5(sse.map(SseCustomerKey::keyMd5Base64).orElse(null)));
                uploadId = null;
            }
            part.release();
            HeadObjectResponse head = client.headObject(b -> b.bucket(bucket)
                    .key(key)
                    .sseCustomerAlgorithm(sse.map(SseCustomerKey::algorithm).orElse(null))
                    .sseCustomerKey(sse.map(SseCustomerKey::keyBase64).orElse(null))
                    .sseCustomerKeyMD5(sse.map(SseCustomerKey::keyMd5Base64).orElse(null)));
            committed = new ObjectInfo(
                    key, head.contentLength(), head.lastModified() == null ? Instant.EPOCH : head.lastModified());
            return committed;
        } catch (SdkException e) {
            throw errors.translate(e, "committing \"" + key + "\"");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        part.release();
        if (committed != null || uploadId == null) {
            return;
        }
        String id = uploadId;
        uploadId = null;
        try {
            client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id));
        } catch (SdkException e) {
            throw errors.translate(
                    e,
                    "aborting the multipart upload " + id + " of \"" + key
                            + "\" (its parts stay until a lifecycle rule removes them)");
        }
    }

    private void write(byte[] src, int off, int len) {
        ensureOpen();
        part.write(src, off, len, this::uploadPart);
    }

    private void uploadPart() {
        if (parts.size() == MAX_PARTS) {
            throw new WorkerException(
                    ErrorCode.UNEXPECTED,
                    "\"" + key + "\" needs more than " + MAX_PARTS + " parts of " + partSize
                            + " bytes: raise the part size");
        }
        int partNumber = parts.size() + 1;
        try {
            if (uploadId == null) {
                uploadId = client.createMultipartUpload(b -> b.bucket(bucket)
                                .key(key)
                                .sseCustomerAlgorithm(
                                        sse.map(SseCustomerKey::algorithm).orElse(null))
                                .sseCustomerKey(
                                        sse.map(SseCustomerKey::keyBase64).orElse(null))
                                .sseCustomerKeyMD5(
                                        sse.map(SseCustomerKey::keyMd5Base64).orElse(null)))
                        .uploadId();
            }
            String etag = client.uploadPart(
                            b -> b.bucket(bucket)
                                    .key(key)
                                    .uploadId(uploadId)
                                    .partNumber(partNumber)
                                    .contentLength((long) part.size())
                                    .sseCustomerAlgorithm(
                                            sse.map(SseCustomerKey::algorithm).orElse(null))
                                    .sseCustomerKey(
                                            sse.map(SseCustomerKey::keyBase64).orElse(null))
                                    .sseCustomerKeyMD5(sse.map(SseCustomerKey::keyMd5Base64)
                                            .orElse(null)),
                            body())
                    .eTag();
            parts.add(CompletedPart.builder().partNumber(partNumber).eTag(etag).build());
            part.sent();
        } catch (SdkException e) {
            throw errors.translate(e, "uploading part " + partNumber + " of \"" + key + "\"");
        }
    }

    /** The buffered bytes without a copy; a fresh stream per attempt lets the SDK retry. */
    private RequestBody body() {
        byte[] bytes = part.array();
        int length = part.size();
        return RequestBody.fromContentProvider(
                () -> new ByteArrayInputStream(bytes, 0, length), length, "application/octet-stream");
    }

    private void ensureOpen() {
        if (closed || committed != null) {
            throw new IllegalStateException(
                    "writer of \"" + key + "\" is already " + (committed != null ? "committed" : "closed"));
        }
    }
}
