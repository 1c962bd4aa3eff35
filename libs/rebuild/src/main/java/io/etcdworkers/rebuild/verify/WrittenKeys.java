package io.etcdworkers.rebuild.verify;

import io.etcd.jetcd.api.KeyValue;
import io.etcdworkers.bolt.BoltFormatException;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.etcd.schema.Bucket;
import io.etcdworkers.etcd.schema.Revision;
import java.io.IOException;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * What a database file's {@code key} bucket holds, read back from the file with this project's
 * own reader (not the writer that produced it):
 *
 * <ul>
 *   <li>{@code hashKv}: the CRC-32C etcd's {@code Maintenance.HashKV} computes over the same
 *       bucket (the bucket's name, then every revision key and its value in bucket order), so
 *       etcd's answer shows it opened exactly these bytes;
 *   <li>{@code sum}: every entry decoded as the {@code mvccpb.KeyValue} etcd serves, as a
 *       {@link KeySum}, so it can be compared with the keyspace the fold computed.
 * </ul>
 *
 * The bucket must hold one live entry per key, at its mod revision (what a compacted database
 * holds): a tombstone or a revision key that is not the value's mod revision is refused.
 *
 * @param hashKv the unsigned CRC-32C, as etcd reports it
 * @param sum the entries' fingerprint
 * @param entries entries in the bucket
 */
public record WrittenKeys(int hashKv, KeySum sum, long entries) {
    public static WrittenKeys read(Path database) throws IOException {
        CRC32C crc = new CRC32C();
        crc.update(Bucket.KEY.bytes());
        KeyHasher hasher = new KeyHasher();
        KeySum sum = new KeySum();
        long[] entries = {0};
        try (BoltReader db = BoltReader.open(database)) {
            db.forEach(Bucket.KEY.bytes(), (k, v, isBucket) -> {
                if (isBucket || k.length != Revision.BYTES) {
                    throw new BoltFormatException("the key bucket holds an entry that is no live revision (" + k.length
                            + " byte key" + (isBucket ? ", a bucket" : "") + ")");
                }
                crc.update(k);
                crc.update(v);
                KeyValue kv = KeyValue.parseFrom(v);
                long main = Revision.fromBytes(k).main();
                if (main != kv.getModRevision()) {
                    throw new BoltFormatException(
                            "revision key " + main + " holds a value of mod revision " + kv.getModRevision());
                }
                hasher.addTo(
                        sum,
                        kv.getKey(),
                        kv.getValue(),
                        kv.getCreateRevision(),
                        kv.getModRevision(),
                        kv.getVersion(),
                        kv.getLease());
                entries[0]++;
            });
        }
        return new WrittenKeys((int) crc.getValue(), sum, entries[0]);
    }

    /** {@link #hashKv()} as etcd prints it (an unsigned 32-bit number). */
    public long hashKvUnsigned() {
        return Integer.toUnsignedLong(hashKv);
    }
}
