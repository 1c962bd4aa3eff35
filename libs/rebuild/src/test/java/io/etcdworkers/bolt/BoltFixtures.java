package io.etcdworkers.bolt;

import io.etcd.jetcd.api.KeyValue;
import io.etcdworkers.format.FullSnapshotReader;
import io.etcdworkers.format.codec.Compression;
import io.etcdworkers.testsupport.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The fixtures' full snapshots as plain bbolt files, and etcd's view of their key bucket. */
final class BoltFixtures {
    /** The buckets an etcd 3.4 database always has. */
    static final List<String> ETCD_BUCKETS = List.of(
            "alarm", "auth", "authRoles", "authUsers", "cluster", "key", "lease", "members", "members_removed", "meta");

    private BoltFixtures() {}

    /** Every {@code Full-*} object of every fixture bucket, e.g. {@code gzip/Full-...gz}. */
    static List<Path> fullSnapshots() {
        List<Path> all = new ArrayList<>();
        for (String bucket : Fixtures.BUCKETS) {
            try (Stream<Path> files = Files.list(Fixtures.bucket(bucket).resolve("v2"))) {
                files.filter(f -> f.getFileName().toString().startsWith("Full-"))
                        .sorted()
                        .forEach(all::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (all.isEmpty()) {
            throw new IllegalStateException("no Full-* fixtures");
        }
        return all;
    }

    /** A readable name: {@code bucket/object}. */
    static String label(Path full) {
        return full.getParent().getParent().getFileName() + "/" + full.getFileName();
    }

    /** Decompresses (and hash-checks) a full snapshot into {@code dir}; the file keeps its trailer. */
    static Path decompress(Path full, Path dir) throws IOException {
        String name = full.getFileName().toString();
        Compression codec = Compression.NONE;
        for (Compression c : Compression.values()) {
            if (!c.suffix().isEmpty() && name.endsWith(c.suffix())) {
                codec = c;
            }
        }
        Path out = dir.resolve(full.getParent().getParent().getFileName() + "-" + name + ".db");
        try (InputStream in = codec.decompress(Files.newInputStream(full));
                OutputStream o = Files.newOutputStream(out)) {
            FullSnapshotReader.copy(name, in, o, false);
        }
        return out;
    }

    /** The revision a snapshot name ends at: {@code Full-00000000-00000601-...} gives 601. */
    static long lastRevision(Path full) {
        return Long.parseLong(full.getFileName().toString().split("-")[2]);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The etcd key bucket read through {@link BoltReader}: every revision and the live keys at the end. */
    record KeyBucket(List<Long> mainRevisions, Map<byte[], KeyValue> live) {
        static KeyBucket read(BoltReader reader) throws IOException {
            List<Long> mains = new ArrayList<>();
            Map<byte[], KeyValue> live = new TreeMap<>(Arrays::compareUnsigned);
            reader.forEach(bytes("key"), (key, value, isBucket) -> {
                if (isBucket || (key.length != 17 && key.length != 18) || key[8] != '_') {
                    throw new AssertionError(
                            "not an etcd revision key: " + HexFormat.of().formatHex(key));
                }
                long main = ByteBuffer.wrap(key).getLong(0);
                mains.add(main);
                KeyValue kv = KeyValue.parseFrom(value);
                if (kv.getModRevision() != main) {
                    throw new AssertionError("revision " + main + " holds mod_revision " + kv.getModRevision());
                }
                if (key.length == 18) {
                    if (key[17] != 't') {
                        throw new AssertionError("bad revision mark " + key[17]);
                    }
                    live.remove(kv.getKey().toByteArray());
                } else {
                    live.put(kv.getKey().toByteArray(), kv);
                }
            });
            return new KeyBucket(mains, live);
        }

        /** {@code meta_sha256} as the fixture's {@code expected/state.json} defines it. */
        String metaSha256() throws Exception {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            ByteBuffer u64 = ByteBuffer.allocate(8);
            for (KeyValue kv : live.values()) {
                for (long n : new long[] {kv.getKey().size()}) {
                    d.update(u64.clear().putLong(n).array());
                }
                d.update(kv.getKey().toByteArray());
                d.update(u64.clear().putLong(kv.getValue().size()).array());
                d.update(kv.getValue().toByteArray());
                for (long n :
                        new long[] {kv.getCreateRevision(), kv.getModRevision(), kv.getVersion(), kv.getLease()}) {
                    d.update(u64.clear().putLong(n).array());
                }
            }
            return HexFormat.of().formatHex(d.digest());
        }
    }
}
