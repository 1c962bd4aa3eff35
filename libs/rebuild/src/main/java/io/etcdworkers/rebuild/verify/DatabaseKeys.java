package io.etcdworkers.rebuild.verify;

import com.google.protobuf.CodedInputStream;
import io.etcdworkers.bolt.BoltReader;
import io.etcdworkers.etcd.schema.Bucket;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys of an etcd database file's {@code key} bucket, offered to a {@link KeySample}: what
 * the replay learns of the base's keyspace before etcd takes the file over. Best effort: it only
 * shapes the verification's ranges, so a file it cannot read (the case the replay is the fallback
 * for) leaves the sample to the deltas' keys, with a warning that reading back may be slower.
 */
public final class DatabaseKeys {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseKeys.class);
    /** {@code mvccpb.KeyValue.key}: field 1, length-delimited. */
    private static final int KEY_TAG = (1 << 3) | 2;

    private DatabaseKeys() {}

    /** @return whether every entry was read */
    public static boolean sample(Path database, KeySample sample) {
        try (BoltReader db = BoltReader.open(database)) {
            if (!db.hasBucket(Bucket.KEY.bytes())) {
                LOG.warn("no key bucket in {}: the verification's ranges come from the deltas' keys alone", database);
                return false;
            }
            db.forEach(Bucket.KEY.bytes(), (k, v, isBucket) -> {
                if (!isBucket) {
                    sample.offer(key(v));
                }
            });
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "cannot read the keys of {} ({}): the verification's ranges come from the deltas' keys alone, "
                            + "and reading a large keyspace back may take longer",
                    database,
                    e.getMessage());
            return false;
        }
    }

    /** The key of a serialized {@code mvccpb.KeyValue}, without parsing the rest (the value). */
    static byte[] key(byte[] keyValue) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(keyValue);
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                return new byte[0];
            }
            if (tag == KEY_TAG) {
                return in.readByteArray();
            }
            in.skipField(tag);
        }
    }
}
