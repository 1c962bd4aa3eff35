package io.etcdworkers.restore.verify;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RangeResponse;
import io.etcdworkers.restore.etcd.EtcdGrpcClient;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A digest of every live key at one revision, defined so two etcds can be compared whatever
 * their history (the definition of {@code ../shared/fixtures/*&#47;expected/state.json}):
 * keys in ascending byte order; {@code kv} = SHA-256 over {@code u64(len(key)) key
 * u64(len(value)) value}; {@code meta} appends {@code u64(create) u64(mod) u64(version)
 * u64(lease)}; {@code metaNoLease} writes every lease as 0; {@code u64} is 8 bytes big-endian.
 *
 * @param revision the revision read
 * @param keys live keys
 * @param leasedKeys keys with a lease
 * @param kvSha256 hex digest of keys and values
 * @param metaSha256 hex digest with revisions, versions and leases
 * @param metaNoLeaseSha256 the same with leases as 0
 */
public record KeyspaceDigest(
        long revision, long keys, long leasedKeys, String kvSha256, String metaSha256, String metaNoLeaseSha256) {

    private static final int PAGE = 500;
    // No explicit sort: etcd returns a range in key order already, and asking it to sort makes it
    // read the WHOLE remaining range for every page before cutting it to the limit (quadratic).

    /** Reads the whole keyspace at {@code revision}, a page at a time. */
    public static KeyspaceDigest of(EtcdGrpcClient client, long revision) {
        MessageDigest kv = sha256();
        MessageDigest meta = sha256();
        MessageDigest metaNoLease = sha256();
        ByteBuffer u64 = ByteBuffer.allocate(8);
        long keys = 0;
        long leased = 0;
        ByteString from = ByteString.copyFrom(new byte[] {0});
        ByteString toEnd = ByteString.copyFrom(new byte[] {0});
        while (true) {
            RangeResponse page = client.range(RangeRequest.newBuilder().setKey(from).setRangeEnd(toEnd)
                    .setRevision(revision).setLimit(PAGE).build());
            for (KeyValue k : page.getKvsList()) {
                for (MessageDigest d : new MessageDigest[] {kv, meta, metaNoLease}) {
                    put(d, u64, k.getKey().size());
                    k.getKey().asReadOnlyByteBufferList().forEach(d::update);
                    put(d, u64, k.getValue().size());
                    k.getValue().asReadOnlyByteBufferList().forEach(d::update);
                }
                for (MessageDigest d : new MessageDigest[] {meta, metaNoLease}) {
                    put(d, u64, k.getCreateRevision());
                    put(d, u64, k.getModRevision());
                    put(d, u64, k.getVersion());
                }
                put(meta, u64, k.getLease());
                put(metaNoLease, u64, 0);
                keys++;
                if (k.getLease() != 0) {
                    leased++;
                }
            }
            if (!page.getMore() || page.getKvsCount() == 0) {
                break;
            }
            from = page.getKvs(page.getKvsCount() - 1).getKey().concat(ByteString.copyFrom(new byte[] {0}));
        }
        HexFormat hex = HexFormat.of();
        return new KeyspaceDigest(revision, keys, leased, hex.formatHex(kv.digest()), hex.formatHex(meta.digest()),
                hex.formatHex(metaNoLease.digest()));
    }

    private static void put(MessageDigest digest, ByteBuffer u64, long value) {
        u64.clear();
        u64.putLong(value);
        digest.update(u64.array());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
