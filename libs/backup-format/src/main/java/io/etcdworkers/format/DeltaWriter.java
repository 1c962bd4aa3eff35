package io.etcdworkers.format;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;

/**
 * Writes a delta snapshot byte for byte as etcd-backup-restore does: the JSON array of events
 * with Go's field order and omitted zero fields, then the raw SHA-256 of the JSON. Compression
 * is the caller's (wrap the sink).
 *
 * <p>Use: {@code write} each event in revision order, then {@link #finish()}; {@link #close()}
 * finishes when needed and closes the sink.
 */
public final class DeltaWriter implements AutoCloseable {
    private static final JsonFactory JSON = JsonFactory.builder().build();

    private final OutputStream sink;
    private final MessageDigest digest = HashTrailerInputStream.sha256();
    private final JsonGenerator json;
    private long events;
    private long lastRevision = -1;
    private boolean finished;

    public DeltaWriter(OutputStream sink) throws IOException {
        this.sink = sink;
        OutputStream hashing = new FilterOutputStream(sink) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                digest.update(b, off, len);
                out.write(b, off, len);
            }

            @Override
            public void write(int b) throws IOException {
                digest.update((byte) b);
                out.write(b);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
        this.json = JSON.createGenerator(hashing, JsonEncoding.UTF8);
        json.writeStartArray();
    }

    /** Appends one event; revisions must not go backwards. */
    public void write(DeltaEvent event) throws IOException {
        if (event.modRevision() < lastRevision) {
            throw new IllegalArgumentException(
                    "revision goes back from " + lastRevision + " to " + event.modRevision());
        }
        lastRevision = event.modRevision();
        json.writeStartObject();
        json.writeFieldName("etcdEvent");
        json.writeStartObject();
        if (event.type() == EventType.DELETE) {
            json.writeNumberField("type", 1);
        }
        json.writeFieldName("kv");
        json.writeStartObject();
        if (event.key().length > 0) {
            json.writeFieldName("key");
            json.writeBinary(event.key());
        }
        numberUnlessZero("create_revision", event.createRevision());
        numberUnlessZero("mod_revision", event.modRevision());
        numberUnlessZero("version", event.version());
        if (event.value().length > 0) {
            json.writeFieldName("value");
            json.writeBinary(event.value());
        }
        numberUnlessZero("lease", event.lease());
        json.writeEndObject();
        json.writeEndObject();
        json.writeStringField("time", GoTimeFormat.format(event.time()));
        json.writeEndObject();
        events++;
    }

    private void numberUnlessZero(String field, long value) throws IOException {
        if (value != 0) {
            json.writeNumberField(field, value);
        }
    }

    /** Events written so far. */
    public long events() {
        return events;
    }

    /** Closes the array and appends the SHA-256 trailer; the sink stays open. */
    public void finish() throws IOException {
        if (finished) {
            return;
        }
        json.writeEndArray();
        json.close();
        sink.write(digest.digest());
        sink.flush();
        finished = true;
    }

    @Override
    public void close() throws IOException {
        finish();
        sink.close();
    }
}
