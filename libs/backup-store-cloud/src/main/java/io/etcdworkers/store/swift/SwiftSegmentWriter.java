package io.etcdworkers.store.swift;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.ObjectInfo;
import io.etcdworkers.store.ObjectWriter;
import io.etcdworkers.store.PartBuffer;
import io.etcdworkers.store.WriterStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams an object into Swift without a temp file. Bytes collect in one segment-sized buffer.
 * An object that fits is sent at {@link #commit()} with one PUT. A larger one becomes a static
 * large object: each full buffer is PUT as the next segment, {@code <key>/0000000001},
 * {@code <key>/0000000002}, ... (the layout of etcdbrctl's own chunks, which every reader of the
 * bucket, etcdbrctl's and this one, skips, and which etcdbrctl's garbage collection deletes
 * together with the snapshot); {@link #commit()} PUTs the last one and then the manifest
 * ({@code ?multipart-manifest=put}, each segment with its ETag and size, so Swift checks them),
 * which makes the object visible at once and whole. Before that, nothing exists under the key,
 * and an object already there stays as it was.
 *
 * <p>Every segment's and small object's PUT carries the MD5 of its bytes as ETag, the manifest's
 * the large object's ETag (the MD5 of the segments' ETags): Swift refuses (422) bytes that changed
 * on the way. {@link #close()} without a commit deletes the segments already written; one that cannot be
 * deleted is logged at WARN with its name (it is invisible to readers, but takes space).
 */
final class SwiftSegmentWriter implements ObjectWriter {
    private static final Logger LOG = LoggerFactory.getLogger(SwiftSegmentWriter.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SwiftContainerClient client;
    private final String key;
    private final int segmentSize;
    private final int maxSegments;
    private final List<Segment> segments = new ArrayList<>();
    private final OutputStream out = new WriterStream(this::write);

    private final PartBuffer segment;
    private long total;
    private ObjectInfo committed;
    private boolean closed;
    /** Set once the manifest PUT was sent: from then on the segments may be an object's, and are kept. */
    private boolean manifestSent;

    private record Segment(String name, String etag, int size) {}

    SwiftSegmentWriter(SwiftContainerClient client, String key) {
        this.client = Objects.requireNonNull(client, "client");
        this.key = Objects.requireNonNull(key, "key");
        this.segmentSize = client.config().segmentSize();
        this.maxSegments = client.config().maxSegments();
        this.segment = new PartBuffer(segmentSize);
    }

    /** The name of segment {@code index} (1-based) of {@code key}. */
    static String segmentName(String key, int index) {
        return key + "/" + String.format("%010d", index);
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
        if (segments.isEmpty()) {
            client.put(
                    key,
                    null,
                    segment.array(),
                    segment.size(),
                    md5(segment.array(), segment.size()),
                    "writing \"" + key + "\"");
        } else {
            if (segment.size() > 0) {
                putSegment();
            }
            ArrayNode manifest = JSON.createArrayNode();
            String container = client.config().container();
            for (Segment s : segments) {
                manifest.addObject()
                        .put("path", "/" + container + "/" + s.name())
                        .put("etag", s.etag())
                        .put("size_bytes", s.size());
            }
            byte[] body = manifest.toString().getBytes(StandardCharsets.UTF_8);
            manifestSent = true;
            // A manifest's ETag is the large object's: the MD5 of its segments' ETags, one after the other.
            StringBuilder etags = new StringBuilder();
            segments.forEach(seg -> etags.append(seg.etag()));
            byte[] concatenated = etags.toString().getBytes(StandardCharsets.US_ASCII);
            client.put(
                    key,
                    "multipart-manifest=put",
                    body,
                    body.length,
                    md5(concatenated, concatenated.length),
                    "writing the manifest of \"" + key + "\" (" + segments.size() + " segments)");
        }
        segment.release();
        ObjectInfo info = client.head(key, "reading back \"" + key + "\" after its upload")
                .orElseThrow(() -> client.errors()
                        .fail(
                                ErrorCode.OBJECT_VANISHED,
                                "reading back \"" + key + "\"",
                                "not found right after it was written"));
        committed = new ObjectInfo(key, total, info.lastModified());
        return committed;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        segment.release();
        if (committed != null) {
            return;
        }
        if (manifestSent && manifestMayExist()) {
            LOG.warn(
                    "{}: the manifest of {} may have been written though its answer was lost: its {} segment(s) "
                            + "are kept",
                    client.describe(),
                    key,
                    segments.size());
            return;
        }
        List<String> left = new ArrayList<>();
        for (Segment s : segments) {
            try {
                client.delete(s.name(), "deleting segment \"" + s.name() + "\" of an aborted upload");
            } catch (WorkerException e) {
                left.add(s.name());
                LOG.debug("deleting segment {} failed", s.name(), e);
            }
        }
        if (!left.isEmpty()) {
            LOG.warn(
                    "{}: the aborted upload of {} left {} segment(s) that could not be deleted (readers skip them): {}",
                    client.describe(),
                    key,
                    left.size(),
                    left);
        }
        segments.clear();
    }

    /** Whether an object of this upload's size is under the key (its manifest's answer may have been lost). */
    private boolean manifestMayExist() {
        try {
            return client.head(key, "checking \"" + key + "\" after its manifest failed")
                    .map(info -> info.size() == total)
                    .orElse(false);
        } catch (WorkerException e) {
            // Cannot tell: keep the segments rather than break an object that may be there.
            return true;
        }
    }

    private void write(byte[] src, int off, int len) {
        ensureOpen();
        segment.write(src, off, len, this::putSegment);
        total += len;
    }

    private void putSegment() {
        if (segments.size() == maxSegments) {
            throw new WorkerException(
                    ErrorCode.UNEXPECTED,
                    client.describe() + ": \"" + key + "\" needs more than " + maxSegments + " segments of "
                            + segmentSize + " bytes (Swift's max_manifest_segments)");
        }
        String name = segmentName(key, segments.size() + 1);
        String etag = md5(segment.array(), segment.size());
        client.put(
                name,
                null,
                segment.array(),
                segment.size(),
                etag,
                "writing segment " + (segments.size() + 1) + " of \"" + key + "\"");
        segments.add(new Segment(name, etag, segment.size()));
        segment.sent();
    }

    private static String md5(byte[] bytes, int length) {
        try {
            MessageDigest digest = MessageDigest.getInstance("MD5");
            digest.update(bytes, 0, length);
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
    }

    private void ensureOpen() {
        if (closed || committed != null) {
            throw new IllegalStateException(
                    "writer of \"" + key + "\" is already " + (committed != null ? "committed" : "closed"));
        }
    }
}
