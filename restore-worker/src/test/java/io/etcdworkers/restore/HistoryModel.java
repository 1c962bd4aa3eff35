package io.etcdworkers.restore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.files.FileTree;
import io.etcdworkers.testsupport.EtcdInstall;
import io.etcdworkers.testsupport.EtcdTestEnvironment;
import io.etcdworkers.testsupport.ExpectedState;
import io.etcdworkers.testsupport.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The keyspace of a fixture bucket at any revision, computed without the worker's code, as an
 * independent model to check point-in-time restores against: a full snapshot's keyspace is what
 * a real etcd serves after {@code etcdctl snapshot restore} of it, and the deltas' events are
 * read with a plain JSON parser and applied to a sorted map, as etcd's MVCC rules say.
 *
 * <p>Only plain and gzip objects are read (the fixtures' {@code plain} and {@code gzip} buckets).
 */
public final class HistoryModel {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One event of a delta, as its JSON says. */
    record Event(
            boolean delete, byte[] key, byte[] value, long create, long mod, long version, long lease, Instant time) {}

    private record Full(Path file, long nameRevision) {}

    private final List<Full> fulls = new ArrayList<>();
    private final List<Event> events = new ArrayList<>();
    private final Map<Long, Base> bases = new HashMap<>();

    private record Base(long revision, List<ExpectedState.Key> keys) {}

    private static final Map<String, HistoryModel> CACHE = new HashMap<>();

    private HistoryModel() {}

    /** The model of one fixture bucket, read once per test JVM. */
    public static synchronized HistoryModel of(String fixture, String bucket) {
        return CACHE.computeIfAbsent(
                fixture + "/" + bucket, k -> of(Fixtures.bucket(fixture, bucket).resolve("v2")));
    }

    /** Reads every delta of {@code v2} (a fixture bucket's {@code v2/} dir); bases are served when first needed. */
    static HistoryModel of(Path v2) {
        HistoryModel model = new HistoryModel();
        try (Stream<Path> files = Files.list(v2)) {
            Map<String, Event> unique = new LinkedHashMap<>();
            for (Path file : files.sorted().toList()) {
                String[] parts = file.getFileName().toString().split("-");
                if (parts[0].equals("Full")) {
                    model.fulls.add(new Full(file, Long.parseLong(parts[2])));
                } else if (parts[0].equals("Incr")) {
                    // two chains may hold the same revision: each is the source's, keep it once
                    for (Event e : readDelta(file)) {
                        unique.putIfAbsent(e.mod() + "/" + Base64.getEncoder().encodeToString(e.key()), e);
                    }
                }
            }
            model.events.addAll(unique.values());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        model.events.sort((a, b) -> Long.compare(a.mod(), b.mod()));
        return model;
    }

    /** The keyspace right after {@code revision}, from the latest full snapshot named at or before it. */
    public List<ExpectedState.Key> at(long revision) {
        Full full = fulls.stream()
                .filter(f -> f.nameRevision() <= revision)
                .reduce((a, b) -> b.nameRevision() >= a.nameRevision() ? b : a)
                .orElseThrow();
        Base base = bases.computeIfAbsent(full.nameRevision(), r -> serve(full));
        TreeMap<byte[], ExpectedState.Key> live = new TreeMap<>(Arrays::compareUnsigned);
        Base64.Decoder b64 = Base64.getDecoder();
        for (ExpectedState.Key k : base.keys()) {
            live.put(b64.decode(k.key()), k);
        }
        Base64.Encoder enc = Base64.getEncoder();
        for (Event e : events) {
            if (e.mod() <= base.revision()) {
                continue;
            }
            if (e.mod() > revision) {
                break;
            }
            if (e.delete()) {
                live.remove(e.key());
            } else {
                live.put(
                        e.key(),
                        new ExpectedState.Key(
                                enc.encodeToString(e.key()),
                                enc.encodeToString(e.value()),
                                e.create(),
                                e.mod(),
                                e.version(),
                                e.lease()));
            }
        }
        return List.copyOf(live.values());
    }

    /** Every event after the oldest full snapshot, in revision order. */
    List<Event> events() {
        return events;
    }

    /**
     * The revision a restore to {@code time} must reach: the one before the first revision
     * received after {@code time}, or the last one.
     */
    long revisionAt(Instant time) {
        for (Event e : events) {
            if (e.time().isAfter(time)) {
                return e.mod() - 1;
            }
        }
        return events.get(events.size() - 1).mod();
    }

    private Base serve(Full full) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("history-model-");
            Path db = dir.resolve("base.db");
            try (InputStream in = open(full.file())) {
                Files.copy(in, db);
            }
            EtcdInstall etcd = EtcdTestEnvironment.onPath();
            Path dataDir = dir.resolve("base.etcd");
            etcd.run(etcd.snapshotTool(), "snapshot", "restore", db.toString(), "--data-dir", dataDir.toString());
            ExpectedState.Served served = ExpectedState.serve(dataDir, dir.resolve("scratch"));
            return new Base(served.revision(), served.keys());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                try {
                    FileTree.delete(dir);
                } catch (IOException e) {
                    // a temp dir of the test JVM: left for the OS
                }
            }
        }
    }

    private static List<Event> readDelta(Path file) throws IOException {
        byte[] bytes;
        try (InputStream in = open(file)) {
            bytes = in.readAllBytes();
        }
        // the JSON array, then its raw 32-byte SHA-256
        JsonNode array = JSON.readTree(Arrays.copyOf(bytes, bytes.length - 32));
        List<Event> out = new ArrayList<>();
        Base64.Decoder b64 = Base64.getDecoder();
        for (JsonNode n : array) {
            JsonNode kv = n.get("etcdEvent").get("kv");
            boolean delete = n.get("etcdEvent").path("type").asInt(0) == 1;
            out.add(new Event(
                    delete,
                    b64.decode(kv.get("key").asText()),
                    b64.decode(kv.path("value").asText("")),
                    kv.path("create_revision").asLong(0),
                    kv.get("mod_revision").asLong(),
                    kv.path("version").asLong(0),
                    kv.path("lease").asLong(0),
                    OffsetDateTime.parse(n.get("time").asText()).toInstant()));
        }
        return out;
    }

    private static InputStream open(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        return file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(in) : in;
    }
}
