package io.etcdworkers.rebuild.offline;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One key's state as the fold's scratch files hold it (the partitions' changes and the sorted
 * runs): key and value with their lengths, then create, mod and sub revision, version and lease.
 */
final class KeyRecord {
    /** Bytes a record takes besides its key and value. */
    static final int FIXED_BYTES = 4 + 4 + 8 + 8 + 4 + 8 + 8;

    private KeyRecord() {}

    static void write(
            DataOutputStream out, byte[] key, byte[] value, long create, long mod, int sub, long version, long lease)
            throws IOException {
        out.writeInt(key.length);
        out.write(key);
        out.writeInt(value.length);
        out.write(value);
        out.writeLong(create);
        out.writeLong(mod);
        out.writeInt(sub);
        out.writeLong(version);
        out.writeLong(lease);
    }

    /**
     * @return the next record, or null when {@code in} ends before it starts
     * @throws IOException when it ends inside a record: the file was not written completely
     */
    static FoldedKey read(DataInputStream in, Path file) throws IOException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        try {
            int keyLength = (first << 24)
                    | (in.readUnsignedByte() << 16)
                    | (in.readUnsignedByte() << 8)
                    | in.readUnsignedByte();
            byte[] key = new byte[keyLength];
            in.readFully(key);
            byte[] value = new byte[in.readInt()];
            in.readFully(value);
            long create = in.readLong();
            long mod = in.readLong();
            int sub = in.readInt();
            long version = in.readLong();
            long lease = in.readLong();
            return new FoldedKey(key, value, create, mod, sub, version, lease);
        } catch (EOFException e) {
            throw new IOException(file + " ends inside a key's record: it was not written completely", e);
        }
    }
}
