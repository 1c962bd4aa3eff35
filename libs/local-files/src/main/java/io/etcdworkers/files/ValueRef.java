package io.etcdworkers.files;

import java.io.IOException;

/**
 * Where a value waits in a {@link ValueFile}: what the offline fold keeps of a value instead of
 * its bytes.
 */
public record ValueRef(ValueFile file, long offset, int length) {

    public byte[] read() throws IOException {
        return file.read(offset, length);
    }
}
