package io.etcdworkers.testsupport;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/**
 * A bucket for tests: the fixture's real full snapshot (600 seed keys at revision 601) plus
 * deltas synthesized after it. The builder keeps each key's create revision and version as etcd
 * would, so a correct replay reproduces them.
 *
 * <p>The deltas are written here, from docs/bucket-format.md, not with the worker's
 * {@code DeltaWriter}: named {@code Incr-<start>-<last>-<unix seconds><suffix>} (revisions padded
 * to 8 digits), the JSON array of {@code {"etcdEvent":{"type":1,"kv":{...}},"time":"<RFC 3339>"}}
 * ({@code type} omitted for a PUT; {@code kv} fields {@code key}, {@code create_revision},
 * {@code mod_revision}, {@code version}, {@code value}, {@code lease} in this order, zero ones
 * omitted, bytes in base64; a DELETE's kv has the key and its revision), then the raw SHA-256 of
 * that JSON, then compressed. So a worker that misreads the format cannot agree with itself.
 */
public final class GeneratedBucket {
    private static final long BASE_REVISION = 601;
    // the trailer follows the JSON: closing the generator must not close the stream
    private static final JsonFactory JSON =
            JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    /** The codecs the generator writes, with the name suffix etcd-backup-restore gives them. */
    public enum Compression {
        NONE(""),
        GZIP(".gz");

        private final String suffix;

        Compression(String suffix) {
            this.suffix = suffix;
        }

        OutputStream compress(OutputStream out) throws IOException {
            return this == GZIP ? new GZIPOutputStream(out) : out;
        }
    }

    /** One change as the backup sidecar records it from etcd's watch. */
    private record Event(
            boolean delete,
            byte[] key,
            byte[] value,
            long createRevision,
            long modRevision,
            long version,
            long lease,
            OffsetDateTime time) {}

    private final Path root;
    private final Compression compression;
    private final Random random;
    private final Map<String, long[]> live = new HashMap<>();
    private long revision = BASE_REVISION;
    // in the past (2023), as real deltas are when a compaction names its snapshot after "now"
    private long time = 1_700_000_000L;
    private final List<Event> pending = new ArrayList<>();

    private GeneratedBucket(Path root, Compression compression, long seed) {
        this.root = root;
        this.compression = compression;
        this.random = new Random(seed);
    }

    /** A bucket at {@code dir/v2} holding the fixture's full snapshot. */
    public static GeneratedBucket create(Path dir, Compression compression, long seed) {
        try {
            Files.createDirectories(dir.resolve("v2"));
            Files.copy(
                    EtcdTestEnvironment.fullSnapshot(),
                    dir.resolve("v2/Full-00000000-00000601-1795986606"),
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new GeneratedBucket(dir, compression, seed);
    }

    /**
     * Lets the builder update and delete keys of the base too: the 350 seed keys that are still
     * live at the fixture's end were written once (create = mod revision, version 1, no lease)
     * and are in the base exactly so.
     */
    public GeneratedBucket withSeedKeys() {
        for (ExpectedState.Key k : ExpectedState.keys()) {
            if (k.createRevision() <= BASE_REVISION) {
                String key = new String(Base64.getDecoder().decode(k.key()), StandardCharsets.UTF_8);
                live.put(key, new long[] {k.createRevision(), 1});
            }
        }
        return this;
    }

    public Path root() {
        return root;
    }

    public long revision() {
        return revision;
    }

    /** One revision: a put of {@code key} (create or update) with a random value of {@code size} bytes. */
    public GeneratedBucket put(String key, int size) {
        revision++;
        long[] meta = live.computeIfAbsent(key, k -> new long[] {revision, 0});
        meta[1]++;
        byte[] value = new byte[size];
        random.nextBytes(value);
        pending.add(
                new Event(false, key.getBytes(StandardCharsets.UTF_8), value, meta[0], revision, meta[1], 0, now()));
        return this;
    }

    /** One revision: a put of {@code key} (create or update) with exactly {@code value}. */
    public GeneratedBucket put(String key, byte[] value) {
        revision++;
        long[] meta = live.computeIfAbsent(key, k -> new long[] {revision, 0});
        meta[1]++;
        pending.add(new Event(
                false, key.getBytes(StandardCharsets.UTF_8), value.clone(), meta[0], revision, meta[1], 0, now()));
        return this;
    }

    /** One revision: a put with a lease id (the base has no leases: the restore must grant or keep it). */
    public GeneratedBucket putWithLease(String key, int size, long lease) {
        revision++;
        pending.add(putEvent(key, size, lease));
        return this;
    }

    /**
     * One revision with several changes, in order: {@code puts} (create or update, values of
     * random sizes up to {@code maxSize}, 0 allowed) then {@code deletes} of live keys. Keys
     * must be distinct, as in a real transaction.
     */
    public GeneratedBucket transaction(List<String> puts, List<String> deletes, int maxSize) {
        revision++;
        for (String key : puts) {
            pending.add(putEvent(key, random.nextInt(maxSize + 1), 0));
        }
        for (String key : deletes) {
            if (live.remove(key) == null) {
                throw new IllegalArgumentException("not live: " + key);
            }
            pending.add(deleteEvent(key));
        }
        return this;
    }

    /** Keys created by this builder that are live now, in no particular order. */
    public List<String> liveKeys() {
        return new ArrayList<>(live.keySet());
    }

    private Event putEvent(String key, int size, long lease) {
        long[] meta = live.computeIfAbsent(key, k -> new long[] {revision, 0});
        meta[1]++;
        byte[] value = new byte[size];
        random.nextBytes(value);
        return new Event(false, key.getBytes(StandardCharsets.UTF_8), value, meta[0], revision, meta[1], lease, now());
    }

    private Event deleteEvent(String key) {
        return new Event(true, key.getBytes(StandardCharsets.UTF_8), new byte[0], 0, revision, 0, 0, now());
    }

    /** One revision: a delete of a live key. */
    public GeneratedBucket delete(String key) {
        if (live.remove(key) == null) {
            throw new IllegalArgumentException("not live: " + key);
        }
        revision++;
        pending.add(deleteEvent(key));
        return this;
    }

    /** {@code updates} rounds of puts over {@code keys} hot keys: a lot of history for few live keys. */
    public GeneratedBucket hotKeys(int keys, int updates, int valueSize) {
        for (int round = 0; round < updates; round++) {
            for (int k = 0; k < keys; k++) {
                put("/registry/configmaps/hot/cm-" + k, valueSize);
            }
        }
        return this;
    }

    /** Writes the events so far as one delta object and returns its key. */
    public String cutDelta() {
        if (pending.isEmpty()) {
            throw new IllegalStateException("no events since the last delta");
        }
        String name = String.format(
                "Incr-%08d-%08d-%d%s", pending.get(0).modRevision(), revision, time++, compression.suffix);
        try (OutputStream out =
                compression.compress(Files.newOutputStream(root.resolve("v2").resolve(name)))) {
            writeDelta(pending, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pending.clear();
        return "v2/" + name;
    }

    /** The JSON array of the events, then the SHA-256 of those JSON bytes. */
    private static void writeDelta(List<Event> events, OutputStream out) throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        try (JsonGenerator json = JSON.createGenerator(new DigestOutputStream(out, sha256), JsonEncoding.UTF8)) {
            json.writeStartArray();
            for (Event e : events) {
                json.writeStartObject();
                json.writeObjectFieldStart("etcdEvent");
                if (e.delete()) {
                    json.writeNumberField("type", 1);
                }
                json.writeObjectFieldStart("kv");
                json.writeFieldName("key");
                json.writeBinary(e.key());
                numberUnlessZero(json, "create_revision", e.createRevision());
                numberUnlessZero(json, "mod_revision", e.modRevision());
                numberUnlessZero(json, "version", e.version());
                if (e.value().length > 0) {
                    json.writeFieldName("value");
                    json.writeBinary(e.value());
                }
                numberUnlessZero(json, "lease", e.lease());
                json.writeEndObject();
                json.writeEndObject();
                // RFC 3339 as Go writes it: nanoseconds without trailing zeros, Z for UTC
                json.writeStringField("time", DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(e.time()));
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        out.write(sha256.digest());
    }

    private static void numberUnlessZero(JsonGenerator json, String field, long value) throws IOException {
        if (value != 0) {
            json.writeNumberField(field, value);
        }
    }

    /** Live keys created by this builder (the 600 seed keys of the base are not counted). */
    public int liveGeneratedKeys() {
        return live.size();
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(Instant.ofEpochSecond(time, random.nextInt(1_000_000_000)), ZoneOffset.UTC);
    }
}
